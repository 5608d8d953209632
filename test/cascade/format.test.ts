/**
 * The skill.index, stamp and overlay formats (docs/cascade.md): line parsing with malformed lines
 * kept by number, key classification, stamp acceptance, overlay sections, and fast-check
 * properties: any text parses without throwing, and print → parse round-trips.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSkillIndex, parseStamp, printSkillIndex } from '../../src/cascade/index.js';
import { classifyKey, escapeReason, isWritableKey } from '../../src/cascade/index-file.js';
import { parseOverlay, printOverlay } from '../../src/cascade/overlay.js';
import { stampStatus } from '../../src/cascade/stamp.js';

const HEX = 'ab'.repeat(32);

describe('skill.index lines', () => {
  it('splits at the first colon and at commas, trims, and drops empty keywords', () => {
    const p = parseSkillIndex('pdf:  a, b:c ,, d \n');
    expect(p.entries).toEqual([
      {
        key: 'pdf',
        keywordText: '  a, b:c ,, d ',
        keywords: ['a', 'b:c', 'd'],
        line: 1,
        kind: 'leaf',
        segments: ['pdf'],
      },
    ]);
    expect(p.malformed).toEqual([]);
  });

  it('classifies self, leaf, descent and shortcut keys', () => {
    const p = parseSkillIndex('.: me\nleaf: x\nsub/: y\na/b/c/: z\na/b/c: w\n');
    expect(p.entries.map((e) => [e.key, e.kind, e.segments])).toEqual([
      ['.', 'self', []],
      ['leaf', 'leaf', ['leaf']],
      ['sub/', 'descent', ['sub']],
      ['a/b/c/', 'descent', ['a', 'b', 'c']],
      ['a/b/c', 'leaf', ['a', 'b', 'c']],
    ]);
  });

  it('records malformed lines with their numbers and skips them', () => {
    const p = parseSkillIndex('no colon here\n: empty key\na//b: x\nx/./y: x\nok: 1\nok: 2\n');
    expect(p.malformed.map((m) => m.line)).toEqual([1, 2, 3, 4, 6]);
    expect(p.entries.map((e) => e.key)).toEqual(['ok']);
  });

  it('keeps escaping keys as entries marked with the reason (§9 "Shortcuts")', () => {
    for (const key of ['../x', 'a/../b/', '/etc/', 'C:/x', 'a\\b', 'a\0b']) {
      expect(escapeReason(key), key).toBeDefined();
      expect(classifyKey(key)).toMatchObject({ ok: true });
    }
    expect(escapeReason('a/b/c/')).toBeUndefined();
  });

  it('passes blank lines and # comments, with CRLF or CR line ends', () => {
    const p = parseSkillIndex('# title\r\n\r\n  # indented\ra: b\r\n');
    expect(p.entries.map((e) => [e.key, e.line])).toEqual([['a', 4]]);
    expect(p.malformed).toEqual([]);
  });

  it('never throws, and every record points at a real line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        const p = parseSkillIndex(text);
        const lines = text.split(/\r\n|\n|\r/).length;
        for (const r of [...p.entries, ...p.malformed]) expect(r.line).toBeGreaterThanOrEqual(1);
        for (const r of [...p.entries, ...p.malformed]) expect(r.line).toBeLessThanOrEqual(lines);
      }),
    );
  });

  it('round-trips print → parse for writable keys and clean keywords', () => {
    const segment = fc
      .stringMatching(/^[a-z0-9][a-z0-9 ._-]{0,8}$/)
      .filter((s) => s.trim() === s && s !== '.' && s !== '..');
    const key = fc.oneof(
      fc.constant('.'),
      fc
        .array(segment, { minLength: 1, maxLength: 3 })
        .chain((segs) => fc.constantFrom(segs.join('/'), `${segs.join('/')}/`)),
    );
    const keyword = fc
      .stringMatching(/^[a-z0-9#:/ ._-]{1,12}$/)
      .map((s) => s.trim())
      .filter((s) => s !== '');
    const entries = fc.uniqueArray(
      fc.record({ key, keywords: fc.array(keyword, { maxLength: 5 }) }),
      { selector: (e) => e.key, maxLength: 8 },
    );
    fc.assert(
      fc.property(entries, (es) => {
        for (const e of es) if (e.key !== '.') expect(isWritableKey(e.key)).toBe(true);
        const parsed = parseSkillIndex(printSkillIndex(es, ['header']));
        expect(parsed.malformed).toEqual([]);
        expect(parsed.entries.map((e) => ({ key: e.key, keywords: e.keywords }))).toEqual(es);
      }),
    );
  });
});

describe('stamps', () => {
  it('accepts plain hex in either case and sha256sum lines', () => {
    expect(parseStamp(HEX)).toBe(HEX);
    expect(parseStamp(HEX.toUpperCase() + '\n')).toBe(HEX);
    expect(parseStamp(`${HEX}  skill.index\n`)).toBe(HEX);
    expect(parseStamp(`${HEX} *skill.index\r\n\r\n`)).toBe(HEX);
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      HEX.slice(1),
      `${HEX}0`,
      `sha256:${HEX}`,
      `${HEX}\n${HEX}\n`,
      `x ${HEX}`,
    ]) {
      expect(parseStamp(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });

  it('compares a stamp with the index digest', () => {
    expect(stampStatus(undefined, HEX)).toBe('missing');
    expect(stampStatus(`${HEX}  skill.index`, HEX)).toBe('match');
    expect(stampStatus('0'.repeat(64), HEX)).toBe('mismatch');
  });
});

describe('overlays', () => {
  it('reads ## <key> sections, ignoring a title and keeping the first of a repeated key', () => {
    const o = parseOverlay(
      '# Title\n\n## pdf\n\nPDF forms.\nMore.\n\n## docs/\n\nDocuments.\n## pdf\n\nsecond\n',
    );
    expect([...o.entries()]).toEqual([
      ['pdf', 'PDF forms.\nMore.'],
      ['docs/', 'Documents.'],
    ]);
  });

  it('prints text that starts with # so that it stays inside its section', () => {
    const text = printOverlay('T', [
      { key: 'a', text: '## not a heading' },
      { key: 'b', text: 'plain\n\ntext' },
    ]);
    expect([...parseOverlay(text).keys()]).toEqual(['a', 'b']);
    expect(parseOverlay(text).get('b')).toBe('plain text');
  });

  it('no description line starts a heading, a table row or a fence (issue #11)', () => {
    const text = printOverlay('T', [
      { key: 'a', text: '| a | b |' },
      { key: 'b', text: '```' },
      { key: 'c', text: '~~~ x' },
      { key: 'd', text: '# REFUSED' },
    ]);
    const body = text.split('\n').filter((l) => l !== '' && !/^#{1,2} [A-Za-z]$/.test(l));
    expect(body).toHaveLength(4);
    for (const l of body) expect(l).not.toMatch(/^ {0,3}(#|\||```|~~~)/);
  });
});
