/**
 * The skilldex command line as a testable function: `run(argv, io)` parses, runs one command and
 * returns its exit code; nothing here touches `process` (bin/skilldex.js does). Each command group
 * lives in its own file and registers itself here.
 */
import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { SkilldexError, codedFromForeign, type ExitCode } from '../errors.js';
import { VERSION } from '../version.js';
import { CliContext, type CliIo } from './context.js';
import { registerScan } from './scan.js';
import { registerCascade } from './cascade.js';
import { registerSubstrate } from './substrate.js';
import { registerRouter } from './router.js';
import { registerMcp } from './mcp.js';
import { registerEnrich } from './enrich.js';
import { registerLearn } from './learn.js';
import { registerLint } from './lint.js';
import { registerServe } from './serve.js';
import { registerConfig } from './config-command.js';
import { registerInit } from './init.js';

/** Help width when the output is not a terminal (a pipe, a file, a test): plain 80 columns. */
export const HELP_WIDTH = 80;

// Narrower than this, wrapped help is harder to read than overflowing lines.
const MIN_HELP_WIDTH = 40;

// Narrowest column an option's description is wrapped into (commander's default is 40).
const MIN_DESCRIPTION_WIDTH = 20;

/**
 * Where commander writes, and how wide its help is: the terminal's columns, else HELP_WIDTH. Never
 * coloured. Commander's own defaults read process.stdout; this reads only the run's io.
 */
function outputOf(io: CliIo): OutputConfiguration {
  const width = (cols: number | undefined): number =>
    cols === undefined || cols <= 0 ? HELP_WIDTH : Math.max(MIN_HELP_WIDTH, cols);
  return {
    writeOut: (s) => io.stdout(s),
    writeErr: (s) => io.stderr(s),
    getOutHelpWidth: () => width(io.stdoutColumns),
    getErrHelpWidth: () => width(io.stderrColumns),
    getOutHasColors: () => false,
    getErrHasColors: () => false,
  };
}

/** Builds the commander program for one run. */
export function buildProgram(ctx: CliContext): Command {
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
    .configureHelp({ minWidthToWrap: MIN_DESCRIPTION_WIDTH });
  registerScan(program, ctx);
  registerCascade(program, ctx);
  registerSubstrate(program, ctx);
  registerRouter(program, ctx);
  registerMcp(program, ctx);
  registerEnrich(program, ctx);
  registerLearn(program, ctx);
  registerLint(program, ctx);
  registerServe(program, ctx);
  registerConfig(program, ctx);
  registerInit(program, ctx);
  // The global --config is known before any command's action runs.
  program.hook('preAction', () => {
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

function allCommands(cmd: Command): Command[] {
  return cmd.commands.flatMap((c) => [c, ...allCommands(c)]);
}

/** Runs the CLI on `argv` (without node and script) and returns the exit code. */
export async function run(argv: readonly string[], io: CliIo): Promise<ExitCode> {
  const ctx = new CliContext(io);
  const program = buildProgram(ctx);
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
        // Nobody reads stdout any more: say so on stderr only.
        ctx.err(`error ${coded.code}: ${coded.message}`);
        return coded.exitCode;
      }
      ctx.fail(coded, asJson);
      return ctx.exitCode;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    const internal = new SkilldexError('INTERNAL', e.message, { name: e.name });
    if (asJson) ctx.json({ error: internal.toJSON() });
    io.stderr(`error INTERNAL: ${e.message}\n${e.stack ?? ''}\nhint: ${internal.hint}\n`);
    return 70;
  }
}
