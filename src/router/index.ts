/**
 * Public surface of src/router, grouped as the folder is: search/ (dispatch, one engine per policy
 * kind, the policies), served/ (skill_fetch and reads of what a generation serves), operator/
 * (index, publish, lifecycle, watch), learning/ (usage examples) and evaluation/ (metrics).
 * router.ts is the consumer face over search/ and served/.
 */
export { allowedDistance, telemetryMultiplier } from './search/policies/shared.js';
export {
  POLICY_ID,
  V1,
  ftsRelevance,
  lifecycleMultiplier,
  score,
  tierPoints,
  type Features,
  type FuzzyMatch,
  type ScoreExplanation,
  type SkillState,
} from './search/policies/hybrid-lexical-v1.js';
export { MAX_QUERY_CHARS, ftsOr, queryHash, queryTokens, quoteFts } from './search/query.js';
export { FuzzyIndex } from './search/fuzzy.js';
export { DEFAULT_LIMIT, MAX_LIMIT, checkLimit } from './search/dispatch.js';
export { compareCandidates } from './search/top-k.js';
export type { Candidate, SearchRequest, SearchResult } from './search/types.js';
export {
  MAX_FETCH_CONTEXT_CHARS,
  MAX_PIN_CHARS,
  checkFetchRequest,
  type FetchRequest,
  type FetchResult,
} from './served/fetch.js';
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
} from './evaluation/eval.js';
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
} from './operator/operator.js';
export {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type ServedFilesPage,
  type ServedPage,
  type ServedSkill,
  type ServedSkillWithFiles,
} from './served/skills.js';
export {
  COMPARISON_SETS,
  DEFAULT_POLICY_ID,
  POLICIES,
  RETIRED_POLICIES,
  checkPolicyId,
  comparisonSetsFor,
  policyById,
} from './search/policies/index.js';
export type { RankingPolicy } from './search/policies/policy.js';
export {
  bound as boundBm25f,
  namePhraseApplies,
  score as scoreBm25f,
  type AnalyzerOptions,
  type Bm25fExplanation,
  type Bm25fFeatures,
  type Bm25fParams,
  type DocumentOptions,
  type DroppedToken,
  type PartialRow,
} from './search/policies/bm25f-core.js';
export type { Bm25fPolicy, Policy } from './search/policies/policy.js';
export { UsageIndex, analyzeQuery, type AnalyzedQuery } from './search/bm25f.js';
export { BM25F_V4, POLICY_V4_ID } from './search/policies/bm25f-v4.js';
export { BM25F_V5, POLICY_V5_ID } from './search/policies/bm25f-v5.js';
export type { NearmissHookRule } from './search/stages/rerank-nearmiss.js';
export { hookRuleOf, isSmallTalk, type HookRule } from './search/policies/hook-rule.js';
export {
  DEFAULT_USAGE_LIST_LIMIT,
  checkExampleSource,
  exampleCountsOf,
  forgetExamples,
  learnExamples,
  listExamples,
  parseExampleLines,
  type ForgetReport,
  type LearnReport,
  type UsageListReport,
} from './learning/learn.js';
export {
  LEARN_HOSTS,
  checkLearnHost,
  learnFromHost,
  type HostLearnOptions,
  type HostLearnReport,
} from './learning/learn-host.js';
// Issue 34 item 1 (author examples): the trigger-eval formats and the index's sync of them.
export {
  TRIGGER_FILE_RE,
  parseTriggerFile,
  type ParsedTriggerFile,
  type RawCase,
} from './learning/trigger-formats.js';
export { readAuthorExamples, syncAuthorExamplesOf } from './learning/author-sync.js';
export { authorEvidenceEnabled, optInAuthorEvidence } from './search/stages/author-evidence.js';
export {
  DEFAULT_RECENT_REVISIONS,
  SUGGESTION_MAX_DISTANCE,
  describeSkill,
  locateSkills,
  suggestSkillIds,
  type RevisionInfo,
  type SkillDetail,
  type SkillLocation,
} from './served/inspect.js';
export {
  DEFAULT_DEBOUNCE_MS,
  watchCatalog,
  type CatalogWatch,
  type WatchOptions,
} from './operator/watch.js';
// The bounds and shapes of supporting-file listings are the catalog's (it records them at index time).
export {
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  type SkillFile,
  type SkillFiles,
} from '../catalog/index.js';
