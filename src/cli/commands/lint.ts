/**
 * `skilldex lint` (issues #14, #24): one `lintLibrary` call, rendered as text grouped by code
 * (counts first), as the report object (`--json`), or as SARIF 2.1.0 (`--format sarif`). Exit 1
 * when a finding is at or above `--fail-on`. The suppressions are the config files' `lint.ignore`
 * (user and project; a project config may hold them: they only hide findings, and each is counted);
 * `--baseline` reads a saved `--json` report. Formatting only (the text rendering is
 * render/lint.ts); skill text is escaped for the terminal. src/lint loads inside the action, never
 * at start-up.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { LintReport, LintSeverity } from '../../internal.js';
import type { LintSuppression } from '../../lint/index.js';
import { action, readInput, type CliContext } from '../context.js';
import { progressLine } from '../progress.js';
import {
  addScopeOptions,
  discoverOptions,
  formatOf,
  oneOf,
  refuseMissingScopes,
  type ScopeFlags,
} from '../options.js';

const FORMATS = ['text', 'json', 'sarif'] as const;
const FAIL_ON = ['error', 'warning', 'note', 'never'] as const;
const PROFILE_NAMES = ['lenient', 'spec'] as const;

interface LintFlags extends ScopeFlags {
  catalog?: string;
  json?: boolean;
  format?: string;
  failOn?: string;
  fixSuggestions?: boolean;
  quiet?: boolean;
  profile?: string;
  baseline?: string;
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
      'exit 1 when a finding is at or above: error, warning, note or never',
      'error',
    )
    .option(
      '--profile <profile>',
      'lenient (what Claude Code and Codex load) or spec (the agentskills spec strictly: six fields, lengths)',
      'lenient',
    )
    .option(
      '--baseline <file>',
      'report only findings that are new against a report saved with --json (the rest are counted)',
    )
    .option(
      '--only <codes>',
      'report only these codes or groups, comma-separated (repeatable); e.g. security (docs/lint.md "Security")',
      (v: string, prev: string[] = []) => [...prev, ...v.split(',').filter((x) => x.trim() !== '')],
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
        '  skilldex lint --scope skills --json > lint-baseline.json     # adopt lint on an existing library…\n' +
        '  skilldex lint --scope skills --baseline lint-baseline.json   # …then fail only on new findings\n' +
        '  skilldex lint --scope skills --profile spec                  # the agentskills spec, strictly\n' +
        '  skilldex lint --scope third-party/skills --only security     # no catalog is built\n' +
        '\nSuppress a code in the config file ([[lint.ignore]] code = "DESCRIPTION_WEAK", skills = "*-automation",\n' +
        'reason = "…") or in a skill (metadata: { skilldex-lint-ignore: "CONFUSABLE" }); every suppression is\n' +
        'counted in the summary. Security codes are suppressed only by your own config (or a project you\n' +
        'trust): a skill or a project config naming one is refused and reported as SUPPRESSION_REFUSED.\n' +
        'Templated families are one finding each, with their size and members.\n' +
        '\nExit codes: 0 no finding at or above --fail-on, 1 such findings (or no skill found), 2 refused\n' +
        '(bad arguments, a bad lint.ignore rule, a --baseline file that is not a lint report).',
    )
    .action(action(ctx, (o: LintFlags) => runLint(o, ctx, program.version() ?? '0.0.0')));
}

// The lint action: checks the flags, reads the suppressions and baseline, lints, renders.
async function runLint(o: LintFlags, ctx: CliContext, toolVersion: string): Promise<ExitCode> {
  const format = formatOf(o, FORMATS);
  const failOn = oneOf('--fail-on', o.failOn ?? 'error', FAIL_ON);
  const profile = oneOf('--profile', o.profile ?? 'lenient', PROFILE_NAMES);
  refuseMissingScopes(o, ctx, 'linted');
  const { atOrAbove, lintLibrary, parseLintBaseline, renderSarif } =
    await import('../../lint/index.js');
  const suppressions = configSuppressions(ctx);
  const baseline =
    o.baseline !== undefined
      ? parseLintBaseline(await readInput(ctx, o.baseline, '--baseline'), o.baseline)
      : undefined;
  const { renderLintText } = await import('./lint-render.js');
  const quiet = o.quiet === true || ctx.quiet;
  const indexing = progressLine(ctx.io, 'lint: indexing');
  const ranking = progressLine(ctx.io, 'lint: ranking self-queries');
  let report: LintReport;
  try {
    report = configured(() =>
      lintLibrary({
        ...discoverOptions(o, ctx),
        profile,
        suppressions,
        ...(o.only !== undefined ? { only: o.only } : {}),
        ...(baseline !== undefined ? { baseline } : {}),
        ...(o.catalog !== undefined
          ? { catalog: ctx.settings({ catalog: o.catalog }).catalog.value }
          : {}),
        ...(!quiet
          ? {
              onProgress: (stage, done, total) =>
                (stage === 'index' ? indexing : ranking).update(done, total),
            }
          : {}),
      }),
    );
  } finally {
    indexing.done();
    ranking.done();
  }
  if (format === 'json') ctx.json(report);
  else if (format === 'sarif') ctx.json(renderSarif(report, { baseDir: ctx.io.cwd, toolVersion }));
  else
    ctx.out(
      renderLintText(report, {
        cwd: ctx.io.cwd,
        fixSuggestions: o.fixSuggestions === true,
        quiet,
        ...(o.only !== undefined ? { only: o.only } : {}),
      }),
    );
  if (report.skills === 0 && report.summary.raw === 0) return 1;
  return report.findings.some((f) => atOrAbove(f.severity, failOn as LintSeverity | 'never'))
    ? 1
    : 0;
}

// Runs `fn`, turning a refused lint.ignore rule (INVALID_ARGUMENT naming a lint.ignore key) into
// CONFIG_INVALID: the mistake is in a config file, and the message names it.
function configured<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    const key = err instanceof SkilldexError ? err.details['key'] : undefined;
    if (err instanceof SkilldexError && typeof key === 'string' && key.startsWith('lint.ignore'))
      throw new SkilldexError('CONFIG_INVALID', err.message, err.details, { cause: err });
    throw err;
  }
}

// The lint.ignore rules of the user and the project config, each tagged with its file. A rule
// naming an unknown code or a bad glob is CONFIG_INVALID naming the file and key. A project's rules
// are untrusted (never hide a security code) unless the user's trust_project_config lists it.
function configSuppressions(ctx: CliContext): LintSuppression[] {
  const layers = ctx.configLayers();
  const out: LintSuppression[] = [];
  for (const [file, config] of [
    [layers.userPath, layers.user],
    [layers.projectPath, layers.project],
  ] as const) {
    if (file === undefined || config?.lint?.ignore === undefined) continue;
    const trusted = file === layers.userPath || layers.projectTrusted === true;
    for (const r of config.lint.ignore) out.push({ ...r, source: file, trusted });
  }
  return out;
}
