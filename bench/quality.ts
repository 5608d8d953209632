/**
 * Quality benchmark (issues #10, #22): how well each ranking policy routes, beside the plain FTS5
 * BM25 baselines computed in the same run exactly as the shared scorer computes them
 * (bench/bm25-baseline.ts; ../shared/bench/README.md, ../shared/bench/trigger/README.md).
 *
 * - The trigger set (../shared/bench/trigger: real skills, their authors' should / should-not
 *   requests), alone and with ../shared/bench/corpus-real as distractors: every live BM25F policy
 *   (v4) beside `bm25-nd+stop`, `bm25-ndb+stop` and the weighted-column BM25; top-1, top-3, MRR,
 *   false trigger@1, English, Chinese and macro-over-repositories rows, and what each policy's
 *   default confidence floor keeps (bench/trigger-quality.ts).
 * - The tool-retrieval sets (metatool, apibench-torchhub, bfcl-curated): top-1, recall@5, MRR and
 *   nDCG@10 of every live policy (v1, v4) beside `bm25-nd`, `bm25-nd+stop`, `bm25-ndb+stop`. Learning from use
 *   is measured honestly: each dataset's queries are split in two by a fixed hash of the query id;
 *   the first half is imported with `learnExamples` (what `skilldex learn` does), and "cold" (no
 *   examples) and "warm" are both scored on the second half only, for each live BM25F policy.
 *
 * `--extra` runs the tool sets with corpus-real as distractors instead
 * (bench/results/quality-extra.md; the trigger set, which always has both settings, is left out of
 * that run). Run files go to bench/.work/runs/<method>/<dataset>.jsonl (`trigger.jsonl` and
 * `trigger-extra.jsonl` for the trigger set's two settings), ready for the scorers' `--runs` /
 * `--run`. It writes bench/results/quality[-extra].md and nothing else outside bench/.work.
 *
 *   npm run bench:quality [-- --extra]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import {
  POLICIES,
  Router,
  indexCatalog,
  learnExamples,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  scoreRanking,
  MRR_DEPTH,
  type LabelledQuery,
  type Metrics,
} from '../src/internal.js';
import { baselineRankings, loadBaselineSkills, type BaselineSkill } from './bm25-baseline.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';
import {
  abstentionTable,
  triggerQueries,
  triggerRatios,
  triggerSetting,
  triggerTable,
  type TriggerRow,
} from './trigger-quality.js';

const SPLIT = path.resolve(REPO, '..', 'shared', 'bench');
const CORPUS = path.join(SPLIT, 'corpus-real');
const DATASETS = ['metatool', 'apibench-torchhub', 'bfcl-curated'];
/** The policies scored on the trigger set (default first). */
// The live policies, and the BM25F ones among them (the ones that learn from use).
const LIVE_POLICIES = [...POLICIES.keys()];
const TRIGGER_POLICIES = [...POLICIES.values()].filter((p) => p.kind === 'bm25f').map((p) => p.id);
const extra = process.argv.includes('--extra');
// `--trigger`: the trigger set only (both settings, every BM25F policy), to quality-trigger.md.
const triggerOnly = process.argv.includes('--trigger');

/** The half a query falls in: first byte of sha256(id) mod 2 (0 = learned from, 1 = evaluated). */
function half(id: string): number {
  return createHash('sha256').update(id).digest()[0]! % 2;
}

function rankAll(router: Router, queries: readonly LabelledQuery[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const q of queries) {
    try {
      out.set(
        q.id,
        router
          .search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH)
          .candidates.map((c) => c.skill_id),
      );
    } catch {
      // A query with no searchable word ranks nothing, as the scorer counts an empty ranking.
      out.set(q.id, []);
    }
  }
  return out;
}

// A new, empty catalog path: the catalog, its WAL files and its telemetry file (where usage examples
// live) from an earlier run are removed, so a "cold" run never ranks with examples learned before.
function freshCatalog(name: string): string {
  const catalog = path.join(WORK, name);
  const stem = name.replace(/\.sqlite$/, '');
  for (const f of readdirSync(WORK).filter(
    (n) =>
      n === stem + '.sqlite' ||
      n.startsWith(stem + '.sqlite-') ||
      n.startsWith(stem + '.telemetry.'),
  )) {
    rmSync(path.join(WORK, f));
  }
  return catalog;
}

