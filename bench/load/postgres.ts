/**
 * PostgreSQL for the load test (issue #16): a throwaway cluster (test/support/pg-cluster.ts: initdb
 * into a temporary folder, trust authentication on a loopback port) holding one empty database for
 * the catalog; a restart that does not block the event loop (`pg_ctl restart -m fast`, run
 * asynchronously, so the clients keep calling while the database is down); the CPU time of every
 * process of the cluster; and a sampler of what the cluster's active sessions wait on, the sign of
 * servers sharing a bottleneck (a `Lock` wait is a session blocked by another's lock).
 *
 * It never touches a cluster it did not start; `stop()` removes the cluster's folder.
 */
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PgDb } from '../../src/catalog/store/pg.js';
import {
  findPgBin,
  startCluster,
  stopCluster,
  type Cluster,
} from '../../test/support/pg-cluster.js';
import { procStatFields, ticksToMs } from './cluster.js';

/** A running throwaway cluster and the catalog location in it. */
export interface LoadCluster {
  readonly cluster: Cluster;
  /** `postgres://skilldex@127.0.0.1:PORT/NAME`: an empty database for one catalog. */
  readonly url: string;
  /** Restarts the server (fast shutdown, then start); resolves once it accepts connections. */
  restart(): Promise<void>;
  /** CPU time (user + system) every process of the cluster has used so far, in ms. */
  cpuMs(): number | undefined;
  /** Stops the server and removes the cluster's folder. */
  stop(): void;
}

/** How long pg_ctl may take to stop or start the server, in s (two busy cores). */
const PG_CTL_WAIT_S = 60;

/**
 * Starts a cluster with an empty database `name` in it; undefined when PostgreSQL's server
 * binaries are not installed.
 */
export async function startLoadCluster(name = 'load'): Promise<LoadCluster | undefined> {
  const bin = findPgBin();
  if (!bin) return undefined;
  const cluster = await startCluster(bin);
  let stopped = false;
  try {
    const admin = new PgDb(cluster.adminUrl);
    try {
      admin.exec(`CREATE DATABASE ${name}`);
    } finally {
      admin.close();
    }
  } catch (err) {
    stopCluster(cluster);
    throw err;
  }
  const url = new URL(cluster.adminUrl);
  url.pathname = `/${name}`;
  return {
    cluster,
    url: url.toString(),
    restart: () => restartCluster(cluster),
    cpuMs: () => clusterCpuMs(cluster),
    stop: () => {
      if (stopped) return;
      stopped = true;
      stopCluster(cluster);
    },
  };
}

/**
 * `pg_ctl restart -m fast -w` on the cluster, without blocking the event loop: sessions are cut,
 * nothing committed is lost, and the promise resolves once the server accepts connections again.
 * As root it runs as the `postgres` user, who owns the cluster (PostgreSQL refuses root).
 */
export async function restartCluster(c: Cluster): Promise<void> {
  const pgCtl = path.join(c.bin, 'pg_ctl');
  // -l again: without it the new server would write its log to pg_ctl's pipes and keep them open.
  const args = [
    '-D',
    path.join(c.dir, 'data'),
    '-l',
    path.join(c.dir, 'server.log'),
    '-m',
    'fast',
    '-w',
    '-t',
    String(PG_CTL_WAIT_S),
    'restart',
  ];
  const root = process.getuid?.() === 0;
  await promisify(execFile)(
    root ? 'runuser' : pgCtl,
    root ? ['-u', 'postgres', '--', pgCtl, ...args] : args,
  );
}

/**
 * CPU time (user + system) of the cluster's processes, in ms: the postmaster, its live children
 * (backends, checkpointer, WAL writer…) and, through the postmaster's counters of reaped children,
 * those that already exited. Undefined without /proc or when the server is not running.
 */
export function clusterCpuMs(c: Cluster): number | undefined {
  let postmaster: number;
  try {
    postmaster = Number(
      readFileSync(path.join(c.dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0],
    );
  } catch {
    return undefined;
  }
  const own = statTimes(postmaster);
  if (own === undefined) return undefined;
  let total = own.self + own.children;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const t = statTimes(Number(entry));
    if (t?.ppid === postmaster) total += t.self;
  }
  return total;
}

// ppid, the process's own CPU and its waited-for children's (procStatFields' indices 1, 11–14).
function statTimes(pid: number): { ppid: number; self: number; children: number } | undefined {
  const f = procStatFields(pid);
  if (!f) return undefined;
  return {
    ppid: Number(f[1]),
    self: ticksToMs(Number(f[11]) + Number(f[12])),
    children: ticksToMs(Number(f[13]) + Number(f[14])),
  };
}

/** What the sampled sessions waited on. */
export interface WaitSummary {
  /** Samples taken. */
  readonly samples: number;
  /** Samples that failed (the server restarting). */
  readonly failed: number;
  /** Active sessions seen over all samples (other than the sampler's own). */
  readonly active: number;
  /** Of those, sessions waiting, by `wait_event_type:wait_event` (`Lock:…` is a lock wait). */
  readonly waits: Readonly<Record<string, number>>;
}

/**
 * Samples `pg_stat_activity` of the catalog's database every `everyMs` until `stop()`: how many
 * sessions were active and what those that waited waited on. One short synchronous query per
 * sample on a connection of its own.
 */
export function sampleWaits(url: string, everyMs = 200): { stop(): WaitSummary } {
  let db: PgDb | undefined;
  let samples = 0;
  let failed = 0;
  let active = 0;
  const waits = new Map<string, number>();
  const timer = setInterval(() => {
    samples++;
    try {
      db ??= new PgDb(url);
      const rows = db
        .prepare(
          `SELECT wait_event_type, wait_event FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
        )
        .all() as { wait_event_type: string | null; wait_event: string | null }[];
      active += rows.length;
      for (const r of rows) {
        if (r.wait_event_type === null) continue;
        const key = `${r.wait_event_type}:${r.wait_event ?? ''}`;
        waits.set(key, (waits.get(key) ?? 0) + 1);
      }
    } catch {
      failed++;
      try {
        db?.close();
      } catch {
        // The connection is gone already.
      }
      db = undefined;
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      db?.close();
      const sorted = [...waits].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      return { samples, failed, active, waits: Object.fromEntries(sorted) };
    },
  };
}
