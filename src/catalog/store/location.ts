/**
 * Where a catalog lives: a SQLite file path, or a PostgreSQL URL (`postgres://` or
 * `postgresql://`). A URL's secrets never travel with it: `catalogLocation` takes the user-info
 * password and the `password` / `sslpassword` parameters out (into this module's memory, keyed by
 * the masked URL) and returns the URL with `***` in their place, so every message, `config` line
 * and JSON field that names the catalog is safe to print. Only `connectionString` puts them back,
 * for libpq.
 *
 * A URL may carry only the libpq parameters of PG_URL_PARAMETERS (docs/deploy.md): anything else
 * (`service`, `client_encoding`, `replication`…) is INVALID_ARGUMENT naming the parameter, and
 * `options` only as `-c search_path=NAME` (one schema) and `-c statement_timeout=N`, which every
 * connection then sets itself (pg.ts) rather than letting libpq pass server options on. The URL is kept
 * byte for byte as the user wrote it: parameters are never re-encoded (`%20` stays `%20`).
 */
import path from 'node:path';
import { statSync } from 'node:fs';
import { SkilldexError } from '../../errors.js';
import { readTextCapped } from '../../fsx/index.js';
import { MASK, isSecretParameter, maskSecrets, registerSecret } from '../../secrets.js';

const PG_URL = /^postgres(?:ql)?:\/\//i;
// Text that starts like a URL: a scheme of two or more characters and a colon (one letter and a
// colon is a Windows drive). Treated as a path, `postgres:/host/db` (one slash lost) would become
// a SQLite file in a new folder named `postgres:`.
const URL_LIKE = /^[a-z][a-z0-9+.-]+:/i;
export { MASK };

/**
 * The libpq parameters a catalog URL may carry (libpq "Parameter Key Words",
 * https://www.postgresql.org/docs/current/libpq-connect.html#LIBPQ-PARAMKEYWORDS): where to
 * connect, who as, how long to wait, and TLS. `options` is accepted only as `-c search_path=NAME`.
 */
export const PG_URL_PARAMETERS: readonly string[] = Object.freeze([
  'host',
  'hostaddr',
  'port',
  'dbname',
  'user',
  'password',
  'passfile',
  'require_auth',
  'channel_binding',
  'connect_timeout',
  'options',
  'application_name',
  'keepalives',
  'keepalives_idle',
  'keepalives_interval',
  'keepalives_count',
  'tcp_user_timeout',
  'target_session_attrs',
  'load_balance_hosts',
  'sslmode',
  'sslnegotiation',
  'sslcompression',
  'sslcert',
  'sslkey',
  'sslpassword',
  'sslcertmode',
  'sslrootcert',
  'sslcrl',
  'sslcrldir',
  'sslsni',
  'requirepeer',
  'ssl_min_protocol_version',
  'ssl_max_protocol_version',
  'gssencmode',
  'krbsrvname',
  'gsslib',
  'gssdelegation',
]);

/**
 * Connection defaults skilldex adds when the URL does not set them (docs/deploy.md): a 5 s connect
 * timeout; TCP keepalives after 10 s idle, every 5 s, 3 unanswered probes (a peer that vanished is
 * noticed in about 25 s while waiting); and a 15 s `tcp_user_timeout`, after which data the server
 * never acknowledged drops the connection. Each is overridable in the URL.
 */
export const PG_CONNECTION_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  connect_timeout: '5',
  application_name: 'skilldex',
  keepalives: '1',
  keepalives_idle: '10',
  keepalives_interval: '5',
  keepalives_count: '3',
  tcp_user_timeout: '15000',
});

/** The schema a catalog URL names when it names none. */
export const DEFAULT_PG_SCHEMA = 'public';

/** The secrets taken out of one masked URL: the user-info password and secret parameters, as written. */
interface UrlSecrets {
  /** The user-info password, percent-encoded as it goes into the URL. */
  readonly userinfo?: string;
  /** Raw (encoded) values of secret parameters, by their position among the parameters. */
  readonly params: ReadonlyMap<number, string>;
}

// Masked URL -> its secrets, for this process only.
const secrets = new Map<string, UrlSecrets>();

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

/** A URL cut into the pieces skilldex rewrites, each kept as written. */
interface UrlParts {
  /** `scheme://` */
  readonly scheme: string;
  /** User name (before `:` in the user info), or undefined without user info. */
  readonly user: string | undefined;
  /** The user-info password as written (percent-encoded), or undefined. */
  readonly password: string | undefined;
  /** Host, port and path, up to the query. */
  readonly rest: string;
  /** Query parameters as written: name and value (undefined for a bare name). */
  readonly params: readonly (readonly [string, string | undefined])[];
  /** `#fragment`, or ''. */
  readonly hash: string;
}

