/**
 * The re-rank stage on the tool-retrieval sets (issue 34: nDCG@10 not below v4, cold and warm):
 * metatool, apibench-torchhub and bfcl-curated, each indexed with v4 as bench/quality.ts does;
 * cold = every query on a fresh catalog, warm = the second half of the queries after learning the
 * first half (bench/quality.ts's split). v4's top 20 of each query is cached under /tmp; the stage
 * re-orders it offline. Used by bench/nearmiss.ts.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  POLICY_V4_ID,
  Router,
  indexCatalog,
  learnExamples,
  meanMetrics,
  parseQueryLines,
  scoreRanking,
  type LabelledQuery,
} from '../src/internal.js';
import type { Bm25fExplanation } from '../src/router/search/policies/bm25f-core.js';
import {
  rerankNearMiss,
  type RerankCandidate,
  type RerankParams,
} from '../src/router/search/stages/rerank-nearmiss.js';
import { WORK } from './lib.js';
import { SHARED, reduceExplanation } from './nearmiss-cache.js';

const DATASETS = ['metatool', 'apibench-torchhub', 'bfcl-curated'] as const;
const DEPTH = 20;
const FILE = '/tmp/skilldex-nearmiss-tools-v4.json';

interface ToolRun {
  readonly q: LabelledQuery;
  readonly candidates: readonly RerankCandidate[];
}
type ToolCache = Record<string, { cold: ToolRun[]; warm: ToolRun[] }>;

function half(id: string): number {
  return createHash('sha256').update(id).digest()[0]! % 2;
}

function rank(router: Router, qs: readonly LabelledQuery[]): ToolRun[] {
  return qs.map((q) => {
    try {
      const r = router.search({ query: q.query, limit: DEPTH });
      return {
        q,
        candidates: r.candidates.map((c) => {
          return {
            skill_id: c.skill_id,
            name: c.name,
            description: '',
            score: c.score,
            // Without the dropped tokens, as this cache has always been written.
            explanation: {
              ...reduceExplanation(c.explanation as Bm25fExplanation),
              dropped_tokens: [],
            },
          };
        }),
      };
    } catch {
      return { q, candidates: [] };
    }
  });
}

function load(): ToolCache {
  if (existsSync(FILE)) return JSON.parse(readFileSync(FILE, 'utf8')) as ToolCache;
  const out: ToolCache = {};
  const dir = path.join(WORK, 'nearmiss-tools');
  for (const ds of DATASETS) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const catalog = path.join(dir, `${ds}.sqlite`);
    const qs = parseQueryLines(
      readFileSync(path.join(SHARED, ds, 'queries.jsonl'), 'utf8'),
      `${ds}/queries.jsonl`,
      true,
    );
    indexCatalog({
      catalog,
      scopes: [path.join(SHARED, ds, 'catalog')],
      now: () => new Date(0),
      policy: POLICY_V4_ID,
    });
    const cold = new Router({ catalog, telemetry: false });
    const coldRuns = rank(cold, qs);
    cold.close();
    learnExamples({
      catalog,
      text: qs
        .filter((q) => half(q.id) === 0)
        .map((q) => JSON.stringify({ id: q.id, query: q.query, relevant: q.relevant }))
        .join('\n'),
      file: `${ds}/queries.jsonl (first half)`,
      now: () => new Date(0),
    });
    const warm = new Router({ catalog, telemetry: false });
    const warmRuns = rank(
      warm,
      qs.filter((q) => half(q.id) === 1),
    );
    warm.close();
    out[ds] = { cold: coldRuns, warm: warmRuns };
  }
  rmSync(dir, { recursive: true, force: true });
  writeFileSync(FILE, JSON.stringify(out));
  return out;
}

/** Per dataset and cold / warm: nDCG@10 of v4 and of v4 + the stage under `params`. */
export function toolFigures(params: RerankParams): { set: string; v4: number; stage: number }[] {
  const cache = load();
  const out: { set: string; v4: number; stage: number }[] = [];
  for (const ds of DATASETS)
    for (const mode of ['cold', 'warm'] as const) {
      const runs = cache[ds]![mode];
      const nd = (stage: boolean): number =>
        meanMetrics(
          runs.map((r) =>
            scoreRanking(
              stage
                ? rerankNearMiss(r.q.query, r.candidates, params).map((x) => x.candidate.skill_id)
                : r.candidates.map((c) => c.skill_id),
              r.q,
            ),
          ),
        ).ndcg_at_10;
      out.push({ set: `${ds} ${mode}`, v4: nd(false), stage: nd(true) });
    }
  return out;
}

/** nDCG@10 of v4 and of v4 + the stage, per dataset, cold and warm. */
export function toolSection(params: RerankParams, f3: (v: number) => string): string[] {
  const cache = load();
  const lines = [
    '## The tool-retrieval sets (nDCG@10, v4 against v4 + the stage)',
    '',
    '| dataset | v4 cold | + stage cold | v4 warm (second half) | + stage warm |',
    '|---|---|---|---|---|',
  ];
  const nd = (runs: readonly ToolRun[], stage: boolean): number =>
    meanMetrics(
      runs.map((r) =>
        scoreRanking(
          stage
            ? rerankNearMiss(r.q.query, r.candidates, params).map((x) => x.candidate.skill_id)
            : r.candidates.map((c) => c.skill_id),
          r.q,
        ),
      ),
    ).ndcg_at_10;
  for (const ds of DATASETS) {
    const c = cache[ds]!;
    lines.push(
      `| ${ds} | ${f3(nd(c.cold, false))} | ${f3(nd(c.cold, true))} | ${f3(nd(c.warm, false))} | ${f3(nd(c.warm, true))} |`,
    );
  }
  lines.push('');
  return lines;
}
