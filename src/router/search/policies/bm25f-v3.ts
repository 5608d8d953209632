/**
 * Ranking policy `tf.skillrouter.bm25f.v3` (docs/ranking.md §8, docs/integration.md): true BM25F over five
 * fields — name, keywords (+ tags), description (+ when_to_use), body (its first 8,192 characters)
 * and usage (the requests that led to fetches of the skill, learned or imported) — each with its
 * own weight and length normalisation against that field's average length, one k1, one IDF per
 * term over the published generation. Around it, explained and bounded: an exact-name bonus,
 * fuzzy credit for query words the generation lacks, and v1's telemetry and lifecycle multipliers.
 * Pure constants and functions over the BM25F core v3 and v4 share (bm25f-core.ts): the search
 * engine (../bm25f.ts) accumulates scores with the core's term contribution under these constants
 * and explains the final candidates with `scoreV3`, so the formula exists once.
 */
import type { Bm25fPolicy } from './policy.js';
import {
  BM25F_FIELDS,
  bm25fContribution,
  fieldNumbers,
  scoreBm25f,
  type Bm25fExplanationParts,
  type Bm25fFeatures,
  type TermExplanation,
} from './bm25f-core.js';
import { bm25fFrequency, explainMultipliers, type PerField } from './shared.js';

// v3's IDF is BM25's, under the name v3 has always had.
export { bm25Idf as idf } from './shared.js';

/** The policy id. */
export const POLICY_V3_ID = 'tf.skillrouter.bm25f.v3';

/** The five BM25F fields, in the order of every per-field array. */
export const V3_FIELDS = BM25F_FIELDS;

/**
 * Every constant of v3, each chosen on the dev split (docs/ranking.md §8 gives the measurements).
 */
export const V3 = Object.freeze({
  /** Term-frequency saturation (0.9–2.0 measured within ±0.001 macro nDCG@10). */
  K1: 1.2,
  /** Field weights: a name or keyword hit is worth more than a description hit, a body hit less. */
  WEIGHTS: [3, 2, 1, 0.5, 0.5] as PerField,
  /**
   * Length normalisation per field: names and keywords barely (they are short lists), descriptions
   * as classic BM25, bodies strongly (long real SKILL.md bodies otherwise win on sheer length:
   * 0.9 beats 0.75 by +0.011 macro nDCG@10 with corpus-real distractors), usage midway.
   */
  B: [0.3, 0.3, 0.75, 0.9, 0.5] as PerField,
  /** Added when the query's terms are exactly the skill's name terms (the user typed the name). */
  NAME_BONUS: 5.0,
  /** Weight of the fuzzy relevance in [0, 1] (per unknown query word, its best near term). */
  FUZZY_WEIGHT: 2.0,
  /** Multiplier of a deprecated skill (shown only with include_deprecated). */
  DEPRECATED_MULTIPLIER: 0.5,
});

/** The length-normalised, weighted frequency of one term over the fields (BM25F's tf~). */
export function weightedFrequency(tf: PerField, lens: PerField, avgLens: PerField): number {
  return bm25fFrequency(tf, lens, avgLens, V3.WEIGHTS, V3.B);
}

/** One term's BM25F contribution: idf × tf~ / (k1 + tf~). */
export function termContribution(tfTilde: number, termIdf: number): number {
  return bm25fContribution(tfTilde, termIdf, V3.K1);
}

/** What `scoreV3` needs to know about one skill for one query. */
export type V3Features = Bm25fFeatures;

/** Every component of a v3 score. */
export interface Bm25fExplanation extends Bm25fExplanationParts {
  readonly terms: readonly TermExplanation[];
}

/** Scores one skill for one query under v3, with every component explained. */
export function scoreV3(f: V3Features): Bm25fExplanation {
  const s = scoreBm25f(f, V3, { policy: POLICY_V3_ID, tfOf: fieldNumbers });
  // BM25F + name bonus + fuzzy.
  const base = s.sum + s.head.name_bonus.points + s.fuzzy;
  // Object.assign, not spreads: the keys in explanation order without copying (spreads cost more).
  return Object.assign(
    s.head,
    s.shown,
    { components: [...s.components, { name: 'fuzzy', points: s.shown.fuzzy.weighted }] },
    explainMultipliers(f, V3.DEPRECATED_MULTIPLIER, base),
  );
}

/** v3 as a policy. */
export const BM25F_V3: Bm25fPolicy = Object.freeze({
  kind: 'bm25f',
  id: POLICY_V3_ID,
  index: 'v3',
});
