/**
 * What the ranking policies share (docs/ranking.md §1, §3): request filler and query-noise rules,
 * the bound on scoring tokens, fuzzy edit-distance allowances and similarity, the telemetry
 * multiplier, the lifecycle multiplier's shape and how every explanation ends, BM25F's frequency
 * and IDF, and rounding. Every policy file imports these from here (a BM25F one also from
 * bm25f-core.ts) and never from another policy's file; the goldens of test/router/golden hold every
 * frozen policy's answers through any change to these. Pure constants and functions.
 */
import type { FuzzyMatch, PolicyExplanation, SkillState } from './types.js';

/** Constants shared by every policy (each policy's own frozen object lists the ones it uses). */
export const SHARED = Object.freeze({
  /** Query tokens used at most (distinct, in query order); the rest are ignored. */
  MAX_QUERY_TOKENS: 32,
  /** Telemetry prior: expected fetches per suggestion with no history. */
  TELEMETRY_PRIOR_RATE: 0.2,
  /** Telemetry smoothing: pseudo-suggestions at the prior rate added to every skill's history. */
  TELEMETRY_PSEUDO_COUNT: 20,
  /** Telemetry multiplier bounds. */
  TELEMETRY_MIN: 0.85,
  TELEMETRY_MAX: 1.15,
});

/**
 * Words that ask for help rather than say what is needed ("please help me find…"). They are
 * dropped from queries like stop-words: in a request they carry no routing signal, and the exact
 * tiers would otherwise reward every skill whose name happens to contain "find" or "get".
 */
export const REQUEST_FILLER: ReadonlySet<string> = new Set([
  'please',
  'help',
  'want',
  'need',
  'like',
  'would',
  'could',
  'can',
  'may',
  'might',
  'must',
  'shall',
  'will',
  'find',
  'get',
  'give',
  'show',
  'tell',
  'know',
  'let',
  'make',
  'provide',
  'also',
  'just',
  'really',
  'some',
  'something',
  'anything',
  'thing',
  'things',
  'way',
  'ways',
  'one',
  'using',
  'use',
]);

/**
 * True when a (folded, non-stop-word) query token carries no routing signal: request filler, a
 * single character, or a bare number ("radius of 4", "x = 3").
 */
export function isQueryNoise(token: string): boolean {
  return REQUEST_FILLER.has(token) || token.length === 1 || /^\p{N}+$/u.test(token);
}

/** Allowed edit distance for a query token of `length` letters: 0 up to 3, 1 for 4–5, 2 from 6. */
export function allowedDistance(length: number): number {
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

/** Similarity of one fuzzy match in (0, 1): 1 − distance / (allowed + 1). */
export function fuzzySimilarity(m: FuzzyMatch): number {
  return 1 - m.distance / (m.allowed + 1);
}

/**
 * The telemetry multiplier: the smoothed fetch-per-suggestion rate over the prior rate, clamped to
 * [TELEMETRY_MIN, TELEMETRY_MAX]. Exactly 1 with no history.
 */
export function telemetryMultiplier(suggestions: number, fetches: number): number {
  if (suggestions === 0 && fetches === 0) return 1;
  const a = SHARED.TELEMETRY_PSEUDO_COUNT;
  const p0 = SHARED.TELEMETRY_PRIOR_RATE;
  const rate = (fetches + a * p0) / (Math.max(suggestions, fetches) + a);
  return clamp(rate / p0, SHARED.TELEMETRY_MIN, SHARED.TELEMETRY_MAX);
}

/** A lifecycle multiplier: 1 active, `deprecated` for deprecated, 0 archived. */
export function lifecycleMultiplierOf(state: SkillState, deprecated: number): number {
  return state === 'active' ? 1 : state === 'deprecated' ? deprecated : 0;
}

/** What a re-rank stage reads of a skill: its telemetry counts and its lifecycle state. */
export interface StageInput {
  readonly suggestions: number;
  readonly fetches: number;
  readonly state: SkillState;
}

/**
 * One re-rank stage after a policy's base: a named multiplier, pure, that explains itself under
 * its name in the explanation (`telemetry`, `lifecycle`). `deprecated` is the policy's
 * deprecated multiplier.
 */
export interface MultiplierStage<N extends 'telemetry' | 'lifecycle'> {
  readonly name: N;
  apply(
    f: StageInput,
    deprecated: number,
  ): { readonly multiplier: number; readonly shown: PolicyExplanation[N] };
}

/** The telemetry stage: the capped, smoothed fetch-per-suggestion multiplier (§3). */
export const TELEMETRY_STAGE: MultiplierStage<'telemetry'> = Object.freeze({
  name: 'telemetry',
  apply(f: StageInput) {
    const m = telemetryMultiplier(f.suggestions, f.fetches);
    return {
      multiplier: m,
      shown: { suggestions: f.suggestions, fetches: f.fetches, multiplier: round(m) },
    };
  },
});

/** The lifecycle stage: 1 active, the policy's multiplier deprecated, 0 archived. */
export const LIFECYCLE_STAGE: MultiplierStage<'lifecycle'> = Object.freeze({
  name: 'lifecycle',
  apply(f: StageInput, deprecated: number) {
    const m = lifecycleMultiplierOf(f.state, deprecated);
    return { multiplier: m, shown: { state: f.state, multiplier: m } };
  },
});

/**
 * The re-rank stages every policy's base passes through, in order (the trust bound of learning
 * then re-ranks the list, search/trust-bound.ts).
 */
export const MULTIPLIER_STAGES = Object.freeze([TELEMETRY_STAGE, LIFECYCLE_STAGE] as const);

/**
 * The end of every policy's explanation: `base` (unrounded) through MULTIPLIER_STAGES in order —
 * times the skill's telemetry multiplier, then its lifecycle multiplier (`deprecated` for a
 * deprecated skill) — is the final score; each stage explains itself.
 */
export function explainMultipliers(
  f: StageInput,
  deprecated: number,
  base: number,
): Pick<PolicyExplanation, 'base' | 'telemetry' | 'lifecycle' | 'final'> {
  const [telemetry, lifecycle] = MULTIPLIER_STAGES;
  const t = telemetry.apply(f, deprecated);
  const l = lifecycle.apply(f, deprecated);
  return {
    base: round(base),
    telemetry: t.shown,
    lifecycle: l.shown,
    final: round(base * t.multiplier * l.multiplier),
  };
}

/** Rounds to 9 decimals so explanations print the same bytes everywhere. */
export function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

/** `x` clamped to [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** One number per BM25F field: name, keywords, description, body, usage. */
export type PerField = readonly [number, number, number, number, number];

/**
 * BM25F's length-normalised, weighted frequency of one term over the fields (Robertson &
 * Zaragoza's tf~): Σ_f w_f · tf_f / (1 − b_f + b_f · len_f / avglen_f). A field with no average
 * length counts its length against 1.
 */
export function bm25fFrequency(
  tf: PerField,
  lens: PerField,
  avgLens: PerField,
  weights: PerField,
  b: PerField,
): number {
  let x = 0;
  for (let f = 0; f < 5; f++) {
    const t = tf[f]!;
    if (t === 0) continue;
    const avg = avgLens[f]! > 0 ? avgLens[f]! : 1;
    x += (weights[f]! * t) / (1 - b[f]! + (b[f]! * lens[f]!) / avg);
  }
  return x;
}

/** BM25's inverse document frequency of a term in `df` of `docs` documents (always > 0). */
export function bm25Idf(df: number, docs: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}
