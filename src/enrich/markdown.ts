/**
 * Safe Markdown pieces for enrichment evidence (pure). Text from skills and briefs is data: it is
 * shown with invisible and control characters escaped (docs/integration.md §5), inside code spans, or as
 * block quotes and plain text with Markdown's active characters escaped (src/text markdown), so a
 * description can never add a heading, a fence, a link, a table cell or raw HTML to an artifact.
 */
import { escapeInvisible } from '../text/index.js';

/** `text` on one line: invisible and control characters escaped, line breaks and tabs as `\n`, `\r`, `\t`. */
export function oneLine(text: string): string {
  return escapeInvisible(text).replace(/\r/g, '\\r').replace(/\n/g, '\\n').replace(/\t/g, '\\t');
}

/**
 * `text` as an inline code span on one line. In a table cell (`inTable`), `|` is escaped as GFM
 * requires even inside code spans.
 */
export function code(text: string, inTable = false): string {
  let s = oneLine(text);
  if (inTable) s = s.replace(/\|/g, '\\|');
  const fence = '`'.repeat(longestRun(s, '`') + 1);
  // A span that starts or ends with a backtick needs a space of padding (CommonMark strips one).
  const pad = s.startsWith('`') || s.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

/** `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st… */
export function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  const suffix = teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** `n` followed by `word`, pluralised with `s` unless `n` is 1. */
export function count(n: number, word: string): string {
  return `${n} ${n === 1 ? word : `${word}s`}`;
}

/** The number with thousands separators (1,536), the same on every locale. */
export function grouped(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function longestRun(s: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of s) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}
