/**
 * The one masker of secrets (docs/integration.md §7): every way a catalog URL or connection string
 * can carry a password, and the passwords skilldex read itself, replaced by `***` in text that
 * skilldex prints, logs or puts in an error. Every `SkilldexError` masks its message and details
 * at construction, and the CLI's printers, the MCP server's log and the explorer's log pass their
 * text through here, so no printer can forget it.
 *
 * Masked: the password of a URL's user info (`scheme://user:PASS@host`, a slash lost or not); the
 * values of the `password` and `sslpassword` query parameters of a URL, their names
 * percent-encoded or not, in any case (libpq decodes both); the same keys in a libpq
 * `key=value` connection string (`password='a b'`); and every literal occurrence of a secret
 * registered with `registerSecret` (a password read from `--password-file`, `PGPASSWORD`), plain
 * or percent-encoded. Pure apart from that registry; imports nothing, so errors.ts can use it.
 *
 * Limits: a secret registered under MIN_REGISTERED_CHARS characters is masked only where it
 * stands as a URL or key=value password (masking every "ab" in a report would mangle it), and a
 * password typed anywhere else (a skill's text, a query) is not recognised as one.
 */

/** What stands in for a secret. */
export const MASK = '***';

/** Shortest secret masked wherever it appears (see the header's limits). */
export const MIN_REGISTERED_CHARS = 6;

/** Parameter names (lower case, decoded) whose value is a secret in a libpq URL or string. */
export const SECRET_PARAMETERS: ReadonlySet<string> = new Set(['password', 'sslpassword']);

const registered = new Set<string>();

/** Remembers `secret` (a password skilldex read) so that maskSecrets masks it wherever it appears. */
export function registerSecret(secret: string): void {
  if (secret.length >= MIN_REGISTERED_CHARS) registered.add(secret);
}

// What text that may carry a secret holds: a URL's user info or query, or a password key.
const MAYBE_SECRET = /@|:\/\S*[?&]|password/i;
// No pattern crosses a double quote: masking JSON text never eats the quote that ends a string.
// scheme://user:PASSWORD@ — up to the last @ of the authority, a slash of `//` lost or not.
const USERINFO = /([a-z][a-z0-9+.-]*:\/{0,2}[^:/@\s?#"]*:)[^/?#\s"]*@/gi;
// A URL-looking run of text, where query parameters are looked for.
const URL_RUN = /[a-z][a-z0-9+.-]*:\/{1,2}[^\s"'<>`]*/gi;
// One query parameter of a URL run.
const QUERY_PARAM = /([?&])([^=&#\s"]*)=([^&#\s"]*)/g;
// A key=value connection-string secret (values may be single-quoted with \-escapes).
const KEYWORD = /(^|[\s;,(])((?:ssl)?password)(\s*=\s*)('(?:[^'\\"]|\\.)*'?|[^\s;,)"]*)/gi;

/** `text` with every secret it carries replaced by `***` (see the file header). */
export function maskSecrets(text: string): string {
  // Most text carries no URL, no password key and no registered secret: one scan decides.
  if (registered.size === 0 && !MAYBE_SECRET.test(text)) return text;
  let out = text;
  if (out.includes(':')) {
    out = out.replace(USERINFO, `$1${MASK}@`);
    out = out.replace(URL_RUN, (run) =>
      run.replace(QUERY_PARAM, (whole, sep: string, key: string, value: string) =>
        isSecretParameter(key) && value !== MASK ? `${sep}${key}=${MASK}` : whole,
      ),
    );
  }
  if (/password/i.test(out)) {
    out = out.replace(KEYWORD, (whole, lead: string, key: string, eq: string, value: string) =>
      value === '' || value === MASK ? whole : `${lead}${key}${eq}${MASK}`,
    );
  }
  for (const secret of registered) {
    if (out.includes(secret)) out = out.split(secret).join(MASK);
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret && out.includes(encoded)) out = out.split(encoded).join(MASK);
  }
  return out;
}

/** True when a (raw, perhaps percent-encoded) parameter name names a secret. */
export function isSecretParameter(rawKey: string): boolean {
  let key = rawKey;
  try {
    key = decodeURIComponent(rawKey);
  } catch {
    // A malformed escape: compare the raw name.
  }
  return SECRET_PARAMETERS.has(key.toLowerCase());
}

/** `value` with maskSecrets applied to every string in it (arrays and plain objects walked). */
export function maskDeep<T>(value: T): T {
  if (typeof value === 'string') return maskSecrets(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => maskDeep(v)) as T;
  if (
    value !== null &&
    typeof value === 'object' &&
    Object.getPrototypeOf(value) === Object.prototype
  ) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v);
    return out as T;
  }
  return value;
}
