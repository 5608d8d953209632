/**
 * The prompt hook's own entry (issue 35, hook latency): `skilldex hook <host> …` as a host runs it
 * on every prompt, without commander and without the other commands. scripts/build-cli.mjs bundles
 * this file alone into dist/cli/hook.cjs (with its own V8 code cache), and bin/skilldex.js loads
 * that bundle instead of the whole CLI when the first argument is `hook`. The run itself is the
 * same code as the full CLI's (`runHookCommand` of commands/hook.ts with a CliContext), so the
 * answers are the same; only the parsing of the command line is done here.
 *
 * The parser knows exactly the forms a hook command takes — the host, `--catalog`, `--max`,
 * `--min-confidence`, `--deadline-ms` (each `--opt value` or `--opt=value`), `--no-telemetry`,
 * `--no-usage` — and returns undefined for anything else (`--help`, `--strict`, `--json`, the
 * program's options, an unknown option, a value that begins with `-`): the launcher then runs the
 * full CLI, whose commander parser gives every such form its documented meaning.
 */
import { codedFromForeign, type ExitCode } from '../errors.js';
import { runHookCommand, type HookFlags } from './commands/hook.js';
import {
  CliContext,
  action,
  internalFailure,
  readStdinCapped,
  writeAllSync,
  type CliIo,
} from './context.js';

/** The parsed hook command line: the host argument and the flags as commander would give them. */
export interface FastHookArgs {
  readonly host: string | undefined;
  readonly flags: HookFlags;
}

// The options that take a value, and the HookFlags key each fills.
const VALUE_OPTIONS: Readonly<Record<string, 'catalog' | 'max' | 'minConfidence' | 'deadlineMs'>> =
  {
    '--catalog': 'catalog',
    '--max': 'max',
    '--min-confidence': 'minConfidence',
    '--deadline-ms': 'deadlineMs',
  };

/**
 * `argv` (without node and script) parsed as commander parses `skilldex hook …`, or undefined when
 * it holds anything this parser does not know for sure (the full CLI then runs it).
 */
export function parseFastHookArgv(argv: readonly string[]): FastHookArgs | undefined {
  if (argv[0] !== 'hook') return undefined;
  const flags: Omit<HookFlags, 'strict' | 'json'> = {};
  const operands: string[] = [];
  for (let i = 1; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--no-telemetry') flags.telemetry = false;
    else if (a === '--no-usage') flags.usage = false;
    else if (a.startsWith('-')) {
      const eq = a.indexOf('=');
      const name = eq === -1 ? a : a.slice(0, eq);
      const key = Object.hasOwn(VALUE_OPTIONS, name) ? VALUE_OPTIONS[name] : undefined;
      if (key === undefined) return undefined;
      if (eq !== -1) flags[key] = a.slice(eq + 1);
      else {
        const next = argv[i + 1];
        // Commander takes the next word as an optional value unless it looks like an option.
        if (next === undefined) flags[key] = true;
        else if (next.startsWith('-')) return undefined;
        else {
          flags[key] = next;
          i++;
        }
      }
    } else operands.push(a);
  }
  // Commander's defaults for the negatable options: true unless --no-… was given.
  return {
    host: operands[0],
    flags: { telemetry: true, usage: true, ...flags },
  };
}

/**
 * Runs a parsed hook command line on `io` (what the full CLI's `hook` action does, without
 * commander) and resolves to the exit code.
 */
export async function runFastHook(args: FastHookArgs, io: CliIo): Promise<ExitCode> {
  const ctx = new CliContext(io);
  try {
    await action(ctx, (host: string | undefined, o: HookFlags) => runHookCommand(ctx, host, o))(
      args.host,
      args.flags,
    );
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
 * The hook entry for this process: undefined when `argv` is not a command line this entry knows
 * (bin/skilldex.js then runs the full CLI), else the run's exit code.
 */
export function hookMain(argv: readonly string[]): Promise<ExitCode> | undefined {
  const args = parseFastHookArgv(argv);
  if (args === undefined) return undefined;
  return runFastHook(args, {
    stdout: writeOut,
    stderr: (s) => process.stderr.write(s),
    env: process.env,
    cwd: process.cwd(),
    stderrIsTTY: false,
    // Through process.stdin, as main.ts (readStdinCapped says why).
    readStdin: () => readStdinCapped(process.stdin),
    releaseStdin: () => process.stdin.destroy(),
  });
}
