/**
 * Path glob overlap and inclusion (docs/substrate.md). Examples pin the syntax; property tests hold
 * the overlap test to an independent regular-expression model: every witness it returns matches
 * both globs (sound), and whenever some small path matches both, it finds an overlap (complete on
 * that universe). Inclusion is checked to be sound against the same model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { globMatches, parseGlob, type Glob } from '../../src/substrate/index.js';
import {
  MAX_BRACE_EXPANSIONS,
  globIncludes,
  globOverlap,
  splitGlobList,
} from '../../src/substrate/glob.js';

function g(source: string): Glob {
  const p = parseGlob(source);
  if (!p.ok) throw new Error(`bad glob ${source}: ${p.reason}`);
  return p.glob;
}

// The model: a glob alternative as a regular expression over "/seg/seg" strings.
function modelRegex(alt: string): RegExp {
  const segs = alt.split('/').filter((s) => s !== '');
  let re = '^';
  for (const s of segs) {
    if (s === '**') {
      re += '(?:/[^/]+)*';
      continue;
    }
    re += '/';
    for (const ch of s)
      re += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(re + '$');
}

function modelMatches(alt: string, path: string): boolean {
  return modelRegex(alt).test('/' + path);
}

// Paths of one to three segments over {a, b} of one or two letters: 258 paths.
const SEGMENTS = ['a', 'b', 'aa', 'ab', 'ba', 'bb'];
const UNIVERSE: string[] = [];
for (const x of SEGMENTS) {
  UNIVERSE.push(x);
  for (const y of SEGMENTS) {
    UNIVERSE.push(`${x}/${y}`);
    for (const z of SEGMENTS) UNIVERSE.push(`${x}/${y}/${z}`);
  }
}

const segmentArb = fc.oneof(
  { weight: 1, arbitrary: fc.constant('**') },
  {
    weight: 4,
    arbitrary: fc
      .array(fc.constantFrom('a', 'b', '?', '*'), { minLength: 1, maxLength: 3 })
      .map((cs) => cs.join('')),
  },
);
const globArb = fc.array(segmentArb, { minLength: 1, maxLength: 3 }).map((ss) => ss.join('/'));

describe('parseGlob', () => {
  it.each([
    ['./src/api/', 'src/api/x/y.ts', true],
    ['/src/*.ts', 'src/a.ts', true],
    ['src/**/x.ts', 'src/x.ts', true],
    ['src/**', 'src', true],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['{src,lib}/{a,b{1,2}}', 'lib/b2', true],
    ['src/a\\*b', 'src/a*b', true],
    ['src/a\\*b', 'src/axb', false],
    ['src/{a}', 'src/{a}', true],
    ['[ab].ts', '[ab].ts', true],
    ['[ab].ts', 'a.ts', false],
    ['src/*', 'src/a/b', false],
    ['a?c', 'abbc', false],
  ])('%s matches %s: %s', (glob, path, expected) => {
    expect(globMatches(g(glob), path)).toBe(expected);
  });

  it('refuses globs that name no path and brace bombs', () => {
    expect(parseGlob('./').ok).toBe(false);
    expect(parseGlob('  ').ok).toBe(false);
    const bomb = '{a,b}'.repeat(Math.ceil(Math.log2(MAX_BRACE_EXPANSIONS)) + 1);
    expect(parseGlob(bomb)).toMatchObject({ ok: false });
  });

  it('splits a Fires on cell at commas and spaces outside braces', () => {
    expect(splitGlobList('src/**/*.{ts,js}, config/**  test/*.ts,,')).toEqual([
      'src/**/*.{ts,js}',
      'config/**',
      'test/*.ts',
    ]);
  });
});

describe('globOverlap', () => {
  it.each([
    ['src/**', 'src/api/x.ts', true],
    ['src/api/**/*.ts', 'src/db/**', false],
    ['**/*.ts', '*.md', false],
    ['src/*/x.ts', 'src/a/*', true],
    ['a/**/b', 'a/b', true],
    ['*.{ts,js}', '*.js', true],
    ['x?', 'xyz', false],
    ['**', '**', true],
    ['src/**/*.test.ts', 'src/**/fixtures/**', true],
    ['migrations/**/*.sql', 'src/db/**', false],
  ])('%s and %s: %s', (a, b, expected) => {
    const w = globOverlap(g(a), g(b));
    expect(w !== undefined).toBe(expected);
    if (w !== undefined) {
      expect(globMatches(g(a), w)).toBe(true);
      expect(globMatches(g(b), w)).toBe(true);
    }
  });

  it('is symmetric', () => {
    fc.assert(
      fc.property(globArb, globArb, (a, b) => {
        expect(globOverlap(g(a), g(b)) !== undefined).toBe(globOverlap(g(b), g(a)) !== undefined);
      }),
    );
  });

  it('returns a witness path that matches both globs in the model (sound)', () => {
    fc.assert(
      fc.property(globArb, globArb, (a, b) => {
        const w = globOverlap(g(a), g(b));
        if (w !== undefined) {
          expect(w).not.toBe('');
          expect(modelMatches(a, w)).toBe(true);
          expect(modelMatches(b, w)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('finds an overlap whenever a small path matches both globs in the model (complete)', () => {
    fc.assert(
      fc.property(globArb, globArb, (a, b) => {
        const common = UNIVERSE.find((p) => modelMatches(a, p) && modelMatches(b, p));
        if (common !== undefined) expect(globOverlap(g(a), g(b))).toBeDefined();
      }),
      { numRuns: 500 },
    );
  });

  it('matches paths exactly as the model does', () => {
    fc.assert(
      fc.property(globArb, (a) => {
        for (const p of UNIVERSE) expect(globMatches(g(a), p)).toBe(modelMatches(a, p));
      }),
      { numRuns: 100 },
    );
  });
});

describe('globIncludes', () => {
  it.each([
    ['src/**', 'src/api/**', true],
    ['src/**/*.ts', 'src/api/x.ts', true],
    ['**', 'anything/at/all', true],
    ['src/**/*.ts', 'src/**', false],
    ['src/db/**', 'src/**', false],
    ['*.{ts,js}', '*.ts', true],
    ['*.ts', '*.{ts,js}', false],
    ['src/*', 'src/?', true],
    ['src/?', 'src/*', false],
  ])('%s includes %s: %s', (outer, inner, expected) => {
    expect(globIncludes(g(outer), g(inner))).toBe(expected);
  });

  it('never claims an inclusion the model contradicts (sound)', () => {
    fc.assert(
      fc.property(globArb, globArb, (outer, inner) => {
        if (!globIncludes(g(outer), g(inner))) return;
        for (const p of UNIVERSE)
          if (modelMatches(inner, p)) expect(modelMatches(outer, p)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('includes every glob in itself', () => {
    fc.assert(
      fc.property(globArb, (a) => {
        expect(globIncludes(g(a), g(a))).toBe(true);
      }),
    );
  });
});
