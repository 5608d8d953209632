/**
 * The authors' trigger evaluations as routing evidence (issue 34 item 1; `npm run bench:author`):
 * on ../shared/bench/trigger with ../shared/bench/corpus-real as distractors, 60 % of each skill's
 * should and should-not requests (a deterministic split: each skill's requests of one polarity in
 * order of the hash of their text, the first 60 % rounded) are put beside it as `author` examples,
 * and the other 40 % are routed: top-1 (the labelled skill first, on should-trigger requests) and
 * false trigger@1 (the must-not skill first, on should-not requests) for policy v4 without author
 * evidence, with the positive examples only (the usage field, under the trust bound), and with the
 * penalty stage of the negative examples (src/router/search/stages/author-evidence.ts).
 *
 * The penalty's constants are chosen by leave-one-repository-out cross-validation over the 34
 * repositories: for each repository, the grid point that maximises top-1 − false trigger@1 over the
 * validation requests of the other 33 is applied to that repository's validation requests; the
 * cross-validated figures pool those held-out answers. The in-sample best is shown beside them.
 *
 * One catalog serves every fold (the folds only change which constants apply); each validation
 * request is ranked twice (without and with author evidence, penalty off), and the grid re-ranks
 * those answers with the pure stage. Writes only under bench/.work and bench/results.
 */
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  CatalogReader,
  openUsageForWrite,
  readUsage,
  syncAuthorExamples,
  telemetryPathFor,
  type AuthorExample,
} from '../src/catalog/index.js';
import { POLICY_V4_ID, indexCatalog } from '../src/internal.js';
import { UsageIndex } from '../src/router/index.js';
import { SearchCache, searchCatalog, type SearchOptions } from '../src/router/search/dispatch.js';
import { analyzeTermsV4 } from '../src/text/index.js';
import {
  DEFAULT_PENALTY,
  termCosine,
  authorStage,
  optInAuthorEvidence,
  setAuthorPenalty,
  type PenaltyParams,
} from '../src/router/search/stages/author-evidence.js';
import { TRUST_BOUND_K } from '../src/router/search/trust-bound.js';
import type { RankedResult } from '../src/router/search/types.js';
import { sha256Hex } from '../src/fsx/index.js';
import { normalizeExampleQuery } from '../src/catalog/index.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';
import { triggerQueries, type TriggerQuery } from './trigger-quality.js';

const SHARED = path.resolve(REPO, '..', 'shared', 'bench');
const TRIGGER = path.join(SHARED, 'trigger');
const CORPUS = path.join(SHARED, 'corpus-real');
const TRAIN_SHARE = 0.6;
const DEPTH = 20;

