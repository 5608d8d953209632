/**
 * Where a catalog lives: a SQLite file path, or a PostgreSQL URL (`postgres://` or
 * `postgresql://`). A URL's password never travels with it: `catalogLocation` takes it out (into
 * this module's memory, keyed by the masked URL) and returns the URL with `***` in its place, so
 * every message, `config` line and JSON field that names the catalog is safe to print. Only
 * `connectionString` puts it back, for libpq.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../errors.js';

const PG_URL = /^postgres(?:ql)?:\/\//i;
// Text that starts like a URL: a scheme of two or more characters and a colon (one letter and a
// colon is a Windows drive). Treated as a path, `postgres:/host/db` (one slash lost) would become
// a SQLite file in a new folder named `postgres:`.
const URL_LIKE = /^[a-z][a-z0-9+.-]+:/i;
/** What stands in for a password in a location. */
export const MASK = '***';

// Masked URL -> password, for this process only.
const passwords = new Map<string, string>();

/** True when `location` names a PostgreSQL catalog. */
export function isPgLocation(location: string): boolean {
  return PG_URL.test(location);
}

/**
 * What tells one file at `location` from another put in its place: `dev:ino`, undefined when there
 * is no file. A PostgreSQL location is always `pg` (a database is not replaced under its URL the
 * way a file is renamed over another).
 */
export function locationIdentity(location: string): string | undefined {
  if (isPgLocation(location)) return 'pg';
  try {
    const st = statSync(location);
    return `${st.dev}:${st.ino}`;
  } catch {
    return undefined;
  }
}

/**
 * A catalog location as every command carries it: a PostgreSQL URL through `catalogLocation`
 * (password masked), a file path made absolute against `base` (the working folder, or a config
 * file's folder). INVALID_ARGUMENT for text that starts like a URL but is not a `postgres://` or
 * `postgresql://` URL (`postgres:/db`, `mysql://…`, `file:x`): it is never taken for a file name.
 */
export function resolveCatalogLocation(raw: string, base: string, passwordFile?: string): string {
  if (isPgLocation(raw)) return catalogLocation(raw, passwordFile);
  if (URL_LIKE.test(raw)) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `the catalog ${maskUrlText(raw)} looks like a URL but is not a postgres:// URL; a catalog is a SQLite file path or postgres://user@host/database (write ./${raw.slice(0, 40)} for a file of that name)`,
      { catalog: maskUrlText(raw) },
    );
  }
  return path.resolve(base, raw);
}

/**
 * A PostgreSQL URL as skilldex carries it: the password (from the URL, or from `passwordFile`)
 * replaced by `***` and remembered for `connectionString`. BAD_ARGUMENT for a URL that does not
 * parse. Other URLs and file paths are returned as they are.
 */
export function catalogLocation(raw: string, passwordFile?: string): string {
  if (!isPgLocation(raw)) return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `the catalog URL ${maskUrlText(raw)} is not a valid postgres:// URL`,
      { catalog: maskUrlText(raw) },
    );
  }
  let password =
    url.password !== '' && url.password !== MASK ? decodeURIComponent(url.password) : undefined;
  if (passwordFile !== undefined) {
    try {
      password = readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
    } catch (err) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `--password-file ${passwordFile} cannot be read: ${(err as Error).message}`,
        { file: passwordFile },
        { cause: err },
      );
    }
  }
  if (password === undefined) return url.toString();
  url.password = MASK;
  const masked = url.toString();
  passwords.set(masked, password);
  return masked;
}

/**
 * The libpq connection string for a location from `catalogLocation` (the password put back), with
 * a 5-second connect timeout unless the URL sets one.
 */
export function connectionString(location: string): string {
  const url = new URL(location);
  const password = passwords.get(location);
  if (password !== undefined) url.password = encodeURIComponent(password);
  else if (url.password === MASK) url.password = '';
  if (!url.searchParams.has('connect_timeout')) url.searchParams.set('connect_timeout', '5');
  if (!url.searchParams.has('application_name'))
    url.searchParams.set('application_name', 'skilldex');
  return url.toString();
}

/** `text` with anything that looks like a URL password replaced by `***` (for error messages). */
export function maskUrlText(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/*[^:/@\s]*:)[^@\s]*@/gi, `$1${MASK}@`);
}
