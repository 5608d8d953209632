/**
 * The v5 analyzer switches (src/text/analyze-v5.ts, issue 34 item 2): all off, the terms are v4's
 * exactly; each switch does what it says and nothing else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyzeTermsV4 } from '../../src/text/analyze.js';
import { MEANINGFUL_STOP_WORDS, analyzeTermsV5 } from '../../src/text/analyze-v5.js';
import { stem } from '../../src/text/stem.js';

const PIECES = [
  'JavaScript',
  'GitHub',
  'PostgreSQL',
  'builder',
  'k8s',
  'let',
  'const',
  'HTMLParser',
  'resnet50',
  'getWeather',
  '使用',
  '收尾',
  'session',
  'Ｆｕｌｌ',
  '❤️',
  ' ',
  '-',
  '_',
  '.',
  '\n',
  'the',
  'up',
  'é',
  'straße',
];

describe('analyzeTermsV5', () => {
  it("equals v4's terms with every switch off, on any text of these pieces", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        expect(analyzeTermsV5(text)).toEqual(analyzeTermsV4(text));
      }),
      { numRuns: 400 },
    );
  });

  it("equals v4's terms with every switch off, on any string", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        expect(analyzeTermsV5(text)).toEqual(analyzeTermsV4(text));
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a prose brand name whole: no java or script scoring on their own', () => {
    const q = 'explain the difference between let and const in JavaScript';
    expect(analyzeTermsV4(q)).toEqual(expect.arrayContaining(['java', 'script']));
    const v5 = analyzeTermsV5(q, { brands: true });
    expect(v5).toContain('javascript');
    expect(v5).not.toContain('java');
    expect(v5).not.toContain('script');
    expect(analyzeTermsV5('GitHub PostgreSQL', { brands: true })).toEqual([
      stem('github'),
      stem('postgresql'),
    ]);
    // Identifiers that are not brands still split as in v4.
    expect(analyzeTermsV5('getWeather', { brands: true })).toEqual(analyzeTermsV4('getWeather'));
  });

  it('keeps only the audited stop-words it is given', () => {
    const q = 'let the server spin up';
    expect(analyzeTermsV4(q)).not.toContain('let');
    const kept = analyzeTermsV5(q, { keepWords: MEANINGFUL_STOP_WORDS });
    expect(kept).toContain('let');
    expect(kept).toContain('up');
    expect(kept).not.toContain('the');
    expect(analyzeTermsV5(q, { keepWords: new Set(['let']) })).not.toContain('up');
  });

  it('adds the verb of an agent noun beside it, and leaves short words alone', () => {
    expect(analyzeTermsV5('builder', { agentNouns: true })).toEqual([
      stem('builder'),
      stem('build'),
    ]);
    expect(analyzeTermsV5('runner', { agentNouns: true })).toEqual([stem('runner'), stem('run')]);
    expect(analyzeTermsV5('formatter', { agentNouns: true })).toContain(stem('format'));
    expect(analyzeTermsV5('user order', { agentNouns: true })).toEqual(
      analyzeTermsV4('user order'),
    );
  });

  it('adds the word an abbreviation stands for beside it', () => {
    const v4 = analyzeTermsV4('deploy to k8s');
    const v5 = analyzeTermsV5('deploy to k8s', { abbreviations: true });
    expect(v5).toContain(stem('kubernetes'));
    expect(v5.filter((t) => t !== stem('kubernetes'))).toEqual(v4);
    expect(analyzeTermsV5('pg dump', { abbreviations: true })).toContain(stem('postgres'));
    expect(analyzeTermsV5('deploy to k8s')).not.toContain(stem('kubernetes'));
  });
});
