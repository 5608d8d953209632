/**
 * The skill_search request and result types (docs/integration.md §2), shared by the lexical and
 * BM25F search engines without either importing the other.
 */
import type { Bm25fExplanation } from './policies/bm25f-core.js';
import type { ScoreExplanation, SkillState } from './policies/types.js';

/** A skill_search request. */
export interface SearchRequest {
  readonly query: string;
  /** 1–50, default 8. */
  readonly limit?: number;
  /** Include deprecated skills (penalised); archived are never candidates. */
  readonly include_deprecated?: boolean;
  /**
   * The confidence floor, 0–1 (default: the policy's, docs/ranking.md §11): `abstain` is true when
   * no candidate reaches it.
   */
  readonly min_confidence?: number;
  /**
   * Rank under this live policy id, or a comparison parameter set of policies/index.ts, instead of
   * the generation's (the explorer's comparison; not part of the MCP contract). A SQLite catalog
   * carries the data of every live policy; a PostgreSQL one serves the BM25F policy v4 only (v1
   * needs FTS5: INVALID_ARGUMENT).
   */
  readonly policy?: string;
}

/** A candidate as an engine ranks it: the identity to pin, what to show, and the explained score. */
export interface RankedCandidate {
  readonly skill_id: string;
  readonly skill_version: string;
  readonly revision_id: string;
  readonly catalog_generation: string;
  readonly name: string;
  readonly description: string;
  readonly state: SkillState;
  readonly score: number;
  /**
   * Every component of the score, in the shape of the candidate's policy (docs/ranking.md), and
   * `trust_bound` when the trust bound of learning moved the candidate (search/trust-bound.ts).
   */
  readonly explanation: (ScoreExplanation | Bm25fExplanation) & {
    readonly trust_bound?: TrustBoundNote;
    /** issue 34: the skill's own author/negative examples that matched (stages/author-evidence.ts). */
    readonly author?: AuthorEvidenceNote;
  };
}

/** One candidate of a skill_search answer: the ranked candidate and its confidence. */
export interface Candidate extends RankedCandidate {
  /**
   * The estimated probability, 0–1, that this is the skill a person would pick for the request
   * (search/confidence.ts, docs/ranking.md §11).
   */
  readonly confidence: number;
}

/** What an engine answers: the generation, the policy and the ranked candidates. */
export interface RankedResult {
  readonly catalog_generation: string;
  readonly policy: string;
  readonly query: string;
  readonly candidates: readonly RankedCandidate[];
}

/** The skill_search result. */
export interface SearchResult extends RankedResult {
  readonly candidates: readonly Candidate[];
  /** The floor applied: the request's `min_confidence`, else the policy's default. */
  readonly min_confidence: number;
  /**
   * True when no candidate reaches the floor: nothing fits well enough to suggest (the candidates
   * are still listed, for a person or an agent that wants to look).
   */
  readonly abstain: boolean;
}

/**
 * History lookup used by the ranking (zeros when telemetry is off). `prefetch`, when there, reads
 * the histories of several skills at once ahead of their lookups (one round trip on PostgreSQL).
 */
export interface HistoryFn {
  (skillId: string): { suggestions: number; fetches: number };
  prefetch?(skillIds: readonly string[]): void;
}

/** What `explanation.trust_bound` says of a candidate the bound moved. */
export interface TrustBoundNote {
  /** TRUST_BOUND_K (search/trust-bound.ts). */
  readonly k: number;
  /**
   * `first`: this skill is in the first k without fetch examples and was put first; `held_back`:
   * this skill is not, and fetch examples had ranked it ahead of the skill put first.
   */
  readonly role: 'first' | 'held_back';
  /** For `first` the skill that fetch examples had ranked first; for `held_back` the skill put first (sanitised). */
  readonly skill: string;
}

/**
 * What `explanation.author` says (issue 34, stages/author-evidence.ts): the examples of the
 * candidate's own skill most similar to the request — its author's should-trigger requests (which
 * lift it through the usage field, under the trust bound) and its should-not requests, of any
 * source (which may only lower it) — and the penalty factor applied to its score (1: none).
 */
export interface AuthorEvidenceNote {
  readonly matched: readonly {
    readonly query: string;
    readonly source: string;
    readonly polarity: 'positive' | 'negative';
    /** Cosine of the request's and the example's term sets, 0–1. */
    readonly similarity: number;
  }[];
  /** `lift`: a should-trigger example matched best; `penalty`: a should-not one did and the score was lowered. */
  readonly effect: 'lift' | 'penalty' | 'none';
  /** What the score was multiplied by (1 unless `penalty`). */
  readonly factor: number;
}
