/** Public surface of src/explorer, the `skilldex serve` face (issue 15). Explicit named exports only. */
export { MAX_EXPLORER_QUERY_CHARS, NEVER_IN_TOP_FIVE_MIN_SEARCHES } from './api.js';
export { CONTENT_SECURITY_POLICY, createExplorerApp } from './app.js';
export { startExplorer, type ExplorerHandle } from './start.js';
