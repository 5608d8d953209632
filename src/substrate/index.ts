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
export { parseMarkdownTable, splitTableRow } from './table-parse.js';
export { resolveIndexTable } from './index-table.js';
export {
  MAX_BRACE_EXPANSIONS,
  globIncludes,
  globMatches,
  globOverlap,
  parseGlob,
  splitGlobList,
  type Glob,
} from './glob.js';
export { parseQuery, queryKindOf } from './query.js';
export {
  RELEVANCE_RULE,
  compareTerms,
  evidenceOf,
  isNear,
  judge,
  type Judgement,
} from './relevance.js';
export { entryBody, readEntrySummary } from './entry.js';
export { compareHits, rankHits } from './rank.js';
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
