/**
 * Public surface of src/catalog: the SQLite store, its ingest, lifecycle, generations and telemetry.
 * Its files are grouped by what they serve: store/ (connection type, drivers, migrations), write/
 * (the index and publish path), read/ (the read models), side/ (telemetry and usage); db.ts opens
 * every connection. Other modules import only this file.
 */
export {
  catalogExists,
  closeCatalog,
  openCatalogForWrite,
  openCatalogReadOnly,
  resolveCatalogPath,
  type Db,
} from './db.js';
export { dialectOf } from './store/db-type.js';
export { LATEST_VERSION } from './store/migrations.js';
export { catalogLocation, isPgLocation, resolveCatalogLocation } from './store/location.js';
export { tokenSet } from './write/tokens.js';
export {
  forgetFileStats,
  ingestSkills,
  walkScopes,
  type ScopesWalk,
  type IngestSummary,
  type ProgressFn,
  type SupportingFilesSummary,
} from './write/ingest.js';
export {
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
  NO_FILES,
  listSupportingFiles,
  type SkillFile,
  type SkillFiles,
} from './write/skill-files.js';
export { servedFilesBetween, servedFilesOf } from './read/queries-files.js';
export { publishWorkingSet, type GenerationCounts, type PublishResult } from './write/publish.js';
export {
  countFastReindex,
  fastReindex,
  fastReindexStillCurrent,
  reindexDigest,
  writeReindexRecord,
  type FastReindex,
  type ReindexRecord,
} from './write/reindex-digest.js';
export { readWalkListings, writeWalkListings } from './write/walk-listings.js';
export { setLifecycle, type LifecycleChange, type LifecycleState } from './write/lifecycle.js';
export {
  TelemetryStore,
  telemetryPathFor,
  type EventOrigin,
  type SkillHistory,
} from './side/telemetry.js';
export { CatalogReader, type FirstRead, type PublishedGeneration } from './read/reader.js';
export {
  catalogStatus,
  listGenerations,
  type CatalogStatus,
  type DriftedFile,
  type GenerationInfo,
} from './read/status.js';
export { publishedPolicy, readMeta, unarchivedServedIds, writeMeta } from './store/meta.js';
export { BODY_INDEX_CHARS, forEachPosting } from './write/postings.js';
export {
  DOC_NAME_TERMS,
  DOC_STATE,
  DOC_STRIDE,
  STATE_CODES,
  type ServingDocs,
} from './write/postings-store.js';
export {
  allBm25fRows,
  bodyCountsOfRows,
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
} from './read/queries-bm25f.js';
export {
  EXAMPLE_SOURCES,
  listUsage,
  readUsage,
  UsageWatch,
  type ExampleSource,
  type UsageExample,
  type UsageExampleDetail,
} from './side/usage.js';
export {
  DEFAULT_USAGE_RETENTION_DAYS,
  addUsageExamples,
  checkRetentionDays,
  forgetUsage,
  openUsageForWrite,
  retentionCutoff,
  pruneUsage,
  purgePromptData,
  usageCounts,
  type NewUsageExample,
  type UsageOrigin,
} from './side/usage-write.js';
export {
  servedSkillFiles,
  syncAuthorExamples,
  trimAuthorExamples,
  type AuthorExample,
  type AuthorSyncReport,
} from './side/author.js';
export { normalizeExampleQuery } from './side/side-migrate.js';
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
  type LexicalRow,
  type RankRow,
  type ServedRow,
} from './read/queries.js';
export { rollbackWorkingSet, type RollbackReport } from './write/rollback.js';
export { folderDigestOf, folderFiles, workingSetDigests } from './read/folder-digest.js';
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
  type MemberState,
  type RevisionFields,
  type ServedHistory,
} from './read/history.js';
export {
  TEXTS_SCHEMA_VERSION,
  keepRevisionsOf,
  readRevisionText,
  storeRevisionTexts,
  type RevisionTextsSummary,
} from './write/revision-texts.js';
export { copyCatalog, type CopyReport } from './write/copy.js';
export { storedJson } from './store/stored.js';
export {
  CatalogExplorer,
  type CatalogOverview,
  type GenerationChange,
  type LifecycleStep,
  type RevisionSeen,
  type SkillRecordView,
} from './read/explore.js';
export { TelemetryReader, type UsageCount, type UsageDay } from './side/telemetry-read.js';
export { layoutOf, storedLayout } from './store/layout.js';
export {
  BodyHandoff,
  decodeForwardV4,
  decodeForwardHeadV4,
  type IndexKind,
  type V4Counts,
} from './write/documents-v4.js';
