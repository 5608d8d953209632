/** Public surface of src/lint: `lintLibrary`, its pure core, the code table and the SARIF rendering. */
export {
  DEFAULT_THRESHOLDS,
  LINT_CODES,
  SEVERITIES,
  atOrAbove,
  type LintChecks,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintReport,
  type LintSeverity,
  type LintThresholds,
} from './codes.js';
export { lintLibrary, resolveThresholds, type LintOptions } from './lint.js';
export { lintSkills, compareFindings, countFindings, type LintInput } from './lint-skills.js';
export {
  RANK_DEPTH,
  separatingWords,
  type RankFn,
  type RankedCandidate,
  type QueryOutcome,
  type LostQuery,
} from './ranking.js';
export {
  selfQueries,
  wordStats,
  listingWords,
  type LintSkill,
  type SelfQuery,
  type WordStats,
} from './skill.js';
export { jaccard, similarPairs, type SimilarPair } from './near-duplicates.js';
export { frontmatterLines } from './lines.js';
export {
  renderSarif,
  sarifLogOf,
  SARIF_SCHEMA,
  type SarifFinding,
  type SarifLog,
} from './sarif.js';
export {
  SECURITY_CODES,
  TRUSTED_SCOPES,
  allowedToolsOf,
  checkSecurity,
  commandHooks,
  isWideTool,
  type SecuritySkill,
  type SecurityText,
} from './security.js';
export { LINT_GROUPS, RANKING_CODES, selectCodes } from './only.js';
