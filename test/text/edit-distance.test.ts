/**
 * boundedEditDistance (src/text/edit-distance.ts) against a naive full-matrix Levenshtein:
 * for all strings and k in 0..4 the result equals min(naive, k + 1).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedEditDistance } from '../../src/text/index.js';

// The textbook O(|a|·|b|) dynamic programme over UTF-16 code units: the model.
function naiveLevenshtein(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    d.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0) d[i]!.push(j);
      else if (j === 0) d[i]!.push(i);
      else {
        const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
        d[i]!.push(Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost));
      }
    }
  }
  return d[a.length]![b.length]!;
}

describe('boundedEditDistance', () => {
  it('gives known distances', () => {
    expect(boundedEditDistance('kitten', 'sitting', 4)).toBe(3);
    expect(boundedEditDistance('kitten', 'sitting', 2)).toBe(3);
    expect(boundedEditDistance('', '', 0)).toBe(0);
    expect(boundedEditDistance('', 'abc', 3)).toBe(3);
    expect(boundedEditDistance('', 'abc', 2)).toBe(3);
    expect(boundedEditDistance('pdf', 'pdf', 0)).toBe(0);
    expect(boundedEditDistance('pdf', 'pfd', 0)).toBe(1);
    expect(boundedEditDistance('a', 'b', 0)).toBe(1);
  });

  it('is symmetric in its arguments', () => {
    expect(boundedEditDistance('flaw', 'lawn', 4)).toBe(boundedEditDistance('lawn', 'flaw', 4));
  });

  it('equals min(naive, k + 1) on a small alphabet (many near matches)', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 12 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, k) => {
        expect(boundedEditDistance(a, b, k)).toBe(Math.min(naiveLevenshtein(a, b), k + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals min(naive, k + 1) on arbitrary strings (any code unit)', () => {
    const word = fc.string({ unit: 'binary', maxLength: 20 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, k) => {
        expect(boundedEditDistance(a, b, k)).toBe(Math.min(naiveLevenshtein(a, b), k + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it('equals min(naive, k + 1) for a string and its small edits', () => {
    const edited = fc
      .tuple(
        fc.string({ unit: fc.constantFrom('x', 'y', 'z', 'w'), maxLength: 16 }),
        fc.array(fc.nat(), { maxLength: 5 }),
      )
      .map(([s, ops]) => {
        let t = s;
        for (const op of ops) {
          const at = t.length === 0 ? 0 : op % (t.length + 1);
          if (op % 3 === 0) t = t.slice(0, at) + 'q' + t.slice(at);
          else if (op % 3 === 1) t = t.slice(0, at) + t.slice(at + 1);
          else t = t.slice(0, at) + 'r' + t.slice(at + 1);
        }
        return [s, t] as const;
      });
    fc.assert(
      fc.property(edited, fc.integer({ min: 0, max: 4 }), ([a, b], k) => {
        expect(boundedEditDistance(a, b, k)).toBe(Math.min(naiveLevenshtein(a, b), k + 1));
      }),
      { numRuns: 3000 },
    );
  });
});
