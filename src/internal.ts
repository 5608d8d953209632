/**
 * The package-internal barrel: every name the faces (src/cli, src/mcp, src/explorer) and the tests
 * and benchmarks share, the analysers, policy tables and helpers included. Not reachable from
 * outside the package: package.json exports only dist/index.js, the curated library API
 * (src/index.ts). This file is that API (`export *`, so the two lists are not written twice) plus
 * the internal names below, each named explicitly.
 */
export * from './index.js';
export { codedFromForeign } from './errors.js';
export {
  escapeInvisible,
  jsonText,
  markdownInline,
  markdownQuote,
  sanitizeBlock,
  sanitizeField,
  MAX_FIELD_CHARS,
} from './text/index.js';
export { maskSecrets } from './secrets.js';
export {
  isInside,
  readTextCapped,
  realpathOrUndefined,
  resolveInside,
  toPosixRelative,
} from './fsx/index.js';
export {
  DEFAULT_FLOOR as ENRICH_DEFAULT_FLOOR,
  MAX_CANDIDATES as ENRICH_MAX_CANDIDATES,
  MAX_DESCRIPTION_CHARS as ENRICH_MAX_DESCRIPTION_CHARS,
  MIN_CANDIDATES as ENRICH_MIN_CANDIDATES,
  EVIDENCE_FOLDER,
  briefTerms,
  formatFloor,
  formatScore,
  renderCandidatesMd,
  renderIndexMd,
  renderRawInventory,
  renderRefusalMd,
  renderSkippedMd,
  resolveEnrichInputs,
  resolveEvidenceTarget,
  selectCandidates,
} from './enrich/index.js';
export {
  SHRINK_LIMIT,
  catalogLocation,
  isPgLocation,
  maskUrlText,
  FETCH_FULL_WEIGHT_SESSIONS,
  exampleWeight,
} from './catalog/index.js';
export {
  MAX_FETCH_CONTEXT_CHARS,
  MAX_PIN_CHARS,
  MRR_DEPTH,
  POLICIES,
  V1,
  BM25F_V4,
  COMPARISON_SETS,
  RETIRED_POLICIES,
  comparisonSetsFor,
  analyzeQuery,
  exampleCountsOf,
  checkExampleSource,
  checkLearnHost,
  DEFAULT_USAGE_LIST_LIMIT,
  checkFetchRequest,
  parseQueryLinesTolerant,
  MAX_INDEX_ATTEMPTS,
  queryTokens,
  type Bm25fParams,
  DEFAULT_RECENT_REVISIONS,
  suggestSkillIds,
  DEFAULT_DEBOUNCE_MS,
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
} from './router/index.js';
export { RELEVANCE_RULE, isSubstrateType } from './substrate/index.js';
export {
  DEFAULT_MAX_INDEX_BYTES,
  MAX_NEED_CHARS,
  FS_READER,
  OVERLAY_FILE,
  STAMP_FILE,
} from './cascade/index.js';
export { SARIF_SCHEMA } from './lint/index.js';
export {
  CLAUDE_CODE_LISTING,
  CODEX_LISTING,
  ROUTER_SKILL,
  defaultTranscriptDir,
  listingStateDir,
  readListingState,
} from './hosts/index.js';
export {
  LOCK_VERSION,
  compareToLock,
  skillsLockHash,
  stripCredentials,
  generationDiffOf,
} from './supply/index.js';
