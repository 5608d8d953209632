/**
 * The processes of the load test (issue #16): `skilldex mcp --http 0` servers and one-shot operator
 * commands (`index`, `publish`, `generations`), all run through the built CLI (`bin/skilldex.js`)
 * with `--catalog <location>`, so the harness never opens the catalog itself and a `postgres://…`
 * location works as a file path does. Every child is tracked: `killAll()` (and the process's own
 * exit) SIGKILLs whatever is still running, so a failed run leaves no server behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { maskSecrets } from '../../src/secrets.js';

/** How long a server may take to print its URL, in ms (two busy cores start node slowly). */
export const SERVER_START_TIMEOUT_MS = 60_000;

/** How long one operator command may run, in ms. */
export const COMMAND_TIMEOUT_MS = 300_000;

const children = new Set<ChildProcess>();
let exitHookSet = false;

function track(child: ChildProcess): void {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!exitHookSet) {
    exitHookSet = true;
    // A test that times out or throws still ends its worker: no server outlives it.
    process.once('exit', killAll);
  }
}

/** SIGKILLs every child process this module started that is still running. */
export function killAll(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}

/**
 * The built CLI shim: `bin/skilldex.js` of the first folder at or above this file that has one
 * (bench/load/ in the source tree, dist-bench/bench/load/ when compiled).
 */
export function findBin(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const bin = path.join(dir, 'bin', 'skilldex.js');
    if (existsSync(bin)) return bin;
    const up = path.dirname(dir);
    if (up === dir)
      throw new Error('bin/skilldex.js not found above bench/load: run npm run build');
    dir = up;
  }
}

/** A location with every secret it carries replaced by `***`, by skilldex's one masker. */
export function maskLocation(location: string): string {
  return maskSecrets(location);
}

/** Where and how the CLI runs. */
export interface CliEnv {
  /** The CLI shim (default: findBin()). */
  readonly bin: string;
  /** Working folder and HOME of every child (so no user config is read). */
  readonly cwd: string;
  /** Extra environment (e.g. PGPASSWORD) added to PATH, HOME and the inherited PG* variables. */
  readonly env: Readonly<Record<string, string>>;
}

function childEnv(cli: CliEnv): NodeJS.ProcessEnv {
  const pg = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => k.startsWith('PG') && v !== undefined),
  );
  return { PATH: process.env['PATH'] ?? '', HOME: cli.cwd, ...pg, ...cli.env };
}

/** Output of one CLI run. */
export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `skilldex <args>` asynchronously (the load goes on meanwhile) and resolves with its exit
 * code and output; killed after COMMAND_TIMEOUT_MS.
 */
export function runCommand(cli: CliEnv, args: readonly string[]): Promise<CommandResult> {
  const child = spawn(process.execPath, [cli.bin, ...args], {
    cwd: cli.cwd,
    env: childEnv(cli),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  track(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), COMMAND_TIMEOUT_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `skilldex <args> --json`, requires exit 0 and returns the parsed JSON. */
export async function runJson(cli: CliEnv, args: readonly string[]): Promise<unknown> {
  const r = await runCommand(cli, [...args, '--json']);
  if (r.code !== 0) {
    throw new Error(
      `skilldex ${args.map(maskLocation).join(' ')} exited with ${r.code}: ${r.stdout}${r.stderr}`,
    );
  }
  return JSON.parse(r.stdout) as unknown;
}

/** A running `skilldex mcp --http` server. */
export interface McpServerProcess {
  /** Position in the cluster (0-based). */
  readonly index: number;
  /** http://127.0.0.1:PORT/mcp, as the server printed it. */
  readonly url: string;
  readonly child: ChildProcess;
  /** Everything the server wrote on stderr. */
  stderr(): string;
  /** True until the process exits. */
  alive(): boolean;
  /** `kill -9`: no close, no goodbye; resolves once the process is gone. */
  kill9(): Promise<void>;
  /** SIGTERM (the server closes cleanly); resolves once the process is gone. */
  stop(): Promise<void>;
}

/** Starts `skilldex mcp --http 0 --catalog <catalog> [extra…]` and waits for the URL it prints. */
export async function startServer(
  cli: CliEnv,
  index: number,
  catalog: string,
  extra: readonly string[],
): Promise<McpServerProcess> {
  const child = spawn(
    process.execPath,
    [cli.bin, 'mcp', '--http', '0', '--catalog', catalog, ...extra],
    { cwd: cli.cwd, env: childEnv(cli), stdio: ['ignore', 'ignore', 'pipe'] },
  );
  track(child);
  let err = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server ${index} printed no URL in ${SERVER_START_TIMEOUT_MS} ms: ${err}`));
    }, SERVER_START_TIMEOUT_MS);
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /skilldex mcp: listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server ${index} exited before listening: ${maskLocation(err)}`));
    });
  });
  const alive = (): boolean => child.exitCode === null && child.signalCode === null;
  const signal = async (s: NodeJS.Signals): Promise<void> => {
    if (alive()) child.kill(s);
    await exited;
  };
  return {
    index,
    url,
    child,
    stderr: () => err,
    alive,
    kill9: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}

/** Clock ticks per second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux build in use). */
const CLOCK_TICKS_PER_SECOND = 100;

/** Ticks of /proc/<pid>/stat as ms. */
export function ticksToMs(ticks: number): number {
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}

/**
 * The fields of /proc/<pid>/stat after the command name (which may hold spaces, so they are split
 * after its closing parenthesis): index 0 is field 3 (state), 1 ppid, 11 utime, 12 stime, 13 cutime,
 * 14 cstime. Undefined where there is no /proc (not Linux) or the process is gone.
 */
export function procStatFields(pid: number): string[] | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/**
 * CPU time (user + system) process `pid` has used, in ms, from /proc/<pid>/stat; undefined where
 * there is no /proc (not Linux) or the process is gone. Resolution: 10 ms.
 */
export function cpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const fields = procStatFields(pid);
  if (!fields) return undefined;
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticksToMs(ticks) : undefined;
}

/** Starts `n` servers on `catalog` at once (`--no-telemetry` unless `telemetry`). */
export function startServers(
  cli: CliEnv,
  n: number,
  catalog: string,
  telemetry: boolean,
): Promise<McpServerProcess[]> {
  const extra = telemetry ? [] : ['--no-telemetry'];
  return Promise.all(Array.from({ length: n }, (_, i) => startServer(cli, i, catalog, extra)));
}
