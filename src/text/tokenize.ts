/**
 * Tokenizer (pure): folded runs of letters, marks and digits of any script, each starting with a
 * letter or digit. Everything else — spaces, punctuation, hyphens, underscores, dots, slashes,
 * emoji — separates tokens, so `pdf-toolkit`, `pdf_toolkit` and `pdf.toolkit` all give `pdf`,
 * `toolkit`.
 */
import { fold } from './normalize.js';
import { isStopWord } from './stop-words.js';

// A token starts with a letter (\p{L}) or number (\p{N}) of any script; combining marks (\p{M})
// only continue one, so a mark left behind by an emoji can never stand as a token.
const TOKEN_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
// Variation selectors and enclosing marks only dress up emoji (❤️, 1️⃣): dropped before matching.
const EMOJI_MARK_RE = /[\uFE00-\uFE0F\p{Me}\u{E0100}-\u{E01EF}]/gu;

/** Splits `text` into folded tokens, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  return fold(text).replace(EMOJI_MARK_RE, '').match(TOKEN_RE) ?? [];
}

/** Tokens of `text` with English stop-words removed, in order, duplicates kept. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !isStopWord(t));
}

/** Distinct content tokens of `text`, in first-seen order. */
export function distinctContentTokens(text: string): string[] {
  return [...new Set(contentTokens(text))];
}
