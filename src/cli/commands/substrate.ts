/**
 * `skilldex substrate read` and `skilldex substrate lint` (issue #6, docs/substrate.md): parse options,
 * make one library call, render the report (substrate-render.ts, `--json`, `--yaml`), return the
 * exit code. The root is `--root DIR`, else the nearest `substrate/` folder at or above the current
 * folder. src/substrate loads inside each action, never at start-up.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { SubstrateType } from '../../internal.js';
import { action, type CliContext } from '../context.js';
import { renderLint, renderNearMisses, renderOpened, renderRead } from './substrate-render.js';

/**
 * SUBSTRATE_TYPES of src/substrate, quoted in the help text: the help is built before any
 * capability loads (start-up time, issue #12); test/cli/help.test.ts checks the two agree.
 */
const HELP_SUBSTRATE_TYPES = ['anti-pattern', 'adr', 'solution', 'vocabulary', 'reviewer'];

interface SubstrateFlags {
  root?: string;
  type?: string;
  json?: boolean;
}

/** Registers the `substrate` command group. */
export function registerSubstrate(program: Command, ctx: CliContext): void {
  const group = program
    .command('substrate')
    .summary(
      'read a project substrate (vocabulary, ADRs, anti-patterns, solutions, reviewers) progressively',
    )
    .description(
      'A substrate is a folder of typed knowledge entries kept next to the code:\n' +
        'vocabulary/, adr/, anti-pattern/, solution/ and reviewer/, each with an\n' +
        'INDEX.md table. `read` finds the entries that matter for a topic, a path\n' +
        'glob or a tag while opening as few files as it can; `lint` checks that the\n' +
        'tables and the entry files agree. See docs/substrate.md.',
    );
  registerRead(group, ctx);
  registerLint(group, ctx);
}

/** `substrate read QUERY`. */
function registerRead(group: Command, ctx: CliContext): void {
  group
    .command('read')
    .summary('find the entries for a topic, a path glob or tag:NAME, reading as little as possible')
    .description(
      'Reads the INDEX.md tables first and decides there whatever it can; opens an\n' +
        "entry's summary only when the index row cannot decide, and its body only\n" +
        'when the summary cannot either. QUERY is a path glob when it has / or *\n' +
        '(reviewers match by their Fires on globs, other entries by their frontmatter\n' +
        'scope), a tag with tag:NAME (frontmatter tags), else a topic (words compared\n' +
        'with descriptions after case folding, stop-word removal and stemming). Each\n' +
        'hit says where the read stopped for it: index, summary or body. Exit 0 with\n' +
        'hits, 1 without. The rule and its thresholds are in docs/substrate.md.',
    )
    .argument('<query>', 'a topic ("payment retries"), a path glob ("src/api/**") or tag:NAME')
    .option(
      '--root <dir>',
      'the substrate root (default: the nearest substrate/ folder at or above the current folder)',
    )
    .option('--type <type>', `read only one type: ${HELP_SUBSTRATE_TYPES.join(', ')}`)
    .option('--json', 'print the report (hits, problems; opened with --explain) as JSON')
    .option('--yaml', 'print only the hits: list as YAML (type, id, description, stop_depth)')
    .option('--explain', 'list every file opened and why')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  skilldex substrate read "payment retries" --root examples/substrate\n' +
        '  skilldex substrate read "src/db/**/*.ts" --root examples/substrate --yaml\n' +
        '  skilldex substrate read tag:security --type anti-pattern --explain\n' +
        '  skilldex substrate read "idempotency" --json',
    )
    .action(
      action(
        ctx,
        async (
          query: string,
          opts: SubstrateFlags & { yaml?: boolean; explain?: boolean },
        ): Promise<ExitCode> => {
          const { readSubstrate, renderHitsYaml } = await import('../../substrate/index.js');
          if (opts.json === true && opts.yaml === true) {
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              '--json and --yaml are alternatives: give one',
              { option: '--yaml' },
            );
          }
          const report = readSubstrate(query, {
            root: await rootOf(opts, ctx),
            ...(opts.type === undefined ? {} : { type: opts.type as SubstrateType }),
            explain: opts.explain === true,
          });
          if (opts.json === true) ctx.json(report);
          else if (opts.yaml === true) {
            ctx.io.stdout(renderHitsYaml(report));
            // stdout carries exactly the hits: list; the explanation goes to stderr.
            if (report.opened !== undefined) ctx.err(renderOpened(report.opened));
            if (report.tag_near_misses !== undefined && report.tag_near_misses.length > 0)
              ctx.err(renderNearMisses(report.tag_near_misses));
          } else ctx.out(renderRead(report, ctx.io.cwd));
          return report.hits.length > 0 ? 0 : 1;
        },
      ),
    );
}

/** `substrate lint`. */
function registerLint(group: Command, ctx: CliContext): void {
  group
    .command('lint')
    .summary('check that the INDEX.md rows and the entry files agree')
    .description(
      'Checks every type folder: each index row has an entry file inside its\n' +
        'folder, each entry file has a row, IDs are unique, frontmatter parses with\n' +
        'scope, tags and predicate of the right types, each entry has a ## Summary\n' +
        'section, each reviewer row has Fires on globs. Exit 0 when clean, 1 when\n' +
        'problems were found.',
    )
    .option(
      '--root <dir>',
      'the substrate root (default: the nearest substrate/ folder at or above the current folder)',
    )
    .option('--type <type>', `check only one type: ${HELP_SUBSTRATE_TYPES.join(', ')}`)
    .option('--json', 'print the lint report as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex substrate lint --root examples/substrate\n  skilldex substrate lint --json',
    )
    .action(
      action(ctx, async (opts: SubstrateFlags): Promise<ExitCode> => {
        const { lintSubstrate } = await import('../../substrate/index.js');
        const report = lintSubstrate({
          root: await rootOf(opts, ctx),
          ...(opts.type === undefined ? {} : { type: opts.type as SubstrateType }),
        });
        if (opts.json === true) ctx.json(report);
        else ctx.out(renderLint(report, ctx.io.cwd));
        return report.clean ? 0 : 1;
      }),
    );
}

/** The root a command reads: `--root` against the CLI's cwd, else the nearest substrate/ above it. */
async function rootOf(opts: SubstrateFlags, ctx: CliContext): Promise<string> {
  if (opts.root !== undefined) return path.resolve(ctx.io.cwd, opts.root);
  const { searchSubstrateRoot } = await import('../../substrate/index.js');
  const home = ctx.io.env['HOME'];
  // The project walk's rules (issue 36 M5): repository root, home folder, owner.
  const found = searchSubstrateRoot(ctx.io.cwd, home === undefined ? {} : { home });
  if (found.refused !== undefined) {
    throw new SkilldexError(
      'SUBSTRATE_NOT_FOUND',
      `${found.refused.path}: ${found.refused.reason}; pass --root to read it anyway`,
      { cwd: ctx.io.cwd, file: found.refused.path },
    );
  }
  if (found.root === undefined) {
    throw new SkilldexError(
      'SUBSTRATE_NOT_FOUND',
      `no substrate/ folder at or above ${ctx.io.cwd} (the search stops at the repository root and below the home folder)`,
      { cwd: ctx.io.cwd },
    );
  }
  return found.root;
}
