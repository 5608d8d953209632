/**
 * The prompt hook's first stop (docs/hosts.md, "The hook server"): `skilldex hook <host> …` as a
 * host runs it on every prompt. scripts/build-cli.mjs bundles this file alone into
 * dist/cli/hook-client.cjs, which bin/skilldex.js loads before anything else of the hook. It
 * connects to the user's hook server over its Unix socket while it reads the host's event from
 * standard input, then hands it the whole run (command line, environment, folder, input); the
 * server runs the very code the hook would run here (runFastHook) and sends back what to print,
 * and the process ends as soon as that is written. A prompt then costs about 1.5× a bare Node
 * start (bench/results/hook.md), where loading and warming the router in every process cost about
 * twice a bare start.
 *
 * When no server answers (none started yet, `hook_server = false`, a socket it cannot trust, a
 * server that failed), the hook runs in this process as before, with the input already read, and
 * afterwards starts a server for the next prompt unless the settings say not to (at most one start
 * a minute). Whatever happens the host sees what the in-process hook would have printed, or nothing:
 * the client's own failures (the deadline passing while it waits) are logged like the hook's.
 *
 * This entry takes only command lines it knows for sure (parseFastHookArgv, a known host, a
 * well-formed --deadline-ms) and SKILLDEX_HOOK_SERVER not `off`; anything else goes to the hook's
 * own entry unchanged (hook-main.ts), which reads standard input itself.
 */
import { closeSync, mkdirSync, openSync, statSync, utimesSync } from 'node:fs';
import type * as ChildProcess from 'node:child_process';
import net from 'node:net';
import type { ErrorCode, ExitCode } from '../errors.js';
import {
  DEFAULT_HOOK_DEADLINE_MS,
  HOOK_HOSTS,
  HOOK_SERVER_NODE_FLAGS,
  HOOK_SERVER_PROTOCOL,
  MAX_HOOK_INPUT_BYTES,
  asHookServerAnswer,
  hookServerDir,
  hookServerSocket,
  hookStateDir,
  isPrivateDir,
  type HookServerRequest,
} from '../hook/lite.js';
import { BUILD } from '../version.js';
import { parseFastHookArgv } from './hook-argv.js';
import type { HookHandover } from './hook-main.js';
import { monotonicMs, readStdinCapped, withinDeadline, writeAllSync } from './stdio.js';

/** What the client needs of the hook's own bundle (dist/cli/hook.cjs) when it runs the hook here. */
export interface HookBundle {
  hookMain(argv: readonly string[], handover?: HookHandover): Promise<ExitCode> | undefined;
  /** The hook's log line (hook-main.ts logHookFailure): loaded only when the client has one. */
  logHookFailure(
    stateDir: string,
    host: string,
    code: ErrorCode,
    message: string,
    details?: Record<string, unknown>,
  ): void;
}

/** What bin/skilldex.js gives the client: how to load the hook's bundle, and its own path. */
export interface HookClientOptions {
  readonly loadHook: () => HookBundle;
  /** bin/skilldex.js: a server is started as `node <bin> hook-server run …`. */
  readonly bin: string;
  /**
   * Ends the process with `code` (bin/skilldex.js passes process.exit): called once the server's
   * answer is written. Without it the run resolves and the process ends when its loop is empty.
   */
  readonly exit?: (code: ExitCode) => void;
}

// Node's own module `name`, loaded when first needed. In the bundle (CommonJS) `require` is there;
// in the ES module build (tests import src/ through dist/) it is reached through `module`, which the
// bundle never loads (bin/skilldex.js: node:module costs ~0.5 ms of a prompt).
declare const require: NodeJS.Require | undefined;
function requireBuiltin(name: string): unknown {
  if (typeof require === 'function') return require(name);
  return process.getBuiltinModule?.(name);
}

/** Least time between two starts of a server by clients (a server that cannot start is not retried on every prompt). */
export const SERVER_START_INTERVAL_MS = 60_000;

/**
 * Runs `argv` through the hook server when this entry may (see the file header), resolving to the
 * exit code; undefined when the command line is for the hook's own entry.
 */
export function hookClient(
  argv: readonly string[],
  options: HookClientOptions,
): Promise<ExitCode> | undefined {
  const started = monotonicMs();
  const env = process.env;
  if (BUILD === undefined || env['SKILLDEX_HOOK_SERVER'] === 'off') return undefined;
  const args = parseFastHookArgv(argv);
  if (args === undefined) return undefined;
  const host = args.host ?? '';
  if (!(HOOK_HOSTS as readonly string[]).includes(host)) return undefined;
  const deadline = deadlineOf(args.flags.deadlineMs);
  if (deadline === undefined) return undefined;
  const stateDir = hookStateDir(env['HOME'] ?? '/', env);
  const socket = hookServerSocket(stateDir, BUILD);
  if (socket === undefined) return undefined;
  return clientRun({ argv, host, deadline, started, stateDir, socket, options });
}

