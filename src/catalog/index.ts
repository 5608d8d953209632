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
  forgetFileStats,
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
  type EventOrigin,
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
export {
  DOC_NAME_TERMS,
  DOC_STATE,
  DOC_STRIDE,
  STATE_CODES,
  type ServingDocs,
} from './postings-store.js';
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
  EXAMPLE_SOURCES,
  FETCH_FULL_WEIGHT_SESSIONS,
  MAX_LISTED_CLIENTS,
  exampleWeight,
  listUsage,
  readUsage,
  usageSignature,
  UsageWatch,
  type ExampleSource,
  type UsageExample,
  type UsageExampleDetail,
  type UsageSnapshot,
} from './usage.js';
export {
  MAX_EXAMPLES_PER_SKILL,
  MAX_EXAMPLE_CHARS,
  MAX_FETCH_EXAMPLES,
  MAX_FETCH_EXAMPLES_PER_CLIENT,
  MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL,
  MAX_FETCH_EXAMPLES_PER_SKILL,
  MAX_ORIGIN_CHARS,
  UNKNOWN_CLIENT,
  DEFAULT_USAGE_RETENTION_DAYS,
  MAX_USAGE_RETENTION_DAYS,
  addUsageExamples,
  checkRetentionDays,
  dropExpiredUsage,
  forgetUsage,
  openUsageForWrite,
  retentionCutoff,
  pruneUsage,
  purgePromptData,
  usageCounts,
  type ForgetTarget,
  type NewUsageExample,
  type PromptPurge,
  type UsageOrigin,
} from './usage-write.js';
export { SIDE_VERSION } from './side-schema.js';
export { normalizeExampleQuery } from './side-migrate.js';
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
  PG_POLICIES,
  servedSkillIds,
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
export {
  SKILL_MD,
  folderDigestOf,
  folderFiles,
  workingSetDigests,
  type RecordedFolder,
} from './folder-digest.js';
export {
  compareMembers,
  findGeneration,
  generationBefore,
  skillSeen,
  findRevisions,
  listingById,
  membersOf,
  revisionFields,
  skillHistory,
  type GenerationRef,
  type HistorySource,
  type MemberChange,
  type MemberComparison,
  type MemberState,
  type RevisionFields,
  type ServedHistory,
  type SkillState,
} from './history.js';
export {
  DEFAULT_KEEP_REVISIONS,
  MAX_KEEP_REVISIONS,
  MAX_REVISION_TEXT_BYTES,
  TEXTS_SCHEMA_VERSION,
  checkKeepRevisions,
  keepRevisionsOf,
  pruneRevisionTexts,
  readRevisionText,
  storeRevisionTexts,
  type RevisionText,
  type RevisionTextsSummary,
} from './revision-texts.js';
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
export {
  COMPACT_BODY,
  bodyCountsOfTerms,
  decodeBodyCounts,
  encodeBodyCounts,
} from './body-counts.js';
export {
  BodyHandoff,
  HANDOFF_TERMS,
  TEMPLATE_MIN_SKILLS,
  V4_INDEX_POLICIES,
  decodeBodyV4,
  decodeForwardV4,
  decodeForwardHeadV4,
  decodeTemplateKeys,
  descriptionTextV4,
  effectiveBody,
  indexKindOf,
  type BodyLine,
  type IndexKind,
  type V4Counts,
} from './documents-v4.js';
