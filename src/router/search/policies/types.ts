/**
 * The types every ranking policy shares: what a lexical policy scores (Features), its explanation,
 * a fuzzy match and the lifecycle states. Its own file so that policies and the policy interface
 * import it without importing each other.
 */

/** Lifecycle states a catalog skill can be in. */
export type SkillState = 'active' | 'deprecated' | 'archived';

/** What `score` needs to know about one skill for one query. */
export interface Features {
  /** Distinct query tokens that score (folded, stop-words, noise and common words out), in query order. */
  readonly queryTokens: readonly string[];
  /** Query tokens left out of the exact tiers and fuzzy matching because they are common. */
  readonly commonTokens: readonly string[];
  /** The Porter stem of each query token, aligned with queryTokens. */
  readonly queryStems: readonly string[];
  /** Stems of the skill's name, keyword (keywords + tags) and description tokens. */
  readonly nameStems: ReadonlySet<string>;
  readonly keywordStems: ReadonlySet<string>;
  readonly descriptionStems: ReadonlySet<string>;
  /** −bm25() of this skill for the query's FTS5 match (0 when it does not match). */
  readonly bm25: number;
  /** For query tokens whose stem is in none of the skill's fields: the closest fuzzy term and distance. */
  readonly fuzzy: readonly FuzzyMatch[];
  readonly suggestions: number;
  readonly fetches: number;
  readonly state: SkillState;
}

/** One fuzzy match: a query token, the skill's term it nearly equals, their edit distance. */
export interface FuzzyMatch {
  readonly query_token: string;
  readonly term: string;
  readonly distance: number;
  /** The distance allowed for this token's length. */
  readonly allowed: number;
}

/** Every component of a score (the `explanation` of a candidate). */
export interface ScoreExplanation extends PolicyExplanation {
  readonly common_tokens: readonly string[];
  readonly exact: {
    readonly keywords: { readonly matched: readonly string[]; readonly points: number };
    readonly name: { readonly matched: readonly string[]; readonly points: number };
    readonly description: { readonly matched: readonly string[]; readonly points: number };
    readonly total: number;
  };
  readonly fts: {
    readonly raw: number;
    readonly relevance: number;
    readonly weight: number;
    readonly weighted: number;
  };
  readonly fuzzy: FuzzyExplanation;
}

/** The fuzzy part of a score: the matches, their relevance in [0, 1], its weight and the points. */
export interface FuzzyExplanation {
  readonly matches: readonly FuzzyMatch[];
  readonly relevance: number;
  readonly weight: number;
  readonly weighted: number;
}

/**
 * What every policy's explanation holds: the policy, the query tokens that scored, and how the score
 * ends (the base, the telemetry and lifecycle multipliers, the final score).
 */
export interface PolicyExplanation {
  readonly policy: string;
  readonly query_tokens: readonly string[];
  readonly base: number;
  readonly telemetry: {
    readonly suggestions: number;
    readonly fetches: number;
    readonly multiplier: number;
  };
  readonly lifecycle: { readonly state: SkillState; readonly multiplier: number };
  readonly final: number;
}

/**
 * A fitted logistic model over a feature vector: standardised features, weights, bias, and the
 * default floor. The shape of both confidence models: ConfidenceModel (../confidence.ts) and the
 * near-miss stage's (stage-nearmiss.ts NearmissConfidenceModel).
 */
export interface LogisticModel {
  /** Feature means and standard deviations of the fitting set (the model standardises first). */
  readonly means: readonly number[];
  readonly scales: readonly number[];
  readonly weights: readonly number[];
  readonly bias: number;
  /** The default floor: below it a candidate is not suggested, and an answer with none abstains. */
  readonly floor: number;
  /** Where the coefficients came from (a bench run), for the docs. */
  readonly fitted_on: string;
}

/**
 * A fitted confidence model (../confidence.ts, docs/ranking.md §11): a LogisticModel over the
 * features it names. A BM25F policy carries its own in its parameter object.
 */
export interface ConfidenceModel extends LogisticModel {
  /**
   * The features the model reads: confidence.ts's eight off the ranked list (absent), or
   * stages/rerank-nearmiss.ts's NEARMISS_CONFIDENCE_FEATURES off a re-ranked one (`nearmiss`).
   */
  readonly features?: 'nearmiss';
}
