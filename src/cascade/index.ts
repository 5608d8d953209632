/**
 * Public surface of src/cascade: skill.index cascades (docs/cascade.md): parse, stamp, overlay,
 * crawl, build and audit. Explicit named exports only; the faces reach these through src/index.ts.
 */
export { auditCascade, type AuditOptions } from './audit.js';
export { buildCascade, type BuildOptions } from './build.js';
export { crawlCascade, type CrawlOptions } from './crawl.js';
export {
  INDEX_FILE,
  parseSkillIndex,
  printSkillIndex,
  type IndexEntry,
  type ParsedIndex,
} from './index-file.js';
export { MAX_NEED_CHARS } from './match.js';
export { type CascadeReader } from './reader.js';
export {
  CRAWL_EXIT_CODES,
  CRAWL_OUTCOMES,
  type AuditReport,
  type BuildChange,
  type BuildReport,
  type CrawlOutcome,
  type CrawlReport,
  type EntryRef,
  type Suggestion,
} from './report.js';
export { formatStamp, parseStamp } from './stamp.js';
export {
  readCascadeTree,
  type CascadeTree,
  type CascadeTreeEntry,
  type CascadeTreeNode,
  type TreeOptions,
} from './tree.js';
