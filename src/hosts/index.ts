/**
 * Public surface of src/hosts: what skilldex knows about the agent hosts it serves (Claude Code,
 * Codex) — their transcripts of skill use. Explicit named exports only.
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
