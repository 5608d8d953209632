/**
 * Trigger-eval file formats: the parser lives in src/router/learning/trigger-formats.ts since
 * `index` reads each skill's own evaluations as author examples (issue 34 item 1); this module
 * keeps the triggers' names.
 */
export { parseTriggerFile, type ParsedTriggerFile, type RawCase } from '../router/index.js';
