/**
 * A throwaway PostgreSQL cluster for the tests and benchmarks: `initdb` into a fresh temporary
 * folder, `pg_ctl start` on a free loopback port with trust authentication, `stopCluster` at the
 * end (the folder removed). PostgreSQL refuses to run as root, so as root both run as the
 * `postgres` user (`runuser -u postgres --`) in a folder it owns. The binaries are found under
 * /usr/lib/postgresql/<version>/bin, or on PATH.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A running cluster. */
export interface Cluster {
  readonly dir: string;
  readonly port: number;
  readonly bin: string;
  /** `postgres://skilldex@127.0.0.1:PORT/postgres`. */
  readonly adminUrl: string;
}

/** The folder of initdb/pg_ctl, or undefined when PostgreSQL's server binaries are not installed. */
export function findPgBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (existsSync(root)) {
    const versions = readdirSync(root)
      .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return path.join(root, versions[0], 'bin');
  }
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')))
      return dir;
  }
  return undefined;
}

/** A free loopback TCP port. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function asOwner(bin: string, args: string[]): string {
  const root = process.getuid?.() === 0;
  const [cmd, argv] = root ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Creates and starts a cluster; throws with PostgreSQL's own message when it cannot. */
export async function startCluster(bin: string): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'skilldex-pg-'));
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  asOwner(path.join(bin, 'initdb'), [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'skilldex',
    '--no-locale',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  const cluster: Cluster = {
    dir,
    port,
    bin,
    adminUrl: `postgres://skilldex@127.0.0.1:${port}/postgres`,
  };
  startServer(cluster);
  return cluster;
}

/** Starts (or restarts after stopServer) the cluster's server and waits until it accepts connections. */
export function startServer(c: Cluster): void {
  asOwner(path.join(c.bin, 'pg_ctl'), [
    '-D',
    path.join(c.dir, 'data'),
    '-l',
    path.join(c.dir, 'server.log'),
    '-o',
    `-p ${c.port} -k ${c.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`,
    '-w',
    '-t',
    '60',
    'start',
  ]);
}

/** Stops the cluster's server (fast shutdown: sessions are cut, nothing committed is lost). */
export function stopServer(c: Cluster): void {
  asOwner(path.join(c.bin, 'pg_ctl'), ['-D', path.join(c.dir, 'data'), '-m', 'fast', '-w', 'stop']);
}

/** Stops the server and removes the cluster's folder. */
export function stopCluster(c: Cluster): void {
  try {
    stopServer(c);
  } catch {
    // Already stopped.
  }
  rmSync(c.dir, { recursive: true, force: true });
}
