/**
 * `skilldex eval --triggers` (issue #24): the trigger-evaluation mode of `eval`. Parses its flags,
 * makes one `evalTriggers` call, renders the report as a text table, JSON,
 * JUnit XML or SARIF 2.1.0 (eval-triggers-render.ts has the text), and returns the exit code: 0 every gate passed, 1 a gate failed (or a
 * regression against --baseline, or no trigger case at all), 2 refused (bad arguments, a baseline
 * that is not a report, a trigger-eval file that does not follow its format). src/triggers loads
 * inside the action only.
 */
import type { Command } from 'commander';
import path from 'node:path';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { TriggerGates } from '../../internal.js';
import { readInput, usageEnabled, type CliContext } from '../context.js';
import {
  addScopeOptions,
  catalogOf,
  discoverOptions,
  formatOf,
  refuseMissingScopes,
  type ScopeFlags,
} from '../options.js';
import { progressLine } from '../progress.js';

/** Flags of `eval --triggers` (beside `eval`'s own --catalog, --no-usage, --json). */
export interface TriggerFlags extends ScopeFlags {
  triggers?: boolean;
  catalog?: string;
  usage?: boolean;
  json?: boolean;
  format?: string;
  recallAt?: string;
  minRecall?: string;
  minSkillRecall?: string;
  maxFalse?: string;
  maxSkillFalse?: string;
  floor?: string;
  baseline?: string;
  suggest?: boolean;
  quiet?: boolean;
  split?: string;
}

const FORMATS = ['text', 'json', 'junit', 'sarif'] as const;

/** Adds the options of the --triggers mode to the `eval` command. */
export function addTriggerOptions(cmd: Command): Command {
  return addScopeOptions(
    cmd
      .option(
        '--triggers',
        "trigger evaluations: route the should / should-not requests found beside each skill (and in FILES) and report each skill's hits, misses and false triggers",
      )
      .option(
        '--format <format>',
        '--triggers: text, json, junit (JUnit XML) or sarif (SARIF 2.1.0)',
        'text',
      )
      .option(
        '--recall-at <k>',
        '--triggers: a request passes when its skill is within the first k (1 or 3)',
        '1',
      )
      .option('--min-recall <r>', '--triggers: fail when library-wide recall is below r (0-1)')
      .option('--min-skill-recall <r>', "--triggers: fail when a skill's recall is below r")
      .option(
        '--max-false <f>',
        '--triggers: fail when the library-wide false-trigger rate is above f (0-1)',
      )
      .option(
        '--max-skill-false <f>',
        "--triggers: fail when a skill's false-trigger rate is above f",
      )
      .option(
        '--baseline <file>',
        '--triggers: fail only on regressions against a report saved with --json',
      )
      .option(
        '--suggest',
        '--triggers: for each failing skill, the words that compete, are missing or draw false triggers',
      )
      .option(
        '--floor <confidence>',
        '--triggers: confidence floor a should-not request must not reach (when the ranking gives confidence)',
      )
      .option('--quiet', '--triggers: text: the totals and failures only; no progress bar')
      .option(
        '--split <mode>',
        "--triggers: auto (default: 60/40 train/validation by request hash when the policy learns from the skills' own cases), holdout (always) or none; a request the ranking learned is never graded",
        'auto',
      ),
  );
}

/** Runs `eval --triggers` with extra case files `files`. */
export async function runTriggerEval(
  files: readonly string[],
  o: TriggerFlags,
  ctx: CliContext,
  toolVersion: string,
): Promise<ExitCode> {
  const format = formatOf(o, FORMATS);
  const recallAt = o.recallAt === '3' ? 3 : o.recallAt === undefined || o.recallAt === '1' ? 1 : 0;
  if (recallAt === 0)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--recall-at must be 1 or 3, got ${JSON.stringify(o.recallAt)}`,
      {
        option: '--recall-at',
        value: o.recallAt,
      },
    );
  const gates = gatesOf(o);
  const split = o.split ?? 'auto';
  if (split !== 'auto' && split !== 'holdout' && split !== 'none')
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--split must be auto, holdout or none, got ${JSON.stringify(o.split)}`,
      { option: '--split', value: o.split },
    );
  const floor = o.floor !== undefined ? share('--floor', o.floor) : undefined;
  refuseMissingScopes(o, ctx, 'evaluated');
  const lib = await import('../../triggers/index.js');
  const baseline =
    o.baseline !== undefined
      ? lib.parseTriggerBaseline(await readInput(ctx, o.baseline, '--baseline'), o.baseline)
      : undefined;
  const quiet = o.quiet === true || ctx.quiet;
  const indexing = progressLine(ctx.io, 'eval: indexing');
  const routing = progressLine(ctx.io, 'eval: routing requests');
  let report;
  try {
    report = lib.evalTriggers({
      ...discoverOptions(o, ctx),
      ...(o.catalog !== undefined ? { catalog: catalogOf(ctx, o) } : {}),
      usage: usageEnabled(o.usage, ctx.io.env),
      files: files.map((f) => path.resolve(ctx.io.cwd, f)),
      recall_at: recallAt,
      split,
      gates,
      ...(baseline !== undefined ? { baseline } : {}),
      suggest: o.suggest === true,
      ...(floor !== undefined ? { floor } : {}),
      ...(!quiet
        ? { onProgress: (stage, d, n) => (stage === 'index' ? indexing : routing).update(d, n) }
        : {}),
    });
  } finally {
    indexing.done();
    routing.done();
  }
  if (format === 'json') ctx.json(report);
  else if (format === 'junit') ctx.out(lib.renderTriggerJunit(report));
  else if (format === 'sarif')
    ctx.json(lib.renderTriggerSarif(report, { baseDir: ctx.io.cwd, toolVersion }));
  else {
    const { renderTriggerText } = await import('./eval-triggers-render.js');
    ctx.out(renderTriggerText(report, { cwd: ctx.io.cwd, quiet }));
  }
  if (report.problems.length > 0) return 2;
  if (report.totals.cases === 0 || report.gates.failures.length > 0) return 1;
  return 0;
}

// The gates given: each a share in [0, 1].
function gatesOf(o: TriggerFlags): TriggerGates {
  return {
    ...(o.minRecall !== undefined ? { min_recall: share('--min-recall', o.minRecall) } : {}),
    ...(o.minSkillRecall !== undefined
      ? { min_skill_recall: share('--min-skill-recall', o.minSkillRecall) }
      : {}),
    ...(o.maxFalse !== undefined ? { max_false: share('--max-false', o.maxFalse) } : {}),
    ...(o.maxSkillFalse !== undefined
      ? { max_skill_false: share('--max-skill-false', o.maxSkillFalse) }
      : {}),
  };
}

// A share in [0, 1] given as 0.7 or 70%.
function share(option: string, v: string): number {
  const pct = v.trim().endsWith('%');
  const n = Number(pct ? v.trim().slice(0, -1) : v);
  const x = pct ? n / 100 : n;
  if (v.trim() === '' || !Number.isFinite(x) || x < 0 || x > 1)
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} must be a share from 0 to 1 (or 0% to 100%), got ${JSON.stringify(v)}`,
      { option, value: v },
    );
  return x;
}
