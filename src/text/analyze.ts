/**
 * The term analysis of policy bm25f.v3 (docs/ranking.md §8), used alike for documents at index
 * time and for queries: words are split at identifier boundaries — camelCase (`getWeather` → get,
 * weather), acronym ends (`HTMLParser` → html, parser), letter/digit (`resnet50` → resnet, 50) —
 * and a word that splits also keeps its whole folded form (`getweather`, `resnet50`), so both the
 * parts and the identifier as written match. Underscores, hyphens and dots already separate
 * tokens (tokenize.ts). English stop-words are dropped; each term is its Porter stem. Pure.
 */
import { fold } from './normalize.js';
import { stem } from './stem.js';
import { isStopWord } from './stop-words.js';

// The raw words, before folding, so case boundaries are still visible.
const WORD_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
const PART_RE = /[\p{L}\p{N}][\p{L}\p{M}\p{N}]*/gu;
// A word can split only where a capital follows another letter or a digit meets a letter.
const NEEDS_SPLIT_RE = /.[\p{Lu}\p{Lt}]|\p{N}/u;
const EMOJI_MARK_RE = /[\uFE00-\uFE0F\p{Me}\u{E0100}-\u{E01EF}]/gu;

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

/** The v3 terms of `text`: identifier tokens, stop-words out, each as its Porter stem, in order. */
export function analyzeTerms(text: string): string[] {
  const out: string[] = [];
  for (const t of identifierTokens(text)) if (!isStopWord(t)) out.push(stem(t));
  return out;
}
