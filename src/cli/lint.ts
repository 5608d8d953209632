/**
 * `skilldex lint` (issue #14): one `lintLibrary` call, rendered as text grouped by code (counts
 * first), as the report object (`--json`), or as SARIF 2.1.0 (`--format sarif`). Exit 1 when a
 * finding is at or above `--fail-on`. Formatting only (the text rendering is render/lint.ts); skill
 * text is escaped for the terminal. src/lint loads inside the action, never at start-up.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../errors.js';
import type { LintReport, LintSeverity } from '../index.js';
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
  only?: string[];
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
          'never fetched, and the security group (remote code piped to a shell,\n' +
          'credential reads, encoded payloads, paste-site and raw-IP URLs, wide\n' +
          'allowed-tools, hooks that run commands). Without --catalog a temporary catalog is built with the\n' +
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
    .option(
      '--only <codes>',
      'report only these codes or groups, comma-separated (repeatable); e.g. security (docs/lint.md "Security")',
      (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter((x) => x.trim() !== '')],
    )
    .option('--quiet', 'text: print only the counts; no progress bar')
    .addHelpText(
      'after',
      '\nExamples:\n  skilldex lint --scope examples/skills\n  skilldex lint --scope skills --fail-on warning --fix-suggestions\n' +
        '  skilldex lint --catalog .skilldex/catalog.sqlite --scope skills --json\n  skilldex lint --scope skills --format sarif > lint.sarif\n' +
        '  skilldex lint --scope third-party/skills --only security   # no catalog is built\n' +
        '\nExit codes: 0 no finding at or above --fail-on, 1 such findings (or no skill found), 2 refused (bad arguments).',
    )
    .action(
      action(ctx, async (o: LintFlags): Promise<ExitCode> => {
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
        const { atOrAbove, lintLibrary, renderSarif } = await import('../lint/index.js');
        const { renderLintText } = await import('./render/lint.js');
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
            ...(o.only !== undefined ? { only: o.only } : {}),
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
              ...(o.only !== undefined ? { only: o.only } : {}),
            }),
          );
        if (report.skills === 0 && report.findings.length === 0) return 1;
        return report.findings.some((f) => atOrAbove(f.severity, failOn as LintSeverity | 'never'))
          ? 1
          : 0;
      }),
    );
}