// --deadline-ms as the hook reads it (an integer of 50–60000); undefined for a value the hook's own
// entry must report.
function deadlineOf(v: string | true | undefined): number | undefined {
  if (v === undefined) return DEFAULT_HOOK_DEADLINE_MS;
  if (v === true || !/^\d{2,5}$/.test(v)) return undefined;
  const n = Number(v);
  return n >= 50 && n <= 60_000 ? n : undefined;
}

interface ClientRun {
  readonly argv: readonly string[];
  readonly host: string;
  readonly deadline: number;
  readonly started: number;
  readonly stateDir: string;
  readonly socket: string;
  readonly options: HookClientOptions;
}

// What asking the server came to: its answer, "ask nothing more and print nothing" (the deadline
// passed), or "run the hook here" (with whether a server should be started).
type Asked =
  | { readonly kind: 'answer'; readonly code: number; readonly stdout: string; stderr: string }
  | { readonly kind: 'late' }
  | { readonly kind: 'here'; readonly start: boolean };

async function clientRun(r: ClientRun): Promise<ExitCode> {
  const remaining = (): number => r.deadline - (monotonicMs() - r.started);
  // Connecting overlaps reading the input: the server accepts while this process reads.
  const server = openConversation(r);
  let stdin: string | undefined;
  try {
    stdin = await withinDeadline(readStdinCapped(process.stdin), remaining(), () =>
      process.stdin.destroy(),
    );
  } catch (err) {
    server.drop();
    // Logged as the hook's own entry logs it (FILE_TOO_LARGE).
    const e = err as { code: ErrorCode; message: string; details?: Record<string, unknown> };
    return logged(r, e.code, e.message, e.details);
  }
  if (stdin === undefined) {
    server.drop();
    return logged(r, 'HOOK_DEADLINE', 'the host did not close standard input before the deadline');
  }
  // An input the hook refuses is refused (and logged) by the hook's own entry, here.
  const asked =
    Buffer.byteLength(stdin, 'utf8') > MAX_HOOK_INPUT_BYTES
      ? server.drop()
      : await server.ask(stdin, remaining);
  if (asked.kind === 'late')
    return logged(r, 'HOOK_DEADLINE', 'the hook server did not answer before the deadline');
  if (asked.kind === 'answer') {
    if (asked.stdout !== '') await writeOut(asked.stdout);
    if (asked.stderr !== '') await written(process.stderr, asked.stderr);
    // Everything is written and nothing else is under way (the server records the run): end now
    // rather than let the event loop close the socket and standard input first (~1 ms of a prompt,
    // bench/results/hook.md).
    r.options.exit?.(asked.code as ExitCode);
    return asked.code as ExitCode;
  }
  let hookServer = false;
  const done = r.options.loadHook().hookMain(r.argv, {
    stdin,
    startedMs: r.started,
    settled: (s) => {
      hookServer = s.hook_server.value;
    },
  });
  // hookMain takes every command line parseFastHookArgv takes.
  const code = done === undefined ? 0 : await done;
  if (asked.start && hookServer) startServer(r);
  return code;
}

// Logs one failure of the client to the hook's log, as the hook logs its own (it prints nothing,
// and the run exits 0). The hook's bundle, which holds the logger, loads only then.
function logged(
  r: ClientRun,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): 0 {
  r.options.loadHook().logHookFailure(r.stateDir, r.host, code, message, details);
  return 0;
}

/** A conversation with the server of this build, opened before the input is read. */
interface Conversation {
  /** Sends the run; settles on the server's answer, or on what to do without one. */
  ask(stdin: string, remaining: () => number): Promise<Asked>;
  /** Ends the conversation unasked (the hook runs here, no server started). */
  drop(): Asked;
}

