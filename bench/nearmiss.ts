/**
 * Precision where routing happens (issue 34 items 2–4): fits and measures the near-miss re-rank
 * stage (src/router/search/stages/rerank-nearmiss.ts), a confidence model over its list, the
 * prompt hook's rule on top of both, and the analyzer switches of src/text/analyze-v5.ts — every
 * constant chosen by leave-one-repository-out cross-validation (LORO) on the trigger dev set
 * (../shared/bench/trigger, 34 repositories, corpus-real as distractors), reported beside v4 and
 * the strongest plain BM25 of the same run, and beside the in-sample figures of the same choice.
 *
 * v4's top 20 of every request is computed once and cached under /tmp (bench/nearmiss-cache.ts);
 * everything else runs offline on that cache. Writes bench/results/nearmiss.md and prints the
 * fitted parameters as TypeScript; asserts nothing.
 *
 *   npx tsc -p tsconfig.bench.json && node dist-bench/bench/nearmiss.js
 *
 * The caches: /tmp/skilldex-nearmiss-v4.json (v4's answers, NEARMISS_CACHE overrides the path),
 * /tmp/skilldex-nearmiss-tools-v4.json (the tool sets'), /tmp/skilldex-nearmiss-select*.json (the
 * feature selections); delete them after a ranking change. A full run from empty caches takes
 * some 10 minutes on the shared 2-core machine, a re-run from the caches about 2.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  NEARMISS_CONFIDENCE_FEATURES,
  NEARMISS_HOOK_RULE,
  RERANK_FEATURES,
  nearmissConfidenceFeatures,
  nearmissConfidenceOf,
  rerankFeatures,
  rerankNearMiss,
  type NearmissConfidenceModel,
  type RerankParams,
} from '../src/router/search/stages/rerank-nearmiss.js';
import { confidenceFeatures } from '../src/router/search/confidence.js';
import type { RankedCandidate } from '../src/router/search/types.js';
import { loadCache, type CachedRequest } from './nearmiss-cache.js';
import { fmt, machineLine, writeResult } from './lib.js';
import { fitLogistic, solve } from './logistic.js';
import { scoreTrigger } from './trigger-quality.js';
import { analyzerSection } from './nearmiss-analyzer.js';
import { toolFigures, toolSection } from './nearmiss-tools.js';

const SELECT_FILE = '/tmp/skilldex-nearmiss-select.json';
const cache = loadCache();
const requests = cache.requests;
const repos = [...new Set(requests.map((r) => r.q.repo))].sort();
const f3 = (v: number | null): string => (v === null ? '–' : fmt(v, 3));

// ---------------------------------------------------------------------------------------------
// Rankings and their figures.

type Runs = Map<string, string[]>;

function runsOf(order: (r: CachedRequest) => readonly string[], rs = requests): Runs {
  return new Map(rs.map((r) => [r.q.id, [...order(r)]]));
}

interface Fig {
  top1: number;
  top3: number;
  falseTrigger: number;
}

function figOf(runs: Runs, rs: readonly CachedRequest[] = requests): Fig {
  const s = scoreTrigger(
    rs.map((r) => r.q),
    runs,
  );
  return { top1: s.all.top1 ?? 0, top3: s.all.top3 ?? 0, falseTrigger: s.all.falseTrigger ?? 0 };
}

const v4Runs = runsOf((r) => r.candidates.map((c) => c.skill_id));
const v4 = figOf(v4Runs);
const baselines = Object.entries(cache.baselines).map(([label, runs]) => {
  const m: Runs = new Map(Object.entries(runs).map(([k, v]) => [k, [...v]]));
  return { label, runs: m, fig: figOf(m) };
});
const bestBm25 = baselines.reduce((a, b) => (b.fig.top1 > a.fig.top1 ? b : a));

// ---------------------------------------------------------------------------------------------
// The re-rank model: a conditional logit over the top `depth` (softmax of w·x), fitted on the
// should-trigger requests whose labelled skill is in the top `depth` (-log p(label)) and on the
// should-not requests whose named skill is there (-λ log(1 - p(named))), with a small ridge.

interface Prepared {
  readonly r: CachedRequest;
  readonly X: number[][];
  /** Index of the labelled skill in the top `depth`, -1 when absent. */
  readonly label: number;
}

const prepared = new Map<number, Prepared[]>();
function prepare(depth: number): Prepared[] {
  const known = prepared.get(depth);
  if (known) return known;
  const out = requests.map((r) => {
    const head = r.candidates.slice(0, depth);
    return {
      r,
      X: rerankFeatures(head, r.q.query),
      label: head.findIndex((c) => c.skill_id === r.q.skill),
    };
  });
  prepared.set(depth, out);
  return out;
}

