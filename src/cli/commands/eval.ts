/**
 * `skilldex eval FILES`: routing quality of labelled query files against the catalog (top-1,
 * recall@5, MRR, nDCG@10 per file and their macro average); `eval --triggers` hands over to
 * eval-triggers.ts. Telemetry is neither used nor written. The router loads inside the action.
 */
import type { Command } from 'commander';
import { SkilldexError, type ExitCode } from '../../errors.js';
import type { LabelledQuery, Metrics, Router } from '../../internal.js';
import { escapeInvisible, markdownInline, sanitizeField } from '../../text/index.js';
import { action, readInput, usageEnabled, type CliContext } from '../context.js';
import { addCatalogOption, catalogOf, namingCatalog, type CatalogFlag } from '../options.js';
import { addTriggerOptions, runTriggerEval, type TriggerFlags } from './eval-triggers.js';

/** Flags of `eval` without --triggers. */
type QueryEvalFlags = CatalogFlag & { usage?: boolean; perQuery?: boolean };

/** One query whose top result is not relevant (`eval --per-query`). */
interface EvalMiss {
  readonly file: string;
  readonly id: string;
  readonly query: string;
  readonly expected: readonly string[];
  readonly got: readonly string[];
}

/** The examples and exit codes `eval --help` ends with. */
const EVAL_HELP_AFTER =
  '\nExamples:\n  skilldex eval my-queries.jsonl\n  skilldex eval a.jsonl b.jsonl --per-query\n  skilldex eval my-queries.jsonl --json\n' +
  '  skilldex eval --triggers --scope skills\n  skilldex eval --triggers --scope skills --min-recall 0.8 --max-false 0.1 --format sarif > triggers.sarif\n' +
  '  skilldex eval --triggers --scope skills --json > triggers-baseline.json; skilldex eval --triggers --scope skills --baseline triggers-baseline.json\n' +
  '\nExit 1 when a label names a skill that is not in the published generation (listed as unknown_labels).\n' +
  'With --triggers: 0 every gate passed; 1 a gate failed, a regression against --baseline, or no trigger\n' +
  'case found; 2 refused (bad arguments, a baseline that is not a report, a trigger-eval file that does\n' +
  'not follow its format: each problem named by file and line).';

/** Registers `eval` (and its --triggers mode). */
export function registerEval(program: Command, ctx: CliContext): void {
  const cmd = addCatalogOption(
    program
      .command('eval [files...]')
      .summary(
        'measure routing quality on labelled queries (top-1, recall@5, MRR, nDCG@10), or run trigger evaluations (--triggers)',
      )
      .description(
        'Run every query of each JSONL file ({"id","query","relevant":[skill_id,…]}, the format of the\n' +
          'skilldex bench data) against the catalog and report top-1, recall@5, MRR and nDCG@10 per file\n' +
          'and their macro average. Telemetry is neither used nor written; learned usage examples rank\n' +
          '(as they do for agents) unless --no-usage.\n\n' +
          'With --triggers: find the trigger evaluations beside each skill of the scopes (evals/trigger-\n' +
          "evals.json, evals/evals.json, trigger_eval.json…, the project's skilldex-evals.jsonl, and FILES),\n" +
          'route every should / should-not request against the whole library as agents get it, and report\n' +
          'per skill: top-1, top-3, MRR, false triggers, abstentions, and who took its requests on which\n' +
          'words. Gates, baselines, JUnit and SARIF for CI: docs/triggers.md and docs/ci.md.',
      ),
  )
    .option('--no-usage', 'rank without learned usage examples (cold)')
    .option('--per-query', 'also list every miss: the query, the skills expected, the top 3 it got')
    .option('--json', 'print the metrics as JSON');
  addTriggerOptions(cmd)
    .addHelpText('after', EVAL_HELP_AFTER)
    .action(
      action(ctx, async (files: string[], o: TriggerFlags & QueryEvalFlags): Promise<ExitCode> => {
        if (o.triggers === true) return runTriggerEval(files, o, ctx, program.version() ?? '0.0.0');
        if (files.length === 0)
          throw new SkilldexError(
            'INVALID_ARGUMENT',
            'eval: give at least one query file, or --triggers for trigger evaluations',
            { option: 'files' },
          );
        return runQueryEval(files, o, ctx, catalogOf(ctx, o));
      }),
    );
}

