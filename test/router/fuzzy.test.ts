/**
 * Fuzzy expansion (src/router/search/fuzzy.ts): the scan a fresh process uses and the bigram index
 * a long-lived one builds give the same terms at the same distances in the same order, and both
 * are exactly the vocabulary terms within the allowed edit distance.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FuzzyIndex, SCANS_BEFORE_INDEX } from '../../src/router/search/fuzzy.js';
import { allowedDistance } from '../../src/router/search/policies/shared.js';
import { boundedEditDistance } from '../../src/text/index.js';

// An index whose scans are used up, so it answers from the bigram index.
function indexed(terms: string[]): FuzzyIndex {
  const f = new FuzzyIndex(terms);
  for (let i = 0; i < SCANS_BEFORE_INDEX; i++) f.expand('zzzzzz');
  f.expand('zzzzzz');
  return f;
}

// Small alphabets make near terms common; a few wide characters and long terms too.
const CHARS = ['a', 'b', 'c', 'd', 'e', 'r', 's', 't', 'é', '中', '1', 'A', '@'];
const word = fc
  .array(fc.constantFrom(...CHARS), { minLength: 1, maxLength: 12 })
  .map((cs) => cs.join(''));

// A word with up to three random edits (substitute, insert, delete): near and far neighbours.
const edited = (w: string): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.nat(), fc.constantFrom(...CHARS), fc.constantFrom('sub', 'ins', 'del')), {
      maxLength: 3,
    })
    .map((edits) => {
      let s = w;
      for (const [at, c, op] of edits) {
        const i = s.length === 0 ? 0 : at % (s.length + (op === 'ins' ? 1 : 0));
        if (op === 'sub') s = s.slice(0, i) + c + s.slice(i + 1);
        else if (op === 'ins') s = s.slice(0, i) + c + s.slice(i);
        else s = s.slice(0, i) + s.slice(i + 1);
      }
      return s;
    });

// A vocabulary dense around a few base words, and tokens drawn near them.
const library = fc
  .array(word, { minLength: 1, maxLength: 5 })
  .chain((bases) =>
    fc.tuple(
      fc.array(fc.constantFrom(...bases).chain(edited), { maxLength: 80 }),
      fc.array(fc.constantFrom(...bases).chain(edited), { minLength: 1, maxLength: 6 }),
    ),
  );

describe('FuzzyIndex', () => {
  it('answers from a scan first and from the bigram index after SCANS_BEFORE_INDEX scans', () => {
    const f = new FuzzyIndex(['report', 'reports', 'export']);
    for (let i = 0; i < SCANS_BEFORE_INDEX; i++) {
      expect([...f.expand('reprot')]).toEqual([['report', 2]]);
      expect(f.indexed).toBe(false);
    }
    expect([...f.expand('reprot')]).toEqual([['report', 2]]);
    expect(f.indexed).toBe(true);
    // Too short for any distance: nothing, and no scan spent.
    expect(new FuzzyIndex(['abc']).expand('abd').size).toBe(0);
  });

  it('scan and index agree term for term and in order, and both are exact', () => {
    let several = 0;
    fc.assert(
      fc.property(library, ([vocab, tokens]) => {
        const byIndex = indexed(vocab);
        for (const token of tokens) {
          const scanned = [...new FuzzyIndex(vocab).expand(token)];
          expect(scanned).toEqual([...byIndex.expand(token)]);
          const d = allowedDistance(token.length);
          const exact = new Map(
            [...new Set(vocab)]
              .filter((t) => t !== token && d > 0)
              .map((t) => [t, boundedEditDistance(token, t, d)] as const)
              .filter(([, dist]) => dist <= d),
          );
          expect(new Map(scanned)).toEqual(exact);
          if (scanned.length >= 2) several++;
        }
      }),
      { numRuns: 400 },
    );
    // The generator does reach expansions of several terms, where order can differ.
    expect(several).toBeGreaterThan(100);
  });

  it('keeps a term with every character folded onto one mask bit (code units 32 apart)', () => {
    // 'a' (97) and 'A' (65) share a bit; so do ' ' (32) and '@' (64): folding only merges bits.
    const vocab = ['aaaa@', 'AAAA ', 'bbbbb'];
    expect([...new FuzzyIndex(vocab).expand('aaaa ')]).toEqual([...indexed(vocab).expand('aaaa ')]);
    expect(new FuzzyIndex(vocab).expand('aaaa ').get('aaaa@')).toBe(1);
  });
});
