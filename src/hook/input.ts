/**
 * What a prompt hook reads: the host's event object on standard input. Claude Code and Codex both
 * send a `UserPromptSubmit` object with `prompt`, `session_id`, `cwd`, `transcript_path` and
 * `hook_event_name` (Codex also `turn_id`, `model`, `permission_mode`): Claude Code's hooks
 * reference, code.claude.com/docs/en/hooks#userpromptsubmit, and Codex's input schema,
 * openai/codex codex-rs/hooks/schema/generated/user-prompt-submit.command.input.schema.json. The
 * `generic` host reads the prompt as plain text (or such an object). Pure: parses text, reads
 * nothing; a bad input is HOOK_INPUT_INVALID naming what is wrong, never the prompt itself.
 */
import { SkilldexError } from '../errors.js';

/** The hosts `skilldex hook` speaks for. */
export const HOOK_HOSTS = ['claude-code', 'codex', 'generic'] as const;
export type HookHost = (typeof HOOK_HOSTS)[number];

/** Largest hook input read from standard input (a prompt with pasted files fits; more is refused). */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;

/** The part of a prompt routed: its first characters (a pasted log after them adds only noise). */
export const MAX_HOOK_QUERY_CHARS = 2_000;

/** A parsed hook event. */
export interface HookInput {
  readonly prompt: string;
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

function fromObject(o: Record<string, unknown>): HookInput {
  const event = optionalString(o, 'hook_event_name');
  if (event !== undefined && event !== 'UserPromptSubmit')
    throw invalid(
      `the hook input is a ${JSON.stringify(event.slice(0, 60))} event, not UserPromptSubmit`,
      {
        key: 'hook_event_name',
      },
    );
  const prompt = o['prompt'];
  if (typeof prompt !== 'string')
    throw invalid('the hook input has no "prompt" string', { key: 'prompt' });
  return { prompt, session: optionalString(o, 'session_id'), cwd: optionalString(o, 'cwd') };
}

/** Parses the text a host wrote on standard input; HOOK_INPUT_INVALID when it is not usable. */
export function parseHookInput(host: HookHost, text: string): HookInput {
  const trimmed = text.trim();
  if (host === 'generic' && !trimmed.startsWith('{'))
    return { prompt: trimmed, session: undefined, cwd: undefined };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    throw invalid(`the ${host} hook input is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`the ${host} hook input is not a JSON object`);
  return fromObject(value as Record<string, unknown>);
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
