/**
 * Public surface of src/lint: `lintLibrary`, its pure core, the code table, suppressions and
 * baselines, the hosts' listing rules, and the SARIF rendering.
 */
export {
  DEFAULT_THRESHOLDS,
  LINT_CODES,
  atOrAbove,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintReport,
  type LintSeverity,
  type LintThresholds,
} from './codes.js';
export { lintLibrary, type LintOptions } from './lint.js';
export { lintSkills, type LintInput } from './lint-skills.js';
export { selfQueries, wordStats, type LintSkill } from './skill.js';
export { jaccard, nearDuplicateFamilies } from './families.js';
export { findClauses } from '../text/index.js';
export { HOST_RULES, cutFor, lengthIn, listingCosts } from './hosts.js';
export { parseBaselineJson, parseLintBaseline, type LintSuppression } from './suppress.js';
export { frontmatterLines } from './lines.js';
export {
  renderSarif,
  sarifFingerprint,
  sarifLocation,
  sarifLog,
  sarifLogOf,
  SARIF_FINGERPRINT_KEY,
  type SarifLog,
  type SarifResult,
  type SarifRule,
} from './sarif.js';
export {
  SECURITY_CODES,
  allowedToolsOf,
  checkSecurity,
  commandHooks,
  isWideTool,
} from './security.js';
export { LINT_GROUPS, selectCodes } from './only.js';
