/**
 * CJK terms for policy bm25f.v4 (text/cjk.ts, analyzeTermsV4): Han and kana runs become character
 * bigrams (a single character stays), cut out of the Latin words around them; text without CJK
 * gets exactly v3's terms (a property).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTerms, analyzeTermsV4, cjkTerms, hasCjk } from '../../src/text/index.js';

describe('CJK bigrams', () => {
  it('turns a Han run into overlapping bigrams, a single character into itself', () => {
    expect(cjkTerms('收尾')).toEqual(['收尾']);
    expect(cjkTerms('帮我收尾')).toEqual(['帮我', '我收', '收尾']);
    expect(cjkTerms('我')).toEqual(['我']);
    expect(cjkTerms('カタカナ')).toEqual(['カタ', 'タカ', 'カナ']);
  });

  it('cuts CJK runs out of mixed tokens, so the Latin words are v3 words', () => {
    expect(analyzeTermsV4('帮我搜一下PubMed上的论文')).toEqual([
      '帮我',
      '我搜',
      '搜一',
      '一下',
      'pubm',
      'pub',
      'med',
      '上的',
      '的论',
      '论文',
    ]);
    expect(analyzeTermsV4('这个 session 快结束了')).toEqual([
      '这个',
      'session',
      '快结',
      '结束',
      '束了',
    ]);
  });

  it('leaves Hangul to the word rules', () => {
    expect(hasCjk('세이브포인트')).toBe(false);
    expect(analyzeTermsV4('세이브포인트 저장해줘')).toEqual(analyzeTerms('세이브포인트 저장해줘'));
  });

  it('gives text without CJK exactly the v3 terms (property)', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        fc.pre(!hasCjk(s));
        expect(analyzeTermsV4(s)).toEqual(analyzeTerms(s));
      }),
      { numRuns: 300 },
    );
  });
});
