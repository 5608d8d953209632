/**
 * The skilldex command line as a testable function: `run(argv, io)` parses, runs one command and
 * returns its exit code; nothing here touches `process` (bin/skilldex.js does). Each command (or
 * group) lives in its own file under commands/, its renderer beside it; COMMANDS lists them, and a
 * run registers only the command it names.
 */
import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { SkilldexError, codedFromForeign, type ExitCode } from '../errors.js';
import { VERSION } from '../version.js';
import { CliContext, internalFailure, type CliIo, type CommandEntry } from './context.js';
import { registerScan } from './commands/scan.js';
import { registerCascade } from './commands/cascade.js';
import { registerSubstrate } from './commands/substrate.js';
import { registerIndex } from './commands/index-command.js';
import { registerPublish } from './commands/publish.js';
import { registerRollback } from './commands/rollback.js';
import { registerCatalogCopy } from './commands/catalog.js';
import { registerLifecycle } from './commands/lifecycle.js';
import { registerGenerations } from './commands/generations.js';
import { registerStatus } from './commands/status.js';
import { registerSearch } from './commands/search.js';
import { registerFetch } from './commands/fetch.js';
import { registerShow } from './commands/show.js';
import { registerEval } from './commands/eval.js';
import { registerMcp } from './commands/mcp.js';
import { registerEnrich } from './commands/enrich.js';
import { registerLearn } from './commands/learn.js';
import { registerLint } from './commands/lint.js';
import { registerHook } from './commands/hook.js';
import { registerHookServer } from './commands/hook-server.js';
import { registerServe } from './commands/serve.js';
import { registerConfig } from './commands/config-command.js';
import { registerInit } from './init.js';
import { registerListing } from './commands/listing.js';
import { registerDoctor } from './commands/doctor.js';
import { SUPPLY_COMMANDS } from './commands/supply.js';

/** Help width when the output is not a terminal (a pipe, a file, a test): plain 80 columns. */
export const HELP_WIDTH = 80;

// Narrower than this, wrapped help is harder to read than overflowing lines.
const MIN_HELP_WIDTH = 40;

// Narrowest column an option's description is wrapped into (commander's default is 40).
const MIN_DESCRIPTION_WIDTH = 20;

/**
 * Where commander writes, and how wide its help is: the terminal's columns, else HELP_WIDTH. Never
 * coloured; its usage errors carry their code. Commander's own defaults read process.stdout; this
 * reads only the run's io.
 */
function outputOf(io: CliIo): OutputConfiguration {
  const width = (cols: number | undefined): number =>
    cols === undefined || cols <= 0 ? HELP_WIDTH : Math.max(MIN_HELP_WIDTH, cols);
  return {
    writeOut: (s) => io.stdout(s),
    writeErr: (s) => io.stderr(s),
    // A usage error commander finds (an unknown option, a missing value, an extra argument) reads
    // like every other refusal: its stable code after `error` (run() adds it to --json output).
    outputError: (s, write) => write(s.replace(/^error: /, 'error INVALID_ARGUMENT: ')),
    getOutHelpWidth: () => width(io.stdoutColumns),
    getErrHelpWidth: () => width(io.stderrColumns),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  };
}

/**
 * `text` with the line breaks inside each paragraph turned into spaces, for wrapping to any width.
 * Blank lines separate paragraphs and stay; an indented line (a row of a list or table) stays a
 * line of its own.
 */
export function reflowParagraphs(text: string): string {
  const out: string[] = [];
  let prose = false;
  for (const line of text.split('\n')) {
    if (line.trim() === '' || /^[ \t]/.test(line)) {
      out.push(line.trim() === '' ? '' : line.trimEnd());
      prose = false;
    } else if (prose) out[out.length - 1] += ' ' + line.trim();
    else {
      out.push(line.trim());
      prose = true;
    }
  }
  return out.join('\n');
}

/** Every top-level command, in the order `--help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { names: ['scan'], register: registerScan },
  { names: ['cascade'], register: registerCascade },
  { names: ['substrate'], register: registerSubstrate },
  { names: ['index'], register: registerIndex },
  { names: ['publish'], register: registerPublish },
  { names: ['rollback'], register: registerRollback },
  { names: ['catalog'], register: registerCatalogCopy },
  { names: ['deprecate', 'archive', 'restore'], register: registerLifecycle },
  { names: ['generations'], register: registerGenerations },
  { names: ['status'], register: registerStatus },
  { names: ['search'], register: registerSearch },
  { names: ['fetch'], register: registerFetch },
  { names: ['show'], register: registerShow },
  { names: ['eval'], register: registerEval },
  { names: ['mcp'], register: registerMcp },
  { names: ['enrich'], register: registerEnrich },
  { names: ['learn', 'usage', 'forget'], register: registerLearn },
  { names: ['lint'], register: registerLint },
  ...SUPPLY_COMMANDS,
  { names: ['serve'], register: registerServe },
  { names: ['config'], register: registerConfig },
  { names: ['init'], register: registerInit },
  { names: ['listing'], register: registerListing },
  { names: ['doctor'], register: registerDoctor },
  { names: ['hook'], register: registerHook },
  { names: ['hook-server'], register: registerHookServer },
];

// The program's own options that take a value: their values are not command names.
const GLOBAL_VALUE_OPTIONS: ReadonlySet<string> = new Set(['--config', '--password-file']);

/**
 * The command an argv names: its first word that is neither an option nor the value of one of the
 * program's own options. Undefined when there is none, or when help or the version is asked for
 * before it (`skilldex --help search` is the program's help).
 */
