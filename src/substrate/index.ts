/** Public surface of src/substrate: progressive substrate reads and lint. Explicit named exports only. */
export {
  SUBSTRATE_TYPES,
  isSubstrateType,
  type MatchStrength,
  type OpenedFile,
  type QueryKind,
  type StopDepth,
  type SubstrateHit,
  type SubstrateLintReport,
  type SubstrateReport,
  type SubstrateType,
  type TagNearMiss,
} from './types.js';
export { globMatches, parseGlob, type Glob } from './glob.js';
export { readSubstrate, type ReadSubstrateOptions } from './read.js';
export { lintSubstrate, type LintSubstrateOptions } from './lint.js';
export {
  listSubstrate,
  type ListSubstrateOptions,
  type SubstrateContents,
  type SubstrateEntryRef,
} from './contents.js';
export { SUBSTRATE_DIR, findSubstrateRoot, searchSubstrateRoot } from './root.js';
export { renderHitsYaml } from './render.js';
