/**
 * What a prompt hook reads: the host's event object on standard input (docs/hosts.md has the table).
 * Claude Code and Codex both send a `UserPromptSubmit` object with `prompt`, `session_id`, `cwd`,
 * `transcript_path` and `hook_event_name` (Codex also `turn_id`, `model`, `permission_mode`):
 * Claude Code's hooks reference, code.claude.com/docs/en/hooks#userpromptsubmit, and Codex's input
 * schema, openai/codex codex-rs/hooks/schema/generated/user-prompt-submit.command.input.schema.json.
 * Gemini CLI sends a `BeforeAgent` object with `prompt`, `session_id`, `cwd`, `hook_event_name`,
 * `transcript_path` and `timestamp` (google-gemini/gemini-cli docs/hooks/reference.md, "Base input
 * schema" and "BeforeAgent"). VS Code's agent mode sends `UserPromptSubmit` with `prompt` and the
 * common fields `sessionId`, `hookEventName`, `cwd`, `timestamp`, `transcript_path`
 * (microsoft/vscode-docs docs/agent-customization/hooks.md "Common input fields",
 * docs/agents/reference/hooks-reference.md "UserPromptSubmit"); the snake_case spellings of Claude
 * Code are read too, since VS Code also runs the hooks of ~/.claude/settings.json. The `generic`
 * host reads the prompt as plain text (or such an object). Pure: parses text, reads nothing; a bad
 * input is HOOK_INPUT_INVALID naming what is wrong, never the prompt itself.
 *
 * Not every `UserPromptSubmit` is a person's prompt: Claude Code also fires it for scheduled tasks,
 * background sub-agent results and messages from other sessions (issue 35; its CHANGELOG: "scheduled
 * task and webhook trigger deliveries … now classify as task notifications"). Its hooks reference
 * documents no field that marks them, so two markers are used (docs/hosts.md says so): `agent_id`,
 * which the reference documents as "present only when the hook fires inside a subagent call", and a
 * prompt that is one host-made element, `<name-with-hyphen …>…</name-with-hyphen>` (Claude Code
 * wraps such deliveries as `<task-notification>`, `<system-reminder>` and the like; no HTML
 * element a person pastes has a hyphen in its name). Such an event gets no suggestion.
 */
import { SkilldexError } from '../errors.js';

/** The hosts `skilldex hook` speaks for. */
export const HOOK_HOSTS = ['claude-code', 'codex', 'gemini-cli', 'vscode', 'generic'] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

/** Default deadline of a hook run, from process start to answer (milliseconds). */
export const DEFAULT_HOOK_DEADLINE_MS = 1000;

/** Largest hook input read from standard input (a prompt with pasted files fits; more is refused). */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/** The part of a prompt routed: its first characters (a pasted log after them adds only noise). */
export const MAX_HOOK_QUERY_CHARS = 2_000;

/** The event each host sends its prompt hook (`generic` takes either). */
export const HOOK_EVENTS: Readonly<Record<HookHost, string>> = {
  'claude-code': 'UserPromptSubmit',
  codex: 'UserPromptSubmit',
  'gemini-cli': 'BeforeAgent',
  vscode: 'UserPromptSubmit',
  generic: 'UserPromptSubmit',
};

/** A parsed hook event. */
export interface HookInput {
  readonly prompt: string;
  /**
   * Why this event is not a person's prompt (a sub-agent's, a host-made notification), or
   * undefined when it is one. Such an event gets no suggestion.
   */
  readonly notPerson?: string;
  /** The host's session id (the session state is kept per session); undefined when none. */
  readonly session: string | undefined;
  /** The folder the host runs in (project skills are found below it); undefined when none. */
  readonly cwd: string | undefined;
}

function invalid(message: string, details: Record<string, unknown> = {}): SkilldexError {
  return new SkilldexError('HOOK_INPUT_INVALID', message, details);
}

function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw invalid(`the hook input's "${key}" is not a string`, { key });
  return v;
}

// The first of `keys` present in `o` (a string, or HOOK_INPUT_INVALID).
function firstString(o: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = optionalString(o, k);
    if (v !== undefined) return v;
  }
  return undefined;
}

// The opening tag of a host-made element: a name of at most 64 characters with a hyphen inside
// (`task-notification`); bounded, so a megabyte of prompt costs one pass.
const OPEN_TAG = /^<([a-z][a-z0-9-]{1,62}[a-z0-9])[\s>]/i;

// The name of the element `prompt` is, whole (`<a-b …>` … `</a-b>`), or undefined.
function hostElement(prompt: string): string | undefined {
  const t = prompt.trim();
  const name = OPEN_TAG.exec(t)?.[1];
  if (name === undefined || !name.includes('-') || name.includes('--')) return undefined;
  return t.indexOf('>') > 0 && t.toLowerCase().endsWith(`</${name.toLowerCase()}>`)
    ? name
    : undefined;
}

/** Why `prompt` (with the event's fields `o`) is not a person's prompt; undefined when it is. */
function notPersonReason(o: Record<string, unknown>, prompt: string): string | undefined {
  if (o['agent_id'] !== undefined && o['agent_id'] !== null) return 'a sub-agent event (agent_id)';
  const name = hostElement(prompt);
  return name === undefined ? undefined : `a host-made <${name}> message`;
}

function fromObject(host: HookHost, o: Record<string, unknown>): HookInput {
  const event = firstString(o, ['hook_event_name', 'hookEventName']);
  const expected = host === 'generic' ? ['UserPromptSubmit', 'BeforeAgent'] : [HOOK_EVENTS[host]];
  if (event !== undefined && !expected.includes(event))
    throw invalid(
      `the hook input is a ${JSON.stringify(event.slice(0, 60))} event, not ${expected.join(' or ')}`,
      { key: 'hook_event_name' },
    );
  const prompt = o['prompt'];
  if (typeof prompt !== 'string')
    throw invalid('the hook input has no "prompt" string', { key: 'prompt' });
  const notPerson = notPersonReason(o, prompt);
  return {
    prompt,
    session: firstString(o, ['session_id', 'sessionId']),
    cwd: optionalString(o, 'cwd'),
    ...(notPerson === undefined ? {} : { notPerson }),
  };
}

/** Parses the text a host wrote on standard input; HOOK_INPUT_INVALID when it is not usable. */
export function parseHookInput(host: HookHost, text: string): HookInput {
  const trimmed = text.trim();
  if (host === 'generic' && !trimmed.startsWith('{'))
    return { prompt: trimmed, session: undefined, cwd: undefined };
  // A host that closed standard input without writing: say so, not "not JSON" (doctor shows it).
  if (trimmed === '') throw invalid(`the ${host} hook input is empty (nothing on standard input)`);
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw invalid(`the ${host} hook input is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`the ${host} hook input is not a JSON object`);
  return fromObject(host, value as Record<string, unknown>);
}

/**
 * The query routed for a prompt, or undefined when the prompt should get no suggestion: empty, or a
 * slash command (the person already chose what to run).
 */
export function hookQuery(prompt: string): string | undefined {
  const t = prompt.trim();
  if (t === '' || t.startsWith('/')) return undefined;
  return t.length > MAX_HOOK_QUERY_CHARS ? t.slice(0, MAX_HOOK_QUERY_CHARS) : t;
}
