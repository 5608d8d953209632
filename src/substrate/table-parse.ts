/**
 * Tolerant Markdown table parser (pure) for substrate INDEX.md files (docs/substrate.md). This is the
 * "parse" half of parse-then-resolve: it turns text into a low-level record that
 * mirrors the file (header cells, row cells, every line number) and never decides what a column
 * means. It tolerates what people write: alignment colons, escaped pipes (`\|`), extra spaces,
 * missing leading or trailing pipes, rows with too few or too many cells. It never throws; what it
 * cannot read becomes a MALFORMED_TABLE problem.
 */
import { problem, type Problem } from '../errors.js';

/** One table row as written: trimmed cells with `\|` unescaped, and its 1-based line. */
export interface RawRow {
  readonly cells: readonly string[];
  readonly line: number;
}

/** The first table of a Markdown text: its header row and the rows below the delimiter. */
export interface RawTable {
  readonly header: readonly string[];
  readonly header_line: number;
  readonly rows: readonly RawRow[];
}

/** What `parseMarkdownTable` found: the table (when there is one) and its problems. */
export interface TableParse {
  readonly table?: RawTable;
  readonly problems: readonly Problem[];
}

// A delimiter cell: optional colon, at least one dash, optional colon (`---`, `:--`, `:-:`, `--:`).
const DELIMITER_CELL_RE = /^:?-+:?$/;
// A fenced code block opens or closes with three or more backticks or tildes.
const FENCE_RE = /^\s{0,3}(`{3,}|~{3,})/;

/**
 * Splits one table line into cells. Unescaped `|` separate cells; `\|` is a literal pipe; a
 * leading and a trailing pipe are optional. Cells are trimmed.
 */
export function splitTableRow(line: string): string[] {
  const cells: string[] = [];
  let cur = '';
  let endedWithPipe = false;
  const text = line.trim();
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && text[i + 1] === '|') {
      cur += '|';
      i++;
      endedWithPipe = false;
    } else if (c === '|') {
      cells.push(cur);
      cur = '';
      endedWithPipe = true;
    } else {
      cur += c;
      if (c.trim() !== '') endedWithPipe = false;
    }
  }
  if (!endedWithPipe) cells.push(cur);
  // A leading pipe leaves an empty first cell: it marks the row, it is not a column.
  if (text.startsWith('|')) cells.shift();
  return cells.map((c) => c.trim());
}

/** True when `line` has at least one unescaped pipe (so it can be a table line). */
export function hasUnescapedPipe(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '|') return true;
  }
  return false;
}

/** True when `cells` form a delimiter row (`| --- | :-: |`). */
export function isDelimiterRow(cells: readonly string[]): boolean {
  return cells.length > 0 && cells.every((c) => DELIMITER_CELL_RE.test(c.replace(/\s+/g, '')));
}

/**
 * Finds the first table in `text` (a header line with pipes followed by a delimiter row) and
 * returns its cells. Lines inside fenced code blocks are never table lines. A second table is
 * ignored with a MALFORMED_TABLE problem; no table at all is a MALFORMED_TABLE problem too.
 * `label` names the file in problems.
 */
export function parseMarkdownTable(text: string, label: string): TableParse {
  const lines = text.split(/\r?\n/);
  const problems: Problem[] = [];
  const inFence = fenceMask(lines);
  let table: RawTable | undefined;
  let i = 0;
  while (i < lines.length - 1) {
    const line = lines[i]!;
    const next = lines[i + 1]!;
    if (
      inFence[i] ||
      inFence[i + 1] ||
      !hasUnescapedPipe(next) ||
      !isDelimiterRow(splitTableRow(next))
    ) {
      i++;
      continue;
    }
    if (!hasUnescapedPipe(line)) {
      // A delimiter row under a line without pipes is a setext heading or a rule, not a table.
      i++;
      continue;
    }
    const header = splitTableRow(line);
    const rows: RawRow[] = [];
    let j = i + 2;
    for (; j < lines.length; j++) {
      const row = lines[j]!;
      if (inFence[j] || row.trim() === '' || !hasUnescapedPipe(row)) break;
      rows.push({ cells: splitTableRow(row), line: j + 1 });
    }
    if (table === undefined) {
      table = { header, header_line: i + 1, rows };
    } else {
      problems.push(
        problem(
          'MALFORMED_TABLE',
          label,
          `${label}:${i + 1}: a second table is ignored; only the first table is the index`,
          i + 1,
        ),
      );
    }
    i = j;
  }
  if (table === undefined) {
    problems.push(
      problem(
        'MALFORMED_TABLE',
        label,
        `${label}: no Markdown table (a header row followed by a | --- | row) was found`,
      ),
    );
    return { problems };
  }
  return { table, problems };
}

/** For each line, true when it lies inside (or opens or closes) a fenced code block. */
function fenceMask(lines: readonly string[]): boolean[] {
  const mask: boolean[] = [];
  let open: string | undefined;
  for (const line of lines) {
    const m = FENCE_RE.exec(line);
    if (open === undefined) {
      if (m) open = m[1]!;
      mask.push(m !== null);
    } else {
      mask.push(true);
      // A fence closes with the same character, at least as long as the opening one.
      if (m && m[1]![0] === open[0] && m[1]!.length >= open.length && line.trim() === m[1])
        open = undefined;
    }
  }
  return mask;
}
