/**
 * Public surface of src/hosts: what skilldex knows about the agent hosts it serves (Claude Code,
 * Codex) — their transcripts of skill use, the skills they list and the budget rules of their
 * listings (listing-rules.ts, which lint reuses), and the controls a listing plan writes.
 * Explicit named exports only.
 */
export {
  MAX_PROMPT_CHARS,
  MAX_TRANSCRIPT_LINES,
  parseClaudeCodeTranscript,
  parseCodexRollout,
  slashCommandOf,
  type Activation,
  type ActivationVia,
  type TranscriptHost,
  type TranscriptOptions,
  type TranscriptScan,
} from './transcripts.js';
export {
  MAX_ACTIVATIONS,
  MAX_TRANSCRIPT_BYTES,
  MAX_TRANSCRIPT_FILES,
  defaultTranscriptDir,
  readTranscripts,
  type TranscriptRead,
} from './transcript-files.js';
export {
  CLAUDE_CODE_LISTING,
  CODEX_LISTING,
  claudeCodeBudget,
  claudeCodeEntryText,
  claudeCodeListing,
  codexBudget,
  codexDescription,
  codexListing,
  cutLoss,
  fullLineCost,
  hostListing,
  type CutLoss,
  type ListedEntry,
  type ListingBudget,
  type ListingHost,
  type ListingOutcome,
  type ListingResult,
  type ListingSkill,
} from './listing-rules.js';
export {
  CODEX_MAX_DEPTH,
  MAX_CLAUDE_STATE_BYTES,
  MAX_SETTINGS_BYTES,
  claudeCodeSkills,
  claudeSettingsFiles,
  type HostListingSettings,
  type HostScopeOptions,
  type HostSkill,
  type HostSkills,
} from './listing-scopes.js';
export {
  codexConfigFile,
  codexConfigRules,
  codexHome,
  codexListedSkills,
  codexRoots,
  codexSkills,
} from './listing-codex.js';
export {
  PROJECT_SCOPES,
  ROUTER_SKILL,
  listingReport,
  planListing,
  skilldexUsage,
  type KeepReason,
  type ListingOptions,
  type ListingReport,
  type ListingSkillReport,
} from './listing-plan.js';
export {
  CODEX_BEGIN,
  CODEX_END,
  ROUTED_OVERRIDE,
  applyListing,
  controlFile,
  controlsOf,
  listingStateDir,
  readListingState,
  undoListing,
  type ApplyExtras,
  type JsonTextEditor,
  type ListingControlOptions,
  type RoutedOverride,
  type ListingControlReport,
  type ListingState,
} from './listing-controls.js';
export {
  skilldexMcpServer,
  type McpClient,
  type McpLookupOptions,
  type McpRegistration,
} from './mcp-registration.js';
export { type HostFolders } from './settings-file.js';
export {
  codexProjectFacts,
  type CodexProjectFacts,
  type CodexProjectLayer,
  type CodexProjectMcp,
} from './codex-project.js';
