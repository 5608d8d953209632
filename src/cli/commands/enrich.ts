/**
 * `skilldex enrich`: ranked, evidence-backed skill recommendations for a task brief, or a refusal
 * (docs/enrich.md, issue #7). Formatting only: one library call (`enrichSkills`), then the report is
 * rendered as text (render/enrich.ts) or `--json`. Exit 0 for a selection, 2 for a refusal or a
 * refused input. src/enrich loads inside the action, never at start-up.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { EnrichReport } from '../../internal.js';
import { action, collect, parseIntOption, type CliContext } from '../context.js';
import { progressLine } from '../progress.js';

/**
 * DEFAULT_FLOOR of src/enrich, quoted in the help text: the help is built before any capability
 * loads (start-up time, issue #12); test/cli/help.test.ts checks the two agree.
 */
const HELP_DEFAULT_FLOOR = 0.05;

interface EnrichFlags {
  scope?: string[];
  catalog?: string;
  brief?: string;
  out?: string;
  floor?: number;
  home?: string;
  project?: string;
  maxBytes?: number;
  json?: boolean;
}

/** Parses `--floor`: a number from 0 up to (not including) 1. */
export function parseFloor(v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < 0 || n >= 1) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--floor must be a number from 0 up to (not including) 1, got ${JSON.stringify(v)}`,
      {
        option: '--floor',
        value: v,
      },
    );
  }
  return n;
}

/** Registers `enrich`. */
export function registerEnrich(program: Command, ctx: CliContext): void {
  program
    .command('enrich')
    .summary('recommend 5-10 installed skills for a task brief, with written evidence, or refuse')
    .description(
      [
        'Score the frontmatter description of every SKILL.md of the library against',
        'a task brief and write the evidence. The library is what index reads: the',
        '--scope folders, else library.scopes of the config, else the scopes the',
        'catalog was last indexed from; without any of them (or with --home or',
        '--project), the four enrichment scopes: personal ~/.claude/skills, the',
        'skills of enabled plugins, project <project>/.claude/skills and in-tree',
        '<project>/crucible-plugin/skills.',
        '',
        'Score = distinct brief terms found among the distinct terms of the first',
        '1,536 characters of a description, divided by the number of those terms',
        '(case-folded, stop-words out). Scores strictly above the floor are kept,',
        'ranked by score then name, at most 10.',
        '',
        '5 or more above the floor: writes INDEX.md, CANDIDATES.md, SKIPPED.md and',
        'raw-inventory.txt into the target, exit 0. Fewer: writes REFUSAL.md,',
        'SKIPPED.md and raw-inventory.txt, exit 2; the floor is never lowered.',
        'The target must lie inside <project>/evidence/skill-enrichment/ (after',
        'links and ..); nothing is written anywhere else. Only frontmatter is',
        'parsed: a body is hashed for dedup, never parsed or quoted.',
      ].join('\n'),
    )
    .option(
      '--scope <dir>',
      'read skills from DIR (repeatable); replaces the configured library and the default scopes',
      collect,
    )
    .option(
      '--catalog <file>',
      'the catalog whose remembered scopes are the library when no --scope or library.scopes is set',
    )
    .option('--brief <text>', 'the task brief (overrides $TASK_BRIEF)')
    .option(
      '--out <dir>',
      'evidence folder inside <project>/evidence/skill-enrichment/ (overrides $EVIDENCE_TARGET)',
    )
    .option(
      '--floor <x>',
      `keep scores strictly above X, 0 <= X < 1 (default: ${HELP_DEFAULT_FLOOR})`,
      parseFloor,
    )
    .option('--home <dir>', 'home folder for the personal and plugin scopes (default: $HOME)')
    .option('--project <dir>', 'project folder (default: the current directory)')
    .option(
      '--max-bytes <n>',
      'size cap per SKILL.md in bytes, hashed but never kept (default: 268435456; the frontmatter is capped at 65536)',
      parseIntOption('--max-bytes', 1, 1 << 30),
    )
    .option('--json', 'print the report object as JSON')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  TASK_BRIEF="extract tables from PDF invoices" EVIDENCE_TARGET=evidence/skill-enrichment/invoices skilldex enrich\n' +
        '  skilldex enrich --brief "review a Terraform change" --out evidence/skill-enrichment/tf --floor 0.1\n' +
        '  skilldex enrich --brief "chart sales data" --out evidence/skill-enrichment/charts --scope ~/skills\n' +
        '  skilldex enrich --project ~/code/app --home ~ --json',
    )
    .action(
      action(ctx, async (opts: EnrichFlags): Promise<ExitCode> => {
        const home = opts.home ?? ctx.io.env['HOME'];
        if (home === undefined || home === '') {
          throw new SkilldexError('INVALID_ARGUMENT', 'HOME is not set; pass --home DIR', {
            option: '--home',
          });
        }
        const scopes = enrichScopes(ctx, opts);
        const { enrichSkills } = await import('../../enrich/index.js');
        const { renderEnrichText } = await import('./enrich-render.js');
        const progress = progressLine(ctx.io, 'enrich: reading skills', {
          enabled: opts.json !== true && !ctx.quiet,
        });
        let report: EnrichReport;
        try {
          ({ report } = enrichSkills({
            env: ctx.io.env,
            cwd: ctx.io.cwd,
            home: path.resolve(ctx.io.cwd, home),
            project: path.resolve(ctx.io.cwd, opts.project ?? '.'),
            ...(scopes !== undefined ? { scopes } : {}),
            ...(opts.brief !== undefined ? { brief: opts.brief } : {}),
            ...(opts.out !== undefined ? { target: opts.out } : {}),
            ...(opts.floor !== undefined ? { floor: opts.floor } : {}),
            ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
            onProgress: progress.update,
          }));
        } finally {
          progress.done();
        }
        if (opts.json) ctx.json(report);
        else ctx.out(renderEnrichText(report));
        return report.outcome === 'selected' ? 0 : 2;
      }),
    );
}

/**
 * The library folders enrich reads, as index would: `--scope`, else (unless `--home` or `--project`
 * asks for the default scopes of a home or project) library.scopes of the config, else the scopes
 * the catalog remembers. Undefined: the four default enrichment scopes.
 */
function enrichScopes(ctx: CliContext, o: EnrichFlags): readonly string[] | undefined {
  if (o.scope === undefined && (o.home !== undefined || o.project !== undefined)) return undefined;
  return ctx.settings({ scopes: o.scope, catalog: o.catalog }, true)['library.scopes'].value;
}
