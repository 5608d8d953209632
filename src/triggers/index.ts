/**
 * Public surface of src/triggers (`skilldex eval --triggers`, issue #24): `evalTriggers`, the
 * trigger-eval file formats and discovery, the pure scoring, gates and suggestions, and the JUnit
 * and SARIF renderings.
 */
export {
  evalTriggers,
  type SkillTriggerReport,
  type TriggerEvalOptions,
  type TriggerReport,
} from './eval.js';
export {
  MAX_TRIGGER_FILE_BYTES,
  PROJECT_FILE,
  TRIGGER_FILE_RE,
  findTriggerCases,
  type CaseSkill,
  type FoundCases,
  type TriggerCase,
} from './discover.js';
export { parseTriggerFile, type ParsedTriggerFile, type RawCase } from './formats.js';
export {
  MRR_CUTOFF,
  SHALLOW,
  scoreCases,
  skillResults,
  stealingPairs,
  totalsOf,
  type CaseOutcome,
  type Confusion,
  type ScoredCaseInput,
  type SkillTriggerResult,
  type StealingPair,
  type TriggerCandidate,
  type TriggerRankFn,
  type TriggerRanking,
  type TriggerTotals,
} from './score.js';
export {
  checkGates,
  parseTriggerBaseline,
  type GateFailure,
  type TriggerBaseline,
  type TriggerGates,
} from './gates.js';
export { suggestFor, type TriggerSuggestion } from './suggest.js';
export { carryingWords } from './words.js';
export { TRIGGER_RULE, renderTriggerJunit, renderTriggerSarif } from './render.js';
