/** Public surface of src/router: skill_search, skill_fetch, the v1 policy, evaluation and operator calls. */
export {
  POLICY_ID,
  V1,
  allowedDistance,
  ftsRelevance,
  lifecycleMultiplier,
  score,
  telemetryMultiplier,
  tierPoints,
  type Features,
  type FuzzyMatch,
  type ScoreExplanation,
  type SkillState,
} from './policies/hybrid-lexical-v1.js';
export { MAX_QUERY_CHARS, ftsOr, queryHash, queryTokens, quoteFts } from './query.js';
export { FuzzyIndex } from './fuzzy.js';
export {
  DEFAULT_LIMIT,
  MAX_LIMIT,
  checkLimit,
  compareCandidates,
  type Candidate,
  type SearchRequest,
  type SearchResult,
} from './search.js';
export {
  MAX_FETCH_CONTEXT_CHARS,
  MAX_PIN_CHARS,
  checkFetchRequest,
  type FetchRequest,
  type FetchResult,
} from './fetch.js';
export { Router, type RouterOptions } from './router.js';
export {
  MRR_DEPTH,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  parseQueryLinesTolerant,
  scoreRanking,
  type BadQueryLine,
  type LabelledQuery,
  type Metrics,
} from './eval.js';
export {
  changeLifecycle,
  getCatalogStatus,
  getGenerations,
  indexCatalog,
  publishCatalog,
  rollbackCatalog,
  MAX_INDEX_ATTEMPTS,
  type IndexOptions,
  readCatalogScopes,
  type IndexReport,
  type RememberedScopes,
  type LifecycleReport,
  type OperatorOptions,
  type RollbackReport,
} from './operator.js';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type ServedFilesPage,
  type ServedPage,
  type ServedSkill,
  type ServedSkillWithFiles,
} from './serve.js';
export {
  HYBRID_LEXICAL_V2,
  POLICY_V2_ID,
  V2,
  idfWeight,
  scoreV2,
} from './policies/hybrid-lexical-v2.js';
export { DEFAULT_POLICY_ID, POLICIES, checkPolicyId, policyById } from './policies/index.js';
export type { RankingPolicy } from './policies/policy.js';
export {
  BM25F_V3,
  POLICY_V3_ID,
  V3,
  V3_FIELDS,
  idf,
  scoreV3,
  termContribution,
  weightedFrequency,
  type Bm25fExplanation,
  type DroppedToken,
  type V3Features,
} from './policies/bm25f-v3.js';
export type { Bm25fPolicy, Policy } from './policies/policy.js';
export { UsageIndex, analyzeQuery, type AnalyzedQuery } from './search-bm25f.js';
export {
  forgetExamples,
  learnExamples,
  parseExampleLines,
  type ForgetReport,
  type LearnReport,
} from './learn.js';
export {
  DEFAULT_RECENT_REVISIONS,
  SUGGESTION_MAX_DISTANCE,
  describeSkill,
  locateSkills,
  suggestSkillIds,
  type RevisionInfo,
  type SkillDetail,
  type SkillLocation,
} from './inspect.js';
export {
  DEFAULT_DEBOUNCE_MS,
  watchCatalog,
  type CatalogWatch,
  type WatchOptions,
} from './watch.js';
// The bounds and shapes of supporting-file listings are the catalog's (it records them at index time).
export {
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  type SkillFile,
  type SkillFiles,
} from '../catalog/index.js';