function fitRerank(data: readonly Prepared[], mask: readonly boolean[], lambda: number): number[] {
  // Damped Newton on the (convex) positive part's Hessian + ridge; the should-not term's gradient
  // joins the step; each step is halved until the loss falls.
  const idx = RERANK_FEATURES.map((_, j) => j).filter((j) => mask[j]);
  const d = idx.length;
  const rows = data.filter(
    (p) => p.label >= 0 && p.X.length > 1 && (lambda > 0 || p.r.q.should_trigger),
  );
  const ridge = 1e-2;
  const X = rows.map((p) => p.X.map((x) => idx.map((j) => x[j]!)));
  const lossGrad = (w: readonly number[], withHessian: boolean) => {
    let loss = 0;
    const g = new Array<number>(d).fill(0);
    const H = withHessian ? Array.from({ length: d }, () => new Array<number>(d).fill(0)) : [];
    rows.forEach((p, n) => {
      const xs = X[n]!;
      const s = xs.map((x) => {
        let v = 0;
        for (let j = 0; j < d; j++) v += w[j]! * x[j]!;
        return v;
      });
      let mx = -Infinity;
      for (const v of s) if (v > mx) mx = v;
      let z = 0;
      const e = s.map((v) => {
        const t = Math.exp(v - mx);
        z += t;
        return t;
      });
      const pr = e.map((t) => t / z);
      const ex = new Array<number>(d).fill(0);
      for (let k = 0; k < xs.length; k++) for (let j = 0; j < d; j++) ex[j]! += pr[k]! * xs[k]![j]!;
      const xl = xs[p.label]!;
      if (p.r.q.should_trigger) {
        loss -= Math.log(Math.max(1e-12, pr[p.label]!));
        for (let j = 0; j < d; j++) g[j]! += ex[j]! - xl[j]!;
      } else {
        const pm = Math.min(pr[p.label]!, 1 - 1e-9);
        loss -= lambda * Math.log(1 - pm);
        const f = (lambda * pm) / (1 - pm);
        for (let j = 0; j < d; j++) g[j]! += f * (xl[j]! - ex[j]!);
      }
      if (withHessian && p.r.q.should_trigger)
        for (let k = 0; k < xs.length; k++)
          for (let a = 0; a < d; a++) {
            const da = xs[k]![a]! - ex[a]!;
            for (let b = 0; b < d; b++) H[a]![b]! += pr[k]! * da * (xs[k]![b]! - ex[b]!);
          }
    });
    for (let j = 0; j < d; j++) {
      loss += 0.5 * ridge * w[j]! ** 2 * rows.length;
      g[j]! += ridge * w[j]! * rows.length;
      if (withHessian) H[j]![j]! += ridge * rows.length;
    }
    return { loss, g, H };
  };
  let w: number[] = idx.map((j) => (j === 0 ? 1 : 0));
  let cur = lossGrad(w, true);
  for (let it = 0; it < 30; it++) {
    const step = solve(cur.H, cur.g);
    let t = 1;
    let moved = false;
    for (let h = 0; h < 12; h++, t /= 2) {
      const w2 = w.map((v, j) => v - t * step[j]!);
      const next = lossGrad(w2, true);
      if (next.loss < cur.loss) {
        w = w2;
        moved = cur.loss - next.loss > 1e-7 * Math.abs(cur.loss);
        cur = next;
        break;
      }
    }
    if (!moved) break;
  }
  const out = new Array<number>(RERANK_FEATURES.length).fill(0);
  idx.forEach((j, k) => (out[j] = Math.round(w[k]! * 1e4) / 1e4));
  return out;
}

/** The skill ids of `p`'s request re-ranked by `w` over its prepared features (no re-analysis). */
function orderPrepared(p: Prepared, w: readonly number[]): string[] {
  const head = p.X.map((x, i) => ({ i, s: x.reduce((a, v, j) => a + w[j]! * v, 0) }));
  head.sort((a, b) => b.s - a.s || a.i - b.i);
  return [
    ...head.map((h) => p.r.candidates[h.i]!.skill_id),
    ...p.r.candidates.slice(p.X.length).map((c) => c.skill_id),
  ];
}

function paramsOf(weights: readonly number[], depth: number, source: string): RerankParams {
  return { id: 'rerank-nearmiss.v1', depth, weights, fitted_on: source };
}

function rerankedIds(r: CachedRequest, params: RerankParams): string[] {
  return rerankNearMiss(r.q.query, r.candidates, params).map((x) => x.candidate.skill_id);
}

/** LORO: fit on 33 repositories, re-rank the 34th; the pooled held-out rankings and each fold's weights. */
function looRerank(
  depth: number,
  mask: readonly boolean[],
  lambda: number,
): { runs: Runs; weights: Map<string, number[]> } {
  const data = prepare(depth);
  const runs: Runs = new Map();
  const weights = new Map<string, number[]>();
  for (const repo of repos) {
    const w = fitRerank(
      data.filter((p) => p.r.q.repo !== repo),
      mask,
      lambda,
    );
    weights.set(repo, w);
    for (const p of data) if (p.r.q.repo === repo) runs.set(p.r.q.id, orderPrepared(p, w));
  }
  return { runs, weights };
}

const objective = (f: Fig): number => f.top1 - f.falseTrigger;

// Greedy forward selection under LORO: start from v4's score share; add the feature that raises
// CV top-1 AND lowers (or keeps) CV false trigger@1, best by top-1 − false; stop when none does.
interface Step {
  readonly added: string;
  readonly fig: Fig;
}
function selectFeatures(
  depth: number,
  lambda: number,
): { mask: boolean[]; steps: Step[]; tried: string[] } {
  const mask = RERANK_FEATURES.map((_, j) => j === 0);
  let cur = figOf(looRerank(depth, mask, lambda).runs);
  const steps: Step[] = [{ added: 'share_of_top (v4 order)', fig: cur }];
  const tried: string[] = [];
  for (;;) {
    let best: { j: number; fig: Fig } | undefined;
    for (let j = 1; j < RERANK_FEATURES.length; j++) {
      if (mask[j]) continue;
      const m = [...mask];
      m[j] = true;
      const fig = figOf(looRerank(depth, m, lambda).runs);
      tried.push(
        `${steps.map((s) => s.added.split(' ')[0]).join(' + ')} + ${RERANK_FEATURES[j]}: top-1 ${f3(fig.top1)}, false ${f3(fig.falseTrigger)}`,
      );
      if (fig.top1 < cur.top1 || fig.falseTrigger > cur.falseTrigger) continue;
      if (objective(fig) <= objective(cur)) continue;
      if (best === undefined || objective(fig) > objective(best.fig)) best = { j, fig };
    }
    if (best === undefined) break;
    mask[best.j] = true;
    cur = best.fig;
    steps.push({ added: RERANK_FEATURES[best.j]!, fig: cur });
  }
  return { mask, steps, tried };
}

