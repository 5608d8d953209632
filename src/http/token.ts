/**
 * The bearer token of an HTTP server (`mcp --http`, `serve`): read from a token file or from an
 * environment variable, with one set of rules for both servers (issue 26). A token file is read
 * once, size-capped, as a regular file only, and refused when its group or others may read or
 * write it or when another user owns it, as ssh refuses an unprotected private key
 * (`UNSAFE_PERMISSIONS`, naming the file and its mode). The token is the file's first line,
 * trimmed, at least MIN_TOKEN_CHARS characters. Never prints or logs a token.
 */
import { SkilldexError } from '../errors.js';
import { readTextCapped } from '../fsx/index.js';

/** Shortest token accepted, in characters: a short token can be guessed (16 hex digits = 64 bits). */
export const MIN_TOKEN_CHARS = 16;

/** Largest token file read: 4 KiB (a token is one short line). */
export const MAX_TOKEN_FILE_BYTES = 4_096;

/** Where a token is read from: a file named by an option, else an environment variable. */
export interface TokenSource {
  /** The token file (absolute or relative to the working folder already resolved). */
  readonly file?: string | undefined;
  /** The option that named the file, for messages (`--token-file`). */
  readonly option: string;
  /** The environment variable's name and value. */
  readonly envName: string;
  readonly envValue?: string | undefined;
  /** The user id this process runs as (`process.getuid()`); undefined skips the owner check. */
  readonly uid?: number | undefined;
}

/**
 * The token of `source`: the first line of its file, else its environment variable, else
 * undefined (no token). FILE_NOT_FOUND, NOT_A_FILE or UNSAFE_PERMISSIONS for a file that cannot be
 * used; INVALID_ARGUMENT for an empty token or one under MIN_TOKEN_CHARS.
 */
export function readToken(source: TokenSource): string | undefined {
  if (source.file !== undefined) return readTokenFile(source.file, source.option, source.uid);
  const env = source.envValue?.trim();
  if (env === undefined || env === '') return undefined;
  return checkLength(env, source.envName);
}

/** The token in the first line of `file` (see the file header for the rules). */
export function readTokenFile(file: string, option: string, uid?: number): string {
  const details = { option, file };
  const r = readTextCapped(file, { maxBytes: MAX_TOKEN_FILE_BYTES, label: file });
  if (!r.ok) {
    const code = r.problem.code;
    if (code === 'NOT_A_FILE')
      throw new SkilldexError('NOT_A_FILE', `${option} ${file} is not a regular file`, details);
    if (code === 'UNREADABLE' && /ENOENT/.test(r.problem.message))
      throw new SkilldexError('FILE_NOT_FOUND', `${option} ${file} does not exist`, details);
    throw new SkilldexError(
      code === 'UNREADABLE' ? 'FILE_NOT_FOUND' : 'INVALID_ARGUMENT',
      `${option} ${file}: ${r.problem.message}`,
      details,
    );
  }
  // Group or others may read (or replace) the secret: refused, as ssh refuses such a key.
  if ((r.mode & 0o077) !== 0) {
    const mode = (r.mode & 0o777).toString(8).padStart(4, '0');
    throw new SkilldexError(
      'UNSAFE_PERMISSIONS',
      `${option} ${file} has mode ${mode}: a token file must be readable by its owner only (chmod 600 ${file})`,
      { ...details, mode },
    );
  }
  if (uid !== undefined && r.uid !== uid && r.uid !== 0) {
    throw new SkilldexError(
      'UNSAFE_PERMISSIONS',
      `${option} ${file} belongs to another user (uid ${r.uid}): a token file must be yours`,
      { ...details, owner: r.uid },
    );
  }
  const token = (r.text.split(/\r?\n/)[0] ?? '').trim();
  if (token === '')
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `${option} ${file} holds no token on its first line`,
      details,
    );
  return checkLength(token, `${option} ${file}`);
}

function checkLength(token: string, where: string): string {
  if (token.length < MIN_TOKEN_CHARS) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `the token of ${where} is ${token.length} characters; give at least ${MIN_TOKEN_CHARS} (e.g. openssl rand -hex 16)`,
      { option: where, min_chars: MIN_TOKEN_CHARS },
    );
  }
  return token;
}

/**
 * INVALID_ARGUMENT for a token under MIN_TOKEN_CHARS given to a server's library entry point
 * (`serveHttp`, `startExplorer`), naming `option`.
 */
export function assertTokenLength(token: string | undefined, option: string): void {
  if (token !== undefined) checkLength(token, option);
}