// Connects to the server at once; the request goes out when both the connection and the input are
// there. Whatever ends the conversation first (the answer, a failed connection, the server closing,
// the deadline) is its outcome.
function openConversation(r: ClientRun): Conversation {
  // A folder anyone else could write may hold anyone's socket: never ask it. The server makes the
  // folder private when it starts (and refuses one that is not the user's).
  if (!isPrivateDir(hookServerDir(r.stateDir))) {
    const here: Asked = { kind: 'here', start: true };
    return { ask: () => Promise.resolve(here), drop: () => here };
  }
  const conn = net.createConnection(r.socket);
  const chunks: Buffer[] = [];
  let connected = false;
  let request: string | undefined;
  let sent = false;
  let outcome: Asked | undefined;
  let told: ((a: Asked) => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const finish = (a: Asked): Asked => {
    if (outcome !== undefined) return outcome;
    outcome = a;
    clearTimeout(timer);
    // After an answer the server ends the connection itself (and the process ends at once):
    // destroying it here cost a prompt ~0.5 ms for nothing.
    if (a.kind !== 'answer') conn.destroy();
    told?.(a);
    return a;
  };
  const send = (): void => {
    if (!connected || request === undefined || sent) return;
    sent = true;
    conn.end(request);
  };
  conn.on('connect', () => {
    connected = true;
    send();
  });
  conn.on('data', (c: Buffer) => {
    chunks.push(c);
    // The answer is one line: done at its end, without waiting for the server to close.
    if (c.includes(10)) {
      const answer = parseAnswer(Buffer.concat(chunks).toString('utf8'));
      if (answer !== undefined) finish({ kind: 'answer', ...answer });
    }
  });
  conn.on('error', (err: NodeJS.ErrnoException) => {
    // No server (no socket, or a socket left by one that ended): start one for the next prompt.
    finish({
      kind: 'here',
      start: !sent && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED'),
    });
  });
  conn.on('close', () => {
    const answer = parseAnswer(Buffer.concat(chunks).toString('utf8'));
    // A server that closed without an answer (it could not run this request, or failed): the
    // hook runs here, within what is left of the deadline.
    finish(answer === undefined ? { kind: 'here', start: false } : { kind: 'answer', ...answer });
  });
  return {
    ask(stdin, remaining) {
      if (outcome !== undefined) return Promise.resolve(outcome);
      const body: HookServerRequest = {
        v: HOOK_SERVER_PROTOCOL,
        argv: r.argv,
        env: definedEnv(process.env),
        cwd: process.cwd(),
        stdin,
        elapsed_ms: monotonicMs() - r.started,
      };
      request = JSON.stringify(body) + '\n';
      return new Promise<Asked>((resolve) => {
        told = resolve;
        timer = setTimeout(() => finish({ kind: 'late' }), Math.max(0, remaining()));
        send();
      });
    },
    drop: () => finish({ kind: 'here', start: false }),
  };
}

function parseAnswer(text: string): { code: number; stdout: string; stderr: string } | undefined {
  const line = text.endsWith('\n') ? text.slice(0, -1) : undefined;
  if (line === undefined || line.includes('\n')) return undefined;
  try {
    return asHookServerAnswer(JSON.parse(line));
  } catch {
    return undefined;
  }
}

function definedEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

// Standard output, written straight to descriptor 1 as the hook's own entry writes it; settles
// once all of it is written (a pipe that was full takes the rest through the stream).
async function writeOut(s: string): Promise<void> {
  const bytes = Buffer.from(s, 'utf8');
  const { done, error } = writeAllSync(1, bytes);
  if (error === undefined || error.code === 'EPIPE') return;
  await written(process.stdout, bytes.subarray(done));
}

// Writes `data` to `stream`; settles when the stream has taken it (or failed: the hook prints
// nothing then, as its own entry).
function written(stream: NodeJS.WritableStream, data: string | Uint8Array): Promise<void> {
  return new Promise((resolve) => {
    stream.write(data, () => resolve());
  });
}

/**
 * Starts the hook server of this build in the background (detached, no output), unless a client
 * started one less than SERVER_START_INTERVAL_MS ago (a stamp file beside the socket says when).
 * Best effort: a failure leaves the hook answering in its own process.
 */
function startServer(r: ClientRun): void {
  const dir = hookServerDir(r.stateDir);
  const stamp = `${r.socket}.started`;
  try {
    if (Date.now() - statSync(stamp).mtimeMs < SERVER_START_INTERVAL_MS) return;
  } catch {
    // No stamp yet.
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivateDir(dir)) {
      logged(
        r,
        'UNSAFE_PERMISSIONS',
        `the hook server's folder ${dir} is not private to you: the hook answers without the server (make it yours and chmod 700 it)`,
        { file: dir },
      );
      return;
    }
    closeSync(openSync(stamp, 'a', 0o600));
    const now = new Date();
    utimesSync(stamp, now, now);
  } catch {
    return;
  }
  spawnServer(r);
}

function spawnServer(r: ClientRun): void {
  try {
    // Required here, not at load: child_process costs a prompt that has a server ~2 ms; and not
    // import()ed: the bundle runs as a vm script, which has no loader for import().
    const { spawn } = requireBuiltin('node:child_process') as typeof ChildProcess;
    const child = spawn(
      process.execPath,
      [...HOOK_SERVER_NODE_FLAGS, r.options.bin, 'hook-server', 'run', '--socket', r.socket],
      { detached: true, stdio: 'ignore', cwd: '/', env: process.env },
    );
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // Best effort (see startServer).
  }
}
