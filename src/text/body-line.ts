/**
 * One body line as policy bm25f.v4 indexes it, in one pass: its terms (analyze.ts analyzeTermsV4)
 * and its template key (template-lines.ts lineKey). A full index analyses every line of every body
 * (240,000 lines at 10,000 generated skills); for a line of ASCII characters only, the words are
 * found, lower-cased, looked up as terms and masked for the key in a single scan, and the key is
 * hashed as it is masked, with no intermediate strings. Any other line goes through the two
 * functions as they are. A property test holds the two ways equal. Pure.
 */
import { analyzeTermsV4, asciiIdentifierTokens, termOf } from './analyze.js';
import { MIN_LINE_KEY_CHARS, lineKey } from './template-lines.js';

/** The terms of one body line and its template key (undefined for a line too short to count). */
export interface AnalysedLine {
  readonly terms: string[];
  readonly key: number | undefined;
}

const ASCII_ONLY_RE = /^[\x00-\x7f]*$/;

// FNV-1a (template-lines.ts fnv1a), fed one UTF-16 code unit at a time.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
// The marks of lineKey: a word of the skill's own name, a run of digits, collapsed white space.
const NAME_MARK = 0xa7;
const DIGITS_MARK = 0x23;
const SPACE = 0x20;

/** `{ terms: analyzeTermsV4(line), key: lineKey(line, names) }`, computed in one pass where it can. */
export function analyseBodyLine(line: string, names: ReadonlySet<string>): AnalysedLine {
  if (!ASCII_ONLY_RE.test(line)) return { terms: analyzeTermsV4(line), key: lineKey(line, names) };
  return asciiBodyLine(line, names);
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isUpper = (c: number): boolean => c >= 65 && c <= 90;
const isLower = (c: number): boolean => c >= 97 && c <= 122;

/** `analyseBodyLine` for a line of ASCII characters only. */
export function asciiBodyLine(line: string, names: ReadonlySet<string>): AnalysedLine {
  const terms: string[] = [];
  // Folding ASCII is lower-casing; positions stay those of `line`.
  const lower = line.toLowerCase();
  let hash = FNV_OFFSET;
  let length = 0;
  let space = false;
  // Appends one code unit to the masked line: white space collapses to one space between
  // non-space units, and none is kept at either end (trim).
  const put = (c: number): void => {
    if (space && length > 0) {
      hash = Math.imul(hash ^ SPACE, FNV_PRIME);
      length++;
    }
    space = false;
    hash = Math.imul(hash ^ c, FNV_PRIME);
    length++;
  };
  const n = line.length;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (!isDigit(c) && !isUpper(c) && !isLower(c)) {
      // \s of ASCII: tab, line feed, vertical tab, form feed, carriage return, space.
      if (c === SPACE || (c >= 9 && c <= 13)) space = true;
      else put(c);
      i++;
      continue;
    }
    // A word, [A-Za-z0-9]+: it splits (analyze.ts) when it holds a digit or a capital after its start.
    let j = i;
    let splits = false;
    for (; j < n; j++) {
      const d = line.charCodeAt(j);
      if (isDigit(d) || (isUpper(d) && j > i)) splits = true;
      else if (!isUpper(d) && !isLower(d)) break;
    }
    const word = lower.slice(i, j);
    if (splits) {
      for (const token of asciiIdentifierTokens(line.slice(i, j))) {
        const term = termOf(token);
        if (term !== null) terms.push(term);
      }
    } else {
      const term = termOf(word);
      if (term !== null) terms.push(term);
    }
    if (names.has(word)) put(NAME_MARK);
    else
      for (let k = i; k < j;) {
        if (isDigit(line.charCodeAt(k))) {
          while (k < j && isDigit(line.charCodeAt(k))) k++;
          put(DIGITS_MARK);
        } else put(lower.charCodeAt(k++));
      }
    i = j;
  }
  return { terms, key: length < MIN_LINE_KEY_CHARS ? undefined : hash >>> 0 };
}
