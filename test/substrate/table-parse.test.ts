/**
 * The tolerant INDEX.md table parser and its resolution into rows (docs/substrate.md): real-world
 * Markdown (alignment colons, escaped pipes, extra spaces, missing outer pipes, extra columns,
 * rows with a missing path) is read, and what cannot be read is a coded problem, never a crash.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseMarkdownTable, splitTableRow } from '../../src/substrate/table-parse.js';
import { resolveIndexTable } from '../../src/substrate/index-table.js';

describe('splitTableRow', () => {
  it.each([
    ['| a | b | c |', ['a', 'b', 'c']],
    ['a | b | c', ['a', 'b', 'c']],
    ['| a | b | c', ['a', 'b', 'c']],
    ['a | b | c |', ['a', 'b', 'c']],
    ['|   a   |b|   c|', ['a', 'b', 'c']],
    ['| a \\| b | c |', ['a | b', 'c']],
    ['| a | b \\|', ['a', 'b |']],
    ['| a |  | c |', ['a', '', 'c']],
    ['| `x\\|y` | \\ok |', ['`x|y`', '\\ok']],
  ])('%s', (line, cells) => {
    expect(splitTableRow(line)).toEqual(cells);
  });

  it('round-trips any cells once pipes are escaped, with or without outer pipes', () => {
    const cell = fc.string({ maxLength: 12 }).map((s) => s.replace(/[\r\n]/g, ' ').trim());
    fc.assert(
      fc.property(
        fc.array(cell, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        fc.boolean(),
        (cells, lead, trail) => {
          // A row that starts without a pipe needs a non-empty first cell to be a row at all.
          fc.pre(lead || cells[0] !== '');
          // Without a trailing pipe, an empty last cell cannot be written.
          fc.pre(trail || cells.at(-1) !== '');
          const body = cells.map((c) => ` ${c.replace(/\|/g, '\\|')} `).join('|');
          const line = `${lead ? '|' : ''}${body}${trail ? '|' : ''}`;
          expect(splitTableRow(line)).toEqual(cells.map((c) => c.trim()));
        },
      ),
    );
  });
});

describe('parseMarkdownTable', () => {
  it('finds the first table below prose and records line numbers', () => {
    const text =
      '# Title\n\nProse | with a pipe.\n\n| ID | Description | Path |\n|:--|:-:|--:|\n| A | a | a.md |\n| B | b | b.md |\n\nAfter.\n';
    const parsed = parseMarkdownTable(text, 'x/INDEX.md');
    expect(parsed.problems).toEqual([]);
    expect(parsed.table?.header).toEqual(['ID', 'Description', 'Path']);
    expect(parsed.table?.header_line).toBe(5);
    expect(parsed.table?.rows.map((r) => [r.line, r.cells])).toEqual([
      [7, ['A', 'a', 'a.md']],
      [8, ['B', 'b', 'b.md']],
    ]);
  });

  it('reads CRLF files', () => {
    const parsed = parseMarkdownTable(
      '| ID | Description | Path |\r\n| --- | --- | --- |\r\n| A | a | a.md |\r\n',
      'i',
    );
    expect(parsed.table?.rows[0]?.cells).toEqual(['A', 'a', 'a.md']);
  });

  it('ignores tables inside fenced code blocks', () => {
    const text =
      '```md\n| ID | Description | Path |\n| --- | --- | --- |\n| F | fenced | f.md |\n```\n\n| ID | Description | Path |\n| --- | --- | --- |\n| R | real | r.md |\n';
    const parsed = parseMarkdownTable(text, 'i');
    expect(parsed.table?.rows.map((r) => r.cells[0])).toEqual(['R']);
  });

  it('does not take a setext heading or a rule for a table', () => {
    const parsed = parseMarkdownTable('Heading\n---\n\ntext\n', 'i');
    expect(parsed.table).toBeUndefined();
    expect(parsed.problems.map((p) => p.code)).toEqual(['MALFORMED_TABLE']);
  });

  it('ignores a second table with a problem', () => {
    const parsed = parseMarkdownTable('| a |\n| - |\n| 1 |\n\n| b |\n| - |\n| 2 |\n', 'i');
    expect(parsed.table?.rows.map((r) => r.cells)).toEqual([['1']]);
    expect(parsed.problems).toMatchObject([{ code: 'MALFORMED_TABLE', line: 5 }]);
  });
});

describe('resolveIndexTable', () => {
  it('finds columns by name in any order and cleans ID and path markup', () => {
    const text =
      '| **Path** | id | DESCRIPTION |\n| --- | --- | --- |\n| [x](`a.md`) | `A-1` | First |\n| <b c.md> | [A-2](b.md) | Second   entry |\n| `./c.md` | A-3 | Third |\n';
    const t = resolveIndexTable('adr', text, 'adr/INDEX.md');
    expect(t.problems).toEqual([]);
    expect(t.rows.map((r) => [r.id, r.description, r.path])).toEqual([
      ['A-1', 'First', 'a.md'],
      ['A-2', 'Second entry', 'b c.md'],
      ['A-3', 'Third', './c.md'],
    ]);
  });

  it('reads reviewer Category and Fires on, splitting globs outside braces', () => {
    const text =
      '| ID | Description | Category | Fires_on | Path |\n| --- | --- | --- | --- | --- |\n| R1 | SQL | database | `src/**/*.{ts,js}`, migrations/** `config/*` | r1.md |\n';
    const t = resolveIndexTable('reviewer', text, 'reviewer/INDEX.md');
    expect(t.problems).toEqual([]);
    expect(t.rows[0]).toMatchObject({
      id: 'R1',
      category: 'database',
      fires_on: ['src/**/*.{ts,js}', 'migrations/**', 'config/*'],
    });
  });

  it('keeps extra columns on each row and reports them once', () => {
    const text =
      '| ID | Description | Path | Owner | Status |\n| - | - | - | - | - |\n| A | a | a.md | ops | ok |\n| B | b | b.md | dev | old |\n';
    const t = resolveIndexTable('solution', text, 's/INDEX.md');
    expect(t.problems.map((p) => p.code)).toEqual(['EXTRA_COLUMNS']);
    expect(t.rows.map((r) => r.extra)).toEqual([
      { Owner: 'ops', Status: 'ok' },
      { Owner: 'dev', Status: 'old' },
    ]);
  });

  it('treats Category and Fires on as extra columns outside the reviewer table', () => {
    const t = resolveIndexTable(
      'adr',
      '| ID | Description | Path | Category |\n| - | - | - | - |\n| A | a | a.md | x |\n',
      'i',
    );
    expect(t.problems.map((p) => p.code)).toEqual(['EXTRA_COLUMNS']);
    expect(t.rows[0]?.category).toBe('');
  });

  it('records rows without a path, with too few or too many cells, without an ID, or with a repeated ID', () => {
    const text =
      '| ID | Description | Path |\n| - | - | - |\n| A | a |  |\n| B | b\n| C | c | c.md | extra |\n|  | no id | x.md |\n| A | again | a2.md |\n';
    const t = resolveIndexTable('adr', text, 'adr/INDEX.md');
    expect(t.problems.map((p) => [p.code, p.line])).toEqual([
      ['MISSING_PATH', 3],
      ['MALFORMED_ROW', 4],
      ['MISSING_PATH', 4],
      ['MALFORMED_ROW', 5],
      ['MALFORMED_ROW', 6],
      ['DUPLICATE_ID', 7],
    ]);
    expect(t.rows.map((r) => [r.id, r.path])).toEqual([
      ['A', undefined],
      ['B', undefined],
      ['C', 'c.md'],
    ]);
  });

  it('keeps rows for index decisions when the Path column is missing, with one problem', () => {
    const t = resolveIndexTable(
      'vocabulary',
      '| ID | Description |\n| - | - |\n| A | a |\n| B | b |\n',
      'v/INDEX.md',
    );
    expect(t.problems.map((p) => p.code)).toEqual(['MALFORMED_TABLE']);
    expect(t.rows.map((r) => r.id)).toEqual(['A', 'B']);
  });

  it('gives no rows without an ID or a Description column', () => {
    const t = resolveIndexTable(
      'adr',
      '| Number | Title | Path |\n| - | - | - |\n| 1 | x | x.md |\n',
      'i',
    );
    expect(t.rows).toEqual([]);
    expect(t.problems.map((p) => p.code)).toEqual(['MALFORMED_TABLE']);
  });

  it('reports missing reviewer columns but keeps the rows', () => {
    const t = resolveIndexTable(
      'reviewer',
      '| ID | Description | Path |\n| - | - | - |\n| R | r | r.md |\n',
      'i',
    );
    expect(t.problems.map((p) => p.code)).toEqual(['MALFORMED_TABLE']);
    expect(t.rows[0]).toMatchObject({ id: 'R', category: '', fires_on: [] });
  });
});
