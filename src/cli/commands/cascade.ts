/**
 * `skilldex cascade build | audit | crawl` (docs/cascade.md): one library call each, then a rendering
 * of the report (cascade-render.ts, or the report object itself with --json) and the exit code of
 * docs/integration.md §4. Formatting only: the crawl, the build and the audit live in src/cascade,
 * loaded by each action (`import('../../cascade/index.js')`), never at start-up.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { AuditReport, BuildReport } from '../../internal.js';
import { action, readInput, type CliContext } from '../context.js';
import { progressLine } from '../progress.js';
import { renderAudit, renderBuild, renderCrawl } from './cascade-render.js';

/**
 * MAX_NEED_CHARS of src/cascade, quoted in the help text: the help is built before any capability
 * loads (start-up time, issue #12); test/cli/help.test.ts checks the two agree.
 */
const HELP_MAX_NEED_CHARS = 1000;

/** Registers the `cascade` command group. */
export function registerCascade(program: Command, ctx: CliContext): void {
  const cascade = program
    .command('cascade')
    .summary('build, audit and crawl skill.index cascades (routing without a database)')
    .description(
      'A cascade is a tree of skill.index files: each line is "key: keyword, keyword", where a key\n' +
        'is a skill folder (leaf), a folder/ with its own index (descent) or . (the folder itself).\n' +
        'An agent or a program walks it from the root toward the one skill that matches a need.\n' +
        'See docs/cascade.md for the format, the crawl rules and the exit codes.',
    );
  registerCrawl(cascade, ctx);
  registerBuild(cascade, ctx);
  registerAudit(cascade, ctx);
}

/** `cascade crawl ROOT NEED`. */
function registerCrawl(cascade: Command, ctx: CliContext): void {
  cascade
    .command('crawl')
    .summary('walk a cascade from ROOT toward the one skill that matches NEED')
    .description(
      'Open ROOT/skill.index, keep the entries whose key or keyword contains NEED (case-folded),\n' +
        'prefer a skill (leaf or .) over a descent, let a stamped overlay break ties, and follow the\n' +
        'one descent left until a skill is reached. Reads only skill.index, its .sha256 stamp and\n' +
        'its .md overlay: never a skill, never a folder listing, never a path outside ROOT.\n' +
        'Exit 0 hit; 1 no match, ambiguous, no index here; 2 subtree-escape; 3 reference loop,\n' +
        'unreadable node, broken descent.',
    )
    .argument('<root>', 'the folder holding the top skill.index')
    .argument(
      '[need]',
      `the words to look for (a substring of a key or keyword; at most ${HELP_MAX_NEED_CHARS} characters)`,
    )
    .option(
      '--need-file <file>',
      'read the need from FILE ("-" for standard input) instead of the argument',
    )
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex cascade crawl examples/cascade pdf-forms\n  skilldex cascade crawl examples/cascade "chart" --json\n  echo "pdf forms" | skilldex cascade crawl examples/cascade --need-file -',
    )
    .action(
      action(
        ctx,
        async (
          root: string,
          needArg: string | undefined,
          opts: { json?: boolean; needFile?: string },
        ): Promise<ExitCode> => {
          const { CRAWL_EXIT_CODES, crawlCascade } = await import('../../cascade/index.js');
          if ((needArg === undefined) === (opts.needFile === undefined)) {
            throw new SkilldexError(
              'INVALID_ARGUMENT',
              'cascade crawl needs exactly one of NEED or --need-file FILE',
              { option: '--need-file' },
            );
          }
          const need = needArg ?? (await readInput(ctx, opts.needFile!, '--need-file'));
          const report = crawlCascade(path.resolve(ctx.io.cwd, root), need);
          if (opts.json) ctx.json(report);
          else ctx.out(renderCrawl(report, root));
          return CRAWL_EXIT_CODES[report.outcome];
        },
      ),
    );
}

/** `cascade build DIR`. */
function registerBuild(cascade: Command, ctx: CliContext): void {
  cascade
    .command('build')
    .summary('write skill.index, stamp and overlay files for a tree of skills')
    .description(
      'Read every SKILL.md below DIR (frontmatter only) and write, in DIR and in every folder with\n' +
        'skills below it, a skill.index (leaves keyed by folder name with keywords from the name,\n' +
        'keywords, tags and distinctive description terms; descents for subfolders; a . entry where\n' +
        'a folder is itself a skill), its skill.index.sha256 stamp and a skill.index.md overlay.\n' +
        'Output is deterministic and written only inside DIR. With --check nothing is written: the\n' +
        'files that would change are listed and the exit code is 1 if there are any (for CI).\n' +
        'The build then audits the cascade as built (or, with --check, as it would be) and reports\n' +
        'what `skilldex cascade audit DIR` would find right after it, such as a skill whose own\n' +
        'name reaches another skill; those findings do not change the exit code.',
    )
    .argument('<dir>', 'the folder of skills to build a cascade for')
    .option('--check', 'write nothing; list what would change and exit 1 if anything would')
    .option('--no-audit', 'skip the audit of the result (faster on a large tree)')
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex cascade build examples/cascade\n  skilldex cascade build ~/.claude/skills --check',
    )
    .action(
      action(
        ctx,
        async (
          dir: string,
          opts: { check?: boolean; json?: boolean; audit: boolean },
        ): Promise<ExitCode> => {
          const { buildCascade } = await import('../../cascade/index.js');
          const enabled = opts.json !== true && !ctx.quiet;
          const reading = progressLine(ctx.io, 'cascade build: reading skills', { enabled });
          const auditing = progressLine(ctx.io, 'cascade build: auditing', { enabled });
          let report: BuildReport;
          try {
            report = buildCascade(path.resolve(ctx.io.cwd, dir), {
              check: opts.check === true,
              audit: opts.audit,
              onProgress: reading.update,
              onAuditProgress: (done, total) => {
                reading.done();
                auditing.update(done, total);
              },
            });
          } finally {
            reading.done();
            auditing.done();
          }
          if (opts.json) ctx.json(report);
          else ctx.out(renderBuild(report));
          return report.check && report.changes.length > 0 ? 1 : 0;
        },
      ),
    );
}

/** `cascade audit ROOT`. */
function registerAudit(cascade: Command, ctx: CliContext): void {
  cascade
    .command('audit')
    .summary('list every problem a crawl of the cascade at ROOT could meet')
    .description(
      'Follow every entry of every skill.index from ROOT and report malformed lines, missing or\n' +
        'wrong stamps, broken descents, subtree escapes, reference loops, unreadable nodes, skills\n' +
        'no entry leads to, entries that lead to no skill, and sibling entries (or skill names)\n' +
        'whose keywords are so alike that needs end ambiguous. Exit 0 only when clean, else 1.',
    )
    .argument('<root>', 'the folder holding the top skill.index')
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex cascade audit examples/cascade\n  skilldex cascade audit ~/.claude/skills --json',
    )
    .action(
      action(ctx, async (root: string, opts: { json?: boolean }): Promise<ExitCode> => {
        const { auditCascade } = await import('../../cascade/index.js');
        const progress = progressLine(ctx.io, 'cascade audit: crawling skills', {
          enabled: opts.json !== true && !ctx.quiet,
        });
        let report: AuditReport;
        try {
          report = auditCascade(path.resolve(ctx.io.cwd, root), { onProgress: progress.update });
        } finally {
          progress.done();
        }
        if (opts.json) ctx.json(report);
        else ctx.out(renderAudit(report));
        return report.clean ? 0 : 1;
      }),
    );
}
