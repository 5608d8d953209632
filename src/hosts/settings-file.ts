/**
 * Reads a host's settings file (JSON, JSON with comments, or TOML) into a plain object for the
 * look-ups of `mcp-registration.ts` and `codex-project.ts`. Never throws and never writes: what
 * cannot be read or parsed becomes one `<file>: <reason>` line in the caller's `problems`.
 */
import { createRequire } from 'node:module';
import { readTextCapped } from '../fsx/index.js';
import { blankJsonComments } from '../text/index.js';
import { MAX_SETTINGS_BYTES } from './listing-scopes.js';

/** Where a host's settings files are looked for: the user's home, the environment, the project. */
export interface HostFolders {
  readonly home: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The project folder (Claude Code's local and project scopes, Cursor's and Codex's project files). */
  readonly cwd: string;
}

/** `v` when it is a plain object (not null, not an array), else undefined. */
export function asObject(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/**
 * How a settings file is written: JSON, JSON with comments (Gemini CLI's settings.json, read as
 * strip-json-comments reads it), or TOML.
 */
export type SettingsFormat = 'json' | 'jsonc' | 'toml';

/**
 * A settings file's document, at most `max` bytes read: undefined when it is unreadable, larger,
 * or not an object in `format` (said in `problems`; for TOML the parse error's first line).
 */
export function readSettingsFile(
  file: string,
  format: SettingsFormat,
  problems: string[],
  max = MAX_SETTINGS_BYTES,
): Record<string, unknown> | undefined {
  const r = readTextCapped(file, { maxBytes: max });
  if (!r.ok) {
    problems.push(`${file}: ${r.problem.message}`);
    return undefined;
  }
  return format === 'toml'
    ? parseToml(file, r.text, problems)
    : parseJson(file, r.text, format, problems);
}

function parseJson(
  file: string,
  text: string,
  format: 'json' | 'jsonc',
  problems: string[],
): Record<string, unknown> | undefined {
  try {
    const v = asObject(JSON.parse(format === 'jsonc' ? blankJsonComments(text) : text));
    if (v === undefined) problems.push(`${file}: not a JSON object`);
    return v;
  } catch (err) {
    problems.push(`${file}: ${(err as Error).message}`);
    return undefined;
  }
}

function parseToml(
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
