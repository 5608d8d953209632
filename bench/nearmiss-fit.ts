/**
 * The machinery of the near-miss research benches (bench/nearmiss-v6.ts, bench/nearmiss-sem.ts),
 * factored out of nearmiss-v6.ts unchanged: the cached inputs (v4's top 20 with corpus-real, the
 * trigger set alone, the tool sets, the two examples), the conditional logit over the top
 * DEPTH fitted by damped Newton, and per feature function the leave-one-repository-out figures,
 * the tool sets' nDCG@10 and the nested CV of a greedy selection.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  POLICY_V4_ID,
  Router,
  indexCatalog,
  meanMetrics,
  scoreRanking,
  type LabelledQuery,
} from '../src/internal.js';
import type { Bm25fExplanation } from '../src/router/search/policies/bm25f-core.js';
import {
  RERANK_NEARMISS_V1,
  rerankNearMiss,
  type RerankCandidate,
} from '../src/router/search/stages/rerank-nearmiss.js';
import { SHARED, TRIGGER, loadCache, rankedByV4, type CachedRequest } from './nearmiss-cache.js';
import { WORK } from './lib.js';
import { solve } from './logistic.js';
import { scoreTrigger, triggerQueries } from './trigger-quality.js';

export const DEPTH = 10;
export const ALONE_FILE = '/tmp/skilldex-nearmiss-v4-alone.json';
export const TOOLS_FILE = '/tmp/skilldex-nearmiss-tools-v4.json';

// ---------------------------------------------------------------------------------------------
// Inputs.

/** The trigger set ranked by v4 among its own 112 skills (no distractors), top 20. */
export function loadAlone(): CachedRequest[] {
  if (existsSync(ALONE_FILE))
    return JSON.parse(readFileSync(ALONE_FILE, 'utf8')) as CachedRequest[];
  const out = rankedByV4([path.join(TRIGGER, 'skills')], triggerQueries(TRIGGER), 'nearmiss-v6');
  writeFileSync(ALONE_FILE, JSON.stringify(out));
  return out;
}

// The issue's own examples (its 239-skill library is not distributed; the same skills are in
// corpus-real), ranked by v4 among the trigger skills + corpus-real, top 20 cached.
export const EXAMPLES_FILE = '/tmp/skilldex-nearmiss-v6-examples.json';
export const EXAMPLES = [
  { query: 'set up a separate git worktree for the hotfix', want: 'using-git-worktrees' },
  {
    query: 'this test fails intermittently, track down the root cause',
    want: 'systematic-debugging',
  },
] as const;

export function loadExamples(): CachedRequest[] {
  if (existsSync(EXAMPLES_FILE))
    return JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as CachedRequest[];
  const dir = path.join(WORK, 'nearmiss-v6-examples');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [path.join(TRIGGER, 'skills'), path.join(SHARED, 'corpus-real')],
    now: () => new Date(0),
    policy: POLICY_V4_ID,
  });
  const router = new Router({ catalog, telemetry: false });
  const out: CachedRequest[] = [];
  try {
    EXAMPLES.forEach((ex, k) => {
      const r = router.search({ query: ex.query, limit: 20 });
      out.push({
        q: {
          id: `example-${k}`,
          query: ex.query,
          skill: r.candidates.find((c) => c.name === ex.want)?.skill_id ?? ex.want,
          should_trigger: true,
          lang: 'en',
          repo: 'issue-34',
        },
        candidates: r.candidates.map((c) => ({
          ...c,
          explanation: c.explanation as Bm25fExplanation,
        })),
        confidence: r.candidates.map((c) => c.confidence),
      });
    });
  } finally {
    router.close();
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(EXAMPLES_FILE, JSON.stringify(out));
  return out;
}

export interface ToolRun {
  readonly q: LabelledQuery;
  readonly candidates: RerankCandidate[];
}

