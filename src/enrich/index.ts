/** Public surface of src/enrich: brief scoring, selection or refusal, and the evidence writer (docs/enrich.md). */
export {
  DEFAULT_FLOOR,
  formatFloor,
  formatScore,
  scoreDescription,
  type DescriptionScore,
} from './score.js';
export { type EvidenceTarget } from './target.js';
export {
  type EnrichCandidate,
  type EnrichRefusal,
  type EnrichReport,
  type EnrichSkipped,
} from './report.js';
export { renderArtifacts, writeEvidence } from './evidence.js';
export {
  enrichSkills,
  planEnrichment,
  type EnrichOptions,
  type EnrichPlan,
  type EnrichResult,
} from './enrich.js';
