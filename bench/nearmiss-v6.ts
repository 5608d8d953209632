/**
 * Issue 34, round 2: evidence that separates near-misses, measured on v5's lists and chosen by
 * leave-one-repository-out cross-validation (LORO). The research bench for a possible policy v6:
 * v4's top 20 of every request is read from bench/nearmiss-cache.ts's cache (v5 = v4 + the stage,
 * so v5's list is that cache re-ordered by RERANK_NEARMISS_V1), and every candidate feature below
 * is computed offline from the cached explanations, names and descriptions; a conditional logit
 * over the top 10 (as bench/nearmiss.ts fits the stage) is fitted on 33 repositories and applied
 * to the 34th, the held-out answers pooled.
 *
 * Reported per candidate feature (added to v5's two, share_of_top and redirect_target): CV top-1,
 * top-3 and false trigger@1 with corpus-real as distractors; the same weights on the trigger set
 * ranked alone (112 skills); and the tool sets' nDCG@10 (metatool, apibench-torchhub,
 * bfcl-curated, cold and warm) under the weights fitted on all 34 repositories, against v5's.
 * Then a greedy forward selection that keeps a feature only when CV top-1 − false trigger@1 rises
 * without either getting worse, the trigger-alone setting does not lose, and no tool set falls.
 * Writes bench/results/nearmiss-v6.md; asserts nothing.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/nearmiss-v6.js
 *
 * Caches: /tmp/skilldex-nearmiss-v4.json (with corpus-real, bench/nearmiss-cache.ts),
 * /tmp/skilldex-nearmiss-v4-alone.json (the trigger set alone, built here),
 * /tmp/skilldex-nearmiss-tools-v4.json (the tool sets, bench/nearmiss-tools.ts). A run from the
 * caches takes about a minute.
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
import { analyzeTermsV4 } from '../src/text/index.js';
import type { Bm25fExplanation } from '../src/router/search/policies/bm25f-core.js';
import {
  RERANK_FEATURES,
  RERANK_NEARMISS_V1,
  rerankFeatures,
  rerankNearMiss,
  type RerankCandidate,
} from '../src/router/search/stages/rerank-nearmiss.js';
import { SHARED, TRIGGER, loadCache, type CachedRequest } from './nearmiss-cache.js';
import { fmt, machineLine, WORK, writeResult } from './lib.js';
import { solve } from './logistic.js';
import { scoreTrigger, triggerQueries } from './trigger-quality.js';

const DEPTH = 10;
const ALONE_FILE = '/tmp/skilldex-nearmiss-v4-alone.json';
const TOOLS_FILE = '/tmp/skilldex-nearmiss-tools-v4.json';
const f3 = (v: number): string => fmt(v, 3);

// ---------------------------------------------------------------------------------------------
// Inputs.

/** The trigger set ranked by v4 among its own 112 skills (no distractors), top 20. */
function loadAlone(): CachedRequest[] {
  if (existsSync(ALONE_FILE))
    return JSON.parse(readFileSync(ALONE_FILE, 'utf8')) as CachedRequest[];
  const qs = triggerQueries(TRIGGER);
  const dir = path.join(WORK, 'nearmiss-v6');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [path.join(TRIGGER, 'skills')],
    now: () => new Date(0),
    policy: POLICY_V4_ID,
  });
  const router = new Router({ catalog, telemetry: false });
  const out: CachedRequest[] = [];
  try {
    for (const q of qs) {
      const r = router.search({ query: q.query, limit: 20 });
      out.push({
        q,
        candidates: r.candidates.map((c) => {
          const e = c.explanation as Bm25fExplanation;
          return {
            skill_id: c.skill_id,
            name: c.name,
            description: c.description,
            score: c.score,
            explanation: {
              terms: e.terms.map((t) => ({ term: t.term, idf: t.idf, tf: t.tf, points: t.points })),
              fields: e.fields,
              name_bonus: { applies: e.name_bonus.applies },
              name_phrase: { applies: e.name_phrase.applies },
              boundary: {
                clauses: e.boundary.clauses,
                matched: e.boundary.matched,
                points: e.boundary.points,
              },
              dropped_tokens: e.dropped_tokens.map((d) => ({ token: d.token })),
            },
          };
        }),
        confidence: r.candidates.map((c) => c.confidence),
      });
    }
  } finally {
    router.close();
    rmSync(dir, { recursive: true, force: true });
  }
  writeFileSync(ALONE_FILE, JSON.stringify(out));
  return out;
}