/** The tool sets' cached v4 lists (bench/nearmiss-tools.ts), descriptions read back from SKILL.md. */
export function loadTools(): { set: string; runs: ToolRun[] }[] {
  const raw = JSON.parse(readFileSync(TOOLS_FILE, 'utf8')) as Record<
    string,
    { cold: ToolRun[]; warm: ToolRun[] }
  >;
  const out: { set: string; runs: ToolRun[] }[] = [];
  for (const [ds, modes] of Object.entries(raw)) {
    const desc = new Map<string, string>();
    const root = path.join(SHARED, ds, 'catalog');
    for (const name of readdirSync(root)) {
      const text = readFileSync(path.join(root, name, 'SKILL.md'), 'utf8');
      const m = /^description:\s*(".*")\s*$/m.exec(text);
      desc.set(name, m ? (JSON.parse(m[1]!) as string) : '');
    }
    for (const mode of ['cold', 'warm'] as const)
      out.push({
        set: `${ds} ${mode}`,
        runs: modes[mode].map((r) => ({
          q: r.q,
          candidates: r.candidates.map((c) => ({ ...c, description: desc.get(c.name) ?? '' })),
        })),
      });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// The conditional logit over the top DEPTH (softmax of w·x; −log p(label) on should-trigger
// requests whose label is in the head; ridge 1e-2), fitted by damped Newton.

export interface Prepared {
  readonly r?: CachedRequest;
  readonly id: string;
  readonly repo: string;
  readonly should: boolean;
  readonly ids: readonly string[];
  readonly X: readonly (readonly number[])[];
  readonly label: number;
}

export type FeatureFn = (list: readonly RerankCandidate[], query: string) => number[][];

export function prepare(reqs: readonly CachedRequest[], features: FeatureFn): Prepared[] {
  return reqs.map((r) => {
    const head = r.candidates.slice(0, DEPTH);
    return {
      r,
      id: r.q.id,
      repo: r.q.repo,
      should: r.q.should_trigger,
      ids: r.candidates.map((c) => c.skill_id),
      X: features(head, r.q.query),
      label: head.findIndex((c) => c.skill_id === r.q.skill),
    };
  });
}

export function fit(data: readonly Prepared[], feats: readonly number[]): number[] {
  const d = feats.length;
  const rows = data.filter((p) => p.should && p.label >= 0 && p.X.length > 1);
  const X = rows.map((p) => p.X.map((x) => feats.map((j) => x[j]!)));
  const ridge = 1e-2 * rows.length;
  const evalAt = (w: readonly number[]) => {
    let loss = 0;
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    rows.forEach((p, n) => {
      const xs = X[n]!;
      const s = xs.map((x) => x.reduce((a, v, j) => a + w[j]! * v, 0));
      const mx = Math.max(...s);
      const e = s.map((v) => Math.exp(v - mx));
      const z = e.reduce((a, b) => a + b, 0);
      const pr = e.map((t) => t / z);
      const ex = new Array<number>(d).fill(0);
      xs.forEach((x, k) => x.forEach((v, j) => (ex[j]! += pr[k]! * v)));
      loss -= Math.log(Math.max(1e-12, pr[p.label]!));
      for (let j = 0; j < d; j++) g[j]! += ex[j]! - xs[p.label]![j]!;
      xs.forEach((x, k) => {
        for (let a = 0; a < d; a++)
          for (let b = 0; b < d; b++) H[a]![b]! += pr[k]! * (x[a]! - ex[a]!) * (x[b]! - ex[b]!);
      });
    });
    for (let j = 0; j < d; j++) {
      loss += 0.5 * ridge * w[j]! ** 2;
      g[j]! += ridge * w[j]!;
      H[j]![j]! += ridge;
    }
    return { loss, g, H };
  };
  let w: number[] = feats.map((j) => (j === 0 ? 1 : 0));
  let cur = evalAt(w);
  for (let it = 0; it < 30; it++) {
    const step = solve(cur.H, cur.g);
    let moved = false;
    for (let h = 0, t = 1; h < 12; h++, t /= 2) {
      const w2 = w.map((v, j) => v - t * step[j]!);
      const next = evalAt(w2);
      if (next.loss < cur.loss) {
        moved = cur.loss - next.loss > 1e-7 * Math.abs(cur.loss);
        w = w2;
        cur = next;
        break;
      }
    }
    if (!moved) break;
  }
  return w.map((v) => Math.round(v * 1e4) / 1e4);
}

export function order(p: Prepared, feats: readonly number[], w: readonly number[]): string[] {
  const head = p.X.map((x, i) => ({ i, s: feats.reduce((a, j, k) => a + w[k]! * x[j]!, 0) }));
  head.sort((a, b) => b.s - a.s || a.i - b.i);
  return [...head.map((h) => p.ids[h.i]!), ...p.ids.slice(p.X.length)];
}

// ---------------------------------------------------------------------------------------------
// Figures.

export interface Fig {
  top1: number;
  top3: number;
  falseTrigger: number;
}

export const objective = (f: Fig): number => f.top1 - f.falseTrigger;

/** Everything the benches evaluate, over one feature function (`names` its columns). */
export function createBench(features: FeatureFn, names: readonly string[]) {
  const cache = loadCache();
  const withCorpus = prepare(cache.requests, features);
  const alone = prepare(loadAlone(), features);
  const queries = cache.requests.map((r) => r.q);
  const repos = [...new Set(queries.map((q) => q.repo))].sort();

  function figOf(runs: Map<string, string[]>): Fig {
    const s = scoreTrigger(queries, runs);
    return { top1: s.all.top1 ?? 0, top3: s.all.top3 ?? 0, falseTrigger: s.all.falseTrigger ?? 0 };
  }

  /** LORO: each repository's requests (with corpus-real and alone) ordered by the other 33's fit. */
  function loro(feats: readonly number[]): {
    corpus: Fig;
    alone: Fig;
    runs: Map<string, string[]>;
  } {
    const rc = new Map<string, string[]>();
    const ra = new Map<string, string[]>();
    for (const repo of repos) {
      const w = fit(
        withCorpus.filter((p) => p.repo !== repo),
        feats,
      );
      for (const p of withCorpus) if (p.repo === repo) rc.set(p.id, order(p, feats, w));
      for (const p of alone) if (p.repo === repo) ra.set(p.id, order(p, feats, w));
    }
    return { corpus: figOf(rc), alone: figOf(ra), runs: rc };
  }

  /** Repositories whose top-1 − false@1 (with corpus-real) rose / fell from `a`'s runs to `b`'s. */
  function repoMoves(a: Map<string, string[]>, b: Map<string, string[]>): string {
    let up = 0;
    let down = 0;
    for (const repo of repos) {
      const qs = queries.filter((q) => q.repo === repo);
      const obj = (runs: Map<string, string[]>): number => {
        const s = scoreTrigger(qs, runs).all;
        return (s.top1 ?? 0) - (s.falseTrigger ?? 0);
      };
      const d = obj(b) - obj(a);
      if (d > 1e-9) up++;
      else if (d < -1e-9) down++;
    }
    return `${up} rose, ${down} fell, ${repos.length - up - down} unchanged`;
  }

  const tools = loadTools().map((t) => ({
    set: t.set,
    runs: t.runs,
    prepared: t.runs.map((r) => ({
      q: r.q,
      ids: r.candidates.map((c) => c.skill_id),
      X: features(r.candidates.slice(0, DEPTH), r.q.query),
    })),
  }));

  /** nDCG@10 per tool set under weights `w` over `feats` (fitted on all 34 repositories). */
  function toolNdcg(feats: readonly number[], w: readonly number[]): number[] {
    return tools.map(
      (t) =>
        meanMetrics(
          t.prepared.map((p) =>
            scoreRanking(
              order({ id: '', repo: '', should: true, ids: p.ids, X: p.X, label: -1 }, feats, w),
              p.q,
            ),
          ),
        ).ndcg_at_10,
    );
  }

  function v5Ndcg(): number[] {
    return tools.map(
      (t) =>
        meanMetrics(
          t.runs.map((r) =>
            scoreRanking(
              rerankNearMiss(r.q.query, r.candidates, RERANK_NEARMISS_V1).map(
                (x) => x.candidate.skill_id,
              ),
              r.q,
            ),
          ),
        ).ndcg_at_10,
    );
  }

  function v5Fig(reqs: readonly CachedRequest[]): Fig {
    return figOf(
      new Map(
        reqs.map((r) => [
          r.q.id,
          rerankNearMiss(r.q.query, r.candidates, RERANK_NEARMISS_V1).map(
            (x) => x.candidate.skill_id,
          ),
        ]),
      ),
    );
  }

  // ---------------------------------------------------------------------------------------------
  // Nested CV of the whole selection: for each held-out repository, the greedy selection is run on
  // the other 33 alone (inner folds: those 33 split in 4 by repository), then the chosen features'
  // weights are fitted on the 33 and applied to the 34th. The tool-set condition is left out inside
  // (it holds no repository out); everything else is the selection above.

  function innerFig(
    fitting: readonly string[],
    feats: readonly number[],
  ): { corpus: Fig; alone: Fig; ids: Set<string> } {
    const rc = new Map<string, string[]>();
    const ra = new Map<string, string[]>();
    const folds = [0, 1, 2, 3].map((k) => fitting.filter((_, i) => i % 4 === k));
    for (const fold of folds) {
      const out = new Set(fold);
      const w = fit(
        withCorpus.filter((p) => fitting.includes(p.repo) && !out.has(p.repo)),
        feats,
      );
      for (const p of withCorpus) if (out.has(p.repo)) rc.set(p.id, order(p, feats, w));
      for (const p of alone) if (out.has(p.repo)) ra.set(p.id, order(p, feats, w));
    }
    const qs = queries.filter((q) => fitting.includes(q.repo));
    const fig = (runs: Map<string, string[]>): Fig => {
      const s = scoreTrigger(qs, runs);
      return {
        top1: s.all.top1 ?? 0,
        top3: s.all.top3 ?? 0,
        falseTrigger: s.all.falseTrigger ?? 0,
      };
    };
    return { corpus: fig(rc), alone: fig(ra), ids: new Set(qs.map((q) => q.id)) };
  }

  function nestedCv(
    base: readonly number[],
    pool: readonly number[] = names.map((_, j) => j).slice(1),
  ): { corpus: Fig; alone: Fig; chosen: string } {
    const rc = new Map<string, string[]>();
    const ra = new Map<string, string[]>();
    const counts = new Map<string, number>();
    for (const repo of repos) {
      const fitting = repos.filter((r) => r !== repo);
      let feats = [...base];
      let cur = innerFig(fitting, feats);
      for (;;) {
        let best: { j: number; f: ReturnType<typeof innerFig> } | undefined;
        for (const j of pool) {
          if (feats.includes(j)) continue;
          const f = innerFig(fitting, [...feats, j]);
          if (
            f.corpus.top1 < cur.corpus.top1 ||
            f.corpus.falseTrigger > cur.corpus.falseTrigger ||
            objective(f.corpus) <= objective(cur.corpus) + 1e-9 ||
            objective(f.alone) < objective(cur.alone) - 1e-9
          )
            continue;
          if (best === undefined || objective(f.corpus) > objective(best.f.corpus)) best = { j, f };
        }
        if (best === undefined) break;
        feats = [...feats, best.j];
        cur = best.f;
      }
      const key =
        feats
          .slice(base.length)
          .map((j) => names[j])
          .join(' + ') || '(none)';
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const w = fit(
        withCorpus.filter((p) => p.repo !== repo),
        feats,
      );
      for (const p of withCorpus) if (p.repo === repo) rc.set(p.id, order(p, feats, w));
      for (const p of alone) if (p.repo === repo) ra.set(p.id, order(p, feats, w));
    }
    return {
      corpus: figOf(rc),
      alone: figOf(ra),
      chosen: [...counts]
        .sort((a, b) => b[1] - a[1])
        .map(([k, n]) => `${k} (${n})`)
        .join('; '),
    };
  }
  return {
    cache,
    withCorpus,
    alone,
    queries,
    repos,
    tools,
    figOf,
    loro,
    repoMoves,
    toolNdcg,
    v5Ndcg,
    v5Fig,
    nestedCv,
  };
}
