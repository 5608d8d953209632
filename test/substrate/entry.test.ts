/**
 * Entry files (docs/substrate.md): the summary view is the frontmatter plus the `## Summary` section up
 * to the next heading; fields of the wrong type and missing sections are coded problems.
 */
import { describe, expect, it } from 'vitest';
import { entryBody, readEntrySummary } from '../../src/substrate/entry.js';

describe('readEntrySummary', () => {
  it('reads scope, tags, predicate and the Summary section, stopping at the next heading', () => {
    const text =
      '---\nscope: [src/db/**, migrations/**]\ntags: [database, 2024]\npredicate: a change edits SQL\nstatus: accepted\n---\n# Title\n\nIntro.\n\n## Summary\n\nFirst line.\nSecond line.\n\n### Detail\n\nNot part of it.\n';
    const s = readEntrySummary(text, 'adr/x.md');
    expect(s.problems).toEqual([]);
    expect(s).toMatchObject({
      scope: ['src/db/**', 'migrations/**'],
      tags: ['database', '2024'],
      predicate: 'a change edits SQL',
      summary: 'First line.\nSecond line.',
    });
    expect(entryBody(text, s)).toContain('Not part of it.');
  });

  it('accepts a single scope string, CRLF, any case of the heading, and headings inside fences', () => {
    const text =
      '---\r\nscope: src/**\r\n---\r\n## SUMMARY ##\r\n\r\n```sh\r\n# not a heading\r\n```\r\nEnd.\r\n## Next\r\nbody\r\n';
    const s = readEntrySummary(text, 'x.md');
    expect(s.problems).toEqual([]);
    expect(s.scope).toEqual(['src/**']);
    expect(s.summary).toBe('```sh\n# not a heading\n```\nEnd.'.replace(/\n/g, '\r\n'));
  });

  it('takes the Summary section to the end of the file when no heading follows', () => {
    expect(readEntrySummary('---\n---\n## Summary\nall of it\n', 'x.md').summary).toBe('all of it');
  });

  it('reports a missing Summary section', () => {
    const s = readEntrySummary('---\ntags: [a]\n---\n# Title\n\n## Details\n', 'x.md');
    expect(s.problems.map((p) => p.code)).toEqual(['MISSING_SUMMARY']);
    expect(s.summary).toBeUndefined();
  });

  it('reports fields of the wrong type and scope globs that name no path', () => {
    const s = readEntrySummary(
      '---\nscope: [src/**, "./"]\ntags: {a: 1}\npredicate: [x]\n---\n## Summary\nx\n',
      'x.md',
    );
    expect(s.problems.map((p) => p.code)).toEqual(['FIELD_TYPE', 'FIELD_TYPE', 'FIELD_TYPE']);
    expect(s.tags).toEqual([]);
  });

  it('reads the Summary of a file without frontmatter, with a problem', () => {
    const s = readEntrySummary('# Title\n\n## Summary\n\nStill found.\n', 'x.md');
    expect(s.problems.map((p) => p.code)).toEqual(['FRONTMATTER_MISSING']);
    expect(s.summary).toBe('Still found.');
  });

  it('refuses malformed YAML and alias bombs as data', () => {
    expect(
      readEntrySummary('---\ntags: [a\n---\n## Summary\nx\n', 'x.md').problems.map((p) => p.code),
    ).toEqual(['MALFORMED_FRONTMATTER']);
    const bomb =
      '---\na: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\ntags: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n## Summary\nx\n';
    expect(readEntrySummary(bomb, 'x.md').problems.map((p) => p.code)).toEqual([
      'MALFORMED_FRONTMATTER',
    ]);
  });
});
