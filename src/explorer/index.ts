/** Public surface of src/explorer, the `skilldex serve` face (issue 15). Explicit named exports only. */
export { MAX_EXPLORER_QUERY_CHARS, OVERVIEW_LIST, type ExplorerContext } from './api.js';
export { CONTENT_SECURITY_POLICY, createExplorerApp, statusOf } from './app.js';
export {
  DEFAULT_ASSETS_DIR,
  startExplorer,
  type ExplorerHandle,
  type StartOptions,
} from './start.js';
