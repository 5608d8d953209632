/**
 * The hook's log (issue 23 §1): one line per error, since the hook itself stays silent towards the
 * host. Its own module so the hook server's client (src/cli/hook-client.ts), which loads none of
 * the router, can log too.
 */
import { appendFileSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { SkilldexError } from '../errors.js';
import { maskSecrets } from '../secrets.js';
import { sanitizeField } from '../text/index.js';

/** The log is cut to its newer half when it grows past this. */
export const MAX_LOG_BYTES = 256 * 1024;

/**
 * Appends one line to the hook's log (time, host, code, message; secrets masked, one line), cutting
 * the log to its newer half when it is over MAX_LOG_BYTES. Best effort: never throws.
 */
export function logHookError(
  stateDir: string,
  host: string,
  err: SkilldexError,
  at = new Date(),
): void {
  const file = path.join(stateDir, 'hook.log');
  const line = `${at.toISOString()} ${host} ${err.code}: ${sanitizeField(maskSecrets(err.message), 500)}\n`;
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    appendFileSync(file, line, { mode: 0o600 });
    if (statSync(file).size > MAX_LOG_BYTES) {
      const text = readFileSync(file, 'utf8');
      const cut = text.indexOf('\n', text.length - MAX_LOG_BYTES / 2);
      writeFileSync(file, text.slice(cut + 1), { mode: 0o600 });
    }
  } catch {
    // A log that cannot be written must not turn into an error the host sees.
  }
}
