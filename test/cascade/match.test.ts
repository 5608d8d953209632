/**
 * Matching at a node (docs/cascade.md "The crawl", steps 4–6): the fast path for ASCII indexes (one
 * case-insensitive search per line) agrees with the plain rule (fold, split, substring) on random
 * lines and needs; ranking puts leaves and self entries above descents; the overlay only narrows
 * a tie.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSkillIndex, splitKeywords } from '../../src/cascade/index-file.js';
import { bestHits, breakTie, entryHits, foldText, prepareNeed } from '../../src/cascade/match.js';

const chars = fc.constantFrom('a', 'B', 'c', '-', ' ', ',', ':', '.', 'é', 'Ｃ', 'ß', '\t');
const text = fc.array(chars, { maxLength: 30 }).map((cs) => cs.join(''));

describe('entry matching', () => {
  it('takes the ASCII fast path only where it gives the plain answer', () => {
    fc.assert(
      fc.property(text, text, (line, needText) => {
        fc.pre(needText.trim() !== '');
        const entries = scanSkillIndex(`k${line}`).entries;
        fc.pre(entries.length === 1);
        const entry = entries[0]!;
        const need = prepareNeed(needText);
        const plain =
          foldText(entry.key).includes(need.folded) ||
          splitKeywords(entry.keywordText).some((k) => foldText(k).includes(need.folded));
        const ascii = /^[\x00-\x7f]*$/.test(`k${line}`);
        expect(entryHits(entry, need, ascii)).toBe(plain);
        expect(entryHits(entry, need, false)).toBe(plain);
      }),
      { numRuns: 2000 },
    );
  });

  it('ranks a leaf or a self entry above a descent, and keeps file order among equals', () => {
    const { entries } = scanSkillIndex('docs/: pdf\npdf-b: x\n.: pdf\npdf-a: y\n');
    expect(bestHits(entries, prepareNeed('pdf')).map((e) => e.key)).toEqual([
      'pdf-b',
      '.',
      'pdf-a',
    ]);
    expect(bestHits(entries, prepareNeed('docs')).map((e) => e.key)).toEqual(['docs/']);
  });

  it('lets the overlay narrow a tie but never empty it or add to it', () => {
    const { entries } = scanSkillIndex('a: csv\nb: csv\nc: csv\n');
    const need = prepareNeed('csv encodings');
    const sections = new Map([
      ['a', 'fixes csv encodings'],
      ['b', 'csv viewer'],
      ['z', 'csv encodings csv encodings'],
    ]);
    expect(breakTie(entries, sections, need.tokens).map((e) => e.key)).toEqual(['a']);
    expect(breakTie(entries, new Map(), need.tokens).map((e) => e.key)).toEqual(['a', 'b', 'c']);
  });
});
