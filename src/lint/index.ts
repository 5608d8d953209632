/**
 * Public surface of src/lint: `lintLibrary`, its pure core, the code table, suppressions and
 * baselines, the hosts' listing rules, and the SARIF rendering.
 */
export {
  DEFAULT_THRESHOLDS,
  LINT_CODES,
  PROFILES,
  SEVERITIES,
  atOrAbove,
  type HostId,
  type HostListingTotal,
  type LintChecks,
  type LintCode,
  type LintCounts,
  type LintFinding,
  type LintProfile,
  type LintReport,
  type LintSeverity,
  type LintSummary,
  type LintThresholds,
  type ListingReport,
  type SkillListingCost,
  type SuppressionCount,
} from './codes.js';
export { lintLibrary, resolveThresholds, type LintOptions } from './lint.js';
export {
  lintSkills,
  compareFindings,
  countFindings,
  type LintInput,
  type LintResult,
} from './lint-skills.js';
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
export {
  jaccard,
  minHash,
  nearDuplicateFamilies,
  type FamilyLink,
  type NearDuplicateFamily,
} from './families.js';
export { findClauses, type RoutingClause } from '../text/index.js';
export { HOST_RULES, cutFor, lengthIn, listingCosts, type HostCut } from './hosts.js';
export {
  INLINE_KEY,
  fingerprintOf,
  parseBaselineJson,
  parseLintBaseline,
  type LintBaseline,
  type LintSuppression,
} from './suppress.js';
export { SPEC_FIELDS } from '../skills/index.js';
export type { SkillFamily } from './group.js';
export { frontmatterLines } from './lines.js';
export {
  renderSarif,
  sarifFingerprint,
  sarifLocation,
  sarifLog,
  sarifLogOf,
  SARIF_FINGERPRINT_KEY,
  SARIF_SCHEMA,
  type SarifFinding,
  type SarifLocation,
  type SarifLog,
  type SarifResult,
  type SarifRule,
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
