/**
 * Query classification and the topic relevance rule (docs/substrate.md, docs/substrate.md): the
 * thresholds for full, partial, non-match and ambiguous are pinned here exactly as the docs state
 * them, and the judgement never gets weaker as more evidence is read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RELEVANCE_RULE,
  compareTerms,
  evidenceOf,
  isNear,
  judge,
  type Judgement,
} from '../../src/substrate/relevance.js';
import { parseQuery, queryKindOf } from '../../src/substrate/query.js';

describe('parseQuery', () => {
  it('classifies tags, path globs and topics', () => {
    expect(parseQuery('tag:Payments')).toMatchObject({ kind: 'tag', tag: 'Payments' });
    expect(parseQuery('TAG: web/api ')).toMatchObject({ kind: 'tag', tag: 'web/api' });
    expect(parseQuery('src/api/**')).toMatchObject({ kind: 'path glob' });
    expect(parseQuery('*.sql')).toMatchObject({ kind: 'path glob' });
    expect(parseQuery('The payment retries')).toMatchObject({
      kind: 'topic',
      terms: ['payment', 'retri'],
    });
    expect(parseQuery('retry Retries RETRYING')).toMatchObject({ kind: 'topic', terms: ['retri'] });
    expect(queryKindOf('a/b')).toBe('path glob');
  });

  it.each(['', '   ', 'the of and', 'tag:', 'tag:   ', './', '!!!'])(
    'refuses %j with INVALID_QUERY',
    (q) => {
      expect(() => parseQuery(q)).toThrow(expect.objectContaining({ code: 'INVALID_QUERY' }));
    },
  );
});

describe('isNear', () => {
  it.each([
    ['auth', 'authent', true],
    ['authent', 'auth', true],
    ['aut', 'autom', false],
    ['tenant', 'tenanc', true],
    ['cach', 'catch', false],
    ['payment', 'payment', false],
    ['queue', 'queued', true],
    ['index', 'inbox', false],
  ])('%s ~ %s: %s', (a, b, expected) => {
    expect(isNear(a, b)).toBe(expected);
  });
});

describe('judge', () => {
  // [query term count, exact, near] → judgement, as docs/substrate.md states the rule.
  it.each<[number, number, number, Judgement]>([
    [1, 1, 0, 'full'],
    [1, 0, 1, 'ambiguous'],
    [1, 0, 0, 'non-match'],
    [2, 2, 0, 'full'],
    [2, 1, 0, 'ambiguous'],
    [2, 1, 1, 'ambiguous'],
    [2, 0, 1, 'ambiguous'],
    [2, 0, 0, 'non-match'],
    [3, 2, 0, 'partial'],
    [3, 1, 2, 'ambiguous'],
    [4, 2, 0, 'partial'],
    [5, 2, 3, 'ambiguous'],
    [5, 3, 0, 'partial'],
  ])('%i terms, %i exact, %i near: %s', (k, exact, near, expected) => {
    const ev = {
      exact: Array.from({ length: exact }, (_, i) => `e${i}`),
      near: Array.from({ length: near }, (_, i) => `n${i}~x`),
      absent: Array.from({ length: k - exact - near }, (_, i) => `a${i}`),
    };
    expect(judge(ev, k)).toBe(expected);
  });

  it('states its constants', () => {
    expect(RELEVANCE_RULE).toEqual({
      MIN_PREFIX: 4,
      MIN_NEAR_LENGTH: 5,
      MAX_NEAR_DISTANCE: 1,
      MIN_PARTIAL_TERMS: 2,
      PARTIAL_COVERAGE: 0.5,
    });
  });

  it('compares stems of case-folded, stop-word-free text', () => {
    const ev = compareTerms(
      ['payment', 'retri', 'auth', 'storm'],
      evidenceOf('RETRYING the Payments', 'authentication'),
    );
    expect(ev).toEqual({ exact: ['payment', 'retri'], near: ['auth~authent'], absent: ['storm'] });
  });

  it('never weakens as evidence grows (index ⊆ summary ⊆ body)', () => {
    const word = fc.constantFrom(
      'payment',
      'retry',
      'cache',
      'tenant',
      'auth',
      'authentication',
      'queue',
      'index',
      'webhook',
      'storm',
    );
    const rank: Record<Judgement, number> = { 'non-match': 0, ambiguous: 1, partial: 2, full: 3 };
    fc.assert(
      fc.property(
        fc.array(word, { minLength: 1, maxLength: 4 }),
        fc.array(word),
        fc.array(word),
        (query, first, more) => {
          const terms = [...new Set(evidenceOf(query.join(' ')))];
          const small = evidenceOf(first.join(' '));
          const large = evidenceOf(first.join(' '), more.join(' '));
          const a = judge(compareTerms(terms, small), terms.length);
          const b = judge(compareTerms(terms, large), terms.length);
          // More evidence can only move a judgement up, except that ambiguous may become a hit.
          expect(rank[b]).toBeGreaterThanOrEqual(rank[a]);
        },
      ),
    );
  });
});
