/**
 * `skilldex lint` (issue #14): one `lintLibrary` call, rendered as text grouped by code (counts
 * first), as the report object (`--json`), or as SARIF 2.1.0 (`--format sarif`). Exit 1 when a
 * finding is at or above `--fail-on`. Formatting only; skill text is escaped for the terminal.
 */
import path from 'node:path';
import type { Command } from 'commander';
import {
  LINT_CODES,
  SkilldexError,
  atOrAbove,
  escapeInvisible,
  lintLibrary,
  renderSarif,
  type LintCode,
  type LintFinding,
  type LintReport,
  type LintSeverity,
} from '../index.js';
import { action, type CliContext } from './context.js';
import { progressLine } from './progress.js';
import { addScopeOptions, discoverOptions, type ScopeFlags } from './scan.js';

const FORMATS = ['text', 'json', 'sarif'] as const;
const FAIL_ON = ['error', 'warning', 'never'] as const;

interface LintFlags extends ScopeFlags {
  catalog?: string;
  json?: boolean;
  format?: string;
  failOn?: string;
  fixSuggestions?: boolean;
  quiet?: boolean;
}

/** Registers `lint`. */
export function registerLint(program: Command, ctx: CliContext): void {
  addScopeOptions(
    program
      .command('lint')
      .summary(
        'find skills that will route badly: confusable, unreachable, weak or truncated descriptions, spec warnings',
      )
      .description(
        "Lint a skill library. Every skill's self-queries (its name as words, its\n" +
          'rarest description words) are ranked by the router: a skill another skill\n' +
          'beats is CONFUSABLE; one no self-query brings into the top 3 is UNREACHABLE.\n' +
          'Also truncated and weak descriptions, near-duplicate descriptions, spec\n' +
          'warnings with the field named, shadowed and duplicate files, hidden text,\n' +
          'instruction-like descriptions and (with a catalog that has telemetry) skills\n' +
          'never fetched. Without --catalog a temporary catalog is built with the\n' +
          'default policy and removed afterwards. Never edits a file.\n' +
          'Codes, rules and thresholds: docs/lint.md.',
      ),
  )
    .option(
      '--catalog <file>',
      'rank against this existing catalog (file or postgres:// URL, read only) instead of a temporary one',
    )
    .option('--format <format>', 'text, json or sarif (SARIF 2.1.0 for code scanning)', 'text')
    .option('--json', 'print the report object as JSON (same as --format json)')
    .option(
      '--fail-on <severity>',
      'exit 1 when a finding is at or above: error, warning or never',
      'error',
    )
    .option(
      '--fix-suggestions',
      'print how to fix each finding; for confusable pairs, the words that separate them',
    )
    .option('--quiet', 'text: print only the counts; no progress bar')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex lint --scope examples/skills\n  skilldex lint --scope skills --fail-on warning --fix-suggestions\n' +
        '  skilldex lint --catalog .skilldex/catalog.sqlite --scope skills --json\n  skilldex lint --scope skills --format sarif > lint.sarif\n' +
        '\nExit codes: 0 no finding at or above --fail-on, 1 such findings (or no skill found), 2 refused (bad arguments).',
    )
    .action(
      action(ctx, (o: LintFlags) => {
        const format = o.json ? 'json' : (o.format ?? 'text');
        if (!(FORMATS as readonly string[]).includes(format)) {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--format must be one of ${FORMATS.join(', ')}, got ${JSON.stringify(o.format)}`,
            { option: '--format', value: o.format },
          );
        }
        if (o.json && o.format !== undefined && o.format !== 'text' && o.format !== 'json') {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--json and --format ${o.format} disagree: give one`,
            { option: '--format', value: o.format },
          );
        }
        const failOn = o.failOn ?? 'error';
        if (!(FAIL_ON as readonly string[]).includes(failOn)) {
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            `--fail-on must be one of ${FAIL_ON.join(', ')}, got ${JSON.stringify(failOn)}`,
            { option: '--fail-on', value: failOn },
          );
        }
        const quiet = o.quiet === true || ctx.quiet;
        const showProgress = !quiet;
        const indexing = progressLine(ctx.io, 'lint: indexing');
        const ranking = progressLine(ctx.io, 'lint: ranking self-queries');
        let report: LintReport;
        try {
          report = lintLibrary({
            ...discoverOptions(o, ctx),
            ...(o.catalog !== undefined
              ? { catalog: ctx.settings({ catalog: o.catalog }).catalog.value }
              : {}),
            ...(showProgress
              ? {
                  onProgress: (stage, done, total) =>
                    (stage === 'index' ? indexing : ranking).update(done, total),
                }
              : {}),
          });
        } finally {
          indexing.done();
          ranking.done();
        }
        if (format === 'json') ctx.json(report);
        else if (format === 'sarif')
          ctx.json(
            renderSarif(report, { baseDir: ctx.io.cwd, toolVersion: program.version() ?? '0.0.0' }),
          );
        else
          ctx.out(
            renderLintText(report, {
              cwd: ctx.io.cwd,
              fixSuggestions: o.fixSuggestions === true,
              quiet,
            }),
          );
        if (report.skills === 0 && report.findings.length === 0) return 1;
        return report.findings.some((f) => atOrAbove(f.severity, failOn as LintSeverity | 'never'))
          ? 1
          : 0;
      }),
    );
}

