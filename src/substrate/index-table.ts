/**
 * Resolves a parsed INDEX.md table into index rows of one type (docs/substrate.md), the "resolve" half
 * of parse-then-resolve. Standard columns are `ID`, `Description`, `Path`; the
 * reviewer table adds `Category` and `Fires on`. Columns are found by name in any order; extra
 * columns are kept on each row and reported once; a row with a missing path, too few or too many
 * cells, or a repeated ID is a problem, never a crash. Pure: the text comes in, rows come out.
 */
import { problem, type Problem } from '../errors.js';
import { fold } from '../text/index.js';
import { splitGlobList } from './glob.js';
import { parseMarkdownTable, type RawTable } from './table-parse.js';
import type { IndexRow, SubstrateType } from './types.js';

/** The rows of one INDEX.md and the problems met reading it. */
export interface IndexTable {
  readonly type: SubstrateType;
  readonly rows: readonly IndexRow[];
  readonly problems: readonly Problem[];
}

type Column = 'id' | 'description' | 'path' | 'category' | 'fires_on';

// Header spellings (after normalising case, markup and separators) of the standard columns.
const COLUMN_NAMES: Readonly<Record<string, Column>> = {
  id: 'id',
  description: 'description',
  path: 'path',
  category: 'category',
  'fires on': 'fires_on',
};

const REQUIRED: Readonly<Record<SubstrateType, readonly Column[]>> = {
  vocabulary: ['id', 'description', 'path'],
  adr: ['id', 'description', 'path'],
  'anti-pattern': ['id', 'description', 'path'],
  solution: ['id', 'description', 'path'],
  reviewer: ['id', 'description', 'path', 'category', 'fires_on'],
};

