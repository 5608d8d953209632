/**
 * The scoring core of the hybrid lexical policy v1 (docs/ranking.md §1–§6; the retired v2 shared it): from a
 * skill's exact-tier points, which each policy counts its own way, to the explained score — FTS5
 * relevance and fuzzy rescue added, telemetry and lifecycle multipliers applied. Every function
 * takes the policy's own frozen constants, so each policy file states only its numbers and its
 * tiers. Pure.
 */
import { explainMultipliers, fuzzySimilarity, round } from './shared.js';
import type { Features, ScoreExplanation } from './types.js';

/** The constants of a hybrid lexical policy that the shared part of its score reads. */
export interface HybridConstants {
  /** Weight of the FTS relevance x / (x + BM25_HALF). */
  readonly FTS_WEIGHT: number;
  readonly BM25_HALF: number;
  /** Weight of the fuzzy relevance in [0, 1]. */
  readonly FUZZY_WEIGHT: number;
  /** Multiplier of a deprecated skill. */
  readonly DEPRECATED_MULTIPLIER: number;
}

/** The FTS relevance in [0, 1): x / (x + half) for x = −bm25() > 0, else 0. */
export function ftsRelevanceOf(bm25: number, half: number): number {
  return bm25 > 0 ? bm25 / (bm25 + half) : 0;
}

/** What a policy has scored itself: its id and its exact tiers. */
export interface HybridScored {
  readonly policy: string;
  readonly exact: ScoreExplanation['exact'];
}

/** The explained score of one skill: `scored`'s exact tiers + FTS relevance + fuzzy, times the multipliers. */
export function explainHybrid(
  f: Features,
  c: HybridConstants,
  scored: HybridScored,
): ScoreExplanation {
  const { exact } = scored;
  const relevance = ftsRelevanceOf(f.bm25, c.BM25_HALF);
  const fuzzyRel =
    f.queryTokens.length === 0
      ? 0
      : f.fuzzy.reduce((s, m) => s + fuzzySimilarity(m), 0) / f.queryTokens.length;
  const base = exact.total + c.FTS_WEIGHT * relevance + c.FUZZY_WEIGHT * fuzzyRel;
  const head = {
    policy: scored.policy,
    query_tokens: f.queryTokens,
    common_tokens: f.commonTokens,
  };
  // Object.assign, not spreads: the keys in explanation order without copying (spreads cost more).
  return Object.assign(
    head,
    {
      exact,
      fts: {
        raw: round(f.bm25),
        relevance: round(relevance),
        weight: c.FTS_WEIGHT,
        weighted: round(c.FTS_WEIGHT * relevance),
      },
      fuzzy: {
        matches: f.fuzzy,
        relevance: round(fuzzyRel),
        weight: c.FUZZY_WEIGHT,
        weighted: round(c.FUZZY_WEIGHT * fuzzyRel),
      },
    },
    explainMultipliers(f, c.DEPRECATED_MULTIPLIER, base),
  );
}
