/**
 * The skilldex command line as a testable function: `run(argv, io)` parses, runs one command and
 * returns its exit code; nothing here touches `process` (bin/skilldex.js does). Each command group
 * lives in its own file and registers itself here.
 */
import { Command, CommanderError } from 'commander';
import { SkilldexError, type ExitCode } from '../index.js';
import { CliContext, type CliIo } from './context.js';
import { registerScan } from './scan.js';
import { registerCascade } from './cascade.js';
import { registerSubstrate } from './substrate.js';
import { registerRouter } from './router.js';
import { registerMcp } from './mcp.js';
import { registerEnrich } from './enrich.js';
import { registerConfig } from './config-command.js';
import { registerInit } from './init.js';

/** The version printed by --version. */
export const VERSION = '0.1.0';

/** Builds the commander program for one run. */
export function buildProgram(ctx: CliContext): Command {
  const program = new Command('skilldex')
    .description(
      'Find the right agent skill in a large local SKILL.md library: discovery, a pinned\n' +
        'SQLite router, index cascades, substrate reads and evidence-backed enrichment.',
    )
    .version(VERSION)
    .option('--config <file>', 'config file to use instead of the user config (also $SKILLDEX_CONFIG)')
    .option('-q, --quiet', 'no progress lines and no advisory notes on stderr (errors still print)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.stdout(s), writeErr: (s) => ctx.io.stderr(s) });
  registerScan(program, ctx);
  registerCascade(program, ctx);
  registerSubstrate(program, ctx);
  registerRouter(program, ctx);
  registerMcp(program, ctx);
  registerEnrich(program, ctx);
  registerConfig(program, ctx);
  registerInit(program, ctx);
  // The global --config is known before any command's action runs.
  program.hook('preAction', () => {
    const opts = program.opts<{ config?: string; quiet?: boolean }>();
    ctx.configFlag = opts.config;
    ctx.quiet = opts.quiet === true;
  });
  // Every subcommand inherits the error behaviour: exit codes come back to run(), not process.exit.
  for (const cmd of allCommands(program)) {
    cmd.exitOverride().configureOutput({ writeOut: (s) => ctx.io.stdout(s), writeErr: (s) => ctx.io.stderr(s) });
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
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      // Help and --version end through here with exit code 0; usage errors are refusals.
      return err.exitCode === 0 ? 0 : 2;
    }
    if (err instanceof SkilldexError) {
      ctx.fail(err, argv.includes('--json'));
      return ctx.exitCode;
    }
    const e = err instanceof Error ? err : new Error(String(err));
    io.stderr(`error INTERNAL: ${e.message}\n${e.stack ?? ''}\nhint: this is a bug in skilldex: please report it with the command you ran\n`);
    return 70;
  }
}