/** Header text → comparable name: folded, markup stripped, `_`/`-` as spaces (`Fires_on` → `fires on`). */
export function normalizeHeader(cell: string): string {
  return fold(cell)
    .replace(/[*`_\-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The Path cell without Markdown markup: `[x](a.md)` → `a.md`, `` `a.md` `` → `a.md`, `<a.md>` → `a.md`. */
export function cleanPathCell(cell: string): string {
  let s = cell.trim();
  const link = /^\[[^\]]*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)$/.exec(s);
  if (link) s = link[1]!;
  s = s.replace(/^`+|`+$/g, '').trim();
  if (s.startsWith('<') && s.endsWith('>')) s = s.slice(1, -1).trim();
  return s;
}

/** The ID cell without markup: `[ADR-1](x.md)` → `ADR-1`, `` `ADR-1` `` → `ADR-1`. */
export function cleanIdCell(cell: string): string {
  let s = cell.trim();
  const link = /^\[([^\]]*)\]\([^)]*\)$/.exec(s);
  if (link) s = link[1]!.trim();
  return s.replace(/^[`*]+|[`*]+$/g, '').trim();
}

/**
 * Reads the INDEX.md text of `type` into rows. `label` is the file's path as problems name it.
 * A table without an ID or Description column gives no rows; without a Path column, rows are
 * kept for index-level decisions and the missing column is one MALFORMED_TABLE problem.
 */
export function resolveIndexTable(type: SubstrateType, text: string, label: string): IndexTable {
  const parsed = parseMarkdownTable(text, label);
  const problems: Problem[] = [...parsed.problems];
  const table = parsed.table;
  if (table === undefined) return { type, rows: [], problems };

  const columnAt = new Map<Column, number>();
  const extraAt: { name: string; index: number }[] = [];
  table.header.forEach((cell, index) => {
    const column = COLUMN_NAMES[normalizeHeader(cell)];
    if (
      column !== undefined &&
      !columnAt.has(column) &&
      (column === 'id' || column === 'description' || column === 'path' || type === 'reviewer')
    ) {
      columnAt.set(column, index);
    } else {
      extraAt.push({ name: cell === '' ? `column ${index + 1}` : cell, index });
    }
  });
  const missing = REQUIRED[type].filter((c) => !columnAt.has(c));
  if (missing.length > 0) {
    problems.push(
      problem(
        'MALFORMED_TABLE',
        label,
        `${label}:${table.header_line}: the ${type} table has no ${missing.map(columnTitle).join(', ')} column${missing.length > 1 ? 's' : ''}`,
        table.header_line,
      ),
    );
  }
  if (!columnAt.has('id') || !columnAt.has('description')) return { type, rows: [], problems };
  if (extraAt.length > 0) {
    problems.push(
      problem(
        'EXTRA_COLUMNS',
        label,
        `${label}:${table.header_line}: columns beyond the standard ones are kept as extra: ${extraAt.map((e) => e.name).join(', ')}`,
        table.header_line,
      ),
    );
  }

  const rows = readRows(type, table, { columnAt, extraAt }, label, problems);
  // Problems in line order, as a reader of the file meets them (the sort is stable).
  problems.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return { type, rows, problems };
}

/** Where each known column stands in the header, and the extra columns kept by name. */
interface ColumnsAt {
  readonly columnAt: ReadonlyMap<Column, number>;
  readonly extraAt: readonly { name: string; index: number }[];
}

/**
 * The rows of `table` with an ID, in file order; a row without an ID or with one already used is
 * skipped, and every finding (cell count, no ID, duplicate, no path) goes into `problems`.
 */
function readRows(
  type: SubstrateType,
  table: RawTable,
  { columnAt, extraAt }: ColumnsAt,
  label: string,
  problems: Problem[],
): IndexRow[] {
  const rows: IndexRow[] = [];
  const seen = new Map<string, number>();
  const width = table.header.length;
  for (const raw of table.rows) {
    const cell = (c: Column): string => {
      const at = columnAt.get(c);
      return at === undefined ? '' : (raw.cells[at] ?? '');
    };
    if (raw.cells.length !== width) {
      const what = raw.cells.length < width ? 'too few' : 'too many (an unescaped | in a cell?)';
      problems.push(
        problem(
          'MALFORMED_ROW',
          label,
          `${label}:${raw.line}: ${raw.cells.length} cells, ${what} for the ${width} columns of the header`,
          raw.line,
        ),
      );
    }
    const id = cleanIdCell(cell('id'));
    if (id === '') {
      problems.push(
        problem(
          'MALFORMED_ROW',
          label,
          `${label}:${raw.line}: the row has no ID and is skipped`,
          raw.line,
        ),
      );
      continue;
    }
    const first = seen.get(id);
    if (first !== undefined) {
      problems.push(
        problem(
          'DUPLICATE_ID',
          label,
          `${label}:${raw.line}: ID ${id} is already used on line ${first}; this row is skipped`,
          raw.line,
        ),
      );
      continue;
    }
    seen.set(id, raw.line);
    const path = cleanPathCell(cell('path'));
    if (path === '' && columnAt.has('path')) {
      problems.push(
        problem(
          'MISSING_PATH',
          label,
          `${label}:${raw.line}: row ${id} has no path; it can be judged at the index only`,
          raw.line,
        ),
      );
    }
    const extra: Record<string, string> = {};
    for (const e of extraAt) extra[e.name] = raw.cells[e.index] ?? '';
    rows.push({
      type,
      id,
      description: cell('description').replace(/\s+/g, ' ').trim(),
      ...(path === '' ? {} : { path }),
      category: type === 'reviewer' ? cell('category').replace(/\s+/g, ' ').trim() : '',
      fires_on: type === 'reviewer' ? splitGlobList(cell('fires_on').replace(/`/g, ' ')) : [],
      extra,
      line: raw.line,
    });
  }
  return rows;
}

function columnTitle(c: Column): string {
  return c === 'fires_on' ? 'Fires on' : c === 'id' ? 'ID' : c[0]!.toUpperCase() + c.slice(1);
}
