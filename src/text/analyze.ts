/**
 * The term analysis of the BM25F policies (docs/ranking.md §8), used alike for documents at index
 * time and for queries: words are split at identifier boundaries — camelCase (`getWeather` → get,
 * weather), acronym ends (`HTMLParser` → html, parser), letter/digit (`resnet50` → resnet, 50) —
 * and a word that splits also keeps its whole folded form (`getweather`, `resnet50`), so both the
 * parts and the identifier as written match. Underscores, hyphens and dots already separate
 * tokens (tokenize.ts). English stop-words are dropped; each term is its Porter stem. Pure.
 */
import { cjkTerms, hasCjk, separateCjk } from './cjk.js';
import { fold } from './normalize.js';
import { stem } from './stem.js';
import { isStopWord } from './stop-words.js';

// The raw words, before folding, so case boundaries are still visible; a word can split only where
// a capital follows another letter or a digit meets a letter. Made on first use (see below).
interface UnicodeRes {
  readonly word: RegExp;
  readonly part: RegExp;
  readonly needsSplit: RegExp;
  readonly emojiMark: RegExp;
}
let unicodeRes: UnicodeRes | undefined;
const UNICODE = (): UnicodeRes =>
  (unicodeRes ??= {
    word: /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu,
    part: /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu,
    needsSplit: /.[\p{Lu}\p{Lt}]|\p{N}/u,
    emojiMark: /[\uFE00-\uFE0F\p{Me}\u{E0100}-\u{E01EF}]/gu,
  });

// The same rules for text of ASCII characters only (most queries, most names): there \p{L} is
// [A-Za-z], \p{N} [0-9], \p{Lu} [A-Z], \p{Ll} [a-z], \p{M}, \p{Lt} and \p{Me} match nothing,
// and folding is lower-casing. Building and compiling the Unicode property classes above costs a
// fresh process some 2 ms (ICU tables), a good part of a one-shot `search`, so they are made only
// for text that needs them; a property test holds the two paths equal.
const ASCII_ONLY_RE = /^[\x00-\x7f]*$/;
const ASCII_WORD_RE = /[A-Za-z0-9]+/g;
const ASCII_NEEDS_SPLIT_RE = /.[A-Z]|[0-9]/;

/** Splits one raw word at camelCase, acronym and letter/digit boundaries (not folded). */
export function splitIdentifier(word: string): string {
  return word
    .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
    .replace(/(\p{L})(\p{N})/gu, '$1 $2')
    .replace(/(\p{N})(\p{L})/gu, '$1 $2');
}

/**
 * The folded tokens of `text` with identifier splitting, in order, duplicates kept, stop-words
 * kept: for a word that splits, its whole folded form first, then its parts.
 */
export function identifierTokens(text: string): string[] {
  return ASCII_ONLY_RE.test(text) ? asciiIdentifierTokens(text) : unicodeIdentifierTokens(text);
}

/** `identifierTokens` for ASCII text (equal to the general case there: test/text/analyze.test.ts). */
export function asciiIdentifierTokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(ASCII_WORD_RE) ?? []) {
    if (!ASCII_NEEDS_SPLIT_RE.test(word)) {
      out.push(word.toLowerCase());
      continue;
    }
    const parts = word
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/([A-Z])([A-Z][a-z])/g, '$1 $2')
      .replace(/([A-Za-z])([0-9])/g, '$1 $2')
      .replace(/([0-9])([A-Za-z])/g, '$1 $2')
      .toLowerCase()
      .split(' ');
    out.push(word.toLowerCase());
    if (parts.length > 1) out.push(...parts);
  }
  return out;
}

/** `identifierTokens` for any text. */
export function unicodeIdentifierTokens(text: string): string[] {
  const {
    word: WORD_RE,
    part: PART_RE,
    needsSplit: NEEDS_SPLIT_RE,
    emojiMark: EMOJI_MARK_RE,
  } = UNICODE();
  const out: string[] = [];
  for (const word of text.replace(EMOJI_MARK_RE, '').match(WORD_RE) ?? []) {
    // Most words have no boundary to split at (no capital after the first letter, no digit): fold once.
    if (!NEEDS_SPLIT_RE.test(word)) {
      for (const w of fold(word).match(PART_RE) ?? []) out.push(w);
      continue;
    }
    const whole = fold(word);
    const parts = fold(splitIdentifier(word)).match(PART_RE) ?? [];
    if (parts.length > 1) {
      // Folding can itself split a word (NFKC of a ligature or a full-width digit): keep what matches.
      for (const w of whole.match(PART_RE) ?? []) out.push(w);
      out.push(...parts);
    } else {
      for (const w of whole.match(PART_RE) ?? []) out.push(w);
    }
  }
  return out;
}

/** The terms of `text` (no CJK handling): identifier tokens, stop-words out, each as its Porter stem, in order. */
export function analyzeTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of identifierTokens(text)) {
    const term = termOf(t);
    if (term !== null) out.push(term);
  }
  return out;
}

// A folded token's term, or null for a stop-word: one Map lookup for the stop-word test and the
// stem together (a full index of 10,000 generated skills asks for about 1.5 million tokens, of a
// few thousand distinct words). Bounded like stem.ts's memo: cleared whole when full.
const TERMS = new Map<string, string | null>();
const TERMS_LIMIT = 200_000;

/** A folded token's term (its Porter stem), or null for a stop-word; memoised. */
export function termOf(token: string): string | null {
  let term = TERMS.get(token);
  if (term === undefined) {
    term = isStopWord(token) ? null : stem(token);
    if (TERMS.size >= TERMS_LIMIT) TERMS.clear();
    TERMS.set(token, term);
  }
  return term;
}

/**
 * The terms of policy bm25f.v4 (docs/ranking.md §10): v3's terms, except that each run of Han or
 * kana is cut out of its token and becomes its character bigrams (cjk.ts); the letters and digits
 * around it are words of their own, analysed as v3 analyses them. Text without CJK characters gets
 * exactly v3's terms.
 */
export function analyzeTermsV4(text: string): string[] {
  if (!hasCjk(text)) return analyzeTerms(text);
  const out: string[] = [];
  for (const t of identifierTokens(separateCjk(text))) {
    if (hasCjk(t)) out.push(...cjkTerms(t));
    else {
      const term = termOf(t);
      if (term !== null) out.push(term);
    }
  }
  return out;
}
