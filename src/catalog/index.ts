/** Public surface of src/catalog: the SQLite store, its ingest, lifecycle, generations and telemetry. */
export { BUSY_TIMEOUT_MS, closeCatalog, openCatalogForWrite, openCatalogReadOnly, resolveCatalogPath, type Db } from './db.js';
export { LATEST_VERSION, CATALOG_FORMAT } from './migrations.js';
export { computeGeneration, type Member } from './generation.js';
export { tokenSet, tokenStrings, type TokenStrings } from './tokens.js';
export { ingestSkills, type IngestSummary, type ProgressFn } from './ingest.js';
export { publishWorkingSet, type GenerationCounts, type PublishResult } from './publish.js';
export { setLifecycle, type LifecycleChange, type LifecycleState } from './lifecycle.js';
export { TelemetryStore, telemetryPathFor, MAX_CONTEXT_CHARS, type SkillHistory } from './telemetry.js';
export { CatalogReader, type PublishedGeneration } from './reader.js';
export { catalogStatus, listGenerations, type CatalogStatus, type DriftedFile, type GenerationInfo } from './status.js';
export { readMeta, writeMeta } from './meta.js';
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
