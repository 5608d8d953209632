/**
 * The hook server (docs/hosts.md, "The hook server"): a per-user process that answers the prompt
 * hook warm. The hook's client (hook-client.ts) sends it each run — command line, environment,
 * folder and the host's input — over a Unix socket in the hook's state folder; the server runs it
 * through runFastHook, the code the hook runs in its own process, with that environment and folder,
 * and sends back what to print and the exit code. Nothing is shared between runs but loaded,
 * compiled code: each run opens the catalog, reads the config and the session state as a process
 * of its own would, so the answers are the same (test/cli/hook-server.test.ts holds them equal).
 *
 * Runs are answered one at a time, in order (a run changes the process's folder). The server ends
 * by itself after `idleMs` without a request, when its socket is removed or replaced, when a run's
 * settings say `hook_server = false`, on `skilldex hook-server stop`, and on SIGTERM/SIGINT; it
 * removes its socket when it ends. It only listens in a folder private to the user (made so when it
 * is the user's; UNSAFE_PERMISSIONS otherwise).
 */
import { chmodSync, lstatSync, mkdirSync, statSync, unlinkSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { isPgLocation, telemetryPathFor } from '../catalog/index.js';
import { SkilldexError } from '../errors.js';
import {
  HOOK_SERVER_PROTOCOL,
  MAX_SERVER_REQUEST_BYTES,
  asHookServerRequest,
  type HookRouters,
  type HookServerAnswer,
  type HookServerRequest,
} from '../hook/index.js';
import { Router } from '../router/index.js';
import { BUILD } from '../version.js';
import { parseFastHookArgv, type FastHookArgs } from './hook-argv.js';
import { runFastHook } from './hook-main.js';
import { pingHookServer, type HookServerInfo } from './hook-server-control.js';
import { monotonicMs } from './stdio.js';

// V8's collector, when Node runs with --expose-gc (HOOK_SERVER_NODE_FLAGS).
const collectYoungGarbage = (globalThis as { gc?: (o: { type: 'minor' | 'major' }) => void }).gc;

/** Default time a server waits for a request before it ends (30 minutes). */
export const DEFAULT_HOOK_SERVER_IDLE_MS = 30 * 60 * 1000;
/** A connection that sends no whole request within this long is closed. */
const REQUEST_TIMEOUT_MS = 5000;
/** Most catalogs the server keeps a router open for (the least recently used is closed). */
export const MAX_POOLED_ROUTERS = 4;

/**
 * The server's routers: one kept open per catalog file and settings, so a prompt finds the catalog
 * open, its statements prepared and its caches warm. Before each run the file is checked: a catalog
 * replaced by another file (a new inode) gets a new router, since an open one would go on reading
 * the old file. A new generation in the same file needs nothing: a router reads the published
 * generation on every search, as the MCP server's long-lived router does. PostgreSQL catalogs get a
 * router per run.
 */
export class RouterPool implements HookRouters {
  private readonly open_ = new Map<string, { router: Router; id: string }>();

  open(o: { readonly catalog: string; readonly telemetry: boolean; readonly usage: boolean }): {
    router: Router;
    done: () => void;
  } {
    const fresh = (): { router: Router; done: () => void } => {
      const router = new Router({ ...o, recordSuggestions: false });
      return { router, done: () => router.close() };
    };
    if (isPgLocation(o.catalog)) return fresh();
    // The catalog file and the telemetry file beside it (its usage examples and events): a router
    // holds both open, so either replaced or removed means a new one.
    let id: string;
    try {
      const st = statSync(o.catalog);
      const tel = statSync(telemetryPathFor(o.catalog), { throwIfNoEntry: false });
      id = `${st.dev}:${st.ino}/${tel ? `${tel.dev}:${tel.ino}` : '-'}`;
    } catch {
      // No such file: a new router reports it as a run of its own would (CATALOG_MISSING).
      return fresh();
    }
    const key = JSON.stringify([o.catalog, o.telemetry, o.usage]);
    const kept = this.open_.get(key);
    this.open_.delete(key);
    if (kept !== undefined && kept.id === id) {
      this.open_.set(key, kept);
      return { router: kept.router, done: () => undefined };
    }
    kept?.router.close();
    const router = new Router({ ...o, recordSuggestions: false });
    this.open_.set(key, { router, id });
    for (const [k, v] of this.open_) {
      if (this.open_.size <= MAX_POOLED_ROUTERS) break;
      v.router.close();
      this.open_.delete(k);
    }
    return { router, done: () => undefined };
  }

  /** Closes every router. */
  close(): void {
    for (const v of this.open_.values()) v.router.close();
    this.open_.clear();
  }
}

/** Why a server ended. */
export type HookServerEnd = 'idle' | 'stopped' | 'socket-gone' | 'disabled' | 'signal';

/** A running server. */
export interface HookServerHandle {
  readonly socket: string;
  /** Settles when the server has ended and removed its socket. */
  readonly ended: Promise<{ reason: HookServerEnd; served: number }>;
  stop(reason?: HookServerEnd): void;
}

/** Options of serveHooks. */
export interface HookServerOptions {
  readonly socket: string;
  /** Milliseconds without a request after which the server ends (default 30 minutes). */
  readonly idleMs?: number;
  /** Told of a run that threw (a bug: runFastHook reports every coded failure itself). */
  readonly onError?: (err: unknown) => void;
}

/**
 * Listens on `o.socket` and answers hook runs. Resolves to undefined when a live server already
 * answers on that socket (nothing to do), else to the running server. UNSAFE_PERMISSIONS when the
 * socket's folder is not the user's.
 */
export async function serveHooks(o: HookServerOptions): Promise<HookServerHandle | undefined> {
  const socket = path.resolve(o.socket);
  const idleMs = o.idleMs ?? DEFAULT_HOOK_SERVER_IDLE_MS;
  makePrivateDir(path.dirname(socket));
  const startedAt = new Date();
  let served = 0;
  let last = Date.now();
  let queue: Promise<void> = Promise.resolve();
  const routers = new RouterPool();
  let endWith: (v: { reason: HookServerEnd; served: number }) => void = () => undefined;
  const ended = new Promise<{ reason: HookServerEnd; served: number }>((r) => (endWith = r));

  const failed = o.onError ?? ((): void => undefined);
  const info = (): HookServerInfo => ({
    pid: process.pid,
    build: BUILD,
    socket,
    started_at: startedAt.toISOString(),
    served,
    idle_ms: idleMs,
  });

  // Half-open: a client ends its side once the request is sent, and still reads the answer.
  const server = net.createServer({ allowHalfOpen: true }, (conn) =>
    onRequestLine(conn, (line) => {
      // A run that throws (a bug) loses its answer, not the server: the client then runs it itself.
      queue = queue.then(() =>
        answer(line, conn).catch((err: unknown) => {
          conn.destroy();
          failed(err);
        }),
      );
    }),
  );

  const answer = async (line: string, conn: net.Socket): Promise<void> => {
    if (conn.destroyed) return;
    last = Date.now();
    const asked = parseLine(line);
    // Not a run this server can make: closed without an answer, so the client runs it itself.
    if (asked === undefined) return void conn.destroy();
    if ('op' in asked) {
      conn.end(JSON.stringify({ v: HOOK_SERVER_PROTOCOL, op: asked.op, info: info() }) + '\n');
      if (asked.op === 'stop') stop('stopped');
      return;
    }
    const { reply, keep, after } = await runRequest(asked.req, asked.args, routers);
    served++;
    if (!conn.destroyed) conn.end(JSON.stringify(reply) + '\n');
    // What the run records (telemetry, the session's state) once the answer is on its way (the
    // next turn of the event loop), and before the next run reads it: the queue runs one request
    // at a time.
    await new Promise((resolve) => setImmediate(resolve));
    for (const work of after) work();
    // Then the young garbage of the run, while no one waits: the next prompt starts with an empty
    // young generation instead of collecting it in the middle of its search. Only in a server
    // started with HOOK_SERVER_NODE_FLAGS (--expose-gc); elsewhere V8 collects as it will.
    collectYoungGarbage?.({ type: 'minor' });
    if (!keep) stop('disabled');
  };

  if (!(await listen(server, socket))) return undefined;
  chmodSync(socket, 0o600);
  const ino = statSync(socket).ino;
  let stopped = false;
  const stop = (reason: HookServerEnd = 'stopped'): void => {
    if (stopped) return;
    stopped = true;
    clearInterval(tick);
    server.close();
    try {
      if (statSync(socket).ino === ino) unlinkSync(socket);
    } catch {
      // Already gone.
    }
    void queue.then(() => {
      routers.close();
      endWith({ reason, served });
    });
  };
  const tick = setInterval(
    () => {
      if (Date.now() - last >= idleMs) return stop('idle');
      try {
        if (statSync(socket).ino !== ino) stop('socket-gone');
      } catch {
        stop('socket-gone');
      }
    },
    Math.max(10, Math.min(5000, idleMs)),
  );
  return { socket, ended, stop };
}

// A request line: `ping` or `stop`, a hook run this server can make, or undefined (not JSON, not a
// request, a command line the hook's fast entry does not take).
function parseLine(
  line: string,
): { op: 'ping' | 'stop' } | { req: HookServerRequest; args: FastHookArgs } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  const op = (value as { op?: unknown } | null)?.op;
  if (op === 'ping' || op === 'stop') return { op };
  const req = asHookServerRequest(value);
  const args = req === undefined ? undefined : parseFastHookArgv(req.argv);
  return req === undefined || args === undefined ? undefined : { req, args };
}

