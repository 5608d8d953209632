/**
 * Ranking policy `tf.skillrouter.hybrid-lexical.v1` (docs/integration.md, docs/ranking.md): its frozen
 * constants and `score(features)`, a pure function from a candidate's features to its explained
 * score. The fast path in ../lexical.ts builds its SQL from these same constants; the brute-force
 * scorer calls `score` on every skill; a property test holds the two together.
 */

import type { RankingPolicy } from './policy.js';
import { SHARED, explainMultipliers, fuzzySimilarity, round } from './shared.js';
import type { Features, ScoreExplanation } from './types.js';

export type { ScoreExplanation } from './types.js';

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
  /** Telemetry prior, smoothing and bounds: the shared multiplier's (policies/shared.ts). */
  TELEMETRY_PRIOR_RATE: SHARED.TELEMETRY_PRIOR_RATE,
  TELEMETRY_PSEUDO_COUNT: SHARED.TELEMETRY_PSEUDO_COUNT,
  TELEMETRY_MIN: SHARED.TELEMETRY_MIN,
  TELEMETRY_MAX: SHARED.TELEMETRY_MAX,
  /** Multiplier of a deprecated skill (shown only with include_deprecated). */
  DEPRECATED_MULTIPLIER: 0.5,
  /** Query tokens used at most (distinct, in query order); the rest are ignored. */
  MAX_QUERY_TOKENS: SHARED.MAX_QUERY_TOKENS,
  /**
   * A query token found in more than this fraction of the published skills is common: it still
   * counts in the FTS5 relevance (whose IDF weighs it down) but earns no exact-tier points, which
   * have no IDF of their own. Read from the catalog's vocabulary (document frequency of the token).
   */
  COMMON_DF_FRACTION: 0.1,
  /** …and in at least this many skills (so small libraries keep their words). */
  COMMON_MIN_DF: 5,
});

/** True when a token in `df` of `total` skills is common (see COMMON_DF_FRACTION). */
export function isCommon(df: number, total: number): boolean {
  return df >= V1.COMMON_MIN_DF && df > V1.COMMON_DF_FRACTION * total;
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

/** The FTS relevance in [0, 1): x / (x + BM25_HALF) for x = −bm25() > 0, else 0. */
function ftsRelevance(bm25: number): number {
  return bm25 > 0 ? bm25 / (bm25 + V1.BM25_HALF) : 0;
}

/**
 * Scores one skill for one query, with every component explained: its exact tiers + FTS relevance
 * + fuzzy rescue, times the telemetry and lifecycle multipliers.
 */
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
  const head = { policy: POLICY_ID, query_tokens: f.queryTokens, common_tokens: f.commonTokens };
  // Object.assign, not spreads: the keys in explanation order without copying (spreads cost more).
  return Object.assign(
    head,
    {
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
    },
    explainMultipliers(f, V1.DEPRECATED_MULTIPLIER, base),
  );
}

/** v1 as a RankingPolicy (policy.ts). */
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
  score,
});
