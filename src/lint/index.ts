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
export { type LintSkill } from './skill.js';
export { findClauses } from '../text/index.js';
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