export function commandNameOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') return undefined;
    if (a === '-h' || a === '--help' || a === '-V' || a === '--version') return undefined;
    if (GLOBAL_VALUE_OPTIONS.has(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-')) return a;
  }
  return undefined;
}

/**
 * Builds the commander program for one run: with `argv`, only the command it names (all of them
 * when it names none that exists); without, every command.
 */
export function buildProgram(ctx: CliContext, argv?: readonly string[]): Command {
  const program = new Command('skilldex')
    .description(
      'Find the right agent skill in a large local SKILL.md library: discovery, a pinned\n' +
        'SQLite router, index cascades, substrate reads and evidence-backed enrichment.',
    )
    .version(VERSION)
    .option(
      '--config <file>',
      'config file to use instead of the user config (also $SKILLDEX_CONFIG)',
    )
    .option(
      '--password-file <file>',
      "a PostgreSQL catalog's password, read from FILE (also $SKILLDEX_PASSWORD_FILE; or PGPASSWORD, ~/.pgpass)",
    )
    .option('-q, --quiet', 'no progress lines and no advisory notes on stderr (errors still print)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput(outputOf(ctx.io))
    // Commander leaves a description unwrapped when less than 40 columns remain beside the option
    // names; wrap down to MIN_DESCRIPTION_WIDTH so help on a narrow terminal still fits.
    .configureHelp({
      minWidthToWrap: MIN_DESCRIPTION_WIDTH,
      // Descriptions are written as paragraphs with line breaks for the source's sake: help joins
      // each paragraph's lines and lets commander wrap it to the terminal, so nothing comes out
      // ragged (a source line break landing mid-line at 80 columns, or unused width at 160).
      commandDescription: (cmd) => reflowParagraphs(cmd.description()),
    });
  // A run names one command: register that one alone (a fresh process's `search` spends a third
  // less time in commander that way). No name, or one no entry has (help, a typo to suggest a
  // correction for): register them all.
  const name = argv === undefined ? undefined : commandNameOf(argv);
  const chosen = COMMANDS.filter((c) => name !== undefined && c.names.includes(name));
  for (const c of chosen.length > 0 ? chosen : COMMANDS) c.register(program, ctx);
  // The global --config is known before any command's action runs.
  program.hook('preAction', (_root, command) => {
    refuseOptionAsValue(command, program);
    const opts = program.opts<{ config?: string; quiet?: boolean; passwordFile?: string }>();
    ctx.configFlag = opts.config;
    ctx.passwordFile = opts.passwordFile;
    ctx.quiet = opts.quiet === true;
  });
  // Every subcommand inherits the error behaviour: exit codes come back to run(), not process.exit.
  for (const cmd of allCommands(program)) {
    cmd.exitOverride().configureOutput(outputOf(ctx.io));
  }
  return program;
}

/**
 * INVALID_ARGUMENT when an option that takes a value took another option as its value (`search
 * --batch --no-telemetry` reads a file named "--no-telemetry"; commander takes whatever follows): the
 * user left the value out. Only a value that is exactly one of the command's own or the global options
 * (or `--option=…`) counts, so no real value is refused. Not for `hook`, which answers every bad
 * command line with silence, exit 0 (commands/hook.ts).
 */
function refuseOptionAsValue(command: Command, root: Command): void {
  if (command.name() === 'hook') return;
  const options = [...command.options, ...root.options];
  const names = new Set(options.flatMap((o) => [o.long, o.short]).filter((n) => n !== undefined));
  const taking = [
    ...command.options.map((option) => ({ option, of: command })),
    ...(command === root ? [] : root.options.map((option) => ({ option, of: root }))),
  ];
  for (const { option, of } of taking) {
    if (!option.required && !option.optional) continue;
    const value: unknown = of.getOptionValue(option.attributeName());
    for (const v of Array.isArray(value) ? value : [value]) {
      if (typeof v !== 'string' || !names.has(v.split('=')[0]!)) continue;
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${option.long ?? option.flags} needs a value, but the next argument is the option ${v}`,
        { option: option.long ?? option.flags, value: v },
      );
    }
  }
}

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const ctx = new CliContext(io);
  const program = buildProgram(ctx, argv);
  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  const asJson = argv.includes('--json');
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version end through here with exit code 0; usage errors are refusals. Commander
      // has already written its message on stderr; under --json the error object goes to stdout too.
      if (err.exitCode === 0) return 0;
      if (asJson) {
        const message = err.message.replace(/^error: /, '');
        ctx.json({
          error: new SkilldexError('INVALID_ARGUMENT', message, { parser: err.code }).toJSON(),
        });
      }
      return 2;
    }
    const coded = codedFromForeign(err);
    if (coded) {
      if (coded.code === 'OUTPUT_CLOSED') {
        // A closed pipe is the reader having enough (`… | head`): exit 0, silently.
        if (coded.details['errno'] === 'EPIPE') return 0;
        // Nobody reads stdout any more: say so on stderr only.
        ctx.err(`error ${coded.code}: ${coded.message}`);
        return coded.exitCode;
      }
      ctx.fail(coded, asJson);
      return ctx.exitCode;
    }
    const internal = internalFailure(err);
    if (asJson) ctx.json({ error: internal.error.toJSON() });
    io.stderr(internal.stderr);
    return 70;
  }
}
