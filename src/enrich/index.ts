/** Public surface of src/enrich: brief scoring, selection or refusal, and the evidence writer (docs/enrich.md). */
export {
  DEFAULT_FLOOR,
  MAX_DESCRIPTION_CHARS,
  SCORE_DECIMALS,
  briefTerms,
  formatFloor,
  formatScore,
  scoreDescription,
  scoredWindow,
  type DescriptionScore,
} from './score.js';
export {
  CLOSEST_COUNT,
  MAX_CANDIDATES,
  MIN_CANDIDATES,
  compareRanked,
  isAboveFloor,
  selectCandidates,
  type Rankable,
  type Selection,
} from './select.js';
export {
  BRIEF_ENV,
  TARGET_ENV,
  resolveEnrichInputs,
  type EnrichInputSources,
  type EnrichInputs,
} from './inputs.js';
export { EVIDENCE_FOLDER, resolveEvidenceTarget, type EvidenceTarget } from './target.js';
export {
  HOME_LABEL,
  PROJECT_LABEL,
  makePathDisplay,
  type DisplayRoot,
  type PathDisplay,
} from './display.js';
export {
  IN_TREE_SKILLS,
  enrichmentScopes,
  takeInventory,
  type EnrichScopeName,
  type Inventory,
  type InventoryOptions,
  type InventoryScope,
} from './inventory.js';
export {
  ARTIFACTS,
  REFUSAL_REASON,
  buildEnrichReport,
  rationaleOf,
  refusalLine,
  type EnrichCandidate,
  type EnrichNote,
  type EnrichRefusal,
  type EnrichReport,
  type EnrichScopeEntry,
  type EnrichSkipped,
  type ReportInputs,
} from './report.js';
export { renderIndexMd } from './render-index.js';
export { renderCandidatesMd } from './render-candidates.js';
export { renderSkippedMd, renderRawInventory } from './render-skipped.js';
export { renderRefusalMd } from './render-refusal.js';
export { renderArtifacts, writeEvidence, type Artifact } from './evidence.js';
export {
  enrichSkills,
  planEnrichment,
  rootsDisplay,
  type EnrichOptions,
  type EnrichPlan,
  type EnrichResult,
} from './enrich.js';
