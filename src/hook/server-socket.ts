/**
 * Where the hook server listens, and what it and its client say to each other (docs/hosts.md,
 * "The hook server"). The server is a per-user process that keeps the hook's code loaded and
 * compiled, so a prompt costs a Node start, the small client and one round trip instead of loading
 * and warming the router (bench/results/hook.md). Its socket lives in `<hook state dir>/server/` (mode 0700, owned by the
 * user): only the user can reach it, and the client refuses a folder anyone else could write.
 * The socket's name carries the build of skilldex that serves it, so an upgraded skilldex never
 * asks an older server.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { xdgBaseDir } from '../fsx/index.js';

/** The protocol's version: the first field of every request and answer. */
export const HOOK_SERVER_PROTOCOL = 1;

/**
 * Node's flags for a hook server process (before bin/skilldex.js on its command line):
 * `--expose-gc` lets it collect its young garbage between prompts, when no one waits, rather than
 * in the middle of a prompt's search (hook-server.ts).
 */
export const HOOK_SERVER_NODE_FLAGS: readonly string[] = ['--expose-gc'];

/** Longest socket path used: a Unix socket's path is at most 107 bytes on Linux, 103 on macOS. */
export const MAX_SOCKET_PATH_BYTES = 100;

/** Largest request a server reads (the hook input's 1 MiB, JSON-escaped, with the environment). */
export const MAX_SERVER_REQUEST_BYTES = 8 * 1024 * 1024;

/** Where the hook keeps its state and log: `$XDG_STATE_HOME/skilldex/hook`, else `~/.local/state/…`. */
export function hookStateDir(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  return path.join(xdgBaseDir('XDG_STATE_HOME', env, home), 'skilldex', 'hook');
}

/** The folder of the hook server's sockets under the hook's state folder (hookStateDir). */
export function hookServerDir(stateDir: string): string {
  return path.join(stateDir, 'server');
}

/**
 * The socket of the server of build `build` under `stateDir`, or undefined when there is none to
 * use: its path would be too long for a Unix socket, or the system has no Unix sockets in folders
 * (Windows, whose named pipes have no folder to keep private). The hook then answers in its own
 * process.
 */
export function hookServerSocket(
  stateDir: string,
  build: string,
  platform: NodeJS.Platform = process.platform,
): string | undefined {
  if (platform === 'win32') return undefined;
  const file = path.join(hookServerDir(stateDir), `${build}.sock`);
  return Buffer.byteLength(file) <= MAX_SOCKET_PATH_BYTES ? file : undefined;
}

/**
 * Whether `dir` is a folder only this user can reach: a real folder (not a link), owned by this
 * user, with no permission for group or others. A socket in any other folder could be someone
 * else's, and its answers would go into the person's prompt.
 */
export function isPrivateDir(dir: string): boolean {
  try {
    const st = lstatSync(dir);
    return (
      st.isDirectory() &&
      (process.getuid === undefined || st.uid === process.getuid()) &&
      (st.mode & 0o077) === 0
    );
  } catch {
    return false;
  }
}

/** A request: one hook run as the client's process would have made it. */
export interface HookServerRequest {
  readonly v: typeof HOOK_SERVER_PROTOCOL;
  /** The command line after `skilldex` (`hook <host> …`). */
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** What the host wrote on standard input. */
  readonly stdin: string;
  /** Milliseconds the client had spent when it sent the request (counted against the deadline). */
  readonly elapsed_ms: number;
}

/** An answer: what the run printed and its exit code. */
export interface HookServerAnswer {
  readonly v: typeof HOOK_SERVER_PROTOCOL;
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

const isStringRecord = (v: unknown): v is Record<string, string> =>
  v !== null &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.values(v as object).every((x) => typeof x === 'string');

/** `value` as a request, or undefined when it is not one. */
export function asHookServerRequest(value: unknown): HookServerRequest | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  if (r['v'] !== HOOK_SERVER_PROTOCOL) return undefined;
  const argv = r['argv'];
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return undefined;
  if (!isStringRecord(r['env'])) return undefined;
  if (typeof r['cwd'] !== 'string' || !path.isAbsolute(r['cwd'])) return undefined;
  if (typeof r['stdin'] !== 'string') return undefined;
  const elapsed = r['elapsed_ms'];
  if (typeof elapsed !== 'number' || !Number.isFinite(elapsed) || elapsed < 0) return undefined;
  return value as HookServerRequest;
}

/** `value` as an answer, or undefined when it is not one. */
export function asHookServerAnswer(value: unknown): HookServerAnswer | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const r = value as Record<string, unknown>;
  if (r['v'] !== HOOK_SERVER_PROTOCOL) return undefined;
  const code = r['code'];
  if (typeof code !== 'number' || !Number.isInteger(code) || code < 0 || code > 255)
    return undefined;
  if (typeof r['stdout'] !== 'string' || typeof r['stderr'] !== 'string') return undefined;
  return value as HookServerAnswer;
}
