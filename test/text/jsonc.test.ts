/**
 * The one JSON scanner outside strings (issue 33: `blankJsonComments` and the settings editor in
 * cli/init/json-edit.ts had one each): every character outside a string is visited once, a
 * string's quotes and escaped characters never are, the visitor's resume index skips ahead, and
 * `blankJsonComments` built on it still blanks comments at the same offsets.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankJsonComments, jsonCommentAt, scanOutsideStrings } from '../../src/text/index.js';

function visited(text: string): string {
  let out = '';
  scanOutsideStrings(text, (i) => {
    out += text[i];
    return undefined;
  });
  return out;
}

describe('scanOutsideStrings', () => {
  it('visits what lies outside strings, never a quote, escape or string content', () => {
    expect(visited('{"a\\"{[": [1, "]}\\\\"]}')).toBe('{: [1, ]}');
    expect(visited('"unterminated { [')).toBe('');
    expect(visited('')).toBe('');
  });

  it('resumes where the visitor says, and text.length stops it', () => {
    const text = 'ab/*"*/cd';
    const seen: number[] = [];
    scanOutsideStrings(text, (i) => {
      seen.push(i);
      if (jsonCommentAt(text, i)) return text.indexOf('*/', i) + 2;
      return text[i] === 'c' ? text.length : undefined;
    });
    // The `"` inside the skipped comment does not open a string; `d` is never reached.
    expect(seen).toEqual([0, 1, 2, 7]);
  });

  it('visits in order, once each, exactly the positions of a string-free text', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('{', '}', '[', ']', ',', ':', '1', ' ', '/') }),
        (text) => {
          const seen: number[] = [];
          scanOutsideStrings(text, (i) => {
            seen.push(i);
            return undefined;
          });
          expect(seen).toEqual([...text].map((_, i) => i));
        },
      ),
    );
  });
});

describe('blankJsonComments on the shared scanner', () => {
  it('blanks line and block comments at the same offsets, keeps // in strings', () => {
    const text = '{ "u": "http://x" /* a "q" */, // tail "x\n "b": 1 }';
    const blanked = blankJsonComments(text);
    expect(blanked.length).toBe(text.length);
    expect(JSON.parse(blanked)).toEqual({ u: 'http://x', b: 1 });
    expect(blanked).toContain('"http://x"');
    expect(blankJsonComments('{}')).toBe('{}');
    expect(blankJsonComments('[1 /* open')).toBe('[1' + ' '.repeat(8));
  });
});
