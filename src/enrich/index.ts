/** Public surface of src/enrich: brief scoring, selection or refusal, and the evidence writer (docs/enrich.md). */
export {
  DEFAULT_FLOOR,
  MAX_DESCRIPTION_CHARS,
  briefTerms,
  formatFloor,
  formatScore,
  scoreDescription,
  type DescriptionScore,
} from './score.js';
export { MAX_CANDIDATES, MIN_CANDIDATES, selectCandidates } from './select.js';
export { resolveEnrichInputs } from './inputs.js';
export { resolveEvidenceTarget, type EvidenceTarget } from './target.js';
export { makePathDisplay } from './display.js';
export {
  type EnrichCandidate,
  type EnrichRefusal,
  type EnrichReport,
  type EnrichSkipped,
} from './report.js';
export { renderIndexMd } from './render-index.js';
export { renderCandidatesMd } from './render-candidates.js';
export { renderRefusalMd } from './render-refusal.js';
export { renderArtifacts, writeEvidence } from './evidence.js';
export {
  enrichSkills,
  planEnrichment,
  type EnrichOptions,
  type EnrichPlan,
  type EnrichResult,
} from './enrich.js';
