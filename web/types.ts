/** The API's report shapes as the page reads them (docs/explorer.md); only the fields it shows. */

export interface Candidate {
  skill_id: string;
  skill_version: string;
  revision_id: string;
  name: string;
  description: string;
  state: string;
  score: number;
  explanation: unknown;
  /** Estimated probability that this is the skill a person would pick (absent from old servers). */
  confidence?: number;
}

export interface SearchResult {
  catalog_generation: string;
  policy: string;
  query: string;
  candidates: Candidate[];
  /** The confidence floor the answer was judged against. */
  min_confidence?: number;
  /** True when no candidate reaches `min_confidence`: an agent should suggest nothing. */
  abstain?: boolean;
}

/** GET /api/skills: one page of served skills (only the fields the landing page shows). */
export interface SkillsPage {
  catalog_generation: string;
  skills: { skill_id: string; name: string; description: string; state: string }[];
  next_cursor?: string;
}

export interface Policies {
  catalog_generation: string;
  catalog_policy: string;
  policies: string[];
  /** BM25F parameter sets over this catalog's stored document, for the comparison. */
  parameter_sets: string[];
}
