/**
 * The explorer page's link validator (issue 15): a link from a skill's text keeps its target only
 * when it is http(s), mailto, or a relative path or fragment on this page. `javascript:`,
 * `data:`, `vbscript:`, `file:` and anything else become plain text. Pure, so unit tests run it.
 */

/** Schemes a link from skill text may use. */
const SAFE_SCHEMES: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:']);

/** The href to keep for `raw`, or undefined when the link must not be followable. */
export function safeHref(raw: string): string | undefined {
  // Browsers ignore control characters and whitespace inside a scheme ("java\tscript:"): so do we.
  const compact = raw.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  if (compact === '') return undefined;
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(compact);
  if (scheme) return SAFE_SCHEMES.has(scheme[1]!.toLowerCase() + ':') ? raw.trim() : undefined;
  // No scheme: a path, query or fragment on this server. Protocol-relative "//host" leaves it.
  if (compact.startsWith('//') || compact.startsWith('\\\\') || compact.startsWith('/\\'))
    return undefined;
  return raw.trim();
}
