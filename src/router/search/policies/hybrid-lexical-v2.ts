/**
 * Ranking policy `tf.skillrouter.hybrid-lexical.v2` (docs/ranking.md §7): v1's structure — exact
 * tiers, FTS5 relevance, fuzzy rescue, telemetry and lifecycle multipliers — with two changes the
 * dev benchmark asked for. Each query token's tier points are weighted by its inverse document
 * frequency (a word half the library uses is worth little), and the FTS5 relevance, which
 * normalises for description length, carries real weight instead of breaking ties only. Common
 * tokens therefore need no special rule (they stay in the FTS match, which makes v2 slower than v1 on
broad queries: docs/ranking.md §7). Pure constants and `score(features)`.
 */
import { explainHybrid } from './hybrid-lexical-core.js';
import { round } from './shared.js';
import type { Features, ScoreExplanation } from './types.js';
import type { RankingPolicy } from './policy.js';

/** The policy id. */
export const POLICY_V2_ID = 'tf.skillrouter.hybrid-lexical.v2';

/** Every constant of v2 (docs/ranking.md §7). */
export const V2 = Object.freeze({
  TIER_KEYWORD: 3.0,
  TIER_NAME: 2.0,
  TIER_DESCRIPTION: 1.0,
  /** Weight of the FTS relevance x / (x + BM25_HALF): about ten rare keyword matches at full relevance. */
  FTS_WEIGHT: 32.0,
  BM25_HALF: 8.0,
  BM25_NAME: 1.0,
  BM25_KEYWORDS: 1.0,
  BM25_DESCRIPTION: 1.0,
  /** Fuzzy relevance weight: a misspelt word counts about as much as a rare word matched in a name. */
  FUZZY_WEIGHT: 8.0,
  DEPRECATED_MULTIPLIER: 0.5,
});

/**
 * The tier weight of a token in `df` of `total` skills: ln((total + 1) / (df + 1)) / ln(total + 1),
 * 1 for a token no skill has, falling to 0 for a token every skill has.
 */
export function idfWeight(df: number, total: number): number {
  if (total <= 0) return 1;
  return Math.log((total + 1) / (df + 1)) / Math.log(total + 1);
}

/** Scores one skill for one query under v2, with every component explained. */
export function scoreV2(f: Features): ScoreExplanation {
  const w = f.tokenWeights ?? f.queryTokens.map(() => 1);
  const field = (
    stems: ReadonlySet<string>,
    points: number,
  ): { matched: string[]; points: number } => {
    const matched: string[] = [];
    let sum = 0;
    f.queryTokens.forEach((t, i) => {
      if (stems.has(f.queryStems[i]!)) {
        matched.push(t);
        sum += points * w[i]!;
      }
    });
    return { matched, points: round(sum) };
  };
  const keywords = field(f.keywordStems, V2.TIER_KEYWORD);
  const name = field(f.nameStems, V2.TIER_NAME);
  const description = field(f.descriptionStems, V2.TIER_DESCRIPTION);
  const total = round(keywords.points + name.points + description.points);
  const exact = { keywords, name, description, total };
  return explainHybrid(f, V2, { policy: POLICY_V2_ID, exact, tokenWeights: w });
}

/** v2 as a RankingPolicy. */
export const HYBRID_LEXICAL_V2: RankingPolicy = Object.freeze({
  kind: 'lexical',
  id: POLICY_V2_ID,
  tiers: { keyword: V2.TIER_KEYWORD, name: V2.TIER_NAME, description: V2.TIER_DESCRIPTION },
  ftsWeight: V2.FTS_WEIGHT,
  bm25Half: V2.BM25_HALF,
  bm25Columns: [V2.BM25_NAME, V2.BM25_KEYWORDS, V2.BM25_DESCRIPTION] as const,
  fuzzyWeight: V2.FUZZY_WEIGHT,
  deprecatedMultiplier: V2.DEPRECATED_MULTIPLIER,
  isCommon: () => false,
  tokenWeight: idfWeight,
  score: scoreV2,
});
