/**
 * The page's pure helpers (web/explain.ts, web/links.ts): bar segments from both explanation shapes
 * (v1/v2 fields and the generic `components` list of v3), dropped tokens, highlight runs that give
 * back the text exactly, and the link validator that refuses script URLs.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  droppedTokens,
  explanationMultipliers,
  explanationPenalties,
  explanationSegments,
  highlightRuns,
  matchedTokens,
} from '../../web/explain.js';
import { safeHref } from '../../web/links.js';

const V1_SHAPE = {
  policy: 'tf.skillrouter.hybrid-lexical.v1',
  query_tokens: ['extract', 'pdf'],
  common_tokens: ['tables'],
  exact: {
    keywords: { matched: ['extract', 'pdf'], points: 6 },
    name: { matched: ['pdf'], points: 2 },
    description: { matched: [], points: 0 },
    total: 8,
  },
  fts: { raw: 8.7, relevance: 0.8, weight: 0.6, weighted: 0.48 },
  fuzzy: {
    matches: [{ query_token: 'pdff', term: 'pdfs', distance: 1, allowed: 1 }],
    relevance: 0.5,
    weight: 0.35,
    weighted: 0.175,
  },
  base: 8.655,
  telemetry: { suggestions: 3, fetches: 1, multiplier: 1.05 },
  lifecycle: { state: 'deprecated', multiplier: 0.5 },
  final: 4.544,
};

const V3_SHAPE = {
  policy: 'tf.skillrouter.bm25f.v3',
  query_tokens: ['extract', 'pdf'],
  components: [
    { name: 'bm25f.name', points: 1.25 },
    { name: 'bm25f.description', points: 0.75 },
    { name: 'usage', points: 0 },
    { name: 'bm25f.keywords', points: 2 },
  ],
  dropped_tokens: [
    { token: 'tables', reason: 'common' },
    { token: 'the', reason: 'stop-word' },
  ],
  base: 4,
  telemetry: { multiplier: 1 },
  lifecycle: { multiplier: 1 },
  final: 4,
};

describe('explanationPenalties', () => {
  // The components of a v4 explanation whose request hit the skill's "do not use for" clause.
  const V4_SHAPE = {
    policy: 'tf.skillrouter.bm25f.v4',
    components: [
      { name: 'name', points: 0 },
      { name: 'description', points: 0.24 },
      { name: 'body', points: 0.12 },
      { name: 'name_phrase', points: 0 },
      { name: 'boundary', points: -0.3 },
      { name: 'exclusion', points: -0.01 },
    ],
    base: 0.05,
  };

  it('reads the components that take points off, in order; the bar keeps those that add', () => {
    expect(explanationPenalties(V4_SHAPE)).toEqual([
      { name: 'boundary', points: -0.3 },
      { name: 'exclusion', points: -0.01 },
    ]);
    expect(explanationSegments(V4_SHAPE).map((s) => s.name)).toEqual(['description', 'body']);
    const sum = [...explanationSegments(V4_SHAPE), ...explanationPenalties(V4_SHAPE)].reduce(
      (t, s) => t + s.points,
      0,
    );
    expect(sum).toBeCloseTo(V4_SHAPE.base, 9);
  });

  it('finds none in the v1/v2 shape, nor in a malformed explanation', () => {
    expect(explanationPenalties(V1_SHAPE)).toEqual([]);
    for (const bad of [
      null,
      undefined,
      3,
      'x',
      { components: 'no' },
      { components: [{ points: -1 }] },
    ])
      expect(explanationPenalties(bad)).toEqual([]);
  });
});

describe('explanationSegments', () => {
  it('reads the v1/v2 fields: keywords, name, description, fts, fuzzy; zero ones left out', () => {
    expect(explanationSegments(V1_SHAPE)).toEqual([
      { name: 'keywords', points: 6 },
      { name: 'name', points: 2 },
      { name: 'fts', points: 0.48 },
      { name: 'fuzzy', points: 0.175 },
    ]);
  });

  it('reads the generic components in their order when present', () => {
    const segs = explanationSegments(V3_SHAPE);
    expect(segs.map((s) => s.name)).toEqual(['bm25f.name', 'bm25f.description', 'bm25f.keywords']);
    expect(segs.reduce((s, x) => s + x.points, 0)).toBe(V3_SHAPE.base);
  });

  it('prefers components over v1/v2 fields when both are there', () => {
    expect(explanationSegments({ ...V1_SHAPE, components: [{ name: 'x', points: 1 }] })).toEqual([
      { name: 'x', points: 1 },
    ]);
  });

  it('yields nothing for a malformed explanation rather than throwing', () => {
    for (const bad of [
      null,
      undefined,
      3,
      'x',
      [],
      { components: 'no' },
      { components: [{ points: 2 }, null] },
      { exact: { keywords: { points: 'NaN' } } },
    ]) {
      expect(explanationSegments(bad)).toEqual([]);
    }
  });

  it('sums to the base on any v1/v2 shape with non-negative parts (property)', () => {
    const part = fc.double({ min: 0, max: 100, noNaN: true });
    fc.assert(
      fc.property(part, part, part, part, part, (k, n, d, f, z) => {
        const e = {
          exact: { keywords: { points: k }, name: { points: n }, description: { points: d } },
          fts: { weighted: f },
          fuzzy: { weighted: z },
        };
        const sum = explanationSegments(e).reduce((s, x) => s + x.points, 0);
        expect(sum).toBeCloseTo(k + n + d + f + z, 9);
      }),
    );
  });
});

describe('multipliers, dropped and matched tokens', () => {
  it('reads both shapes', () => {
    expect(explanationMultipliers(V1_SHAPE)).toEqual({ telemetry: 1.05, lifecycle: 0.5 });
    expect(explanationMultipliers({})).toEqual({ telemetry: 1, lifecycle: 1 });
    expect(droppedTokens(V1_SHAPE)).toEqual([{ token: 'tables', reason: 'common' }]);
    expect(droppedTokens(V3_SHAPE)).toEqual(V3_SHAPE.dropped_tokens);
    expect(matchedTokens(V1_SHAPE).sort()).toEqual(['extract', 'pdf', 'pdfs']);
    expect(matchedTokens(V3_SHAPE)).toEqual(['extract', 'pdf']);
  });
});

describe('highlightRuns', () => {
  it('marks matched words, by stem-like prefix too, ignoring case and accents', () => {
    const runs = highlightRuns('Extract TABLES from PDFs; deploying Café', [
      'extract',
      'table',
      'pdf',
      'deploy',
      'cafe',
    ]);
    expect(runs.filter((r) => r.hit).map((r) => r.text)).toEqual([
      'Extract',
      'TABLES',
      'PDFs',
      'deploying',
      'Café',
    ]);
  });

  it('does not mark unrelated words that only share a short prefix', () => {
    expect(
      highlightRuns('data database date', ['dataset'])
        .filter((r) => r.hit)
        .map((r) => r.text),
    ).toEqual([]);
  });

  it('joins back to the exact text (property)', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
        (text, tokens) => {
          expect(
            highlightRuns(text, tokens)
              .map((r) => r.text)
              .join(''),
          ).toBe(text);
        },
      ),
    );
  });
});

describe('safeHref', () => {
  it('keeps http(s), mailto, relative paths and fragments', () => {
    for (const ok of [
      'https://example.com/a?b=c',
      'http://x.test',
      'mailto:a@b.test',
      '/skills/pdf',
      'docs/readme.md',
      '#usage',
      '?q=1',
    ]) {
      expect(safeHref(ok)).toBe(ok);
    }
  });

  it('drops script and other schemes, however they are disguised', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      'vbscript:msgbox(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      '//evil.example/x',
      '\\\\evil.example\\x',
      '',
    ]) {
      expect(safeHref(bad), JSON.stringify(bad)).toBeUndefined();
    }
  });
});