function splitUrl(raw: string): UrlParts {
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(raw)![0];
  let body = raw.slice(scheme.length);
  const hashAt = body.indexOf('#');
  const hash = hashAt < 0 ? '' : body.slice(hashAt);
  if (hashAt >= 0) body = body.slice(0, hashAt);
  const queryAt = body.indexOf('?');
  const query = queryAt < 0 ? '' : body.slice(queryAt + 1);
  if (queryAt >= 0) body = body.slice(0, queryAt);
  // The user info ends at the last @ before the path (libpq reads it the same way).
  const pathAt = body.indexOf('/');
  const authority = pathAt < 0 ? body : body.slice(0, pathAt);
  const at = authority.lastIndexOf('@');
  let user: string | undefined;
  let password: string | undefined;
  if (at >= 0) {
    const info = authority.slice(0, at);
    const colon = info.indexOf(':');
    user = colon < 0 ? info : info.slice(0, colon);
    password = colon < 0 ? undefined : info.slice(colon + 1);
    body = body.slice(at + 1);
  }
  const params =
    query === ''
      ? []
      : query
          .split('&')
          .filter((p) => p !== '')
          .map((p) => {
            const eq = p.indexOf('=');
            return eq < 0
              ? ([p, undefined] as const)
              : ([p.slice(0, eq), p.slice(eq + 1)] as const);
          });
  return { scheme, user, password, rest: body, params, hash };
}

function joinUrl(p: UrlParts): string {
  const info =
    p.user === undefined ? '' : `${p.user}${p.password !== undefined ? `:${p.password}` : ''}@`;
  const query = p.params.map(([k, v]) => (v === undefined ? k : `${k}=${v}`)).join('&');
  return `${p.scheme}${info}${p.rest}${query === '' ? '' : `?${query}`}${p.hash}`;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** What a catalog URL's `options` may set: the schema and the statement timeout, nothing else. */
export interface PgSession {
  /** The schema every connection pins, as an SQL identifier (default `public`). */
  readonly schema: string;
  /** `statement_timeout` in ms, when the URL sets one. */
  readonly statementTimeoutMs?: number;
}

// One `-c name=value` of `options`; the value a plain or double-quoted word.
const OPTION_SETTING = /-c\s*([A-Za-z_]+)\s*=\s*("(?:[^"]|"")+"|[^\s"]+)/g;
const IDENTIFIER = /^(?:[A-Za-z_][A-Za-z0-9_$]*|"(?:[^"]|"")+")$/;
const DURATION = /^(\d{1,9})(ms|s|min)?$/;

// The settings of an `options` value, or undefined when it holds anything else.
function parseOptions(value: string): { schema?: string; statementTimeoutMs?: number } | undefined {
  const out: { schema?: string; statementTimeoutMs?: number } = {};
  let rest = value;
  for (const m of value.matchAll(OPTION_SETTING)) {
    rest = rest.replace(m[0], '');
    const [, name, v] = m as unknown as [string, string, string];
    if (name === 'search_path' && IDENTIFIER.test(v)) out.schema = v;
    else if (name === 'statement_timeout' && DURATION.test(v)) {
      const [, n, unit] = DURATION.exec(v)!;
      out.statementTimeoutMs = Number(n) * (unit === 's' ? 1_000 : unit === 'min' ? 60_000 : 1);
    } else return undefined;
  }
  return rest.trim() === '' ? out : undefined;
}

/**
 * A PostgreSQL URL as skilldex carries it: its password (user info, or `passwordFile`) and its
 * `password` / `sslpassword` parameters replaced by `***` and remembered for `connectionString`.
 * INVALID_ARGUMENT for a URL that does not parse, a parameter outside PG_URL_PARAMETERS, or
 * `options` other than `-c search_path=NAME`. Other text (a file path) is returned as it is.
 * Idempotent: a masked URL comes back unchanged, its secrets kept.
 */