// Calls `onLine` once with the first line a connection sends (or all it sent, when it ends without
// one); a connection that sends more than MAX_SERVER_REQUEST_BYTES, or nothing whole within
// REQUEST_TIMEOUT_MS, is closed.
function onRequestLine(conn: net.Socket, onLine: (line: string) => void): void {
  conn.setTimeout(REQUEST_TIMEOUT_MS, () => conn.destroy());
  conn.on('error', () => undefined);
  const chunks: Buffer[] = [];
  let size = 0;
  let taken = false;
  const take = (): void => {
    if (taken) return;
    taken = true;
    const text = Buffer.concat(chunks).toString('utf8');
    const nl = text.indexOf('\n');
    onLine(nl === -1 ? text : text.slice(0, nl));
  };
  conn.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_SERVER_REQUEST_BYTES) {
      conn.destroy();
      return;
    }
    chunks.push(c);
    if (c.includes(10)) take();
  });
  conn.on('end', take);
}

// Runs one hook run as the client's process would have: its environment, its folder, its input,
// its deadline counted from when the client started; what it printed, and whether the run's
// settings keep the server (`hook_server`).
async function runRequest(
  req: HookServerRequest,
  args: FastHookArgs,
  routers: RouterPool,
): Promise<{ reply: HookServerAnswer; keep: boolean; after: (() => void)[] }> {
  const after: (() => void)[] = [];
  let stdout = '';
  let stderr = '';
  let keep = true;
  try {
    process.chdir(req.cwd);
  } catch {
    // The run reads its folder from io.cwd; the process's own is only a fallback.
  }
  const code = await runFastHook(
    args,
    {
      stdout: (s) => (stdout += s),
      stderr: (s) => (stderr += s),
      env: req.env,
      cwd: req.cwd,
      stderrIsTTY: false,
      readStdin: () => Promise.resolve(req.stdin),
      releaseStdin: () => undefined,
    },
    {
      startedMs: monotonicMs() - req.elapsed_ms,
      settled: (s) => {
        keep = s.hook_server.value;
      },
      routers,
      afterAnswer: (work) => after.push(work),
    },
  );
  return { reply: { v: HOOK_SERVER_PROTOCOL, code, stdout, stderr }, keep, after };
}

