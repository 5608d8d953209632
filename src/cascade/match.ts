/**
 * Matching and ranking at one cascade node (docs/cascade.md "The crawl", steps 4–6). Both sides are
 * case-folded; an entry is a hit when the need is a substring of its key or of one of its
 * keywords. A self entry or a leaf outranks a descent-marked entry; the overlay only breaks ties
 * among equally ranked hits and never adds one. Pure: no I/O.
 */
import { SkilldexError } from '../errors.js';
import {
  boundedEditDistance,
  compareStrings,
  distinctContentTokens,
  fold,
  tokenize,
} from '../text/index.js';
import { splitKeywords, type ScannedEntry } from './index-file.js';
import { overlayScore } from './overlay.js';

/** A need prepared once per crawl: its folded text and the tokens the overlay scores with. */
export interface PreparedNeed {
  /** The need as given, trimmed. */
  readonly text: string;
  /** Case-folded (NFKC, lower case): what entries are matched against. */
  readonly folded: string;
  /** Distinct content tokens (all tokens when every one is a stop-word): for overlay scores. */
  readonly tokens: readonly string[];
  /** A case-insensitive pattern of the folded need, when it is ASCII: a prefilter for ASCII lines. */
  readonly asciiPattern?: RegExp;
}

const ASCII_RE = /^[\x00-\x7f]*$/;

/** Case-folds `text` as `fold` does; ASCII takes a fast path with the same result (NFKC leaves it as is). */
export function foldText(text: string): string {
  return ASCII_RE.test(text) ? text.toLowerCase() : fold(text);
}

/**
 * Longest need accepted, in characters (after trimming). A need is matched as a substring of one
 * key or keyword line; 1,000 characters is far past any real keyword, and it bounds the
 * case-insensitive pattern built from the need (V8 refuses patterns of some hundred thousand
 * escaped characters with a SyntaxError).
 */
export const MAX_NEED_CHARS = 1_000;

/** Prepares a need; throws INVALID_QUERY when it is empty after trimming or over MAX_NEED_CHARS. */
export function prepareNeed(need: string): PreparedNeed {
  const text = need.trim();
  if (text === '')
    throw new SkilldexError('INVALID_QUERY', 'the need is empty: give the words to look for', {
      need,
    });
  if (text.length > MAX_NEED_CHARS)
    throw new SkilldexError(
      'INVALID_QUERY',
      `the need is ${text.length} characters, over the limit of ${MAX_NEED_CHARS}: give the words to look for`,
      { need_chars: text.length, max: MAX_NEED_CHARS },
    );
  const content = distinctContentTokens(text);
  const folded = foldText(text);
  return {
    text,
    folded,
    tokens: content.length > 0 ? content : [...new Set(tokenize(text))],
    ...(ASCII_RE.test(folded)
      ? { asciiPattern: new RegExp(folded.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'), 'i') }
      : {}),
  };
}

/**
 * True when the folded need is a substring of the entry's folded key or of one of its keywords.
 * `asciiText`: the index the entry comes from is pure ASCII (the caller checked its bytes once).
 */
export function entryHits(entry: ScannedEntry, need: PreparedNeed, asciiText = false): boolean {
  if (foldText(entry.key).includes(need.folded)) return true;
  if (asciiText) {
    // ASCII folds character by character, so a keyword holds the need exactly when the keyword text
    // holds it, case aside, inside one comma-free stretch. A trimmed need without a comma can only
    // match inside one stretch: one search of the line then answers for every keyword on it, and a
    // descent that lists every name below it is never split.
    if (need.asciiPattern === undefined || !need.asciiPattern.test(entry.keywordText)) return false;
    if (!need.folded.includes(',')) return true;
  }
  return splitKeywords(entry.keywordText).some((k) => foldText(k).includes(need.folded));
}

/** Rank of an entry: 0 for a self entry or a leaf, 1 for a descent (lower wins). */
export function rankOf(entry: ScannedEntry): 0 | 1 {
  return entry.kind === 'descent' ? 1 : 0;
}

/** The hits among `entries` that share the best rank, in file order. */
export function bestHits<E extends ScannedEntry>(
  entries: readonly E[],
  need: PreparedNeed,
  asciiText = false,
): E[] {
  let best: E[] = [];
  let bestRank = 2;
  for (const e of entries) {
    if (!entryHits(e, need, asciiText)) continue;
    const r = rankOf(e);
    if (r < bestRank) {
      bestRank = r;
      best = [e];
    } else if (r === bestRank) best.push(e);
  }
  return best;
}

/**
 * Breaks a tie with the overlay sections: the hits whose section scores highest survive, but
 * only when that score is above zero. The result is never empty and never adds an entry.
 */
export function breakTie<E extends ScannedEntry>(
  tied: readonly E[],
  sections: ReadonlyMap<string, string>,
  needTokens: readonly string[],
): E[] {
  const scored = tied.map((e) => ({ e, s: overlayScore(needTokens, sections.get(e.key)) }));
  const top = Math.max(...scored.map((x) => x.s));
  if (top <= 0) return [...tied];
  return scored.filter((x) => x.s === top).map((x) => x.e);
}

/** Most entries a `no match` report suggests. */
export const MAX_SUGGESTIONS = 10;

/** An entry of the node a crawl stopped at, offered after `no match`, with its closest word. */
export interface NearEntry<E extends ScannedEntry> {
  readonly entry: E;
  /** The key (descent slash dropped) or keyword of the entry closest to the need, folded. */
  readonly closest: string;
  /** Edit distance of the need to `closest`; 0 when they share a word. */
  readonly distance: number;
}

/**
 * The entries of a node where a need matched nothing, closest first, at most MAX_SUGGESTIONS: for
 * each entry its key or keyword nearest the need (0 when it shares one of the need's words, else
 * the edit distance, bounded by the longer length), ties by key. A suggestion only: matching stays
 * the substring rule.
 */
export function nearEntries<E extends ScannedEntry>(
  entries: readonly E[],
  need: PreparedNeed,
): NearEntry<E>[] {
  const words = new Set(need.tokens);
  const near = entries.map((entry): NearEntry<E> => {
    const texts = [entry.key.replace(/\/$/, ''), ...splitKeywords(entry.keywordText)]
      .map(foldText)
      .filter((t) => t !== '' && t !== '.');
    let best = { closest: texts[0] ?? entry.key, distance: Number.POSITIVE_INFINITY };
    for (const t of texts) {
      const shares = tokenize(t).some((w) => words.has(w));
      const k = Math.max(t.length, need.folded.length);
      const d = shares ? 0 : boundedEditDistance(need.folded, t, k);
      if (d < best.distance || (d === best.distance && t < best.closest))
        best = { closest: t, distance: d };
    }
    return { entry, ...best };
  });
  near.sort((a, b) => a.distance - b.distance || compareStrings(a.entry.key, b.entry.key));
  return near.slice(0, MAX_SUGGESTIONS);
}
