/**
 * Ranking policy `tf.skillrouter.hybrid-lexical.v1` (docs/integration.md, docs/ranking.md): its frozen
 * constants and `score(features)`, a pure function from a candidate's features to its explained
 * score. The fast path in search.ts builds its SQL from these same constants; the brute-force
 * scorer calls `score` on every skill; a property test holds the two together.
 */

import type { RankingPolicy } from './policy.js';
import type { Features, FuzzyMatch, ScoreExplanation, SkillState } from './types.js';

export type { Features, FuzzyMatch, ScoreExplanation, SkillState } from './types.js';

/** The policy id, as it appears in every search result. */
export const POLICY_ID = 'tf.skillrouter.hybrid-lexical.v1';

/** Every constant of the policy (docs/ranking.md explains each). */
export const V1 = Object.freeze({
  /** Points per distinct query token found among the skill's keyword tokens. */
  TIER_KEYWORD: 3.0,
  /** Points per distinct query token found among the skill's name tokens. */
  TIER_NAME: 2.0,
  /** Points per distinct query token found among the skill's description tokens. */
  TIER_DESCRIPTION: 1.0,
  /** Weight of the FTS5 relevance, itself mapped to [0, 1). */
  FTS_WEIGHT: 0.6,
  /**
   * The −bm25() value that maps to relevance 0.5: relevance = x / (x + BM25_HALF). A fixed
   * saturating map needs no query-wide maximum, so SQLite can rank with a bounded heap.
   */
  BM25_HALF: 2.0,
  /** bm25() column weights: name, keywords, description. */
  BM25_NAME: 1.0,
  BM25_KEYWORDS: 1.0,
  BM25_DESCRIPTION: 1.0,
  /** Weight of the fuzzy relevance in [0, 1]. */
  FUZZY_WEIGHT: 0.35,
  /** Telemetry prior: expected fetches per suggestion with no history. */
  TELEMETRY_PRIOR_RATE: 0.2,
  /** Telemetry smoothing: pseudo-suggestions at the prior rate added to every skill's history. */
  TELEMETRY_PSEUDO_COUNT: 20,
  /** Telemetry multiplier bounds. */
  TELEMETRY_MIN: 0.85,
  TELEMETRY_MAX: 1.15,
  /** Multiplier of a deprecated skill (shown only with include_deprecated). */
  DEPRECATED_MULTIPLIER: 0.5,
  /** Query tokens used at most (distinct, in query order); the rest are ignored. */
  MAX_QUERY_TOKENS: 32,
  /**
   * A query token found in more than this fraction of the published skills is common: it still
   * counts in the FTS5 relevance (whose IDF weighs it down) but earns no exact-tier points, which
   * have no IDF of their own. Read from the catalog's vocabulary (document frequency of the token).
   */
  COMMON_DF_FRACTION: 0.1,
  /** …and in at least this many skills (so small libraries keep their words). */
  COMMON_MIN_DF: 5,
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

/** True when a token in `df` of `total` skills is common (see COMMON_DF_FRACTION). */
export function isCommon(df: number, total: number): boolean {
  return df >= V1.COMMON_MIN_DF && df > V1.COMMON_DF_FRACTION * total;
}

/** Allowed edit distance for a query token of `length` letters: 0 up to 3, 1 for 4–5, 2 from 6. */
export function allowedDistance(length: number): number {
  return length <= 3 ? 0 : length <= 5 ? 1 : 2;
}

/** Similarity of one fuzzy match in (0, 1): 1 − distance / (allowed + 1). */
export function fuzzySimilarity(m: FuzzyMatch): number {
  return 1 - m.distance / (m.allowed + 1);
}

/** The FTS relevance in [0, 1): x / (x + BM25_HALF) for x = −bm25() > 0, else 0. */
export function ftsRelevance(bm25: number): number {
  return bm25 > 0 ? bm25 / (bm25 + V1.BM25_HALF) : 0;
}

/**
 * Exact-tier points of one skill: keyword, name and description points, summed per distinct query
 * token. A token matches a field when its Porter stem is one of the field's token stems, so
 * "images" meets "image" and "deploying" meets "deploy"; the matched lists name the query tokens.
 */
export function tierPoints(
  queryTokens: readonly string[],
  queryStems: readonly string[],
  keywordStems: ReadonlySet<string>,
  nameStems: ReadonlySet<string>,
  descriptionStems: ReadonlySet<string>,
): ScoreExplanation['exact'] {
  const kw = queryTokens.filter((_, i) => keywordStems.has(queryStems[i]!));
  const nm = queryTokens.filter((_, i) => nameStems.has(queryStems[i]!));
  const ds = queryTokens.filter((_, i) => descriptionStems.has(queryStems[i]!));
  const keywords = { matched: kw, points: kw.length * V1.TIER_KEYWORD };
  const name = { matched: nm, points: nm.length * V1.TIER_NAME };
  const description = { matched: ds, points: ds.length * V1.TIER_DESCRIPTION };
  return { keywords, name, description, total: keywords.points + name.points + description.points };
}

/**
 * The telemetry multiplier: the smoothed fetch-per-suggestion rate over the prior rate, clamped to
 * [TELEMETRY_MIN, TELEMETRY_MAX]. Exactly 1 with no history.
 */
export function telemetryMultiplier(suggestions: number, fetches: number): number {
  if (suggestions === 0 && fetches === 0) return 1;
  const a = V1.TELEMETRY_PSEUDO_COUNT;
  const p0 = V1.TELEMETRY_PRIOR_RATE;
  const rate = (fetches + a * p0) / (Math.max(suggestions, fetches) + a);
  return clamp(rate / p0, V1.TELEMETRY_MIN, V1.TELEMETRY_MAX);
}

/** The lifecycle multiplier: 1 active, DEPRECATED_MULTIPLIER deprecated, 0 archived. */
export function lifecycleMultiplier(state: SkillState): number {
  return state === 'active' ? 1 : state === 'deprecated' ? V1.DEPRECATED_MULTIPLIER : 0;
}

/** Scores one skill for one query, with every component explained. */
export function score(f: Features): ScoreExplanation {
  const exact = tierPoints(
    f.queryTokens,
    f.queryStems,
    f.keywordStems,
    f.nameStems,
    f.descriptionStems,
  );
  const relevance = ftsRelevance(f.bm25);
  const fuzzyRel =
    f.queryTokens.length === 0
      ? 0
      : f.fuzzy.reduce((s, m) => s + fuzzySimilarity(m), 0) / f.queryTokens.length;
  const base = exact.total + V1.FTS_WEIGHT * relevance + V1.FUZZY_WEIGHT * fuzzyRel;
  const tm = telemetryMultiplier(f.suggestions, f.fetches);
  const lm = lifecycleMultiplier(f.state);
  return {
    policy: POLICY_ID,
    query_tokens: f.queryTokens,
    common_tokens: f.commonTokens,
    exact,
    fts: {
      raw: round(f.bm25),
      relevance: round(relevance),
      weight: V1.FTS_WEIGHT,
      weighted: round(V1.FTS_WEIGHT * relevance),
    },
    fuzzy: {
      matches: f.fuzzy,
      relevance: round(fuzzyRel),
      weight: V1.FUZZY_WEIGHT,
      weighted: round(V1.FUZZY_WEIGHT * fuzzyRel),
    },
    base: round(base),
    telemetry: { suggestions: f.suggestions, fetches: f.fetches, multiplier: round(tm) },
    lifecycle: { state: f.state, multiplier: lm },
    final: round(base * tm * lm),
  };
}

/** Rounds to 9 decimals so explanations print the same bytes everywhere. */
export function round(x: number): number {
  return Math.round(x * 1e9) / 1e9;
}

function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/** v1 as a RankingPolicy (src/router/policies/policy.ts). */
export const HYBRID_LEXICAL_V1: RankingPolicy = Object.freeze({
  kind: 'lexical',
  id: POLICY_ID,
  tiers: { keyword: V1.TIER_KEYWORD, name: V1.TIER_NAME, description: V1.TIER_DESCRIPTION },
  ftsWeight: V1.FTS_WEIGHT,
  bm25Half: V1.BM25_HALF,
  bm25Columns: [V1.BM25_NAME, V1.BM25_KEYWORDS, V1.BM25_DESCRIPTION] as const,
  fuzzyWeight: V1.FUZZY_WEIGHT,
  deprecatedMultiplier: V1.DEPRECATED_MULTIPLIER,
  isCommon,
  tokenWeight: () => 1,
  score,
});