interface ToolRun {
  readonly q: LabelledQuery;
  readonly candidates: RerankCandidate[];
}

/** The tool sets' cached v4 lists (bench/nearmiss-tools.ts), descriptions read back from SKILL.md. */
function loadTools(): { set: string; runs: ToolRun[] }[] {
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
// Candidate features: RERANK_FEATURES (the stage's fourteen), then the new ones.

const NEW_FEATURES = [
  /** IDF-weighted share of the request the name matches (specificity of the name). */
  'name_idf_cov',
  /** IDF-weighted share of the request the description matches. */
  'desc_idf_cov',
  /** IDF-weighted share of the request matched only in body / usage (not in a routing field). */
  'body_only_idf',
  /** Share of the name's terms the request does not hold ("bulk" in opsx-bulk-archive). */
  'name_extra',
  /** Share of the request's adjacent term pairs found adjacent in name + description. */
  'desc_bigram',
  /** Share of the request's distinct terms matched in a routing field (not IDF-weighted). */
  'routing_term_cov',
  /** rarest_in_name, only between near-ties: × max(0, (share_of_top − 0.8) / 0.2). */
  'rarest_in_name_close',
  /** name_idf_cov between near-ties. */
  'name_idf_cov_close',
  /** name_extra between near-ties. */
  'name_extra_close',
  /** 1 when a name term and a request term share a stem prefix of ≥ 4 letters but differ (builder/build). */
  'morph_name',
  /** Σ idf² matched in routing fields over the request's Σ idf² (the rarest terms weigh most). */
  'idf2_routing_cov',
  /** The request's rarest term (over the whole catalog's IDF) is in the name. */
  'query_rarest_in_name',
] as const;

const ALL_FEATURES: readonly string[] = [...RERANK_FEATURES, ...NEW_FEATURES];
const fi = (name: string): number => ALL_FEATURES.indexOf(name);

function pairs(terms: readonly string[]): Set<string> {
  const s = new Set<string>();
  for (let i = 0; i + 1 < terms.length; i++) s.add(`${terms[i]} ${terms[i + 1]}`);
  return s;
}

function extendedFeatures(list: readonly RerankCandidate[], query: string): number[][] {
  const base = rerankFeatures(list, query);
  const qTerms = analyzeTermsV4(query);
  const qSet = new Set(qTerms);
  const qPairs = pairs(qTerms);
  const idf = new Map<string, number>();
  for (const c of list) for (const t of c.explanation.terms) idf.set(t.term, Math.max(0, t.idf));
  const mass = [...idf.values()].reduce((a, b) => a + b, 0);
  const mass2 = [...idf.values()].reduce((a, b) => a + b * b, 0);
  let qRarest: string | undefined;
  for (const [t, v] of idf) if (qRarest === undefined || v > idf.get(qRarest)!) qRarest = t;
  return list.map((c, i) => {
    const x = base[i]!;
    const e = c.explanation;
    let nameIdf = 0;
    let descIdf = 0;
    let bodyOnly = 0;
    let routingCount = 0;
    let idf2 = 0;
    let rarestName = 0;
    for (const t of e.terms) {
      const w = Math.max(0, t.idf);
      const f = t.tf;
      const routing = f.name + f.keywords + f.description > 0;
      if (f.name > 0) nameIdf += w;
      if (f.description > 0) descIdf += w;
      if (!routing && f.body + f.usage > 0) bodyOnly += w;
      if (routing) {
        routingCount++;
        idf2 += w * w;
      }
      if (t.term === qRarest && f.name > 0) rarestName = 1;
    }
    const nameTerms = [...new Set(analyzeTermsV4(c.name))];
    const extra =
      nameTerms.length > 0 ? nameTerms.filter((t) => !qSet.has(t)).length / nameTerms.length : 0;
    const dPairs = pairs(analyzeTermsV4(`${c.name.replace(/[-_]+/g, ' ')} ${c.description}`));
    const bigram =
      qPairs.size > 0 ? [...qPairs].filter((p) => dPairs.has(p)).length / qPairs.size : 0;
    let morph = 0;
    for (const n of nameTerms) {
      if (qSet.has(n)) continue;
      for (const q of qSet)
        if (q !== n && Math.min(q.length, n.length) >= 4 && (q.startsWith(n) || n.startsWith(q)))
          morph = 1;
    }
    const close = Math.max(0, (x[0]! - 0.8) / 0.2);
    const nameCov = mass > 0 ? nameIdf / mass : 0;
    return [
      ...x,
      nameCov,
      mass > 0 ? descIdf / mass : 0,
      mass > 0 ? bodyOnly / mass : 0,
      extra,
      bigram,
      qSet.size > 0 ? routingCount / qSet.size : 0,
      x[1]! * close,
      nameCov * close,
      extra * close,
      morph,
      mass2 > 0 ? idf2 / mass2 : 0,
      rarestName,
    ];
  });
}

// ---------------------------------------------------------------------------------------------
// The conditional logit over the top DEPTH (softmax of w·x; −log p(label) on should-trigger
// requests whose label is in the head; ridge 1e-2), fitted by damped Newton.

interface Prepared {
  readonly id: string;
  readonly repo: string;
  readonly should: boolean;
  readonly ids: readonly string[];
  readonly X: readonly (readonly number[])[];
  readonly label: number;
}

function prepare(reqs: readonly CachedRequest[]): Prepared[] {
  return reqs.map((r) => {
    const head = r.candidates.slice(0, DEPTH);
    return {
      id: r.q.id,
      repo: r.q.repo,
      should: r.q.should_trigger,
      ids: r.candidates.map((c) => c.skill_id),
      X: extendedFeatures(head, r.q.query),
      label: head.findIndex((c) => c.skill_id === r.q.skill),
    };
  });
}

function fit(data: readonly Prepared[], feats: readonly number[]): number[] {
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
  let w = feats.map((j) => (j === 0 ? 1 : 0));
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

function order(p: Prepared, feats: readonly number[], w: readonly number[]): string[] {
  const head = p.X.map((x, i) => ({ i, s: feats.reduce((a, j, k) => a + w[k]! * x[j]!, 0) }));
  head.sort((a, b) => b.s - a.s || a.i - b.i);
  return [...head.map((h) => p.ids[h.i]!), ...p.ids.slice(p.X.length)];
}

// ---------------------------------------------------------------------------------------------
// Figures.

interface Fig {
  top1: number;
  top3: number;
  falseTrigger: number;
}

const cache = loadCache();
const withCorpus = prepare(cache.requests);
const alone = prepare(loadAlone());
const queries = cache.requests.map((r) => r.q);
const repos = [...new Set(queries.map((q) => q.repo))].sort();

function figOf(runs: Map<string, string[]>): Fig {
  const s = scoreTrigger(queries, runs);
  return { top1: s.all.top1 ?? 0, top3: s.all.top3 ?? 0, falseTrigger: s.all.falseTrigger ?? 0 };
}

/** LORO: each repository's requests (with corpus-real and alone) ordered by the other 33's fit. */
function loro(feats: readonly number[]): { corpus: Fig; alone: Fig } {
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
  return { corpus: figOf(rc), alone: figOf(ra) };
}

const tools = loadTools().map((t) => ({
  set: t.set,
  runs: t.runs,
  prepared: t.runs.map((r) => ({
    q: r.q,
    ids: r.candidates.map((c) => c.skill_id),
    X: extendedFeatures(r.candidates.slice(0, DEPTH), r.q.query),
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

interface Row {
  readonly feats: number[];
  readonly cv: { corpus: Fig; alone: Fig };
  readonly w: number[];
  readonly nd: number[];
}

function evaluate(feats: number[]): Row {
  const cv = loro(feats);
  const w = fit(withCorpus, feats);
  return { feats, cv, w, nd: toolNdcg(feats, w) };
}

const objective = (f: Fig): number => f.top1 - f.falseTrigger;

function main(): void {
  const t0 = performance.now();
  const v5c = v5Fig(cache.requests);
  const v5a = v5Fig(loadAlone());
  const v5nd = v5Ndcg();
  const base = [fi('share_of_top'), fi('redirect_target')];
  const baseRow = evaluate(base);
  const names = (fs: readonly number[]): string => fs.map((j) => ALL_FEATURES[j]).join(' + ');
  const ndCells = (nd: readonly number[]): string =>
    nd.map((v, k) => `${v - v5nd[k]! >= 0 ? '+' : ''}${fmt(v - v5nd[k]!, 3)}`).join(' · ');
  const toolSafe = (nd: readonly number[]): boolean => nd.every((v, k) => v >= v5nd[k]! - 5e-4);
  const row = (label: string, r: Row): string =>
    `| ${label} | ${f3(r.cv.corpus.top1)} | ${f3(r.cv.corpus.top3)} | ${f3(r.cv.corpus.falseTrigger)} | ${f3(r.cv.alone.top1)} | ${f3(r.cv.alone.top3)} | ${f3(r.cv.alone.falseTrigger)} | ${ndCells(r.nd)} |`;
  const header = [
    '| features | CV top-1 | CV top-3 | CV false@1 | alone: top-1 | top-3 | false@1 | tool sets nDCG@10 − v5 (metatool cold · warm · apibench cold · warm · bfcl cold · warm) |',
    '|---|---|---|---|---|---|---|---|',
  ];

  // One feature at a time on top of v5's two.
  const singles: { name: string; r: Row }[] = [];
  for (let j = 1; j < ALL_FEATURES.length; j++) {
    if (base.includes(j)) continue;
    singles.push({ name: ALL_FEATURES[j]!, r: evaluate([...base, j]) });
  }
  console.error(`singles ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // Greedy forward selection under the issue's rule.
  let cur = baseRow;
  const steps: { added: string; r: Row }[] = [];
  const accept = (r: Row, c: Row): boolean =>
    r.cv.corpus.top1 >= c.cv.corpus.top1 &&
    r.cv.corpus.falseTrigger <= c.cv.corpus.falseTrigger &&
    objective(r.cv.corpus) > objective(c.cv.corpus) + 1e-9 &&
    objective(r.cv.alone) >= objective(c.cv.alone) - 1e-9 &&
    toolSafe(r.nd);
  for (;;) {
    let best: { j: number; r: Row } | undefined;
    for (let j = 1; j < ALL_FEATURES.length; j++) {
      if (cur.feats.includes(j)) continue;
      const r =
        steps.length === 0
          ? singles.find((s) => s.name === ALL_FEATURES[j])!.r
          : evaluate([...cur.feats, j]);
      if (!accept(r, cur)) continue;
      if (best === undefined || objective(r.cv.corpus) > objective(best.r.cv.corpus))
        best = { j, r };
    }
    if (best === undefined) break;
    cur = best.r;
    steps.push({ added: ALL_FEATURES[best.j]!, r: cur });
  }
  // The same selection without the tool-set and trigger-alone conditions (what the trigger set alone would pick).
  let curT = baseRow;
  const stepsT: { added: string; r: Row }[] = [];
  for (;;) {
    let best: { j: number; r: Row } | undefined;
    for (let j = 1; j < ALL_FEATURES.length; j++) {
      if (curT.feats.includes(j)) continue;
      const r =
        stepsT.length === 0
          ? singles.find((s) => s.name === ALL_FEATURES[j])!.r
          : evaluate([...curT.feats, j]);
      if (
        r.cv.corpus.top1 < curT.cv.corpus.top1 ||
        r.cv.corpus.falseTrigger > curT.cv.corpus.falseTrigger ||
        objective(r.cv.corpus) <= objective(curT.cv.corpus) + 1e-9
      )
        continue;
      if (best === undefined || objective(r.cv.corpus) > objective(best.r.cv.corpus))
        best = { j, r };
    }
    if (best === undefined) break;
    curT = best.r;
    stepsT.push({ added: ALL_FEATURES[best.j]!, r: curT });
  }
  console.error(`selection ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const bm25 = Object.entries(cache.baselines)
    .map(([label, runs]) => ({
      label,
      fig: figOf(new Map(Object.entries(runs).map(([k, v]) => [k, [...v]]))),
    }))
    .reduce((a, b) => (b.fig.top1 > a.fig.top1 ? b : a));
  const lines = [
    '# Near-misses, round 2: specificity and other evidence over v5 (issue 34, bench/nearmiss-v6.ts)',
    '',
    machineLine(),
    '',
    `${queries.filter((q) => q.should_trigger).length} should-trigger and ${queries.filter((q) => !q.should_trigger).length} should-not requests of ${repos.length} repositories (../shared/bench/trigger). v4's top 20 is cached (with corpus-real: ${cache.skills.toLocaleString('en-US')} skills; alone: the 112 skills); v5's list is that cache re-ordered by RERANK_NEARMISS_V1. Each row fits a conditional logit over the top ${DEPTH} on v5's two features (share_of_top, redirect_target) plus the row's: **CV** = leave-one-repository-out (fitted on 33 repositories with corpus-real, applied to the 34th, pooled); "alone" applies the same fold's weights to the trigger set ranked among its 112 skills only. Tool sets: weights fitted on all 34 repositories, nDCG@10 minus v5's (v5 equals v4 there).`,
    '',
    '## Reference',
    '',
    '| | top-1 | top-3 | false@1 | alone: top-1 | top-3 | false@1 |',
    '|---|---|---|---|---|---|---|',
    `| best BM25 (${bm25.label}) | ${f3(bm25.fig.top1)} | ${f3(bm25.fig.top3)} | ${f3(bm25.fig.falseTrigger)} | | | |`,
    `| v5 (shipped weights, in-sample) | ${f3(v5c.top1)} | ${f3(v5c.top3)} | ${f3(v5c.falseTrigger)} | ${f3(v5a.top1)} | ${f3(v5a.top3)} | ${f3(v5a.falseTrigger)} |`,
    '',
    `Tool sets, v5 nDCG@10: ${tools.map((t, k) => `${t.set} ${f3(v5nd[k]!)}`).join(' · ')}.`,
    '',
    "## One feature added to v5's two (CV)",
    '',
    ...header,
    row("v5's two, refitted per fold", baseRow),
    ...singles.map((s) => row(`+ ${s.name}`, s.r)),
    '',
    '## Greedy selection (CV)',
    '',
    'Kept only when CV top-1 − false@1 (with corpus-real) rises, neither top-1 falls nor false@1 rises, the trigger-alone top-1 − false@1 does not fall, and no tool set loses more than 0.0005 nDCG@10 against v5.',
    '',
    ...header,
    row("v5's two", baseRow),
    ...steps.map((s) => row(`+ ${s.added}`, s.r)),
    '',
    `Weights on all 34 repositories: ${names(cur.feats)} = ${cur.w.join(' · ')}.`,
    '',
    'The same selection on the trigger set with corpus-real only (no tool-set or trigger-alone condition):',
    '',
    ...header,
    row("v5's two", baseRow),
    ...stepsT.map((s) => row(`+ ${s.added}`, s.r)),
    '',
    `Weights on all 34 repositories: ${names(curT.feats)} = ${curT.w.join(' · ')}.`,
    '',
    `Time: ${((performance.now() - t0) / 1000).toFixed(0)} s from the caches.`,
    '',
  ];
  const file = writeResult('nearmiss-v6', lines.join('\n'));

  console.error(`wrote ${file}`);
}

main();
