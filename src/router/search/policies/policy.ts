/**
 * What the search engine needs from a ranking policy: its id, the constants the SQL fast path
 * builds its partial score from, how query tokens are filtered, and the pure
 * `score(features)`. One file per policy implements this; the engine branches on the policy's
 * kind (lexical or BM25F), never on an id.
 */
import type { Bm25fParams } from './bm25f-core.js';
import type { Features, ScoreExplanation } from './types.js';

/** A lexical ranking policy (v1): exact tiers + FTS5 relevance + fuzzy, scored through SQL. */
export interface RankingPolicy {
  readonly kind: 'lexical';
  readonly id: string;
  /** Tier points per field for one matched query token (before the token's weight). */
  readonly tiers: { readonly keyword: number; readonly name: number; readonly description: number };
  /** Weight of the FTS relevance x / (x + bm25Half). */
  readonly ftsWeight: number;
  readonly bm25Half: number;
  /** bm25() column weights: name, keywords, description. */
  readonly bm25Columns: readonly [number, number, number];
  /** Weight of the fuzzy relevance in [0, 1]. */
  readonly fuzzyWeight: number;
  /** Multiplier of a deprecated skill. */
  readonly deprecatedMultiplier: number;
  /** Whether a query token in `df` of `total` skills is common and leaves the score (docs/ranking.md). */
  isCommon(df: number, total: number): boolean;
  /** The explained score of one skill. */
  score(features: Features): ScoreExplanation;
}

/**
 * A BM25F policy: its frozen parameter set (bm25f-core.ts), scored over the catalog's postings by
 * src/router/search/bm25f.ts, which receives the params and never names a policy.
 */
export type Bm25fPolicy = Bm25fParams;

/** Any ranking policy; the search engine dispatches on `kind`, never on an id. */
export type Policy = RankingPolicy | Bm25fPolicy;
