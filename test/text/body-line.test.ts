/**
 * One body line in one pass (text/body-line.ts): its terms and template key are exactly those of
 * analyzeTermsV4 and lineKey, through the ASCII scan and through the fallback alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTermsV4 } from '../../src/text/analyze.js';
import { analyseBodyLine, asciiBodyLine } from '../../src/text/body-line.js';
import { lineKey, nameWords } from '../../src/text/template-lines.js';

// ASCII lines from the pieces that matter: words in every case, identifiers that split, stop-words,
// digits, the name's words, every kind of white space and punctuation.
const piece = fc.oneof(
  fc.constantFrom('pdf', 'PDF', 'Tools', 'tools2', 'getWeather', 'HTMLParser', 'resnet50', 'v2'),
  fc.constantFrom('the', 'and', 'Rube', 'MCP', 'running', 'runs', '42', 'x9y', 'a', 'I'),
  fc.constantFrom(' ', '  ', '\t', '\r', '\v', '\f', '-', '_', '.', ',', '`', '#', '(', ')'),
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }),
);
const asciiLine = fc.array(piece, { maxLength: 14 }).map((p) => p.join(''));
const name = fc.constantFrom('pdf-tools', 'Rube MCP', 'tools2 v2', 'x', '42 things', 'getWeather');

describe('analyseBodyLine', () => {
  it('gives analyzeTermsV4 and lineKey of an ASCII line in one scan', () => {
    fc.assert(
      fc.property(asciiLine, name, (line, n) => {
        const names = nameWords(n);
        expect(asciiBodyLine(line, names)).toEqual({
          terms: analyzeTermsV4(line),
          key: lineKey(line, names),
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the two functions as they are for any other line', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), name, (line, n) => {
        const names = nameWords(n);
        expect(analyseBodyLine(line, names)).toEqual({
          terms: analyzeTermsV4(line),
          key: lineKey(line, names),
        });
      }),
      { numRuns: 1000 },
    );
    const names = nameWords('café tools');
    expect(analyseBodyLine('Use Café-Tools 日本語 3×', names)).toEqual({
      terms: analyzeTermsV4('Use Café-Tools 日本語 3×'),
      key: lineKey('Use Café-Tools 日本語 3×', names),
    });
  });
});
