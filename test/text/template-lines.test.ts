/**
 * Template-line keys (text/template-lines.ts): the ASCII fast path normalises a line exactly as the
 * Unicode rules do, so a line's key does not depend on which path computed it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asciiMasked, lineKey, nameWords, unicodeMasked } from '../../src/text/template-lines.js';

// ASCII lines built from the pieces that matter: words (some of them the name's), digits, spaces.
const piece = fc.oneof(
  fc.constantFrom('pdf', 'PDF', 'Tools', 'tools2', 'v2', '42', 'x9y', 'the', 'Rube', 'MCP'),
  fc.constantFrom(' ', '  ', '\t', '\r', '\v', '\f', '-', '_', '.', ',', '`', '#'),
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }),
);
const asciiLine = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
const name = fc.constantFrom('pdf-tools', 'Rube MCP', 'tools2 v2', 'x', '42 things', '');

describe('lineKey', () => {
  it('normalises an ASCII line through the fast path as through the Unicode rules', () => {
    fc.assert(
      fc.property(asciiLine, name, (line, n) => {
        const names = nameWords(n);
        expect(asciiMasked(line, names)).toBe(unicodeMasked(line, names));
      }),
      { numRuns: 3000 },
    );
  });

  it('keys lines alike that differ only by the skill name and digits', () => {
    const a = lineKey('Use PDF-Tools 3 times', nameWords('pdf-tools'));
    expect(a).toBeDefined();
    expect(lineKey('use  xlsx-kit 42 times ', nameWords('xlsx kit'))).toBe(a);
    expect(lineKey('Ｕｓｅ ｘｌｓｘ-kit 7 times', nameWords('xlsx kit'))).toBe(a);
    expect(lineKey(' ab ', new Set())).toBeUndefined();
  });
});