/** Writes one method's rankings of one dataset as a scorer's run file under bench/.work/runs. */
function writeRun(
  method: string,
  dataset: string,
  qs: readonly { id: string }[],
  rankings: ReadonlyMap<string, string[]>,
): void {
  const folder = path.join(WORK, 'runs', method.split(' ')[0]!);
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(folder, `${dataset}.jsonl`),
    qs.map((q) => JSON.stringify({ id: q.id, ranking: rankings.get(q.id) ?? [] })).join('\n') +
      '\n',
  );
}

interface ToolRow {
  readonly dataset: string;
  readonly method: string;
  readonly m: Metrics;
}

const short = (policy: string): string => policy.split('.').slice(-2).join('.');

/** Learning from use for `policy`: learn from the first half, score cold and warm on the second. */
function coldWarm(
  ds: string,
  policy: string,
  scopes: readonly string[],
  queries: readonly LabelledQuery[],
  push: (
    ds: string,
    method: string,
    r: Map<string, string[]>,
    qs: readonly LabelledQuery[],
  ) => void,
): void {
  const second = queries.filter((q) => half(q.id) === 1);
  const name = short(policy);
  const catalog = freshCatalog(`quality-${ds}${extra ? '-extra' : ''}-${name}-warm.sqlite`);
  indexCatalog({ catalog, scopes: [...scopes], now: () => new Date(0), policy });
  const cold = new Router({ catalog, telemetry: false });
  push(ds, `${name}-cold (second half)`, rankAll(cold, second), second);
  cold.close();
  const lines = queries
    .filter((q) => half(q.id) === 0)
    .map((q) => JSON.stringify({ id: q.id, query: q.query, relevant: q.relevant }));
  learnExamples({
    catalog,
    text: lines.join('\n'),
    file: `${ds}/queries.jsonl (first half)`,
    now: () => new Date(0),
  });
  const warm = new Router({ catalog, telemetry: false });
  push(ds, `${name}-warm (second half)`, rankAll(warm, second), second);
  warm.close();
}

/** Every tool-set row: baselines, policies v1–v4, cold and warm; then the macro averages. */
function toolRows(): ToolRow[] {
  const rows: ToolRow[] = [];
  const push = (
    ds: string,
    method: string,
    rankings: Map<string, string[]>,
    qs: readonly LabelledQuery[],
  ): void => {
    rows.push({
      dataset: ds,
      method,
      m: meanMetrics(qs.map((q) => scoreRanking(rankings.get(q.id) ?? [], q))),
    });
    writeRun(method, ds, qs, rankings);
  };
  const distractors: BaselineSkill[] = extra ? loadBaselineSkills(CORPUS, true).skills : [];
  for (const ds of DATASETS) {
    const dir = path.join(SPLIT, ds);
    const queries = parseQueryLines(
      readFileSync(path.join(dir, 'queries.jsonl'), 'utf8'),
      `${ds}/queries.jsonl`,
      true,
    );
    const scopes = [path.join(dir, 'catalog'), ...(extra ? [CORPUS] : [])];
    const skills = [...loadBaselineSkills(path.join(dir, 'catalog')).skills, ...distractors];
    push(ds, 'bm25-nd', baselineRankings(skills, queries, { body: false, stop: false }), queries);
    push(
      ds,
      'bm25-nd+stop',
      baselineRankings(skills, queries, { body: false, stop: true }),
      queries,
    );
    push(
      ds,
      'bm25-ndb+stop',
      baselineRankings(skills, queries, { body: true, stop: true }),
      queries,
    );
    for (const policy of LIVE_POLICIES) {
      const catalog = freshCatalog(`quality-${ds}${extra ? '-extra' : ''}-${short(policy)}.sqlite`);
      indexCatalog({ catalog, scopes, now: () => new Date(0), policy });
      const router = new Router({ catalog, telemetry: false });
      push(ds, short(policy), rankAll(router, queries), queries);
      router.close();
    }
    for (const policy of TRIGGER_POLICIES) coldWarm(ds, policy, scopes, queries, push);
  }
  for (const method of [...new Set(rows.map((r) => r.method))]) {
    rows.push({
      dataset: '**macro avg**',
      method,
      m: macroAverage(rows.filter((r) => r.method === method).map((r) => r.m)),
    });
  }
  return rows;
}

