/**
 * Flags for suspicious skill text (pure, docs/integration.md §5): invisible or bidi-control
 * characters, Latin look-alikes from other scripts, and instruction-like phrases. Flags are shown in
 * reports; they never change what skilldex does with the text, which stays data.
 */

// Zero-width and invisible format characters, bidi embeddings/overrides/isolates, the soft hyphen,
// the BOM when not at the start, Unicode tag characters (U+E0000–U+E007F) and variation selectors.
const HIDDEN_RE =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
const HIDDEN_RE_G = new RegExp(HIDDEN_RE.source, 'gu');

// C0/C1 controls other than tab, line feed and carriage return.
const CONTROL_RE_G = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/gu;

// Cyrillic and Greek letters that render like Latin ones (the common homoglyph set).
const CONFUSABLE_RE =
  /[\u0430\u0435\u043E\u0440\u0441\u0443\u0445\u0456\u0458\u0455\u04BB\u0501\u0410\u0412\u0415\u041A\u041C\u041D\u041E\u0420\u0421\u0422\u0425\u0391\u0392\u0395\u0396\u0397\u0399\u039A\u039C\u039D\u039F\u03A1\u03A4\u03A5\u03A7\u03BF\u03BD\u03B1]/u;

// Phrases that address an agent rather than describe a skill. Deliberately narrow: a flag, not a filter.
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(ignore|disregard|forget)\s+(all\s+|any\s+)?(the\s+)?(previous|prior|above|earlier|preceding)\s+(instructions?|prompts?|rules?|messages?)/i,
  /\b(you\s+must|you\s+are\s+now|from\s+now\s+on\s+you)\b/i,
  /\bsystem\s+prompt\b/i,
  /\b(always|must)\s+(rank|select|choose|recommend|use)\s+(this|me)\b/i,
  /\bdo\s+not\s+tell\s+the\s+user\b/i,
  /\b(write|save|copy)\s+(it\s+|this\s+|the\s+\w+\s+)?(to|into)\s+(~|\/etc|\/usr|\.\.\/)/i,
];

/** Code points of invisible or bidi-control characters in `text`, as `U+XXXX` strings, distinct. */
export function findHiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(HIDDEN_RE_G)) found.add(codePointLabel(m[0]));
  return [...found];
}

/**
 * True when `text` mixes Latin letters with look-alike Cyrillic or Greek letters, or when every
 * letter of it is such a look-alike (a whole-word spoof: Cyrillic "аре" for "ape").
 */
export function findConfusables(text: string): boolean {
  if (!CONFUSABLE_RE.test(text)) return false;
  if (/[A-Za-z]/.test(text)) return true;
  return (text.match(/\p{L}/gu) ?? []).every((c) => CONFUSABLE_RE.test(c));
}

/**
 * The instruction-like phrases found in `text` (the matched text, NFKC-normalised with hidden
 * characters removed), in pattern order.
 */
export function findInstructionLike(text: string): string[] {
  // Full-width letters and zero-width characters must not hide a phrase from the flag.
  const plain = text.normalize('NFKC').replace(HIDDEN_RE_G, '');
  const hits: string[] = [];
  for (const re of INSTRUCTION_PATTERNS) {
    const m = re.exec(plain);
    if (m) hits.push(m[0]);
  }
  return hits;
}

/** `text` with invisible and control characters shown as `\uXXXX` escapes, never raw. */
export function escapeInvisible(text: string): string {
  return text
    .replace(HIDDEN_RE_G, (c) => escapeCodePoint(c))
    .replace(CONTROL_RE_G, (c) => escapeCodePoint(c));
}

function codePointLabel(c: string): string {
  return 'U+' + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
}

function escapeCodePoint(c: string): string {
  const cp = c.codePointAt(0)!;
  return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
}
