/**
 * Tokenizer (pure): folded runs of letters, marks and digits of any script. Everything else —
 * spaces, punctuation, hyphens, underscores, dots, slashes — separates tokens, so `pdf-toolkit`,
 * `pdf_toolkit` and `pdf.toolkit` all give `pdf`, `toolkit`.
 */
import { fold } from './normalize.js';
import { isStopWord } from './stop-words.js';

// Letters (\p{L}), combining marks (\p{M}) and numbers (\p{N}) of any script.
const TOKEN_RE = /[\p{L}\p{M}\p{N}]+/gu;

/** Splits `text` into folded tokens, in order, duplicates kept. */
export function tokenize(text: string): string[] {
  return fold(text).match(TOKEN_RE) ?? [];
}

/** Tokens of `text` with English stop-words removed, in order, duplicates kept. */
export function contentTokens(text: string): string[] {
  return tokenize(text).filter((t) => !isStopWord(t));
}

/** Distinct content tokens of `text`, in first-seen order. */
export function distinctContentTokens(text: string): string[] {
  return [...new Set(contentTokens(text))];
}