/** A stage whose re-ranking costs no tool-retrieval set any nDCG@10 (cold or warm) against v4. */
function toolSafe(weights: readonly number[], depth: number): boolean {
  return toolFigures(paramsOf(weights, depth, 'check')).every((t) => t.stage >= t.v4 - 5e-4);
}

/** selectFeatures with one more condition on each step: the stage fitted on all repositories is toolSafe. */
function selectToolSafe(depth: number, lambda: number): ReturnType<typeof selectFeatures> {
  const mask = RERANK_FEATURES.map((_, j) => j === 0);
  let cur = figOf(looRerank(depth, mask, lambda).runs);
  const steps: Step[] = [{ added: 'share_of_top (v4 order)', fig: cur }];
  const tried: string[] = [];
  for (;;) {
    let best: { j: number; fig: Fig } | undefined;
    for (let j = 1; j < RERANK_FEATURES.length; j++) {
      if (mask[j]) continue;
      const m = [...mask];
      m[j] = true;
      const fig = figOf(looRerank(depth, m, lambda).runs);
      const safe = toolSafe(fitRerank(prepare(depth), m, lambda), depth);
      tried.push(
        `${steps.map((s) => s.added.split(' ')[0]).join(' + ')} + ${RERANK_FEATURES[j]}: top-1 ${f3(fig.top1)}, false ${f3(fig.falseTrigger)}, tool sets ${safe ? 'not below v4' : 'below v4'}`,
      );
      if (!safe || fig.top1 < cur.top1 || fig.falseTrigger > cur.falseTrigger) continue;
      if (objective(fig) <= objective(cur)) continue;
      if (best === undefined || objective(fig) > objective(best.fig)) best = { j, fig };
    }
    if (best === undefined) break;
    mask[best.j] = true;
    cur = best.fig;
    steps.push({ added: RERANK_FEATURES[best.j]!, fig: cur });
  }
  return { mask, steps, tried };
}

