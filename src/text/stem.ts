/**
 * English stemming (pure): the Porter algorithm from the `stemmer` package (wooorm, MIT), the
 * same family as SQLite FTS5's `porter` tokenizer, so stems computed here meet the catalog's.
 */
import { stemmer } from 'stemmer';

// Stems are asked for the same few thousand words over and over (every skill at publish time,
// every query): a bounded memo halves publish time. Cleared whole when full, so memory stays bounded.
const MEMO = new Map<string, string>();
const MEMO_LIMIT = 200_000;

/** The Porter stem of one folded token; tokens with digits or non-Latin letters pass unchanged. */
export function stem(token: string): string {
  let s = MEMO.get(token);
  if (s === undefined) {
    s = /^[a-z]+$/.test(token) ? stemmer(token) : token;
    if (MEMO.size >= MEMO_LIMIT) MEMO.clear();
    MEMO.set(token, s);
  }
  return s;
}
