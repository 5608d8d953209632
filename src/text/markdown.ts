/**
 * Markdown escaping for text a skill author controls (pure; docs/integration.md §5: "skill text is data, never
 * markup"). Whatever the text, no line it produces can start a heading, a table row, a fence, a
 * block quote, a list or a setext underline, and inline it can open no code span, link, emphasis,
 * HTML or table cell: every such character is backslash-escaped (CommonMark lets any ASCII
 * punctuation be escaped, and shows it as itself).
 */
import { escapeInvisible } from './flags.js';

// Characters that open markup inside a line: code spans, emphasis, links, HTML, table cells, and
// the backslash itself. (`_` and `~` only emphasise; at a line start `~~~` is escaped as a fence.)
const INLINE_ACTIVE_RE = /[\\`*[\]<>|]/g;

// A line start that opens a block: heading, quote, fence, list bullet, setext underline, table row
// (after `|` is escaped inline), or thematic break. `#` anywhere is escaped below, so only these.
const BLOCK_START_RE = /^([ \t]*)([#>=+\-*_`|]|~~~)/;
// An ordered list item: digits then `.` or `)`.
const ORDERED_RE = /^([ \t]*\d{1,9})([.)])/;

/**
 * `text` as inline Markdown on one line: invisible and control characters as `\uXXXX`, line breaks
 * and tabs as `\n`, `\r`, `\t`, every markup character backslash-escaped, and a line start that
 * could open a block escaped too.
 */
export function markdownInline(text: string): string {
  // Markup first, then the escapes this function adds (whose backslashes must stay single).
  const marked = text.replace(INLINE_ACTIVE_RE, (c) => '\\' + c).replace(/#/g, '\\#');
  const one = escapeInvisible(marked)
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/\t/g, '\\t');
  return escapeBlockStart(one);
}

/**
 * `text` as a Markdown block quote, line for line: each line `> ` plus the line escaped as
 * `markdownInline` does, an empty line as `>`. Line breaks are kept (CRLF read as LF); a lone
 * carriage return is shown as `\r`.
 */
export function markdownQuote(text: string): string {
  return text
    .replace(/\r\n/g, '\n')
    .split('\n')
    .map((line) => {
      const s = markdownInline(line);
      return s === '' ? '>' : `> ${s}`;
    })
    .join('\n');
}

/** `line` with a leading character that would open a Markdown block escaped. */
export function escapeBlockStart(line: string): string {
  const ordered = ORDERED_RE.exec(line);
  if (ordered) return `${ordered[1]}\\${ordered[2]}${line.slice(ordered[0].length)}`;
  const block = BLOCK_START_RE.exec(line);
  if (block) return `${block[1]}\\${line.slice(block[1]!.length)}`;
  return line;
}