export function catalogLocation(raw: string, passwordFile?: string): string {
  if (!isPgLocation(raw)) return raw;
  try {
    new URL(raw);
  } catch {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `the catalog URL ${maskUrlText(raw)} is not a valid postgres:// URL`,
      { catalog: maskUrlText(raw) },
    );
  }
  const parts = splitUrl(raw);
  checkParameters(raw, parts);
  let userinfo =
    parts.password !== undefined && parts.password !== '' && parts.password !== MASK
      ? parts.password
      : undefined;
  if (passwordFile !== undefined) userinfo = encodeURIComponent(readPasswordFile(passwordFile));
  const params = new Map<number, string>();
  const masked = parts.params.map(([k, v], i): readonly [string, string | undefined] => {
    if (v === undefined || v === MASK || !isSecretParameter(k)) return [k, v];
    params.set(i, v);
    registerSecret(decoded(v));
    return [k, MASK];
  });
  if (userinfo !== undefined) registerSecret(decoded(userinfo));
  const location = joinUrl({
    ...parts,
    user: userinfo !== undefined ? (parts.user ?? '') : parts.user,
    password: userinfo !== undefined || parts.password === MASK ? MASK : undefined,
    params: masked,
  });
  if (userinfo === undefined && params.size === 0) return location;
  const known = secrets.get(location);
  secrets.set(location, {
    ...(userinfo !== undefined
      ? { userinfo }
      : known?.userinfo !== undefined
        ? { userinfo: known.userinfo }
        : {}),
    params: params.size > 0 ? params : (known?.params ?? params),
  });
  return location;
}

function checkParameters(raw: string, parts: UrlParts): void {
  for (const [k, v] of parts.params) {
    const key = decoded(k).toLowerCase();
    const bad = (why: string): SkilldexError =>
      new SkilldexError('INVALID_ARGUMENT', `the catalog URL ${maskUrlText(raw)}: ${why}`, {
        catalog: maskUrlText(raw),
        parameter: key,
        allowed: PG_URL_PARAMETERS,
      });
    if (!PG_URL_PARAMETERS.includes(key))
      throw bad(
        `the parameter ${JSON.stringify(key)} is not accepted (accepted: ${PG_URL_PARAMETERS.join(', ')})`,
      );
    if (key === 'options' && parseOptions(decoded(v ?? '')) === undefined)
      throw bad(
        'options may only set the schema and the statement timeout, as options=-csearch_path%3DNAME%20-cstatement_timeout%3D5000 (one schema; both are set on every connection)',
      );
  }
}

function readPasswordFile(file: string): string {
  const r = readTextCapped(file, { maxBytes: 64 * 1024, label: file });
  if (!r.ok) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--password-file ${file} cannot be read: ${r.problem.message}`,
      { file, problem: r.problem.code },
    );
  }
  return r.text.replace(/\r?\n$/, '');
}

/**
 * What a catalog URL's `options` sets for every connection: the schema (`-c search_path=NAME`;
 * default `public`) as an SQL identifier — a quoted name as written, an unquoted one folded to
 * lower case, as PostgreSQL folds it — and the statement timeout (`-c statement_timeout=N`, in ms,
 * or with `s` / `min`), when set.
 */
export function pgSessionOf(location: string): PgSession {
  let schema = DEFAULT_PG_SCHEMA;
  let statementTimeoutMs: number | undefined;
  for (const [k, v] of splitUrl(location).params) {
    if (decoded(k).toLowerCase() !== 'options') continue;
    const o = parseOptions(decoded(v ?? ''));
    if (o?.schema !== undefined) schema = o.schema;
    if (o?.statementTimeoutMs !== undefined) statementTimeoutMs = o.statementTimeoutMs;
  }
  return {
    schema: schema.startsWith('"') ? schema : schema.toLowerCase(),
    ...(statementTimeoutMs !== undefined ? { statementTimeoutMs } : {}),
  };
}

/**
 * The libpq connection string for a location from `catalogLocation`: its secrets put back as they
 * were written, `options` left out (pg.ts pins the schema itself), and PG_CONNECTION_DEFAULTS
 * appended for what the URL does not set. Every other byte as the user wrote it.
 */
export function connectionString(location: string): string {
  const parts = splitUrl(catalogLocation(location));
  const kept = secrets.get(catalogLocation(location));
  const names = new Set(parts.params.map(([k]) => decoded(k).toLowerCase()));
  const params = parts.params
    .map(([k, v], i): readonly [string, string | undefined] =>
      kept?.params.has(i) ? [k, kept.params.get(i)] : [k, v],
    )
    .filter(([k]) => decoded(k).toLowerCase() !== 'options');
  for (const [k, v] of Object.entries(PG_CONNECTION_DEFAULTS))
    if (!names.has(k)) params.push([k, encodeURIComponent(v)]);
  const password = kept?.userinfo ?? (parts.password === MASK ? undefined : parts.password);
  return joinUrl({ ...parts, password, params });
}

/**
 * `text` with every secret a URL or connection string can carry replaced by `***` (for error
 * messages): the one masker of src/secrets.ts, under its older name.
 */
export function maskUrlText(text: string): string {
  return maskSecrets(text);
}
