/** Public surface of src/explorer, the `skilldex serve` face (issue 15). Explicit named exports only. */
export { NEVER_IN_TOP_FIVE_MIN_SEARCHES } from './api.js';
export { startExplorer } from './start.js';
