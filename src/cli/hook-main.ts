/**
 * The prompt hook's own entry (issue 35, hook latency): `skilldex hook <host> …` as a host runs it
 * on every prompt, without commander and without the other commands. scripts/build-cli.mjs bundles
 * this file alone into dist/cli/hook.cjs (with its own V8 code cache), and bin/skilldex.js loads
 * that bundle instead of the whole CLI when the first argument is `hook`. The run itself is the
 * same code as the full CLI's (`runHookCommand` of commands/hook.ts with a CliContext), so the
 * answers are the same; only the parsing of the command line is done here.
 *
 * The parser (hook-argv.ts, shared with the hook server's client) knows exactly the forms a hook command takes — the host, `--catalog`, `--max`,
 * `--min-confidence`, `--deadline-ms` (each `--opt value` or `--opt=value`), `--no-telemetry`,
 * `--no-usage` — and returns undefined for anything else (`--help`, `--strict`, `--json`, the
 * program's options, an unknown option, a value that begins with `-`): the launcher then runs the
 * full CLI, whose commander parser gives every such form its documented meaning.
 */
import { SkilldexError, codedFromForeign, type ErrorCode, type ExitCode } from '../errors.js';
import { logHookError } from '../hook/index.js';
import { runHookCommand, type HookFlags, type HookRunFrame } from './commands/hook.js';
import { parseFastHookArgv, type FastHookArgs } from './hook-argv.js';
import {
  CliContext,
  action,
  internalFailure,
  readStdinCapped,
  writeAllSync,
  type CliIo,
} from './context.js';

/**
 * Runs a parsed hook command line on `io` (what the full CLI's `hook` action does, without
 * commander) and resolves to the exit code.
 */
export async function runFastHook(
  args: FastHookArgs,
  io: CliIo,
  frame: HookRunFrame = {},
): Promise<ExitCode> {
  const ctx = new CliContext(io);
  try {
    await action(ctx, (host: string | undefined, o: HookFlags) =>
      runHookCommand(ctx, host, o, frame),
    )(args.host, args.flags);
    return ctx.exitCode;
  } catch (err) {
    // As program.ts's run(): a coded foreign failure gets its code, anything else is a bug.
    const coded = codedFromForeign(err);
    if (coded) {
      ctx.fail(coded, false);
      return ctx.exitCode;
    }
    io.stderr(internalFailure(err).stderr);
    return 70;
  }
}

// Standard output, written straight to descriptor 1 (what the full CLI's main.ts does for a pipe,
// which is what a host gives a hook); a descriptor that would block hands over to process.stdout.
function writeOut(s: string): void {
  const bytes = Buffer.from(s, 'utf8');
  const { done, error } = writeAllSync(1, bytes);
  // A host that closed the pipe no longer reads the answer: nothing to report to it.
  if (error === undefined || error.code === 'EPIPE') return;
  process.stdout.write(bytes.subarray(done));
}

/**
 * What the hook server's client (hook-client.ts) hands over when it runs the hook in this process
 * after all (no server answered): the standard input it already read, when it started, and the
 * frame's `settled`.
 */
export interface HookHandover extends HookRunFrame {
  readonly stdin: string;
}

/**
 * The hook entry for this process: undefined when `argv` is not a command line this entry knows
 * (bin/skilldex.js then runs the full CLI), else the run's exit code.
 */
export function hookMain(
  argv: readonly string[],
  handover?: HookHandover,
): Promise<ExitCode> | undefined {
  const args = parseFastHookArgv(argv);
  if (args === undefined) return undefined;
  return runFastHook(
    args,
    {
      stdout: writeOut,
      stderr: (s) => process.stderr.write(s),
      env: process.env,
      cwd: process.cwd(),
      stderrIsTTY: false,
      // Through process.stdin, as main.ts (readStdinCapped says why).
      readStdin:
        handover === undefined
          ? () => readStdinCapped(process.stdin)
          : () => Promise.resolve(handover.stdin),
      releaseStdin: () => process.stdin.destroy(),
    },
    handover ?? {},
  );
}

export { parseFastHookArgv, type FastHookArgs } from './hook-argv.js';

/**
 * Logs one failure of the hook server's client to the hook's log, as the hook logs its own
 * (logHookError): the client loads this bundle only when it has one to log.
 */
export function logHookFailure(
  stateDir: string,
  host: string,
  code: ErrorCode,
  message: string,
  details?: Record<string, unknown>,
): void {
  logHookError(stateDir, host || '-', new SkilldexError(code, message, details));
}
