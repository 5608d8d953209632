/**
 * How a BM25F policy reads a request (docs/ranking.md §8, §10): one analyzer configured by the
 * policy's `AnalyzerOptions` (bm25f-core.ts). Words split at identifier boundaries, stop-words out,
 * request filler, bare numbers and single characters out unless nothing else is left (each dropped
 * word listed with its reason), at most MAX_QUERY_TOKENS distinct terms, each word its Porter stem;
 * with `cjkBigrams` a CJK run becomes its character bigrams, with `excludedWords` the words a
 * request excludes ("no video", "不需要 …": text/boundaries.ts) are set apart. Pure; INVALID_QUERY
 * for a request that is not a string, is too long, or has no word left.
 */
import { SkilldexError } from '../../errors.js';
import {
  cjkTerms,
  hasCjk,
  identifierTokens,
  isStopWord,
  analyzeTerms,
  analyzeTermsV4,
  splitQueryNegation,
  stem,
} from '../../text/index.js';
import type { AnalyzerOptions, DroppedToken } from './policies/bm25f-core.js';
import { REQUEST_FILLER, SHARED } from './policies/shared.js';
import { MAX_QUERY_CHARS, noSearchableWord } from './query.js';

/** A query as a BM25F policy scores it. */
export interface AnalyzedQuery {
  /** The request as given (a policy's stages read its form, stages/rerank-nearmiss.ts). */
  readonly text: string;
  /** Distinct scoring words (a CJK bigram is its own word) and their terms, aligned. */
  readonly tokens: readonly string[];
  readonly terms: readonly string[];
  readonly dropped: readonly DroppedToken[];
  /** The request's terms in order, repeats kept (the name phrase is looked for here). */
  readonly sequence: readonly string[];
  /** The words the request excludes, and their terms (none of them among `terms`), aligned. */
  readonly excluded: { readonly tokens: readonly string[]; readonly terms: readonly string[] };
}

// A word of digits only (any script's); ASCII words skip the Unicode class (built on first use).
const isNumeral = (w: string): boolean =>
  /^[0-9]+$/.test(w) || (/[^\x00-\x7f]/.test(w) && /^\p{N}+$/u.test(w));

function checkQuery(query: unknown): string {
  if (typeof query !== 'string')
    throw new SkilldexError('INVALID_QUERY', 'query must be a string', { query: String(query) });
  if (query.length > MAX_QUERY_CHARS) {
    throw new SkilldexError(
      'INVALID_QUERY',
      `query is ${query.length} characters, over the limit of ${MAX_QUERY_CHARS}`,
      { length: query.length },
    );
  }
  return query;
}

// The scoring words of `words` (stop-words, filler, numbers and single characters dropped with
// their reason, unless only those are left) as distinct (token, term) pairs, at most
// MAX_QUERY_TOKENS; `termsOf` gives a word's terms (its stem, or a CJK run's bigrams).
// `cjkWords`: a one-character CJK word is a word, not a stray character.
function scoringWords(
  words: readonly string[],
  termsOf: (w: string) => readonly string[],
  cjkWords: boolean,
): { tokens: string[]; terms: string[]; dropped: DroppedToken[] } {
  const dropped: DroppedToken[] = [];
  const signal: string[] = [];
  const weak: string[] = [];
  for (const w of words) {
    if (isStopWord(w)) dropped.push({ token: w, reason: 'stop-word' });
    else if (REQUEST_FILLER.has(w)) weak.push(w);
    else if (isNumeral(w)) weak.push(w);
    else if (w.length === 1 && !(cjkWords && hasCjk(w))) weak.push(w);
    else signal.push(w);
  }
  const reasonOf = (w: string): DroppedToken['reason'] =>
    REQUEST_FILLER.has(w) ? 'filler' : isNumeral(w) ? 'number' : 'single-character';
  // A query made only of filler or numbers still searches for what it has.
  const chosen = signal.length > 0 ? signal : weak;
  if (signal.length > 0) for (const w of weak) dropped.push({ token: w, reason: reasonOf(w) });
  const tokens: string[] = [];
  const terms: string[] = [];
  for (const w of chosen) {
    for (const t of termsOf(w)) {
      if (terms.includes(t)) continue;
      if (terms.length >= SHARED.MAX_QUERY_TOKENS) {
        dropped.push({ token: cjkWords && hasCjk(w) ? t : w, reason: 'over-limit' });
        continue;
      }
      tokens.push(cjkWords && hasCjk(w) ? t : w);
      terms.push(t);
    }
  }
  return { tokens, terms, dropped };
}

// The distinct words of `text`; with `cjk`, CJK runs cut out of their tokens (text/cjk.ts).
function wordsOf(text: string, cjk: boolean): string[] {
  if (!cjk) return [...new Set(identifierTokens(text))];
  const out: string[] = [];
  for (const t of identifierTokens(text)) {
    if (!hasCjk(t)) out.push(t);
    else for (const part of cjkParts(t)) out.push(part);
  }
  return [...new Set(out)];
}

// A token holding CJK characters as its CJK runs and its other letters and digits, in order.
function cjkParts(token: string): string[] {
  const out: string[] = [];
  let run = '';
  let other = '';
  for (const ch of token) {
    if (hasCjk(ch)) {
      if (other !== '') out.push(other);
      other = '';
      run += ch;
    } else {
      if (run !== '') out.push(run);
      run = '';
      other += ch;
    }
  }
  if (run !== '') out.push(run);
  if (other !== '') out.push(other);
  return out;
}

// A word's terms with CJK bigrams: a CJK run's bigrams, any other word's stem.
const termsCjk = (w: string): readonly string[] => (hasCjk(w) ? cjkTerms(w) : [stem(w)]);
const termsStem = (w: string): readonly string[] => [stem(w)];

/**
 * Analyses a query as the policy whose analyzer options are `options` reads it: with
 * `excludedWords`, the excluded spans set apart first (their words score against the skills that
 * have them, never for them); then the wanted text's words, each its stem — with `cjkBigrams`, a
 * CJK run contributes its character bigrams.
 */
export function analyzeQuery(query: unknown, options: AnalyzerOptions): AnalyzedQuery {
  const text = checkQuery(query);
  const cjk = options.cjkBigrams;
  const termsOf = cjk ? termsCjk : termsStem;
  const split = options.excludedWords ? splitQueryNegation(text) : { wanted: text, excluded: '' };
  const { tokens, terms, dropped } = scoringWords(wordsOf(split.wanted, cjk), termsOf, cjk);
  if (terms.length === 0) throw noSearchableWord(text);
  const excludedTokens: string[] = [];
  const excludedTerms: string[] = [];
  if (split.excluded !== '') {
    const wanted = new Set(terms);
    for (const w of wordsOf(split.excluded, cjk)) {
      if (isStopWord(w) || REQUEST_FILLER.has(w) || isNumeral(w)) continue;
      for (const t of termsOf(w)) {
        if (wanted.has(t) || excludedTerms.includes(t)) continue;
        if (excludedTerms.length >= SHARED.MAX_QUERY_TOKENS) break;
        excludedTokens.push(cjk && hasCjk(w) ? t : w);
        excludedTerms.push(t);
      }
    }
  }
  return {
    text,
    tokens,
    terms,
    dropped,
    sequence: cjk ? analyzeTermsV4(split.wanted) : analyzeTerms(split.wanted),
    excluded: { tokens: excludedTokens, terms: excludedTerms },
  };
}