// Skill ids named on one finding line (a near-duplicate family can hold hundreds).
const IDS_SHOWN = 4;

/** The text rendering: a counts line, counts by code, then findings grouped by code. */
export function renderLintText(
  report: LintReport,
  options: { cwd: string; fixSuggestions: boolean; quiet: boolean },
): string {
  const rel = (p: string): string => {
    const r = path.relative(options.cwd, p);
    return r.startsWith('..') || path.isAbsolute(r) ? p : r;
  };
  // Messages name absolute paths (a shadowing file, a kept copy); below the cwd they read relative.
  const relText = (s: string): string => s.split(options.cwd + path.sep).join('');
  const c = report.counts;
  const lines: string[] = [
    `${report.skills} skills linted: ${c.error} error${c.error === 1 ? '' : 's'}, ${c.warning} warning${c.warning === 1 ? '' : 's'}, ${c.note} note${c.note === 1 ? '' : 's'}` +
      (report.policy !== null ? ` (ranked under ${report.policy})` : ''),
  ];
  const byCode = Object.entries(c.by_code) as [LintCode, number][];
  if (byCode.length > 0)
    lines.push(
      byCode
        .map(
          ([code, n]) =>
            `  ${code.padEnd(22)} ${String(n).padStart(5)}  ${LINT_CODES[code].severity}`,
        )
        .join('\n'),
    );
  const skipped: string[] = [];
  if (!report.checks.ranking) skipped.push('ranking (no skill to rank)');
  if (!report.checks.telemetry) skipped.push('NEVER_FETCHED (no telemetry file)');
  if (skipped.length > 0) lines.push(`not checked: ${skipped.join(', ')}`);
  if (options.quiet) return lines.map(escapeInvisible).join('\n');
  let current: LintCode | undefined;
  for (const f of report.findings) {
    if (f.code !== current) {
      current = f.code;
      lines.push(
        '',
        `${f.code} (${f.severity}, ${c.by_code[f.code] ?? 0}): ${LINT_CODES[f.code].rule}`,
      );
    }
    lines.push(...findingLines(f, rel, relText, options.fixSuggestions));
  }
  // Skill text reaches the terminal only with invisible and control characters escaped.
  return lines.map(escapeInvisible).join('\n');
}

function findingLines(
  f: LintFinding,
  rel: (p: string) => string,
  relText: (s: string) => string,
  fix: boolean,
): string[] {
  const ids =
    f.skill_ids.length > IDS_SHOWN
      ? `${f.skill_ids.slice(0, IDS_SHOWN).join(', ')} +${f.skill_ids.length - IDS_SHOWN}`
      : f.skill_ids.join(', ');
  const out = [
    `  ${rel(f.path)}${f.line !== undefined ? `:${f.line}` : ''}${ids !== '' ? `  [${ids}]` : ''}`,
    `    ${relText(f.message)}`,
  ];
  if (fix && f.fix !== undefined) out.push(`    fix: ${f.fix}`);
  if (fix && f.code === 'CONFUSABLE' && f.details['separating_words'] !== undefined) {
    for (const [id, words] of Object.entries(
      f.details['separating_words'] as Record<string, string[]>,
    )) {
      out.push(
        `    only in ${id}: ${words.length > 0 ? words.join(', ') : "(nothing: its text is a subset of the other's)"}`,
      );
    }
  }
  return out;
}
