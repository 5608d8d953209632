/**
 * docs/integration.md §4 lists every failure code of src/errors.ts with its exit code, when it is
 * raised and its hint, exactly as `npm run docs:errors` renders them (scripts/docs-errors.ts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, type ErrorCode } from '../../src/errors.js';
import {
  BEGIN_MARKER,
  END_MARKER,
  INTEGRATION_DOC,
  extractErrorTable,
  renderErrorTable,
  replaceErrorTable,
} from '../../scripts/docs-errors.js';

const doc = readFileSync(INTEGRATION_DOC, 'utf8');

// The rows of the table in the document, read as cells without the renderer's help.
function documentedRows(): Map<string, string[]> {
  const table = extractErrorTable(doc) ?? '';
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n').slice(2)) {
    const cells = line
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split(/(?<!\\)\|/)
      .map((c) => c.trim().replace(/\\\|/g, '|'));
    rows.set((cells[0] ?? '').replace(/`/g, ''), cells.slice(1));
  }
  return rows;
}

describe('the error table of docs/integration.md', () => {
  it('has every code of errors.ts, with its exit code, when and hint', () => {
    const rows = documentedRows();
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      const info = ERROR_CODES[code];
      expect(
        rows.get(code),
        `${code} is missing from docs/integration.md: run npm run docs:errors`,
      ).toEqual([String(info.exit), info.when, info.hint]);
    }
    expect([...rows.keys()].sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it('is byte for byte the generated table (run npm run docs:errors after changing errors.ts)', () => {
    expect(extractErrorTable(doc)).toBe(renderErrorTable(ERROR_CODES));
    expect(replaceErrorTable(doc, renderErrorTable(ERROR_CODES))).toBe(doc);
  });

  it('includes the catalog codes the hand-written table once lacked', () => {
    const rows = documentedRows();
    expect(rows.get('CATALOG_TOO_NEW')?.[0]).toBe('2');
    expect(rows.get('CATALOG_BUSY')?.[0]).toBe('2');
  });
});

describe('the docs:errors renderer', () => {
  it('replaces only what lies between the markers', () => {
    const before = `# T\n\n${BEGIN_MARKER}\nold table\n${END_MARKER}\n\nafter\n`;
    const after = replaceErrorTable(before, '| a |');
    expect(after).toBe(`# T\n\n${BEGIN_MARKER}\n| a |\n${END_MARKER}\n\nafter\n`);
    expect(replaceErrorTable(after, '| a |')).toBe(after);
  });

  it('refuses a document without markers, with repeated markers or with them reversed', () => {
    expect(() => replaceErrorTable('no markers', 'x')).toThrow(/missing/);
    expect(() => replaceErrorTable(`${END_MARKER}\n${BEGIN_MARKER}`, 'x')).toThrow(/out of order/);
    expect(() =>
      replaceErrorTable(`${BEGIN_MARKER}${END_MARKER}${BEGIN_MARKER}${END_MARKER}`, 'x'),
    ).toThrow(/more than once/);
  });

  it('escapes pipes and line breaks so a cell cannot split the table', () => {
    const table = renderErrorTable({ X: { exit: 2, when: 'a | b\nc', hint: 'h' } });
    expect(table.split('\n')).toHaveLength(3);
    expect(table).toContain('a \\| b c');
  });
});
