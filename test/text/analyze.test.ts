/**
 * v3 term analysis (src/text/analyze.ts): identifier splitting, and the ASCII fast path of
 * `identifierTokens` and of `tokenize` held equal to the general Unicode rules on every ASCII text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  asciiIdentifierTokens,
  identifierTokens,
  unicodeIdentifierTokens,
} from '../../src/text/analyze.js';
import { asciiTokenize, tokenize, unicodeTokenize } from '../../src/text/tokenize.js';

// Characters that exercise every rule: both cases, digits, separators, punctuation, controls.
const ASCII_PIECES = [
  'a',
  'b',
  'z',
  'A',
  'B',
  'Z',
  '0',
  '5',
  '9',
  ' ',
  '-',
  '_',
  '.',
  '/',
  ':',
  '\t',
  '\n',
  '\x00',
  '~',
  "'",
  'HTML',
  'Parser',
  'get',
  'Weather',
  'resnet50',
  'v2Beta',
];

// ASCII text: runs of the pieces above, or any ASCII characters.
const asciiText = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ASCII_PIECES), maxLength: 30 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)) }),
);

describe('identifierTokens', () => {
  it('splits camelCase, acronyms and letter/digit boundaries and keeps the whole word', () => {
    expect(identifierTokens('getWeather HTMLParser resnet50')).toEqual([
      'getweather',
      'get',
      'weather',
      'htmlparser',
      'html',
      'parser',
      'resnet50',
      'resnet',
      '50',
    ]);
    expect(identifierTokens('ABC plain')).toEqual(['abc', 'plain']);
    expect(identifierTokens('Ｐｄｆ naïve')).toEqual(['pdf', 'naïve']);
  });

  it('gives the same tokens through the ASCII fast path as through the Unicode rules', () => {
    fc.assert(
      fc.property(asciiText, (t) => {
        expect(asciiIdentifierTokens(t)).toEqual(unicodeIdentifierTokens(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the Unicode rules for any text with a character beyond ASCII', () => {
    expect(identifierTokens('caféBar')).toEqual(unicodeIdentifierTokens('caféBar'));
    expect(identifierTokens('caféBar')).toEqual(['cafébar', 'café', 'bar']);
  });
});

describe('tokenize', () => {
  it('gives the same tokens through the ASCII fast path as through the Unicode rules', () => {
    fc.assert(
      fc.property(asciiText, (t) => {
        expect(asciiTokenize(t)).toEqual(unicodeTokenize(t));
      }),
      { numRuns: 2000 },
    );
  });

  it('folds any script and drops emoji marks outside ASCII', () => {
    expect(tokenize('PDF-Toolkit pdf_toolkit')).toEqual(['pdf', 'toolkit', 'pdf', 'toolkit']);
    expect(tokenize('Ｐｄｆ naïve ❤️x 1️⃣')).toEqual(['pdf', 'naïve', 'x', '1']);
  });
});
