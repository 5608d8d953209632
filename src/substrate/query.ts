/**
 * Classifies a substrate query (docs/substrate.md), pure: `tag:value` is a tag query; text with `/` or
 * `*` is a path glob; anything else is a topic, reduced to its terms (case-folded tokens,
 * stop-words out, Porter-stemmed, distinct). A query that cannot mean anything is refused with
 * INVALID_QUERY rather than answered with nothing.
 */
import { SkilldexError } from '../errors.js';
import { contentTokens, fold, stem } from '../text/index.js';
import { parseGlob, type Glob } from './glob.js';
import type { QueryKind } from './types.js';

/** The prefix that makes a query a tag query (matched case-insensitively). */
export const TAG_PREFIX = 'tag:';

/** A classified query. */
export type ParsedQuery =
  | { readonly kind: 'topic'; readonly text: string; readonly terms: readonly string[] }
  | { readonly kind: 'path glob'; readonly text: string; readonly glob: Glob }
  | { readonly kind: 'tag'; readonly text: string; readonly tag: string };

/** The distinct Porter stems of the content tokens of `text`, in first-seen order. */
export function stemTerms(text: string): string[] {
  const out = new Set<string>();
  for (const token of contentTokens(text)) out.add(cachedStem(token));
  return [...out];
}

// Porter stemming dominates the cost of reading bodies (bench/substrate.ts); words repeat a lot
// across entries, so stems are memoised. The cache is a pure function's memo: same answers, and
// it is emptied when it reaches its bound so memory stays flat on any input.
const STEM_CACHE_MAX = 50_000;
const stemCache = new Map<string, string>();

function cachedStem(token: string): string {
  let s = stemCache.get(token);
  if (s === undefined) {
    if (stemCache.size >= STEM_CACHE_MAX) stemCache.clear();
    s = stem(token);
    stemCache.set(token, s);
  }
  return s;
}

/**
 * The near-miss key of a tag: case-folded with every white space removed. Tags match exactly (as
 * written, case and white space included); two tags with one key that are not equal are a near
 * miss (`Security` for `security`), which `--explain` lists so the author can fix the entry.
 */
export function tagNearMissKey(tag: string): string {
  return fold(tag).replace(/\s+/gu, '');
}

/** The kind `query` would be parsed as, without validating it. */
export function queryKindOf(query: string): QueryKind {
  const q = query.trim();
  if (q.toLowerCase().startsWith(TAG_PREFIX)) return 'tag';
  if (q.includes('/') || q.includes('*')) return 'path glob';
  return 'topic';
}

/** Parses `query`; throws INVALID_QUERY for an empty tag, an empty glob or a topic of no terms. */
export function parseQuery(query: string): ParsedQuery {
  const text = query.trim();
  const kind = queryKindOf(text);
  if (kind === 'tag') {
    // The value is taken as typed (around-the-value spaces dropped): matching is exact.
    const tag = text.slice(TAG_PREFIX.length).trim();
    if (tag === '')
      throw new SkilldexError(
        'INVALID_QUERY',
        `query ${JSON.stringify(query)}: tag: needs a value, as in tag:payments`,
        { query },
      );
    return { kind, text, tag };
  }
  if (kind === 'path glob') {
    const parsed = parseGlob(text);
    if (!parsed.ok)
      throw new SkilldexError(
        'INVALID_QUERY',
        `query ${JSON.stringify(query)}: the path glob ${parsed.reason}`,
        { query },
      );
    return { kind, text, glob: parsed.glob };
  }
  const terms = stemTerms(text);
  if (terms.length === 0) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `query ${JSON.stringify(query)} has no words to compare once stop-words are out`,
      { query },
    );
  }
  return { kind, text, terms };
}
