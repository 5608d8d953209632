/**
 * The shapes every `skilldex doctor` check shares — one check's outcome, the report, the options
 * doctor is asked with, the hook command's time limit — and the small helpers the check groups
 * use: an error code's hint, a capped JSON file read, and the `skilldex init` line that fixes a
 * client's set-up.
 */
import { ERROR_CODES, type ErrorCode } from '../../errors.js';
import { readTextCapped } from '../../fsx/index.js';
import type { HostFolders } from '../../hosts/index.js';
import { parseJsonText } from '../init/json-edit.js';

/** One check's outcome. */
export interface DoctorCheck {
  readonly id: string;
  readonly status: 'ok' | 'warn' | 'fail' | 'skip';
  readonly message: string;
  /** What to do about a `warn` or `fail`. */
  readonly fix?: string;
}

/** The doctor's report: `healthy` when no check failed. */
export interface DoctorReport {
  readonly healthy: boolean;
  readonly problems: number;
  readonly warnings: number;
  readonly checks: readonly DoctorCheck[];
}

/** What doctor is asked: the folders the host checks look in, and what the settings name. */
export interface DoctorOptions extends HostFolders {
  /** The catalog the settings name (undefined: the catalog check is skipped, as in `status`). */
  readonly catalog?: string;
  /** The library folders the settings name: skills there not in the catalog yet fail `catalog`. */
  readonly scopes?: readonly string[];
  /**
   * Where `scopes` come from (a setting's source): the `library` check compares only the user's own
   * library (not a project's, from `project …`) with the folders the hosts load.
   */
  readonly scopesSource?: string;
  /** False (status): no hook command is run. */
  readonly runHook: boolean;
  /** The `hook_server` setting (undefined: the hook-server check is left out). */
  readonly hookServer?: { readonly value: boolean; readonly source: string };
  /** Milliseconds a hook command may take before it is killed (default HOOK_RUN_TIMEOUT_MS). */
  readonly hookTimeoutMs?: number;
}

/** How long doctor lets the hook command run (the hosts wait 5 s; the hook's own deadline is 1 s). */
export const HOOK_RUN_TIMEOUT_MS = 10_000;

/** The hint of error `code` (empty for a code skilldex does not know). */
export function hintOf(code: string): string {
  return code in ERROR_CODES ? ERROR_CODES[code as ErrorCode].hint : '';
}

/**
 * A JSON file's parsed value (read capped at 4 MiB); throws when it cannot be read or parsed.
 * `comments`: the host reads it as JSON with comments (Gemini CLI's settings.json).
 */
export function readJsonFile(file: string, comments = false): unknown {
  const r = readTextCapped(file, { maxBytes: 4 * 1024 * 1024 });
  if (!r.ok) throw new Error(r.problem.message);
  return parseJsonText(r.text, comments);
}

/** The `skilldex init` line that sets `client` up again. */
export function initFix(client: string): string {
  return `skilldex init --client ${client} --yes`;
}
