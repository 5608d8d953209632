/**
 * Tokenizer, stop-words and stemming (src/text): letters and digits of any script make tokens;
 * hyphens, underscores, dots, slashes and everything else separate them; emoji never make tokens.
 */
import { describe, expect, it } from 'vitest';
import {
  contentTokens,
  distinctContentTokens,
  isStopWord,
  stem,
  tokenize,
} from '../../src/text/index.js';
import { STOP_WORDS } from '../../src/text/stop-words.js';

describe('tokenize', () => {
  it('splits on hyphens, underscores, dots, slashes, spaces and punctuation', () => {
    expect(tokenize('pdf-toolkit pdf_toolkit pdf.toolkit src/pdf\\toolkit')).toEqual([
      'pdf',
      'toolkit',
      'pdf',
      'toolkit',
      'pdf',
      'toolkit',
      'src',
      'pdf',
      'toolkit',
    ]);
    expect(tokenize('Hello, world! (v2.1; x=3)')).toEqual(['hello', 'world', 'v2', '1', 'x', '3']);
  });

  it('keeps letters and digits of any script, folded', () => {
    expect(tokenize('東京 données Ｐｄｆ ﬁle Привет हिन्दी ١٢٣')).toEqual([
      '東京',
      'données',
      'pdf',
      'file',
      'привет',
      'हिन्दी',
      '١٢٣',
    ]);
  });

  it('drops emoji, including variation selectors, skin tones, ZWJ sequences and keycaps', () => {
    expect(tokenize('I ❤️ pdf 👍🏽 👩‍💻 🏳️‍🌈 📄')).toEqual(['i', 'pdf']);
    expect(tokenize('step 1️⃣ then #️⃣')).toEqual(['step', '1', 'then']);
  });

  it('gives no tokens for text without letters or digits', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -_./\\ !? 🎉 \u200b')).toEqual([]);
  });

  it('keeps duplicates and order', () => {
    expect(tokenize('a b a')).toEqual(['a', 'b', 'a']);
  });
});

describe('stop-words', () => {
  it('removes English stop-words, contraction pieces included', () => {
    expect(contentTokens("The PDF isn't what you'd extract from a table")).toEqual([
      'pdf',
      'extract',
      'table',
    ]);
  });

  it('keeps distinct content tokens in first-seen order', () => {
    expect(distinctContentTokens('merge the pdf, then merge a PDF')).toEqual(['merge', 'pdf']);
  });

  it('holds only folded single tokens', () => {
    for (const w of STOP_WORDS) expect(tokenize(w)).toEqual([w]);
    expect(isStopWord('the')).toBe(true);
    expect(isStopWord('pdf')).toBe(false);
  });
});

describe('stem', () => {
  it('applies the Porter stemmer to folded Latin tokens', () => {
    expect(stem('running')).toBe('run');
    expect(stem('skills')).toBe('skill');
    expect(stem('generalization')).toBe('gener');
  });

  it('passes tokens with digits or other scripts unchanged', () => {
    expect(stem('café')).toBe('café');
    expect(stem('v2')).toBe('v2');
    expect(stem('東京')).toBe('東京');
  });
});
