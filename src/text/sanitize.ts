/**
 * One sanitiser for every rendering of text a skill author — or another client — controls (names,
 * descriptions, versions, keywords, paths, file names, learned requests): skill text is data, never
 * markup and never terminal control (docs/integration.md §5, §7). Pure.
 *
 * Text renderings (`sanitizeField`, `sanitizeBlock`) neutralise, shown as `\n`, `\r`, `\t` or
 * `\uXXXX` / `\u{XXXXX}`, never emitted raw: C0 and C1 controls (ESC, so every ANSI CSI and OSC
 * sequence, BEL, DEL), bidi embeddings, overrides and isolates (U+202A–202E, U+2066–2069,
 * U+200E/200F, U+061C), Unicode TAG characters (U+E0000–E007F), zero-width and other invisible
 * format characters, and the line and paragraph separators U+2028/2029. A backslash is left as is:
 * it cannot start a terminal sequence.
 *
 * JSON output (`jsonText`: `--json`, MCP messages, the explorer's API) keeps the exact data but
 * writes every one of those characters as a JSON `\uXXXX` escape (astral ones as a surrogate
 * pair), so the bytes on the wire hold no raw control, bidi or TAG character and a parser gets the
 * same string back. (Secrets are masked where they enter, src/secrets.ts: JSON carries exact data,
 * such as a fetched body, and is never rewritten for them.)
 */
// The hidden set of flags.ts (zero-width, bidi, tags, variation selectors…) plus every C0/C1
// control and the Unicode line separators.
const UNSAFE_RE =
  /[\u0000-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
// The same without line feed and tab, for multi-line blocks.
const UNSAFE_BLOCK_RE_G =
  /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/**
 * Default cap of one field in a text rendering: 300 characters (after escaping), enough for a
 * description line and a long path, short enough that no field floods a terminal or a model's context.
 */
export const MAX_FIELD_CHARS = 300;

/** Marker appended to a field cut at its cap. */
export const CUT_MARK = '…';

/**
 * `text` as one safe line: every unsafe character escaped, then cut to `maxChars` characters
 * (default MAX_FIELD_CHARS) with `…` appended when cut. An escape is never split by the cut.
 */
export function sanitizeField(text: string, maxChars: number = MAX_FIELD_CHARS): string {
  if (text.length <= maxChars && !UNSAFE_RE.test(text)) return text;
  // Escaping only lengthens text, so the first maxChars + 1 raw characters decide the output.
  const head = text.length > maxChars ? text.slice(0, maxChars + 1) : text;
  const pieces: string[] = [];
  let total = 0;
  for (const ch of head) {
    const piece = UNSAFE_RE.test(ch) ? escapeChar(ch) : ch;
    pieces.push(piece);
    total += piece.length;
  }
  if (total <= maxChars && head.length === text.length) return pieces.join('');
  // Cut between whole pieces (never inside an escape or a surrogate pair), leaving room for the mark.
  let out = '';
  for (const piece of pieces) {
    if (out.length + piece.length > maxChars - CUT_MARK.length) break;
    out += piece;
  }
  return out + CUT_MARK;
}

/**
 * `text` as a safe multi-line block (a fetched body): line feeds and tabs kept, every other unsafe
 * character escaped (a lone carriage return included). Not capped.
 */
export function sanitizeBlock(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(UNSAFE_BLOCK_RE_G, escapeChar);
}

function escapeChar(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}

// The unsafe set without C0 controls, which JSON.stringify escapes already (and whose line feed and
// spaces outside strings are the pretty-printer's layout).
const UNSAFE_JSON_RE_G =
  /[\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/gu;

/**
 * `value` as JSON text (`JSON.stringify` with `space`), every character `sanitizeField` escapes
 * written as a JSON `\uXXXX` escape: valid JSON, exactly the same data when parsed, no raw
 * control, bidi or TAG character in the bytes.
 */
export function jsonText(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) as string | undefined;
  // These characters can only stand inside strings, where an escape means the same character.
  return text === undefined ? 'null' : text.replace(UNSAFE_JSON_RE_G, jsonEscape);
}

function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}
