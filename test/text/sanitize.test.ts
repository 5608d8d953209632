/**
 * The terminal and MCP text sanitiser (src/text/sanitize.ts, issue #11): no C0/C1 control, ESC,
 * bidi override or isolate, TAG or zero-width character survives; fields stay one line and within
 * their cap; safe short text is unchanged.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeBlock, sanitizeField } from '../../src/text/index.js';
import { CUT_MARK, MAX_FIELD_CHARS } from '../../src/text/sanitize.js';

const FORBIDDEN =
  /[\u0000-\u001F\u007F-\u009F\u061C\u200B-\u200F\u2028\u2029\u202A-\u202E\u2060-\u2069\uFEFF\u{E0000}-\u{E007F}]/u;

const hostileChar = fc.constantFrom(
  '\u001b',
  '\u0007',
  '\u009b',
  '\u0085',
  '\n',
  '\r',
  '\t',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200b',
  '\u200d',
  '\u{E0041}',
  '\u{E007F}',
  '\ufeff',
  '\u2028',
  'a',
  'é',
  '😀',
  '\\',
  '|',
  ']',
);
const hostile = fc.array(hostileChar, { maxLength: 400 }).map((a) => a.join(''));

describe('sanitizeField', () => {
  it('neutralises ANSI CSI and OSC sequences', () => {
    const s = sanitizeField('1.0\u001b]8;;http://evil\u0007click\u001b]8;;\u0007\u001b[2J');
    expect(s).not.toMatch(FORBIDDEN);
    expect(s).toBe('1.0\\u001b]8;;http://evil\\u0007click\\u001b]8;;\\u0007\\u001b[2J');
  });

  it('shows line breaks as escapes, so a field is one line', () => {
    expect(sanitizeField('a\nSYSTEM: obey\r\n')).toBe('a\\nSYSTEM: obey\\r\\n');
  });

  it('escapes bidi, TAG and zero-width characters', () => {
    expect(sanitizeField('x\u202Ey\u2066z\u{E0041}\u200B')).toBe(
      'x\\u202ey\\u2066z\\u{e0041}\\u200b',
    );
  });

  it('caps a field and marks the cut', () => {
    const s = sanitizeField('x'.repeat(1000));
    expect(s.length).toBe(MAX_FIELD_CHARS);
    expect(s.endsWith(CUT_MARK)).toBe(true);
  });

  it('property: output is safe, one line, within the cap; safe short text is unchanged', () => {
    fc.assert(
      fc.property(hostile, fc.integer({ min: 1, max: 300 }), (text, cap) => {
        const s = sanitizeField(text, cap);
        expect(s).not.toMatch(FORBIDDEN);
        expect(s.length).toBeLessThanOrEqual(cap);
        if (!FORBIDDEN.test(text) && !/[\u00AD\uFE00-\uFE0F]/.test(text) && text.length <= cap)
          expect(s).toBe(text);
        // No lone surrogate is ever produced by a cut.
        expect(() => encodeURIComponent(s)).not.toThrow();
      }),
    );
  });
});

describe('sanitizeBlock', () => {
  it('keeps line feeds and tabs, escapes every other control', () => {
    expect(sanitizeBlock('# T\n\tstep\r\n\u001b[31mred\u202e')).toBe(
      '# T\n\tstep\n\\u001b[31mred\\u202e',
    );
  });

  it('property: no forbidden character but LF and TAB survives', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(sanitizeBlock(text).replace(/[\n\t]/g, '')).not.toMatch(FORBIDDEN);
      }),
    );
  });
});