/** The trigger-set section: both settings, the ratios to the best baseline, the floors. */
function triggerSection(): string[] {
  const root = path.join(SPLIT, 'trigger');
  const qs = triggerQueries(root);
  // score.py's run files: python3 ../shared/bench/trigger/score.py --run bench/.work/runs/<method>/trigger.jsonl
  const runFile =
    (suffix: string) =>
    (method: string, runs: ReadonlyMap<string, string[]>): void =>
      writeRun(method, `trigger${suffix}`, qs, runs);
  const settings: [string, TriggerRow[]][] = [
    ['112 skills', triggerSetting(qs, [path.join(root, 'skills')], TRIGGER_POLICIES, runFile(''))],
    [
      '+ corpus-real (1,318 files)',
      triggerSetting(qs, [path.join(root, 'skills'), CORPUS], TRIGGER_POLICIES, runFile('-extra')),
    ],
  ];
  const pos = qs.filter((q) => q.should_trigger).length;
  const lines = [
    "## Trigger set (real skills, their authors' requests)",
    '',
    `../shared/bench/trigger: ${qs.length} requests (${pos} should trigger a named skill, ${qs.length - pos} near-misses that should not), metrics as its score.py: top-1 / top-3 / MRR of the labelled skill on positives, false trigger@1 = the named skill ranked first on negatives; en and zh are the English and Chinese positives; macro averages the 34 repositories. Baselines are plain FTS5 BM25 as score.py builds them (every SKILL.md, porter unicode61, OR of the query's words without score.py's stop-words); \`w(3, 2, 0.3)\` weights name, description and body in \`bm25()\`. Policies rank through the router over a fresh catalog of the same folders. Seconds: loading + indexing + ranking every request.`,
    '',
  ];
  for (const [setting, rows] of settings) {
    lines.push(`### ${setting}`, '', ...triggerTable(rows), '', ...triggerRatios(rows), '');
  }
  lines.push(
    '### At the default confidence floor',
    '',
    'Each policy\'s own floor (docs/ranking.md §11): an answer whose top candidate is below it suggests nothing. "Kept" is the share of the top-1 hits whose confidence reaches the floor; false trigger@1 counts the named skill first *and* at or above the floor; the abstain columns count answers flagged `abstain`.',
    '',
    ...abstentionTable(settings),
    '',
  );
  return lines;
}

function toolSection(rows: readonly ToolRow[]): string[] {
  return [
    `## Tool-retrieval sets${extra ? ' (+ corpus-real distractors)' : ''}`,
    '',
    'Baselines are plain FTS5 `bm25()` computed in the same run as ../shared/bench/tools/score.py does (../shared/bench/README.md). `cold`/`warm` rows are scored on the',
    'second half of each dataset (split by sha256 of the query id); `warm` first imports the first half as usage examples.',
    '',
    '| dataset | method | queries | top1 | R@5 | MRR | nDCG@10 |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.dataset} | ${r.method} | ${r.m.queries} | ${fmt(r.m.top1, 3)} | ${fmt(r.m.recall_at_5, 3)} | ${fmt(r.m.mrr, 3)} | ${fmt(r.m.ndcg_at_10, 3)} |`,
    ),
  ];
}

function main(): void {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const trigger = extra ? [] : triggerSection();
  const tools = triggerOnly ? [] : toolSection(toolRows());
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const lines = [
    `# Routing quality on the dev split${extra ? ' (+ corpus-real distractors)' : ''}`,
    '',
    `${machineLine()}, load average ${fmt(loadavg()[0]!, 1)} at the end; the whole run took ${fmt(seconds, 0)} s (${fmt((cpu.user + cpu.system) / 1e6, 0)} s of CPU).`,
    '',
    ...trigger,
    ...tools,
  ];
  writeResult(
    extra ? 'quality-extra' : triggerOnly ? 'quality-trigger' : 'quality',
    lines.join('\n'),
  );
}

mkdirSync(WORK, { recursive: true });
main();