// Listens on `socket`; false when a live server already answers there. A socket file left by a
// server that ended without removing it is replaced.
async function listen(server: net.Server, socket: string): Promise<boolean> {
  for (let attempt = 0; ; attempt++) {
    const err = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      const onError = (e: NodeJS.ErrnoException): void => resolve(e);
      server.once('error', onError);
      server.listen(socket, () => {
        server.off('error', onError);
        resolve(undefined);
      });
    });
    if (err === undefined) return true;
    if (err.code === 'EACCES' || err.code === 'EPERM')
      throw new SkilldexError(
        'UNSAFE_PERMISSIONS',
        `the hook server cannot listen on ${socket}: ${err.code} (the folder or a file there is not yours to write)`,
        { file: socket },
      );
    if (err.code === 'EADDRINUSE' && attempt > 0)
      throw new SkilldexError(
        'PORT_IN_USE',
        `the hook server cannot listen on ${socket}: something that is not a hook server is there`,
        { file: socket },
      );
    if (err.code !== 'EADDRINUSE') throw err;
    if (await answers(socket)) return false;
    try {
      if (lstatSync(socket).isSocket()) unlinkSync(socket);
    } catch {
      // Gone meanwhile: listen again.
    }
  }
}

async function answers(socket: string): Promise<boolean> {
  return (await pingHookServer(socket)) !== undefined;
}

// Makes `dir` (and its parents) and makes sure only the user can reach it: a folder of the user's
// with group or other permissions gets them removed; a link, or a folder of another user, is
// refused.
function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  const mine = process.getuid === undefined || st.uid === process.getuid();
  if (!st.isDirectory() || !mine)
    throw new SkilldexError(
      'UNSAFE_PERMISSIONS',
      `the hook server's folder ${dir} is ${st.isDirectory() ? "another user's" : 'not a folder'}: it will not listen there`,
      { file: dir },
    );
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
}
