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
}

export interface SearchResult {
  catalog_generation: string;
  policy: string;
  query: string;
  candidates: Candidate[];
}

export interface Policies {
  catalog_generation: string;
  catalog_policy: string;
  policies: string[];
}
