/**
 * The package-internal barrel: every name the faces (src/cli, src/mcp, src/explorer) and the tests
 * and benchmarks share, the analysers, policy tables and helpers included. Not reachable from
 * outside the package: package.json exports only dist/index.js, the curated library API
 * (src/index.ts). This file is that API (`export *`, so the two lists are not written twice) plus
 * the internal names below, each named explicitly.
 */
export * from './index.js';
export { codedFromForeign } from './errors.js';
export { jsonText, sanitizeBlock, sanitizeField } from './text/index.js';
export { maskSecrets } from './secrets.js';
export { isInside, readTextCapped, realpathOrUndefined, resolveInside } from './fsx/index.js';
export { catalogLocation } from './catalog/index.js';
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
  queryTokens,
  exampleCountsOf,
  checkExampleSource,
  checkFetchRequest,
  type Bm25fParams,
  MAX_SKILL_FILES,
  MAX_SKILL_FILES_BYTES,
} from './router/index.js';
export { isSubstrateType } from './substrate/index.js';
export { MAX_NEED_CHARS } from './cascade/index.js';
export { ROUTER_SKILL, listingStateDir, readListingState } from './hosts/index.js';
// The lock helpers stay named here: test/api.test.ts holds them internal (here, not in the API).
export {
  LOCK_VERSION,
  compareToLock,
  generationDiffOf,
  skillsLockHash,
  stripCredentials,
} from './supply/index.js';
