/**
 * Query handling (docs/ranking.md §1): user text becomes distinct folded content tokens,
 * and tokens become an FTS5 expression through one quoting function, so `NOT`, `NEAR(`, `"`, `*`,
 * `^`, `-`, `:` and parentheses are plain words and never FTS5 syntax.
 */
import { SkilldexError } from '../../errors.js';
import { sha256Of } from '../../fsx/index.js';
import { contentTokens, fold } from '../../text/index.js';
import { SHARED, isQueryNoise } from './policies/shared.js';

/** Longest query accepted, in characters (longer text is refused, not truncated silently). */
export const MAX_QUERY_CHARS = 65_536;

/**
 * The distinct content tokens of `query` (folded, stop-words out), in query order, at most
 * MAX_QUERY_TOKENS. INVALID_QUERY when the query is not a string, is too long, or has no
 * searchable word (empty, only punctuation or emoji, only stop-words).
 */
export function queryTokens(query: unknown): string[] {
  if (typeof query !== 'string') {
    throw new SkilldexError('INVALID_QUERY', 'query must be a string', { query: String(query) });
  }
  if (query.length > MAX_QUERY_CHARS) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `query is ${query.length} characters, over the limit of ${MAX_QUERY_CHARS}`,
      {
        length: query.length,
      },
    );
  }
  const content = [...new Set(contentTokens(query))];
  const signal = content.filter((t) => !isQueryNoise(t));
  // A query made only of filler or numbers still searches for what it has.
  const tokens = (signal.length > 0 ? signal : content).slice(0, SHARED.MAX_QUERY_TOKENS);
  if (tokens.length === 0) throw noSearchableWord(query);
  return tokens;
}

/**
 * INVALID_QUERY for a query with no word left to search for, with a hint for its case:
 * `details.reason` is `stop-words` when it has letters or digits that are all stop-words ("the a
 * of"), else `no-words` (empty, punctuation or emoji only).
 */
export function noSearchableWord(query: string): SkilldexError {
  const stopWords = /[\p{L}\p{N}]/u.test(query);
  return new SkilldexError(
    'INVALID_QUERY',
    stopWords
      ? `query ${JSON.stringify(query.slice(0, 80))} has only stop-words (words like the, a, of that say nothing about a task)`
      : `query ${JSON.stringify(query.slice(0, 80))} has no searchable word (no letter or digit)`,
    { query: query.slice(0, 200), reason: stopWords ? 'stop-words' : 'no-words' },
    stopWords
      ? { hint: 'add the words that say what the task is about, e.g. "extract tables from a pdf"' }
      : {},
  );
}

/** Quotes one term for FTS5: a double-quoted string with inner quotes doubled. */
export function quoteFts(term: string): string {
  return '"' + term.replace(/"/g, '""') + '"';
}

/** An FTS5 OR expression over `terms`, each quoted. */
export function ftsOr(terms: readonly string[]): string {
  return terms.map(quoteFts).join(' OR ');
}

/** A stable hash of a query for telemetry (the text itself is never stored). */
export function queryHash(query: string): string {
  return sha256Of(fold(query).trim());
}
