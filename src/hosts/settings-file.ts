/**
 * Reads a host's settings file (JSON, JSON with comments, or TOML) into a plain object for the
 * look-ups of `mcp-registration.ts` and `codex-project.ts`. Never throws and never writes: what
 * cannot be read or parsed becomes one `<file>: <reason>` line in the caller's `problems`.
 */
import { createRequire } from 'node:module';
import { readTextCapped } from '../fsx/index.js';
import { blankJsonComments } from '../text/index.js';
import { MAX_SETTINGS_BYTES } from './listing-scopes.js';

/** `v` when it is a plain object (not null, not an array), else undefined. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** A settings file's text, at most `max` bytes (undefined when unreadable or larger: said in `problems`). */
export function readSettingsText(
  file: string,
  problems: string[],
  max = MAX_SETTINGS_BYTES,
): string | undefined {
  const r = readTextCapped(file, { maxBytes: max });
  if (r.ok) return r.text;
  problems.push(`${file}: ${r.problem.message}`);
  return undefined;
}

/**
 * `text` parsed as a JSON object; `comments`: JSON with comments (Gemini CLI's settings.json, read
 * as strip-json-comments reads it). Undefined when it is not one: said in `problems`.
 */
export function parseJsonObject(
  file: string,
  text: string,
  problems: string[],
  comments = false,
): Record<string, unknown> | undefined {
  try {
    const v = asObject(JSON.parse(comments ? blankJsonComments(text) : text));
    if (v === undefined) problems.push(`${file}: not a JSON object`);
    return v;
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message}`);
    return undefined;
  }
}

/** `text` parsed as TOML (undefined when it does not parse: the error's first line said in `problems`). */
export function parseTomlTable(
  file: string,
  text: string,
  problems: string[],
): Record<string, unknown> | undefined {
  try {
    return asObject(
      (createRequire(import.meta.url)('smol-toml') as { parse(s: string): unknown }).parse(text),
    );
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
