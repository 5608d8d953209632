/**
 * English stemming (pure): the Porter algorithm from the `stemmer` package (wooorm, MIT), the
 * same family as SQLite FTS5's `porter` tokenizer, so stems computed here meet the catalog's.
 */
import { stemmer } from 'stemmer';

/** The Porter stem of one folded token; tokens with digits or non-Latin letters pass unchanged. */
export function stem(token: string): string {
  return /^[a-z]+$/.test(token) ? stemmer(token) : token;
}
