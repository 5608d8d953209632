/**
 * Knowing when nothing fits (docs/ranking.md §11, docs/integration.md §2): every candidate of a
 * search answer gets a `confidence`, the estimated probability that it is the skill a person would
 * pick for the request, and the answer an `abstain` flag when no candidate reaches the floor. The
 * estimate is a logistic model over what the ranked list itself shows — the candidate's score and
 * its lead over the next, its share of the top score, how much of the request its name, keywords
 * and description cover, how many words the request has, its rank — fitted per policy on the
 * trigger dev set (bench/calibrate.ts writes the coefficients; a BM25F policy's parameter object
 * and, for v1, confidence-models.ts hold them).
 * Pure: the same result gives the same confidences.
 *
 * The trust bound bounds confidence as it bounds rank (issue 36 M1, docs/ranking.md §9): a
 * candidate the bound holds back (`explanation.trust_bound.role` `held_back`: fetch examples had
 * ranked it ahead of the skill put first) gets a confidence below the floor of the answer, so no
 * surface (hook, MCP, CLI, explorer) suggests it and `abstain` does not flip on the evidence the
 * bound discounts; every other candidate is judged against the list without the held-back ones, so
 * a held-back skill's inflated score does not drag the skill put first below the floor either.
 */
import type { Bm25fExplanation } from './policies/bm25f-core.js';
import type { ConfidenceModel, ScoreExplanation } from './policies/types.js';
import type { RankedCandidate } from './types.js';

export type { ConfidenceModel } from './policies/types.js';

/** The names of the features, in the order of every feature vector (docs/ranking.md §11). */
export const CONFIDENCE_FEATURES = [
  'log_score',
  'share_of_top',
  'lead_over_next',
  'routing_coverage',
  'any_coverage',
  'log_terms',
  'first',
  'second',
] as const;

/** How much of a request a candidate covers (shares of the query's scoring terms), and how many terms. */
export interface Coverage {
  /** Share of the terms its routing fields (name, keywords, description) hold. */
  readonly routing: number;
  /** Share of the terms any of its fields holds. */
  readonly any: number;
  readonly terms: number;
}

/**
 * The coverage of a BM25F explanation's scoring terms (each with its per-field term frequencies):
 * read here and by the near-miss stage's confidence features (stages/rerank-nearmiss.ts).
 */
export function termCoverage(
  terms: readonly {
    readonly tf: {
      readonly name: number;
      readonly keywords: number;
      readonly description: number;
      readonly body: number;
      readonly usage: number;
    };
  }[],
): Coverage {
  if (terms.length === 0) return { routing: 0, any: 0, terms: 0 };
  let routing = 0;
  let any = 0;
  for (const t of terms) {
    const f = t.tf;
    if (f.name + f.keywords + f.description > 0) routing++;
    if (f.name + f.keywords + f.description + f.body + f.usage > 0) any++;
  }
  return { routing: routing / terms.length, any: any / terms.length, terms: terms.length };
}

// How much of the request a candidate's routing fields (name, keywords, description) and all its
// fields cover: shares of the query's scoring terms it holds there.
function coverage(e: RankedCandidate['explanation']): Coverage {
  if ('terms' in e) return termCoverage((e as Bm25fExplanation).terms);
  const lx = e as ScoreExplanation;
  const n = lx.query_tokens.length;
  if (n === 0) return { routing: 0, any: 0, terms: 0 };
  const matched = new Set([
    ...lx.exact.keywords.matched,
    ...lx.exact.name.matched,
    ...lx.exact.description.matched,
  ]);
  const routing = matched.size / n;
  return { routing, any: lx.fts.raw > 0 ? Math.max(routing, 1 / n) : routing, terms: n };
}

/**
 * The feature vector of `list[i]` (CONFIDENCE_FEATURES order); `after` is the score of the
 * candidate ranked just after the list's last one (0 when there is none).
 */
export function confidenceFeatures(
  list: readonly RankedCandidate[],
  i: number,
  after: number,
): number[] {
  const c = list[i]!;
  const top = list[0]!.score;
  const next = list[i + 1]?.score ?? after;
  return listFeatures(c.score, top, next, i, coverage(c.explanation));
}

/**
 * The CONFIDENCE_FEATURES of a candidate scored `score` at rank `i` (0-based) of a list whose top
 * score is `top` and whose next score (after this one) is `next`, covering the request as `cov`:
 * the vector of confidenceFeatures and the first eight of the near-miss stage's
 * (stages/rerank-nearmiss.ts nearmissConfidenceFeatures).
 */
export function listFeatures(
  score: number,
  top: number,
  next: number,
  i: number,
  cov: Coverage,
): number[] {
  return [
    Math.log1p(score),
    top > 0 ? score / top : 0,
    score > 0 ? (score - next) / score : 0,
    cov.routing,
    cov.any,
    Math.log(Math.max(1, cov.terms)),
    i === 0 ? 1 : 0,
    i === 1 ? 1 : 0,
  ];
}

/** The model's probability for one feature vector, rounded to 4 decimals. */
export function confidenceOf(model: ConfidenceModel, x: readonly number[]): number {
  let s = model.bias;
  x.forEach((v, j) => {
    s += model.weights[j]! * ((v - model.means[j]!) / (model.scales[j]! || 1));
  });
  return Math.round(1e4 / (1 + Math.exp(-s))) / 1e4;
}

/** Whether the trust bound held this candidate back (search/trust-bound.ts). */
export function isHeldBack(c: RankedCandidate): boolean {
  return c.explanation.trust_bound?.role === 'held_back';
}

/**
 * The confidence of each of `shown` (same order) under the trust bound (see the file header): the
 * candidates the bound did not hold back are scored as the list without the held-back ones (`after`
 * is the score of the first candidate past `shown` that is not held back, 0 when there is none);
 * a held-back one is capped just below `floor` (0 when the floor is 0).
 */
export function boundedConfidences(
  model: ConfidenceModel,
  shown: readonly RankedCandidate[],
  after: number,
  floor: number,
): number[] {
  const kept = shown.filter((c) => !isHeldBack(c));
  const own = new Map(
    kept.map((c, i) => [c, confidenceOf(model, confidenceFeatures(kept, i, after))]),
  );
  const cap = Math.max(0, Math.round((floor - 1e-4) * 1e4) / 1e4);
  return shown.map(
    (c, i) => own.get(c) ?? Math.min(cap, confidenceOf(model, confidenceFeatures(shown, i, after))),
  );
}
