/**
 * `skilldex enrich`: ranked, evidence-backed skill recommendations for a task brief, or a refusal
 * (docs/enrich.md, issue #7). Formatting only: one library call (`enrichSkills`), then the report is
 * rendered as text or `--json`. Exit 0 for a selection, 2 for a refusal or a refused input.
 */
import path from 'node:path';
import type { Command } from 'commander';
import {
  ENRICH_DEFAULT_FLOOR,
  SkilldexError,
  enrichSkills,
  sanitizeField,
  formatFloor,
  formatScore,
  type EnrichReport,
} from '../index.js';
import { action, parseIntOption, type CliContext } from './context.js';

interface EnrichFlags {
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
        'Score the frontmatter description of every SKILL.md in the four enrichment',
        'scopes against a task brief and write the evidence. Scopes: personal',
        '~/.claude/skills, the skills of enabled plugins, project',
        '<project>/.claude/skills and in-tree <project>/crucible-plugin/skills.',
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
    .option('--brief <text>', 'the task brief (overrides $TASK_BRIEF)')
    .option(
      '--out <dir>',
      'evidence folder inside <project>/evidence/skill-enrichment/ (overrides $EVIDENCE_TARGET)',
    )
    .option(
      '--floor <x>',
      `keep scores strictly above X, 0 <= X < 1 (default: ${ENRICH_DEFAULT_FLOOR})`,
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
        '  skilldex enrich --project ~/code/app --home ~ --json',
    )
    .action(
      action(ctx, (opts: EnrichFlags) => {
        const home = opts.home ?? ctx.io.env['HOME'];
        if (home === undefined || home === '') {
          throw new SkilldexError('INVALID_ARGUMENT', 'HOME is not set; pass --home DIR', {
            option: '--home',
          });
        }
        if (ctx.io.stderrIsTTY && !opts.json) ctx.err('enrich: reading the skill scopes…');
        const { report } = enrichSkills({
          env: ctx.io.env,
          cwd: ctx.io.cwd,
          home: path.resolve(ctx.io.cwd, home),
          project: path.resolve(ctx.io.cwd, opts.project ?? '.'),
          ...(opts.brief !== undefined ? { brief: opts.brief } : {}),
          ...(opts.out !== undefined ? { target: opts.out } : {}),
          ...(opts.floor !== undefined ? { floor: opts.floor } : {}),
          ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
        });
        if (opts.json) ctx.json(report);
        else ctx.out(renderEnrichText(report));
        return report.outcome === 'selected' ? 0 : 2;
      }),
    );
}

/** Human summary of an enrichment run. */
export function renderEnrichText(report: EnrichReport): string {
  const lines: string[] = [];
  const tally = `${report.scored_count} scored of ${report.enumerated_count} enumerated, ${report.skipped.length} skipped`;
  if (report.refusal !== null) {
    lines.push(sanitizeField(report.refusal.line, 4096));
    lines.push(
      `found_count ${report.found_count} above floor ${formatFloor(report.floor)} (${tally}); the floor is never lowered.`,
    );
    if (report.refusal.closest_5.length > 0) {
      lines.push('closest:');
      for (const c of report.refusal.closest_5)
        lines.push(`  ${sanitizeField(c.skill_id)}@${formatScore(c.score)}`);
    }
  } else {
    lines.push(
      `${report.candidates.length} candidates (${report.found_count} above floor ${formatFloor(report.floor)}; ${tally})`,
    );
    const width = Math.min(40, Math.max(...report.candidates.map((c) => c.skill_id.length)));
    for (const c of report.candidates) {
      const flag = c.flags.length > 0 ? `  [${c.flags.join(', ')}]` : '';
      lines.push(
        `  ${String(c.rank).padStart(2)}  ${formatScore(c.score)}  ${sanitizeField(c.skill_id).padEnd(width)}  ${sanitizeField(c.path)}${flag}`,
      );
    }
  }
  lines.push(`evidence: ${sanitizeField(report.target, 4096)}/ ${report.artifacts.join(', ')}`);
  return lines.join('\n');
}
