/**
 * The skilldex library API. The CLI and the MCP server use only what this file exports, so
 * whatever they can do, a library user can do. Explicit named exports only.
 */
export {
  ERROR_CODES,
  PROBLEM_CODES,
  SkilldexError,
  isSkilldexError,
  type ErrorCode,
  type ExitCode,
  type Problem,
  type ProblemCode,
} from './errors.js';
export { escapeInvisible } from './text/index.js';
export { isInside, readTextCapped, resolveInside, toPosixRelative } from './fsx/index.js';
export {
  SKILL_FILE,
  discoverSkills,
  loadSkillFile,
  resolveScopes,
  type DiscoverOptions,
  type ScanReport,
  type Scope,
  type ScopeKind,
  type SkillRecord,
  type SkippedFile,
} from './skills/index.js';
