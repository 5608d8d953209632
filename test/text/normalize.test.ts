/**
 * fold (src/text/normalize.ts): compatibility forms and case meet as one word.
 */
import { describe, expect, it } from 'vitest';
import { fold } from '../../src/text/index.js';

describe('fold', () => {
  it('folds full-width letters and digits to plain lower-case ASCII', () => {
    expect(fold('ＰＤＦ Ｔｏｏｌｋｉｔ １２３')).toBe('pdf toolkit 123');
  });

  it('expands ligatures and compatibility letters', () => {
    expect(fold('ﬁle ﬂow')).toBe('file flow');
    expect(fold('𝐁𝐨𝐥𝐝')).toBe('bold');
    expect(fold('Ⅻ')).toBe('xii');
  });

  it('lower-cases any script and composes accents', () => {
    expect(fold('ÉCOLE Straße ΣΟΦΙΑ')).toBe('école straße σοφια');
    // A decomposed e + combining acute composes to the single code point.
    expect(fold('Cafe\u0301')).toBe('caf\u00e9');
  });

  it('is idempotent', () => {
    for (const s of ['ＰＤＦ', 'ﬁle', 'İstanbul', 'Cafe\u0301', 'ǅ'])
      expect(fold(fold(s))).toBe(fold(s));
  });
});
