/**
 * Tokenizer (pure): folded runs of letters, marks and digits of any script, each starting with a
 * letter or digit. Everything else — spaces, punctuation, hyphens, underscores, dots, slashes,
 * emoji — separates tokens, so `pdf-toolkit`, `pdf_toolkit` and `pdf.toolkit` all give `pdf`,
 * `toolkit`.
 */
import { fold } from './normalize.js';
import { isStopWord } from './stop-words.js';

// A token starts with a letter (\p{L}) or number (\p{N}) of any script; combining marks (\p{M})
// only continue one, so a mark left behind by an emoji can never stand as a token. Variation
// selectors and enclosing marks only dress up emoji (❤️, 1️⃣): dropped before matching. Made on
// first use: a Unicode property class costs a fresh process ~0.7 ms to build and compile (ICU
// tables), and ASCII text (most queries) never needs them.
let tokenRe: RegExp | undefined;
let emojiMarkRe: RegExp | undefined;

// For ASCII text the same rules are plain classes: \p{L}\p{N} is [A-Za-z0-9], no ASCII character
// is a mark, and folding is lower-casing (NFKC leaves ASCII as it is).
const ASCII_ONLY_RE = /^[\x00-\x7f]*$/;
const ASCII_TOKEN_RE = /[a-z0-9]+/g;

/** Splits `text` into folded tokens, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  return ASCII_ONLY_RE.test(text) ? asciiTokenize(text) : unicodeTokenize(text);
}

/** `tokenize` for ASCII text (equal to the general case there: test/text/analyze.test.ts). */
export function asciiTokenize(text: string): string[] {
  return text.toLowerCase().match(ASCII_TOKEN_RE) ?? [];
}

/** `tokenize` for any text. */
export function unicodeTokenize(text: string): string[] {
  tokenRe ??= /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
  emojiMarkRe ??= /[\uFE00-\uFE0F\p{Me}\u{E0100}-\u{E01EF}]/gu;
  return fold(text).replace(emojiMarkRe, '').match(tokenRe) ?? [];
}

/** Tokens of `text` with English stop-words removed, in order, duplicates kept. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !isStopWord(t));
}

/** Distinct content tokens of `text`, in first-seen order. */
export function distinctContentTokens(text: string): string[] {
  return [...new Set(contentTokens(text))];
}