// `eval FILES`: routing quality of labelled query files against the catalog.
async function runQueryEval(
  files: readonly string[],
  o: QueryEvalFlags,
  ctx: CliContext,
  catalog: string,
): Promise<ExitCode> {
  const lib = await import('../../router/index.js');
  return namingCatalog(catalog, async (): Promise<ExitCode> => {
    const router = new lib.Router({
      catalog,
      telemetry: false,
      usage: usageEnabled(o.usage, ctx.io.env),
    });
    try {
      const rows: (Metrics & { file: string })[] = [];
      const misses: EvalMiss[] = [];
      const labelled = new Map<string, { file: string; id: string }[]>();
      for (const file of files) {
        const queries = lib.parseQueryLines(await readInput(ctx, file), file, true);
        for (const q of queries)
          for (const id of new Set([...q.relevant, ...Object.keys(q.graded ?? {})]))
            labelled.set(id, [...(labelled.get(id) ?? []), { file, id: q.id }]);
        const scores = queries.map((q) => {
          const ranking = rankingOf(router, q, lib.MRR_DEPTH);
          const score = lib.scoreRanking(ranking, q);
          if (score.top1 === 0)
            misses.push({
              file,
              id: q.id,
              query: q.query,
              expected: q.relevant,
              got: ranking.slice(0, 3),
            });
          return score;
        });
        rows.push({ file, ...lib.meanMetrics(scores) });
      }
      const overall = lib.macroAverage(rows);
      const known = lib.locateSkills(catalog, [...labelled.keys()]);
      const unknown = [...labelled.entries()]
        .filter(([id]) => !known.has(id))
        .map(([skill_id, queries]) => ({ skill_id, queries }))
        .sort((a, b) => (a.skill_id < b.skill_id ? -1 : a.skill_id > b.skill_id ? 1 : 0));
      if (o.json)
        ctx.json({
          files: rows,
          macro_average: overall,
          ...(o.perQuery ? { misses } : {}),
          unknown_labels: unknown,
        });
      else {
        const table = [...rows, { file: 'macro average', ...overall }];
        ctx.out(renderEvalRows(table, o.perQuery ? misses : undefined));
        for (const u of unknown)
          ctx.note(
            `unknown label ${escapeInvisible(u.skill_id)}: not in the published generation (${u.queries.map((q) => `${escapeInvisible(q.file)} ${escapeInvisible(q.id)}`).join(', ')})`,
          );
      }
      return unknown.length > 0 ? 1 : 0;
    } finally {
      router.close();
    }
  });
}

// The skill ids a query ranks, `depth` deep; a query the router refuses ranks nothing.
function rankingOf(router: Router, q: LabelledQuery, depth: number): string[] {
  try {
    return router.search({ query: q.query, limit: depth }, depth).candidates.map((c) => c.skill_id);
  } catch (err) {
    if (!(err instanceof SkilldexError) || err.code !== 'INVALID_QUERY') throw err;
    return [];
  }
}

/** The `eval` table (one row per file, then the macro average) and, with --per-query, the misses. */
export function renderEvalRows(
  rows: readonly (Metrics & { file: string })[],
  misses?: readonly EvalMiss[],
): string {
  const f = (x: number): string => x.toFixed(3);
  const lines = ['| file | queries | top1 | R@5 | MRR | nDCG@10 |', '|---|---|---|---|---|---|'];
  for (const r of rows) {
    lines.push(
      `| ${sanitizeField(markdownInline(r.file), 1000)} | ${r.queries} | ${f(r.top1)} | ${f(r.recall_at_5)} | ${f(r.mrr)} | ${f(r.ndcg_at_10)} |`,
    );
  }
  if (misses !== undefined) {
    lines.push(
      '',
      misses.length === 0
        ? 'misses: none (every top-1 is relevant)'
        : `misses (top-1 not relevant): ${misses.length}`,
    );
    for (const m of misses) {
      lines.push(
        `  ${escapeInvisible(m.file)} ${escapeInvisible(m.id)}: ${escapeInvisible(JSON.stringify(m.query))}`,
      );
      lines.push(
        `    expected ${escapeInvisible(m.expected.join(', ') || '(none)')}; got ${escapeInvisible(m.got.join(', ') || '(nothing)')}`,
      );
    }
  }
  return lines.join('\n');
}
