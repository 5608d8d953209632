/** Public surface of src/catalog: the SQLite store, its ingest, lifecycle, generations and telemetry. */
export {
  BUSY_TIMEOUT_MS,
  catalogExists,
  closeCatalog,
  openCatalogForWrite,
  openCatalogReadOnly,
  resolveCatalogPath,
  type Db,
} from './db.js';
export { dialectOf } from './db-type.js';
export { LATEST_VERSION, CATALOG_FORMAT } from './migrations.js';
export {
  MASK,
  catalogLocation,
  isPgLocation,
  maskUrlText,
  resolveCatalogLocation,
} from './location.js';
export { computeGeneration, type Member } from './generation.js';
export { tokenSet, tokenStrings, type TokenStrings } from './tokens.js';
export {
  SHRINK_LIMIT,
  ingestSkills,
  type IngestGuards,
  type IngestSummary,
  type ProgressFn,
  type SupportingFilesSummary,
} from './ingest.js';
export {
  MAX_SKILL_DEPTH,
  MAX_SKILL_ENTRIES,
  RACY_MS,
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  NO_FILES,
  listSupportingFiles,
  manifestIdOf,
  type DirStat,
  type FileStat,
  type FolderStats,
  type FolderListing,
  type SkillFile,
  type SkillFiles,
} from './skill-files.js';
export { FILES_SCHEMA_VERSION, servedFilesBetween, servedFilesOf } from './queries-files.js';
export { publishWorkingSet, type GenerationCounts, type PublishResult } from './publish.js';
export { setLifecycle, type LifecycleChange, type LifecycleState } from './lifecycle.js';
export {
  TelemetryStore,
  telemetryPathFor,
  MAX_CONTEXT_CHARS,
  MAX_EVENT_ROWS,
  type SkillHistory,
} from './telemetry.js';
export {
  CatalogReader,
  SNAPSHOT_RETRIES,
  type FirstRead,
  type PublishedGeneration,
} from './reader.js';
export {
  catalogStatus,
  listGenerations,
  type CatalogStatus,
  type DriftedFile,
  type GenerationInfo,
} from './status.js';
export { publishedPolicy, readMeta, unarchivedServedIds, writeMeta } from './meta.js';
export {
  BODY_INDEX_CHARS,
  DOC_FIELDS,
  bodyTermsOf,
  decodeForward,
  forwardOfTerms,
  type ForwardOfTerms,
  decodePostings,
  documentTerms,
  encodePostings,
  forEachPosting,
  type BodyTerms,
  type DocumentTerms,
  type FieldCounts,
  type Posting,
} from './postings.js';
export { DOC_STRIDE, STATE_CODES, type ServingDocs } from './postings-store.js';
export {
  allBm25fRows,
  bm25fRowsOf,
  postingTerms,
  postingsFromRows,
  postingsOfTerms,
  postingsRead,
  servingDocsOf,
  servingRowidOf,
  servingRowidsOf,
  servingSkillIdsOf,
  type Bm25fRow,
  type TermPostings,
} from './queries-bm25f.js';
export {
  MAX_EXAMPLES_PER_SKILL,
  MAX_EXAMPLE_CHARS,
  addUsageExamples,
  forgetUsage,
  openUsageForWrite,
  pruneUsage,
  readUsage,
  usageCounts,
  usageSignature,
  UsageWatch,
  type UsageExample,
  type UsageSnapshot,
} from './usage.js';
export {
  allLexicalRows,
  bm25All,
  bm25Of,
  fetchRowOf,
  ftsHolders,
  lexicalRankStatement,
  lexicalRowOf,
  servedPage,
  servedRowOf,
  vocabDf,
  vocabTerms,
  knownSkillIds,
  PG_POLICY,
  requireFts,
  revisionLocationOf,
  revisionsOf,
  servedIdentityOf,
  servedLocationOf,
  workingSkillOf,
  type RevisionSeenRow,
  type ServedLocation,
  type FetchRow,
  type LexicalRankSpec,
  type LexicalRow,
  type RankRow,
  type ServedRow,
  type ServingState,
} from './queries.js';
export { rollbackWorkingSet, type RollbackReport } from './rollback.js';
export { copyCatalog, type CopyReport } from './copy.js';
export { storedJson, storedWords } from './stored.js';
export {
  CatalogExplorer,
  DEFAULT_GENERATION_LIMIT,
  MAX_CHANGE_IDS,
  type CatalogOverview,
  type GenerationChange,
  type LifecycleStep,
  type RevisionSeen,
  type SkillRecordView,
} from './explore.js';
export { TOP_RANK, TelemetryReader, type UsageCount, type UsageDay } from './telemetry-read.js';
