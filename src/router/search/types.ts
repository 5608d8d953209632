/**
 * The skill_search request and result types (docs/integration.md §2), shared by the lexical and
 * BM25F search engines without either importing the other.
 */
import type { Bm25fExplanation } from './policies/bm25f-v3.js';
import type { Bm25fV4Explanation } from './policies/bm25f-v4.js';
import type { ScoreExplanation, SkillState } from './policies/types.js';

/** A skill_search request. */
export interface SearchRequest {
  readonly query: string;
  /** 1–50, default 8. */
  readonly limit?: number;
  /** Include deprecated skills (penalised); archived are never candidates. */
  readonly include_deprecated?: boolean;
  /**
   * Rank under this known policy id instead of the generation's (the explorer's comparison; not
   * part of the MCP contract). A SQLite catalog carries the data of every policy; a PostgreSQL one
   * serves bm25f.v3 only (v1 and v2 need FTS5: INVALID_ARGUMENT).
   */
  readonly policy?: string;
}

/** One ranked candidate: the identity to pin, what to show, and the explained score. */
export interface Candidate {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly catalog_generation: string;
  readonly name: string;
  readonly description: string;
  readonly state: SkillState;
  readonly score: number;
  /** Every component of the score, in the shape of the candidate's policy (docs/ranking.md). */
  readonly explanation: ScoreExplanation | Bm25fExplanation | Bm25fV4Explanation;
}

/** The skill_search result. */
export interface SearchResult {
  readonly catalog_generation: string;
  readonly policy: string;
  readonly query: string;
  readonly candidates: readonly Candidate[];
}

/**
 * History lookup used by the ranking (zeros when telemetry is off). `prefetch`, when there, reads
 * the histories of several skills at once ahead of their lookups (one round trip on PostgreSQL).
 */
export interface HistoryFn {
  (skillId: string): { suggestions: number; fetches: number };
  prefetch?(skillIds: readonly string[]): void;
}
