/**
 * Public surface of src/router, grouped as the folder is: search/ (dispatch, one engine per policy
 * kind, the policies), served/ (skill_fetch and reads of what a generation serves), operator/
 * (index, publish, lifecycle, watch), learning/ (usage examples) and evaluation/ (metrics).
 * router.ts is the consumer face over search/ and served/.
 */
export { POLICY_ID, V1, type ScoreExplanation } from './search/policies/hybrid-lexical-v1.js';
export { MAX_QUERY_CHARS, queryTokens } from './search/query.js';
export { DEFAULT_LIMIT, MAX_LIMIT } from './search/dispatch.js';
export type { Candidate, SearchRequest, SearchResult } from './search/types.js';
export {
  MAX_FETCH_CONTEXT_CHARS,
  MAX_PIN_CHARS,
  checkFetchRequest,
  type FetchRequest,
  type FetchResult,
} from './served/fetch.js';
export { Router, processSession, type RouterOptions } from './router.js';
export {
  MRR_DEPTH,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  parseQueryLinesTolerant,
  scoreRanking,
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
  type IndexOptions,
  readCatalogScopes,
  type IndexReport,
  type RememberedScopes,
  type LifecycleReport,
  type RollbackReport,
} from './operator/operator.js';
export {
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
  comparisonSetsFor,
  policyById,
} from './search/policies/index.js';
export {
  type Bm25fExplanation,
  type Bm25fParams,
  type DroppedToken,
} from './search/policies/bm25f-core.js';
export { UsageIndex, analyzeQuery } from './search/bm25f.js';
export { BM25F_V4, POLICY_V4_ID } from './search/policies/bm25f-v4.js';
export { POLICY_V5_ID } from './search/policies/bm25f-v5.js';
export { hookRuleOf, isSmallTalk } from './search/policies/hook-rule.js';
export {
  checkExampleSource,
  exampleCountsOf,
  forgetExamples,
  learnExamples,
  listExamples,
  type ForgetReport,
  type LearnReport,
  type UsageListReport,
} from './learning/learn.js';
export { LEARN_HOSTS, learnFromHost, type HostLearnReport } from './learning/learn-host.js';
// Issue 34 item 1 (author examples): the trigger-eval formats and the index's sync of them.
export {
  TRIGGER_FILE_RE,
  parseTriggerFile,
  type ParsedTriggerFile,
  type RawCase,
} from './learning/trigger-formats.js';
export { authorEvidenceEnabled, optInAuthorEvidence } from './search/stages/author-evidence.js';
export {
  describeSkill,
  locateSkills,
  type RevisionInfo,
  type SkillDetail,
  type SkillLocation,
} from './served/inspect.js';
export { watchCatalog, type CatalogWatch, type WatchOptions } from './operator/watch.js';
// The bounds and shapes of supporting-file listings are the catalog's (it records them at index time).
export {
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  type SkillFile,
  type SkillFiles,
} from '../catalog/index.js';