function main(): void {
  const lines: string[] = [
    '# Near-misses: re-rank stage, confidence that transfers, the hook rule (issue 34 items 1–4)',
    '',
    machineLine(),
    '',
    `${requests.filter((r) => r.q.should_trigger).length} should-trigger and ${requests.filter((r) => !r.q.should_trigger).length} should-not requests of ${repos.length} repositories (../shared/bench/trigger), ranked by ${cache.policy} among ${cache.skills.toLocaleString('en-US')} skills (corpus-real as distractors); v4's top 20 cached, everything below fitted and evaluated offline by bench/nearmiss.ts. **CV** = leave-one-repository-out: every constant fitted on 33 repositories and applied to the 34th, the held-out answers pooled. "in-sample" = the same choice fitted on all 34 and applied to them.`,
    '',
    '## Baselines of this run',
    '',
    '| method | top-1 | top-3 | false trigger@1 |',
    '|---|---|---|---|',
    ...baselines.map(
      (b) => `| ${b.label} | ${f3(b.fig.top1)} | ${f3(b.fig.top3)} | ${f3(b.fig.falseTrigger)} |`,
    ),
    `| v4 | ${f3(v4.top1)} | ${f3(v4.top3)} | ${f3(v4.falseTrigger)} |`,
    '',
  ];

  // 1. The re-rank stage.
  const t0 = performance.now();
  const grid: { depth: number; lambda: number; sel: ReturnType<typeof selectFeatures> }[] = [];
  if (existsSync(SELECT_FILE))
    grid.push(...(JSON.parse(readFileSync(SELECT_FILE, 'utf8')) as typeof grid));
  else {
    for (const [depth, lambda] of [
      [10, 0],
      [10, 1],
      [20, 1],
    ] as const)
      grid.push({ depth, lambda, sel: selectFeatures(depth, lambda) });
    writeFileSync(SELECT_FILE, JSON.stringify(grid));
  }
  const SAFE_FILE = SELECT_FILE.replace('.json', '-safe.json');
  const safe: (typeof grid)[number] = existsSync(SAFE_FILE)
    ? (JSON.parse(readFileSync(SAFE_FILE, 'utf8')) as (typeof grid)[number])
    : { depth: 10, lambda: 0, sel: selectToolSafe(10, 0) };
  writeFileSync(SAFE_FILE, JSON.stringify(safe));
  lines.push("## 1. Re-rank stage over v4's top N (LORO feature selection)", '');
  lines.push(
    '| depth N | λ (should-not term) | features kept (in order added) | CV top-1 | CV top-3 | CV false trigger@1 |',
    '|---|---|---|---|---|---|',
  );
  for (const g of grid) {
    const last = g.sel.steps[g.sel.steps.length - 1]!;
    lines.push(
      `| ${g.depth} | ${g.lambda} | ${g.sel.steps.map((s) => s.added).join(' → ')} | ${f3(last.fig.top1)} | ${f3(last.fig.top3)} | ${f3(last.fig.falseTrigger)} |`,
    );
  }
  console.error(`rerank selection ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  {
    const last = safe.sel.steps[safe.sel.steps.length - 1]!;
    lines.push(
      `| ${safe.depth} | ${safe.lambda} | **tool-safe**: ${safe.sel.steps.map((s) => s.added).join(' → ')} | ${f3(last.fig.top1)} | ${f3(last.fig.top3)} | ${f3(last.fig.falseTrigger)} |`,
    );
  }
  for (const g of [...grid, { ...safe, depth: safe.depth, lambda: `${safe.lambda}, tool-safe` }]) {
    lines.push(
      '',
      `<details><summary>depth ${g.depth}, λ ${g.lambda}: every step tried</summary>`,
      '',
    );
    for (const t of g.sel.tried) lines.push(`- ${t}`);
    lines.push('', '</details>');
  }
  lines.push('');

  // The chosen stage: the grid point with the best CV top-1 − false (ties: fewer features).
  const best = grid.reduce((a, b) => {
    const fa = a.sel.steps[a.sel.steps.length - 1]!.fig;
    const fb = b.sel.steps[b.sel.steps.length - 1]!.fig;
    return objective(fb) > objective(fa) + 1e-9 ? b : a;
  });
  // The stage shipped: the tool-safe selection (the issue: no feature may cost the tool sets).
  const chosen = safe;
  const bestFig = best.sel.steps[best.sel.steps.length - 1]!.fig;
  const bestW = fitRerank(prepare(best.depth), best.sel.mask, best.lambda);
  const chosenFig = chosen.sel.steps[chosen.sel.steps.length - 1]!.fig;
  const loo = looRerank(chosen.depth, chosen.sel.mask, chosen.lambda);
  const finalW = fitRerank(prepare(chosen.depth), chosen.sel.mask, chosen.lambda);
  const finalParams = paramsOf(
    finalW,
    chosen.depth,
    `bench/nearmiss.ts: LORO-selected features, weights fitted on all ${repos.length} repositories of the trigger dev set`,
  );
  const inFig = figOf(runsOf((r) => rerankedIds(r, finalParams)));
  lines.push(
    `Chosen: depth ${chosen.depth}, λ ${chosen.lambda}, features ${chosen.sel.steps.map((s) => s.added.split(' ')[0]).join(', ')}; weights (all repositories) ${RERANK_FEATURES.map(
      (f, j) => (finalW[j] ? `${f} ${finalW[j]}` : ''),
    )
      .filter(Boolean)
      .join(' · ')}.`,
    '',
    '| | top-1 | top-3 | false trigger@1 | top-1 / best BM25 | false / best BM25 |',
    '|---|---|---|---|---|---|',
    `| best BM25 (${bestBm25.label}) | ${f3(bestBm25.fig.top1)} | ${f3(bestBm25.fig.top3)} | ${f3(bestBm25.fig.falseTrigger)} | 1.00× | 1.00× |`,
    `| v4 | ${f3(v4.top1)} | ${f3(v4.top3)} | ${f3(v4.falseTrigger)} | ${fmt(v4.top1 / bestBm25.fig.top1, 2)}× | ${fmt(v4.falseTrigger / bestBm25.fig.falseTrigger, 2)}× |`,
    `| v4 + stage, **CV** | ${f3(chosenFig.top1)} | ${f3(chosenFig.top3)} | ${f3(chosenFig.falseTrigger)} | ${fmt(chosenFig.top1 / bestBm25.fig.top1, 2)}× | ${fmt(chosenFig.falseTrigger / bestBm25.fig.falseTrigger, 2)}× |`,
    `| best trigger-only selection (depth ${best.depth}, λ ${best.lambda}: ${best.sel.steps.map((x) => x.added.split(' ')[0]).join(', ')}), **CV** — costs the tool sets, not shipped | ${f3(bestFig.top1)} | ${f3(bestFig.top3)} | ${f3(bestFig.falseTrigger)} | ${fmt(bestFig.top1 / bestBm25.fig.top1, 2)}× | ${fmt(bestFig.falseTrigger / bestBm25.fig.falseTrigger, 2)}× |`,
    `| v4 + stage, in-sample | ${f3(inFig.top1)} | ${f3(inFig.top3)} | ${f3(inFig.falseTrigger)} | ${fmt(inFig.top1 / bestBm25.fig.top1, 2)}× | ${fmt(inFig.falseTrigger / bestBm25.fig.falseTrigger, 2)}× |`,
    '',
  );
  console.error(`rerank done ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  if (!process.env['NM_SKIP_TOOLS']) {
    lines.push(...toolSection(finalParams, f3));
    lines.push(
      'The best trigger-only selection on the same sets (nDCG@10 change against v4): ' +
        toolFigures(paramsOf(bestW, best.depth, 'best'))
          .map((t) => `${t.set} ${t.stage - t.v4 >= 0 ? '+' : ''}${fmt(t.stage - t.v4, 3)}`)
          .join(' · ') +
        '.',
      '',
    );
  }
  console.error(`tools done ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // 3. Confidence.
  const foldParams = new Map(
    [...loo.weights].map(([repo, w]) => [repo, paramsOf(w, chosen.depth, 'fold')] as const),
  );
  const stageShown = new Map<string, Shown[]>();
  const position = new Map(requests.map((r, i) => [r, i]));
  for (const key of [...repos, '*']) {
    const params = key === '*' ? finalParams : foldParams.get(key)!;
    stageShown.set(
      key,
      requests.map((x) => shownReranked(x, params)),
    );
  }
  const shownStage = (r: CachedRequest, repoOut: string | null): Shown =>
    stageShown.get(repoOut ?? '*')![position.get(r)!]!;
  const v4Shown = requests.map(shownV4);
  const runV4 = confidenceRun((r) => v4Shown[position.get(r)!]!);
  // Greedy forward selection of the stage's extra confidence features by pooled CV log loss.
  const base = [0, 1, 2, 3, 4, 5, 6, 7];
  let cols = [...base];
  let curLoss = confidenceRun(shownStage, cols).logLoss;
  const confSteps: string[] = [`confidence.ts's eight features: CV log loss ${fmt(curLoss, 1)}`];
  for (;;) {
    let pick: { j: number; loss: number } | undefined;
    for (let j = 8; j < NEARMISS_CONFIDENCE_FEATURES.length; j++) {
      if (cols.includes(j)) continue;
      const loss = confidenceRun(shownStage, [...cols, j]).logLoss;
      if (loss < curLoss - 0.5 && (pick === undefined || loss < pick.loss)) pick = { j, loss };
    }
    if (pick === undefined) break;
    cols = [...cols, pick.j];
    curLoss = pick.loss;
    confSteps.push(`+ ${NEARMISS_CONFIDENCE_FEATURES[pick.j]}: ${fmt(curLoss, 1)}`);
  }
  const runStage = confidenceRun(shownStage, cols);
  const runStageAll = confidenceRun(shownStage);
  console.error('confidence selection', confSteps.join(' '));
  console.error(`confidence done ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const today: Scored = new Map(
    requests.map((r) => [
      r.q.id,
      { r, ids: r.candidates.slice(0, 3).map((c) => c.skill_id), conf: r.confidence.slice(0, 3) },
    ]),
  );
  const row = (name: string, f: FloorFig, floorText: string): string =>
    `| ${name} | ${floorText} | ${f3(f.kept)} | ${f3(f.top1)} | ${f3(f.falseTrigger)} |`;
  const cvFloor = (run: ConfidenceRun, rule: 'keep' | 'false') =>
    atFloor(run.cv, (r) => run.floors.get(r.q.repo)![rule]);
  const floorsText = (run: ConfidenceRun, rule: 'keep' | 'false'): string => {
    const fs = [...run.floors.values()].map((f) => f[rule]);
    return `${fmt(Math.min(...fs), 3)}–${fmt(Math.max(...fs), 3)} per fold`;
  };
  lines.push(
    '## 3. Confidence that transfers',
    '',
    'A logistic model per candidate (rows as bench/calibrate.ts builds them). "keep 85 %": the highest floor that keeps ≥ 85 % of the top-1 hits on the fitting repositories (today\'s rule); "false ≤ 0.03": the lowest floor with false trigger@1 ≤ 0.03 there. CV rows: model and floor fitted on 33 repositories, applied to the 34th.',
    '',
    '| model | floor | top-1 hits kept | top-1 after the floor | false trigger@1 after the floor |',
    '|---|---|---|---|---|',
    row(
      'v4 today (confidence-models.ts, fitted in-sample on this set)',
      atFloor(today, () => 0.6),
      '0.60',
    ),
    row(
      'v4 features, refit in-sample, keep 85 %',
      atFloor(runV4.inSample, () => runV4.inSampleFloors.keep),
      fmt(runV4.inSampleFloors.keep, 3),
    ),
    row('v4 features, **CV**, keep 85 %', cvFloor(runV4, 'keep'), floorsText(runV4, 'keep')),
    row('v4 features, **CV**, false ≤ 0.03', cvFloor(runV4, 'false'), floorsText(runV4, 'false')),
    row(
      "stage features on the stage's order, in-sample, keep 85 %",
      atFloor(runStage.inSample, () => runStage.inSampleFloors.keep),
      fmt(runStage.inSampleFloors.keep, 3),
    ),
    row(
      'stage features, in-sample, false ≤ 0.03',
      atFloor(runStage.inSample, () => runStage.inSampleFloors.false),
      fmt(runStage.inSampleFloors.false, 3),
    ),
    row(
      'stage features, **CV**, keep 85 %',
      cvFloor(runStage, 'keep'),
      floorsText(runStage, 'keep'),
    ),
    row(
      'stage features, **CV**, false ≤ 0.03',
      cvFloor(runStage, 'false'),
      floorsText(runStage, 'false'),
    ),
    row(
      'all sixteen stage features, **CV**, keep 85 %',
      cvFloor(runStageAll, 'keep'),
      floorsText(runStageAll, 'keep'),
    ),
    '',
    `Confidence features chosen by CV log loss (greedy, a feature kept when it lowers the pooled held-out log loss by more than 0.5): ${confSteps.join(' · ')}. CV log loss of confidence.ts's features on v4's order: ${fmt(runV4.logLoss, 1)}.`,
    '',
    "The CV curve of the stage's confidence (every fold's model on its held-out repository, one floor for all):",
    '',
    '| floor | kept | top-1 | false trigger@1 |',
    '|---|---|---|---|',
    ...[0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8].map((f) => {
      const x = atFloor(runStage.cv, () => f);
      const y = atFloor(runV4.cv, () => f);
      return `| ${fmt(f, 2)} | ${f3(x.kept)} (v4 features ${f3(y.kept)}) | ${f3(x.top1)} (${f3(y.top1)}) | ${f3(x.falseTrigger)} (${f3(y.falseTrigger)}) |`;
    }),
    '',
  );

  // 4. The hook's rule.
  const negatives = requests.filter((r) => !r.q.should_trigger).length;
  const hookRow = (name: string, f: HookFig): string =>
    `| ${name} | ${f3(f.named)} | ${f3(f.silent)} | ${f3(f.falseNamed)} (${Math.round(f.falseNamed * negatives)} of ${negatives}) | ${fmt(f.shown, 2)} |`;
  const hv4 = hookCv(runV4.cv);
  const hst = hookCv(runStage.cv);
  const rowsStage = [...runStage.cv.values()];
  const inHook = chooseHook([...runStage.inSample.values()], hookGrid());
  lines.push(
    "## 4. The hook's rule",
    '',
    `Name rank 1 at or above f1 and ranks 2..k at or above f2 (bench/hook-rule.ts's rules, top 3). Each repository's rule chosen on the other 33 (most labelled skills named with ≤ ${MAX_SHOWN} names per request and false ≤ ${MAX_FALSE} there), over the CV confidences above. The router's part only (no session holds, no host-hidden skills).`,
    '',
    '| rule | named | silent (should) | false | shown per request |',
    '|---|---|---|---|---|',
    hookRow(
      'today: v4, floor 0.60, at most 3 (its in-sample confidence)',
      hookFig([...today.values()], () => ({ f1: 0.6, f2: 0.6, k: 3 })),
    ),
    hookRow('v4 order, v4 features refit by CV, rule by LORO', hv4.fig),
    hookRow('v4 + stage, stage confidence by CV, rule by LORO', hst.fig),
    ...[1, 2, 4, 5, 6, 8].map((mu) => {
      const h = hookCv(runStage.cv, mu);
      const top = [...h.chosen].sort((a, b) => b[1] - a[1])[0]!;
      return hookRow(
        `v4 + stage, CV confidence, rule by LORO maximising named − ${mu} × false (≤ ${MAX_SHOWN} shown; most folds: ${top[0]}, ${top[1]} of ${repos.length})`,
        h.fig,
      );
    }),
    hookRow(
      `the same, in-sample (f1 ${inHook?.rule.f1} · f2 ${inHook?.rule.f2} · k ${inHook?.rule.k})`,
      inHook?.fig ?? { named: 0, falseNamed: 0, shown: 0, silent: 1 },
    ),
    hookRow(
      `the proposed rule fixed for all (f1 ${NEARMISS_HOOK_RULE.f1} · f2 ${NEARMISS_HOOK_RULE.f2} · at most ${NEARMISS_HOOK_RULE.k}), over the CV confidences`,
      hookFig(rowsStage, () => NEARMISS_HOOK_RULE),
    ),
    hookRow(
      "today's rule (0.60 for all, at most 3) over the stage's CV confidences",
      hookFig(rowsStage, () => ({ f1: 0.6, f2: 0.6, k: 3 })),
    ),
    hookRow(
      'v4 + stage, top 3 always',
      hookFig(rowsStage, () => ({ f1: 0, f2: 0, k: 3 })),
    ),
    '',
    `Rules the folds chose (stage): ${[...hst.chosen]
      .sort((a, b) => b[1] - a[1])
      .map(([k, n]) => `${k} (${n})`)
      .join('; ')}.`,
    '',
    'The curve over the CV confidences (best rule per budget of names per request; with the false bound, and without it):',
    '',
    '| shown per request ≤ | named (false ≤ 0.049) | false | rule | named (no bound) | false | rule |',
    '|---|---|---|---|---|---|---|',
    ...[0.5, 0.75, 1, 1.25, 1.5, 2, 3].map((b) => {
      const x = chooseHook(rowsStage, hookGrid(), b, MAX_FALSE);
      const y = chooseHook(rowsStage, hookGrid(), b, 1);
      const cell = (z: typeof x): string =>
        z === undefined
          ? '— | — | —'
          : `${f3(z.fig.named)} | ${f3(z.fig.falseNamed)} | f1 ${z.rule.f1} · f2 ${z.rule.f2} · k ${z.rule.k}`;
      return `| ${b} | ${cell(x)} | ${cell(y)} |`;
    }),
    '',
  );

  // 2. Analyzer switches.
  if (!process.env['NM_SKIP_ANALYZER'])
    lines.push(
      ...analyzerSection(
        requests.map((r) => r.q),
        f3,
      ),
    );

  // The frozen objects for the stage file.
  const stageModel = {
    ...runStage.model,
    floor: runStage.inSampleFloors.keep,
    fitted_on: `bench/nearmiss.ts: all ${repos.length} repositories of the trigger dev set; floor = keep 85 % of top-1 hits`,
  };
  console.log(`export const RERANK_NEARMISS_V1 = ${JSON.stringify(finalParams, null, 2)};`);
  console.log(`export const NEARMISS_CONFIDENCE_V1 = ${JSON.stringify(stageModel, null, 2)};`);
  writeResult('nearmiss', lines.join('\n'));
  console.log(lines.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// 3. Confidence. A logistic model over a candidate's features, rows as bench/calibrate.ts builds
// them: each of the top 3 of a should-trigger request (1 when it is the labelled skill), and the
// named skill of a should-not request when it is in the top 3 (0).

/** One request's shown list: skill ids and feature vectors of the top 3. */
interface Shown {
  readonly r: CachedRequest;
  readonly ids: readonly string[];
  readonly x: readonly number[][];
}

function logistic(X: readonly number[][], y: readonly number[]): NearmissConfidenceModel {
  return { ...fitLogistic(X, y, 1e-2, 40), floor: 0.5, fitted_on: '' };
}

function samples(rows: readonly Shown[]): { X: number[][]; y: number[] } {
  const X: number[][] = [];
  const y: number[] = [];
  for (const s of rows)
    s.ids.forEach((id, i) => {
      if (s.r.q.should_trigger) {
        X.push([...s.x[i]!]);
        y.push(id === s.r.q.skill ? 1 : 0);
      } else if (id === s.r.q.skill) {
        X.push([...s.x[i]!]);
        y.push(0);
      }
    });
  return { X, y };
}

/** Today's features on v4's own order (confidence.ts), top 3. */
function shownV4(r: CachedRequest): Shown {
  const list = r.candidates.slice(0, 3) as unknown as RankedCandidate[];
  const after = r.candidates[3]?.score ?? 0;
  return {
    r,
    ids: list.map((c) => c.skill_id),
    x: list.map((_, i) => confidenceFeatures(list, i, after)),
  };
}

/** The stage's features on the re-ranked order under `params`, top 3. */
function shownReranked(r: CachedRequest, params: RerankParams): Shown {
  const ranked = rerankNearMiss(r.q.query, r.candidates, params);
  const top = ranked.slice(0, 3);
  return {
    r,
    ids: top.map((x) => x.candidate.skill_id),
    x: top.map((_, i) => nearmissConfidenceFeatures(r.q.query, ranked, i)),
  };
}

/** Per request: its top 3 ids and each one's confidence. */
type Scored = Map<string, { ids: readonly string[]; conf: readonly number[]; r: CachedRequest }>;

function scoreShown(rows: readonly Shown[], model: NearmissConfidenceModel, out: Scored): void {
  for (const s of rows)
    out.set(s.r.q.id, { r: s.r, ids: s.ids, conf: s.x.map((x) => nearmissConfidenceOf(model, x)) });
}

interface FloorFig {
  readonly floor: number;
  readonly kept: number;
  readonly top1: number;
  readonly falseTrigger: number;
}

function atFloor(sc: Scored, floorOf: (r: CachedRequest) => number): FloorFig {
  let pos = 0;
  let neg = 0;
  let hits = 0;
  let keptHits = 0;
  let ft = 0;
  let floorSum = 0;
  for (const { r, ids, conf } of sc.values()) {
    const f = floorOf(r);
    floorSum += f;
    const first = ids[0] === r.q.skill;
    const above = (conf[0] ?? 0) >= f;
    if (r.q.should_trigger) {
      pos++;
      if (first) {
        hits++;
        if (above) keptHits++;
      }
    } else {
      neg++;
      if (first && above) ft++;
    }
  }
  return {
    floor: floorSum / Math.max(1, sc.size),
    kept: keptHits / Math.max(1, hits),
    top1: keptHits / Math.max(1, pos),
    falseTrigger: ft / Math.max(1, neg),
  };
}

const FLOORS = Array.from({ length: 39 }, (_, i) => Math.round((i + 1) * 2.5) / 100);

/** A floor rule chosen on a training set: `keep` (highest keeping ≥ 85 %) or `false` (lowest with false ≤ 0.03). */
function chooseFloor(sc: Scored, rule: 'keep' | 'false'): number {
  if (rule === 'keep') {
    let best = FLOORS[0]!;
    for (const f of FLOORS) if (atFloor(sc, () => f).kept >= 0.85) best = f;
    return best;
  }
  for (const f of FLOORS) if (atFloor(sc, () => f).falseTrigger <= 0.03) return f;
  return FLOORS[FLOORS.length - 1]!;
}

interface ConfidenceRun {
  /** Pooled held-out log loss of the sample rows. */
  readonly logLoss: number;
  /** Pooled held-out confidences (each repository scored by the model fitted without it). */
  readonly cv: Scored;
  /** The floors each fold chose, per rule. */
  readonly floors: Map<string, { keep: number; false: number }>;
  /** The same fitted on all repositories (in-sample). */
  readonly inSample: Scored;
  readonly model: NearmissConfidenceModel;
  readonly inSampleFloors: { keep: number; false: number };
}

/** `logistic` on the columns `cols` only; the other features get weight 0. */
function logisticOn(
  X: readonly number[][],
  y: readonly number[],
  cols?: readonly number[],
): NearmissConfidenceModel {
  if (cols === undefined) return logistic(X, y);
  const m = logistic(
    X.map((x) => cols.map((j) => x[j]!)),
    y,
  );
  const d = X[0]!.length;
  const full = (vs: readonly number[], fill: number): number[] => {
    const out = new Array<number>(d).fill(fill);
    cols.forEach((j, k) => (out[j] = vs[k]!));
    return out;
  };
  return { ...m, means: full(m.means, 0), scales: full(m.scales, 1), weights: full(m.weights, 0) };
}

function confidenceRun(
  shownOf: (r: CachedRequest, repoOut: string | null) => Shown,
  cols?: readonly number[],
): ConfidenceRun {
  const cv: Scored = new Map();
  const floors = new Map<string, { keep: number; false: number }>();
  let logLoss = 0;
  for (const repo of repos) {
    const train = requests.filter((r) => r.q.repo !== repo).map((r) => shownOf(r, repo));
    const test = requests.filter((r) => r.q.repo === repo).map((r) => shownOf(r, repo));
    const { X, y } = samples(train);
    const model = logisticOn(X, y, cols);
    const held = samples(test);
    held.X.forEach((x, i) => {
      const p = Math.min(1 - 1e-6, Math.max(1e-6, nearmissConfidenceOf(model, x)));
      logLoss -= held.y[i] === 1 ? Math.log(p) : Math.log(1 - p);
    });
    const trainScored: Scored = new Map();
    scoreShown(train, model, trainScored);
    floors.set(repo, {
      keep: chooseFloor(trainScored, 'keep'),
      false: chooseFloor(trainScored, 'false'),
    });
    scoreShown(test, model, cv);
  }
  const all = requests.map((r) => shownOf(r, null));
  const { X, y } = samples(all);
  const model = logisticOn(X, y, cols);
  const inSample: Scored = new Map();
  scoreShown(all, model, inSample);
  return {
    logLoss,
    cv,
    floors,
    inSample,
    model,
    inSampleFloors: { keep: chooseFloor(inSample, 'keep'), false: chooseFloor(inSample, 'false') },
  };
}

// ---------------------------------------------------------------------------------------------
// 4. The hook's rule (as bench/hook-rule.ts): name rank 1 at or above f1 and ranks 2..k at or
// above f2; chosen per held-out repository on the other 33 (most labelled skills named within
// ≤ MAX_SHOWN names per request and a false rate ≤ MAX_FALSE there).

const MAX_SHOWN = 1.5;
const MAX_FALSE = 0.049;

interface HookRule {
  readonly f1: number;
  readonly f2: number;
  readonly k: number;
}
interface HookFig {
  readonly named: number;
  readonly falseNamed: number;
  readonly shown: number;
  readonly silent: number;
}

function hookFig(
  rows: readonly { r: CachedRequest; ids: readonly string[]; conf: readonly number[] }[],
  ruleOf: (r: CachedRequest) => HookRule,
): HookFig {
  let pos = 0;
  let neg = 0;
  let hit = 0;
  let fn = 0;
  let shown = 0;
  let silent = 0;
  for (const { r, ids, conf } of rows) {
    const rule = ruleOf(r);
    const names: string[] = [];
    for (let i = 0; i < Math.min(rule.k, ids.length); i++) {
      if ((conf[i] ?? 0) < (i === 0 ? rule.f1 : rule.f2)) break;
      names.push(ids[i]!);
    }
    shown += names.length;
    if (r.q.should_trigger) {
      pos++;
      if (names.includes(r.q.skill)) hit++;
      if (names.length === 0) silent++;
    } else {
      neg++;
      if (names.includes(r.q.skill)) fn++;
    }
  }
  return {
    named: hit / Math.max(1, pos),
    falseNamed: fn / Math.max(1, neg),
    shown: shown / Math.max(1, rows.length),
    silent: silent / Math.max(1, pos),
  };
}

function hookGrid(): HookRule[] {
  const xs: number[] = [];
  for (let x = 0.05; x <= 0.951; x += 0.05) xs.push(Math.round(x * 100) / 100);
  const out: HookRule[] = [];
  for (const f1 of xs)
    for (const k of [1, 2, 3])
      for (const f2 of k === 1 ? [f1] : xs.filter((v) => v <= f1)) out.push({ f1, f2, k });
  return out;
}

function chooseHook(
  rows: readonly { r: CachedRequest; ids: readonly string[]; conf: readonly number[] }[],
  rules: readonly HookRule[],
  maxShown = MAX_SHOWN,
  maxFalse = MAX_FALSE,
): { rule: HookRule; fig: HookFig } | undefined {
  let best: { rule: HookRule; fig: HookFig } | undefined;
  for (const rule of rules) {
    const fig = hookFig(rows, () => rule);
    if (fig.shown > maxShown || fig.falseNamed > maxFalse) continue;
    if (
      best === undefined ||
      fig.named > best.fig.named ||
      (fig.named === best.fig.named && fig.shown < best.fig.shown)
    )
      best = { rule, fig };
  }
  return best;
}

/** The rule with the most `named − mu × false` within ≤ MAX_SHOWN names per request. */
function choosePenalised(
  rows: readonly { r: CachedRequest; ids: readonly string[]; conf: readonly number[] }[],
  rules: readonly HookRule[],
  mu: number,
): { rule: HookRule; fig: HookFig } | undefined {
  let best: { rule: HookRule; fig: HookFig; v: number } | undefined;
  for (const rule of rules) {
    const fig = hookFig(rows, () => rule);
    if (fig.shown > MAX_SHOWN) continue;
    const v = fig.named - mu * fig.falseNamed;
    if (best === undefined || v > best.v + 1e-12) best = { rule, fig, v };
  }
  return best;
}

/**
 * LORO choice of the hook rule over `sc` (pooled held-out confidences): by the hard bounds
 * (chooseHook), or with `mu` by the penalised figure (choosePenalised).
 */
function hookCv(sc: Scored, mu?: number): { fig: HookFig; chosen: Map<string, number> } {
  const rules = hookGrid();
  const rows = [...sc.values()];
  const ruleOf = new Map<string, HookRule>();
  const chosen = new Map<string, number>();
  for (const repo of repos) {
    const train = rows.filter((x) => x.r.q.repo !== repo);
    const best = mu === undefined ? chooseHook(train, rules) : choosePenalised(train, rules, mu);
    const rule = best?.rule ?? { f1: 1.01, f2: 1.01, k: 1 };
    const key = `f1 ${rule.f1} · f2 ${rule.f2} · k ${rule.k}`;
    chosen.set(key, (chosen.get(key) ?? 0) + 1);
    for (const x of rows) if (x.r.q.repo === repo) ruleOf.set(x.r.q.id, rule);
  }
  return { fig: hookFig(rows, (r) => ruleOf.get(r.q.id)!), chosen };
}

main();