/** The grid the cross-validation chooses from. */
const GRID: PenaltyParams[] = [];
for (const minSimilarity of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
  for (const margin of [0, 0.1, 0.2])
    for (const strength of [0.5, 1, 2, 4])
      for (const floor of [0.05, 0.1, 0.3, 0.5])
        GRID.push({ minSimilarity, margin, strength, floor });
const NO_PENALTY: PenaltyParams = { minSimilarity: 2, margin: 2, strength: 0, floor: 1 };

const hashOf = (q: string): string => sha256Hex(normalizeExampleQuery(q));

/** Each skill's requests of one polarity in hash order; the first 60 % (rounded) are train. */
function split(qs: readonly TriggerQuery[]): { train: TriggerQuery[]; valid: TriggerQuery[] } {
  const groups = new Map<string, TriggerQuery[]>();
  for (const q of qs) {
    const k = `${q.skill}\u0000${q.should_trigger}`;
    groups.set(k, [...(groups.get(k) ?? []), q]);
  }
  const train: TriggerQuery[] = [];
  const valid: TriggerQuery[] = [];
  for (const g of groups.values()) {
    const sorted = [...g].sort((a, b) => (hashOf(a.query) < hashOf(b.query) ? -1 : 1));
    const n = Math.round(sorted.length * TRAIN_SHARE);
    train.push(...sorted.slice(0, n));
    valid.push(...sorted.slice(n));
  }
  return { train, valid };
}

interface Answer {
  readonly q: TriggerQuery;
  /** v4 without author evidence (also the trust bound's ranking without untrusted examples). */
  readonly off: readonly string[];
  /** v4 with the author examples, penalty off. */
  readonly on: RankedResult | undefined;
  /** The same without the trust bound (not shipped: what the bound costs). */
  readonly unbounded: readonly string[];
}

function rankAll(catalog: string, valid: readonly TriggerQuery[]): Answer[] {
  const reader = new CatalogReader(catalog);
  const cache = new SearchCache();
  const usage = new UsageIndex(readUsage(telemetryPathFor(catalog)).examples);
  const options: SearchOptions = { usage, maxLimit: DEPTH };
  const ask = (query: string, extra: SearchOptions = {}): RankedResult | undefined => {
    try {
      return searchCatalog(reader, cache, { query, limit: DEPTH }, { ...options, ...extra });
    } catch {
      return undefined; // no searchable word: nothing ranked, as score.py counts it
    }
  };
  try {
    const off = valid.map((q) => ask(q.query)?.candidates.map((c) => c.skill_id) ?? []);
    const restore = optInAuthorEvidence(POLICY_V4_ID);
    const restoreP = setAuthorPenalty(NO_PENALTY);
    try {
      return valid.map((q, i) => ({
        q,
        off: off[i]!,
        on: ask(q.query),
        unbounded: ask(q.query, { trustBound: false })?.candidates.map((c) => c.skill_id) ?? [],
      }));
    } finally {
      restoreP();
      restore();
    }
  } finally {
    reader.close();
  }
}

/** Per answer: first-ranked skill under `params` (undefined: the lift only). */
function firsts(
  answers: readonly Answer[],
  usage: UsageIndex,
  params: PenaltyParams | 'off' | 'lift',
): (string | undefined)[] {
  if (params === 'off') return answers.map((a) => a.off[0]);
  if (params === 'lift') return answers.map((a) => a.on?.candidates[0]?.skill_id);
  return answers.map((a) => {
    if (a.on === undefined) return undefined;
    const staged = authorStage(a.on, {
      policyId: POLICY_V4_ID,
      cjkBigrams: true,
      query: a.q.query,
      usage,
      trustedTop: () => new Set(a.off.slice(0, TRUST_BOUND_K)),
      params,
    });
    return staged.candidates[0]?.skill_id;
  });
}

interface Counts {
  hits: number;
  pos: number;
  falses: number;
  neg: number;
}

function countsOf(
  answers: readonly Answer[],
  first: readonly (string | undefined)[],
  keep: (a: Answer) => boolean,
): Counts {
  const c: Counts = { hits: 0, pos: 0, falses: 0, neg: 0 };
  answers.forEach((a, i) => {
    if (!keep(a)) return;
    const top = first[i] === a.q.skill;
    if (a.q.should_trigger) {
      c.pos++;
      if (top) c.hits++;
    } else {
      c.neg++;
      if (top) c.falses++;
    }
  });
  return c;
}

const rate = (n: number, d: number): number => (d > 0 ? n / d : 0);
const objective = (c: Counts): number => rate(c.hits, c.pos) - rate(c.falses, c.neg);
const row = (label: string, c: Counts, note = ''): string =>
  `| ${label} | ${fmt(rate(c.hits, c.pos), 3)} | ${fmt(rate(c.falses, c.neg), 3)} | ${note} |`;
const paramsText = (p: PenaltyParams): string =>
  `min similarity ${p.minSimilarity}, margin ${p.margin}, strength ${p.strength}, floor ${p.floor}`;

function main(): void {
  const t0 = performance.now();
  const qs = triggerQueries(TRIGGER);
  const { train, valid } = split(qs);
  const dir = path.join(WORK, 'author-evidence');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [path.join(TRIGGER, 'skills'), CORPUS],
    now: () => new Date(0),
    policy: POLICY_V4_ID,
  });
  // The train part as the skills' author examples (replacing whatever index read beside them).
  const bySkill = new Map<string, AuthorExample[]>();
  for (const q of train)
    bySkill.set(q.skill, [
      ...(bySkill.get(q.skill) ?? []),
      { query: q.query, polarity: q.should_trigger ? 'positive' : 'negative' },
    ]);
  const db = openUsageForWrite(telemetryPathFor(catalog));
  try {
    syncAuthorExamples(db, bySkill, new Date().toISOString());
  } finally {
    db.close();
  }
  const indexed = performance.now() - t0;
  const answers = rankAll(catalog, valid);
  const ranked = performance.now() - t0 - indexed;
  const usage = new UsageIndex(readUsage(telemetryPathFor(catalog)).examples);
  const all = (): boolean => true;
  const off = countsOf(answers, firsts(answers, usage, 'off'), all);
  const lift = countsOf(answers, firsts(answers, usage, 'lift'), all);
  const unbounded = countsOf(
    answers,
    answers.map((a) => a.unbounded[0]),
    all,
  );
  const restore = optInAuthorEvidence(POLICY_V4_ID);
  let gridFirsts: (string | undefined)[][];
  let defaults: Counts;
  try {
    gridFirsts = GRID.map((p) => firsts(answers, usage, p));
    defaults = countsOf(answers, firsts(answers, usage, DEFAULT_PENALTY), all);
  } finally {
    restore();
  }
  // Leave one repository out: choose on the other repositories, apply to the one left out.
  const repos = [...new Set(valid.map((q) => q.repo))].sort();
  const cv: Counts = { hits: 0, pos: 0, falses: 0, neg: 0 };
  const chosen = new Map<string, number>();
  for (const repo of repos) {
    const others = (a: Answer): boolean => a.q.repo !== repo;
    let best = 0;
    let bestScore = -Infinity;
    gridFirsts.forEach((f, i) => {
      const s = objective(countsOf(answers, f, others));
      if (s > bestScore + 1e-12) {
        bestScore = s;
        best = i;
      }
    });
    chosen.set(paramsText(GRID[best]!), (chosen.get(paramsText(GRID[best]!)) ?? 0) + 1);
    const held = countsOf(answers, gridFirsts[best]!, (a) => a.q.repo === repo);
    cv.hits += held.hits;
    cv.pos += held.pos;
    cv.falses += held.falses;
    cv.neg += held.neg;
  }
  let inBest = 0;
  gridFirsts.forEach((f, i) => {
    if (
      objective(countsOf(answers, f, all)) >
      objective(countsOf(answers, gridFirsts[inBest]!, all)) + 1e-12
    )
      inBest = i;
  });
  const inSample = countsOf(answers, gridFirsts[inBest]!, all);
  // How well the request's words tell an author's near-misses from its should-trigger requests:
  // validation requests whose most similar own-skill train example is a should-not one.
  const terms = (q: string): Set<string> => new Set(analyzeTermsV4(q));
  const nearestNegative = (v: TriggerQuery): boolean => {
    const q = terms(v.query);
    const own = train.filter((t) => t.skill === v.skill);
    const best = (pol: boolean): number =>
      Math.max(
        0,
        ...own.filter((t) => t.should_trigger === pol).map((t) => termCosine(q, terms(t.query))),
      );
    return best(false) > best(true);
  };
  const negV = valid.filter((q) => !q.should_trigger);
  const posV = valid.filter((q) => q.should_trigger);
  const sepNeg = negV.filter(nearestNegative).length;
  const sepPos = posV.filter(nearestNegative).length;
  const total = performance.now() - t0;
  const md = [
    '# Author examples as routing evidence (issue 34 item 1)',
    '',
    `${machineLine()}. \`npm run bench:author\` (bench/author-evidence.ts): ../shared/bench/trigger (112 skills, 34 repositories) with ../shared/bench/corpus-real as distractors, one catalog under policy v4. 60 % of each skill's should and should-not requests (per skill and polarity, in order of the sha256 of the normalised text, the first 60 % rounded) are stored beside it as \`author\` examples: ${train.length} requests (${train.filter((q) => q.should_trigger).length} should, ${train.filter((q) => !q.should_trigger).length} should-not). The other ${valid.length} (${valid.filter((q) => q.should_trigger).length} should, ${valid.filter((q) => !q.should_trigger).length} should-not) are routed; none of them is an example.`,
    '',
    '| v4 on the validation 40 % | top-1 | false trigger@1 | |',
    '|---|---|---|---|',
    row('without author evidence (v4 today)', off),
    row('author examples, should-trigger only (usage field, trust bound)', lift),
    row(
      'the same without the trust bound (not shipped)',
      unbounded,
      'what the bound costs: author examples are untrusted',
    ),
    row(
      '**+ penalty stage, constants cross-validated by repository**',
      cv,
      'leave-one-repository-out (34 folds): each repository answered with the constants best on the other 33',
    ),
    row('+ penalty stage, shipped constants (in-sample)', defaults, paramsText(DEFAULT_PENALTY)),
    row('+ penalty stage, in-sample best of the grid', inSample, paramsText(GRID[inBest]!)),
    '',
    `Targets (issue 34): top-1 ≥ 0.85, false trigger@1 ≤ 0.04. Objective of the choice: top-1 − false trigger@1. Grid: ${GRID.length} points (min similarity 0.1–0.7, margin 0–0.2, strength 0.5–4, floor 0.05–0.5). Constants chosen across the 34 folds: ${[
      ...chosen.entries(),
    ]
      .sort((a, b) => b[1] - a[1])
      .map(([p, n]) => `${p} (${n})`)
      .join('; ')}.`,
    '',
    `Reading: the cross-validated figures ${rate(cv.hits, cv.pos) >= 0.85 ? 'meet' : 'miss'} the top-1 target and ${rate(cv.falses, cv.neg) <= 0.04 ? 'meet' : 'miss'} the false-trigger target. The should-trigger examples lift the labelled skill (top-1 ${fmt(rate(off.hits, off.pos), 3)} → ${fmt(rate(lift.hits, lift.pos), 3)}) but also the must-not skill on its near-misses, which authors write close to their should-trigger requests (false trigger@1 ${fmt(rate(off.falses, off.neg), 3)} → ${fmt(rate(lift.falses, lift.neg), 3)}). The penalty cannot take that back from the words alone: only ${sepNeg} of ${negV.length} validation should-not requests are closer (term cosine) to a should-not example of their skill than to a should-trigger one, while ${sepPos} of ${posV.length} should-trigger requests are too. Author evidence therefore stays behind the policy gate (authorEvidenceEnabled): on these figures it should not become the default.`,
    '',
    `Time: index ${fmt(indexed / 1000, 1)} s, ${answers.length * 3} searches ${fmt(ranked / 1000, 1)} s, total ${fmt(total / 1000, 1)} s.`,
  ].join('\n');
  writeResult('author-evidence', md);
  rmSync(dir, { recursive: true, force: true });
}

main();
