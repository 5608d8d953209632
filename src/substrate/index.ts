/** Public surface of src/substrate: progressive substrate reads and lint. Explicit named exports only. */
export {
  INDEX_FILE,
  SUBSTRATE_TYPES,
  isSubstrateType,
  type IndexRow,
  type LintTypeSummary,
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
export {
  parseMarkdownTable,
  splitTableRow,
  type RawRow,
  type RawTable,
  type TableParse,
} from './table-parse.js';
export { resolveIndexTable, type IndexTable } from './index-table.js';
export {
  MAX_BRACE_EXPANSIONS,
  globIncludes,
  globMatches,
  globOverlap,
  parseGlob,
  splitGlobList,
  type Glob,
} from './glob.js';
export { TAG_PREFIX, parseQuery, queryKindOf, stemTerms, type ParsedQuery } from './query.js';
export {
  RELEVANCE_RULE,
  compareTerms,
  evidenceOf,
  isNear,
  judge,
  type Judgement,
  type TermEvidence,
} from './relevance.js';
export { entryBody, readEntrySummary, type EntrySummary } from './entry.js';
export { DEFAULT_MAX_SUBSTRATE_BYTES } from './files.js';
export { compareHits, rankHits } from './rank.js';
export { DEFAULT_READ_OPTIONS, readSubstrate, type ReadSubstrateOptions } from './read.js';
export { lintSubstrate, type LintSubstrateOptions } from './lint.js';
export { SUBSTRATE_DIR, findSubstrateRoot } from './root.js';
export { renderHitsYaml } from './render.js';
