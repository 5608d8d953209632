/** Public surface of src/explorer, the `skilldex serve` face (issue 15). Explicit named exports only. */
export {
  AUDIT_MAX_AGE_MS,
  MAX_EXPLORER_QUERY_CHARS,
  NEVER_IN_TOP_FIVE_MIN_SEARCHES,
  OVERVIEW_LIST,
  neverInTopFiveThreshold,
  type ExplorerContext,
} from './api.js';
export { CONTENT_SECURITY_POLICY, createExplorerApp, statusOf } from './app.js';
export {
  DEFAULT_ASSETS_DIR,
  startExplorer,
  type ExplorerHandle,
  type StartOptions,
} from './start.js';
