/**
 * Public surface of src/hook: `skilldex hook <host>`, the prompt hook that suggests the skills that
 * fit a prompt (or nothing) in the host's own context (issue 23 §1, docs/integration.md §8).
 * Explicit named exports only.
 */
export {
  HOOK_EVENTS,
  HOOK_HOSTS,
  MAX_HOOK_INPUT_BYTES,
  MAX_HOOK_QUERY_CHARS,
  hookQuery,
  parseHookInput,
  type HookHost,
  type HookInput,
} from './input.js';
export {
  MAX_SESSION_FILES,
  MAX_SESSION_IDS,
  SESSION_TTL_MS,
  hookStateDir,
  nextSessionState,
  pruneSessions,
  readSessionState,
  sessionStep,
  writeSessionState,
  type SessionState,
} from './state.js';
export {
  DEFAULT_HOOK_SUGGESTIONS,
  HOOK_SEARCH_LIMIT,
  MAX_HOOK_SUGGESTIONS,
  MAX_SUMMARY_CHARS,
  suggest,
  summaryOf,
  type HookAnswer,
  type HookLoad,
  type HookSuggestion,
  type SuggestOptions,
} from './suggest.js';
export { MAX_CONTEXT_CHARS, contextText, hookOutput, quotedData } from './output.js';
export { MAX_LOG_BYTES, logHookError } from './log.js';
export {
  DEFAULT_HOOK_DEADLINE_MS,
  runHook,
  type HookRouters,
  type HookRunOptions,
  type HookRunResult,
} from './run.js';
export {
  HOOK_SERVER_NODE_FLAGS,
  HOOK_SERVER_PROTOCOL,
  MAX_SERVER_REQUEST_BYTES,
  MAX_SOCKET_PATH_BYTES,
  asHookServerAnswer,
  asHookServerRequest,
  hookServerDir,
  hookServerSocket,
  isPrivateDir,
  type HookServerAnswer,
  type HookServerRequest,
} from './server-socket.js';
