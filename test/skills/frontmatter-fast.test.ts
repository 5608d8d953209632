/**
 * The frontmatter fast path must return exactly what the full `yaml` parser returns whenever it
 * answers at all. Two property tests: one over YAML-hostile text (indicators, quotes, comments,
 * core-schema scalars), where the fast path mostly declines; one over frontmatter generated inside
 * the fast path's subset on purpose (distinct plain keys; plain, double- and single-quoted scalars;
 * flow and block lists; comments, blank lines and CRLF), where it must answer for at least 80 % of
 * the runs, so the comparison is made on thousands of inputs rather than on the few the hostile
 * generator lets through. Plus the cases it must decline.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseFrontmatter } from '../../src/skills/index.js';
import { parseSimpleFrontmatter } from '../../src/skills/frontmatter-fast.js';

const full = (yaml: string): unknown => {
  const r = parseFrontmatter(yaml, 'SKILL.md', 2, { fastPath: false });
  return r.ok ? r.data : { error: r.problem.code };
};

// Characters chosen to hit YAML's indicators, quotes, comments and core-schema scalars.
const piece = fc.constantFrom(
  'pdf',
  'Extract',
  'text',
  ' ',
  ':',
  ': ',
  '#',
  ' #',
  "'",
  '"',
  '-',
  '- ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  '?',
  'true',
  'null',
  '~',
  '1',
  '1.10',
  '0x1F',
  '.inf',
  'é',
  '日本',
  '\\',
  '\\n',
  '\t',
  'a-b',
);
const text = fc.array(piece, { minLength: 0, maxLength: 8 }).map((p) => p.join(''));
const key = fc.constantFrom(
  'name',
  'description',
  'version',
  'keywords',
  'tags',
  'license',
  'x_y',
  'a-b',
  '__proto__',
  'name',
);
const value = fc.oneof(
  text,
  text.map((t) => JSON.stringify(t)),
  text.map((t) => `'${t.replace(/'/g, "''")}'`),
  fc.array(text, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
);
const line = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
  fc
    .tuple(key, fc.array(text, { minLength: 1, maxLength: 3 }))
    .map(([k, xs]) => `${k}:\n${xs.map((x) => `  - ${x}`).join('\n')}`),
  fc.constantFrom('# comment', '', '  indented: x', 'name:', 'key: value # trailing'),
);

// Inside the subset: a key is a letter or underscore, then letters, digits, `_` and `-`.
const subsetKey = fc
  .tuple(
    fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_'),
    fc.string({ unit: fc.constantFrom(...'abcxyz019_-'), maxLength: 12 }),
  )
  .map(([a, b]) => a + b)
  .filter((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype');
// A plain scalar: starts with a letter (Latin or not), then words separated by single spaces, each
// word free of YAML's flow and comment indicators; `:` only inside a word, never before a space.
const WORD_START = [
  ...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ',
  'é',
  'Ü',
  'ß',
  'д',
  '日',
  '本',
  'π',
];
const WORD_REST = [...WORD_START, ...'0123456789.-_/()+=;!?*&%@$~<>^', 'é', '日'];
const word = fc
  .tuple(
    fc.constantFrom(...WORD_START),
    fc.string({ unit: fc.constantFrom(...WORD_REST), maxLength: 10 }),
  )
  .map(([a, b]) => a + b);
const plainScalar = fc
  .array(
    fc.oneof(
      word,
      fc.tuple(word, word).map(([a, b]) => `${a}:${b}`),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((ws) => ws.join(' '));
// Quoted scalars may hold anything on one line: quotes, colons, hashes, brackets, unicode.
const anyText = fc.string({
  unit: fc.oneof(
    fc.constantFrom(...'ab :#[]{},"\'`-|>!&*%@'),
    fc.constantFrom('é', '日本', '😀', '\t'),
  ),
  maxLength: 24,
});
const doubleQuoted = anyText.map((t) => JSON.stringify(t));
const singleQuoted = anyText.map((t) => `'${t.replace(/'/g, "''")}'`);
const subsetScalar = fc.oneof(plainScalar, doubleQuoted, singleQuoted);
const flowItem = fc.array(word, { minLength: 1, maxLength: 3 }).map((ws) => ws.join(' '));
const subsetEntry = (k: string): fc.Arbitrary<string[]> =>
  fc.oneof(
    { weight: 4, arbitrary: subsetScalar.map((v) => [`${k}: ${v}`]) },
    {
      weight: 1,
      arbitrary: fc.array(flowItem, { maxLength: 4 }).map((xs) => [`${k}: [${xs.join(', ')}]`]),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom('', '  ', '    '),
          fc.array(subsetScalar, { minLength: 1, maxLength: 4 }),
        )
        .map(([indent, xs]) => [`${k}:`, ...xs.map((x) => `${indent}- ${x}`)]),
    },
  );
const subsetDoc = fc
  .uniqueArray(subsetKey, { minLength: 1, maxLength: 6 })
  .chain((keys) => fc.tuple(...keys.map(subsetEntry)))
  .chain((entries) =>
    fc
      .tuple(
        fc.array(fc.constantFrom('', '# a comment', '#'), {
          minLength: entries.length,
          maxLength: entries.length,
        }),
        fc.boolean(),
      )
      .map(([extras, crlf]) => {
        const lines = entries.flatMap((e, i) => (extras[i] === '' ? e : [extras[i]!, ...e]));
        return lines.join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n');
      }),
  );

describe('frontmatter fast path', () => {
  it('equals the full parser whenever it answers', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 6 }), (lines) => {
        const yaml = lines.join('\n') + '\n';
        const fast = parseSimpleFrontmatter(yaml);
        if (fast !== undefined) expect(fast).toEqual(full(yaml));
      }),
      { numRuns: 3000 },
    );
  });

  it('equals the full parser on frontmatter generated inside its subset, answering for ≥ 80 % of runs', () => {
    const RUNS = 3000;
    let compared = 0;
    fc.assert(
      fc.property(subsetDoc, (yaml) => {
        const fast = parseSimpleFrontmatter(yaml);
        if (fast === undefined) return;
        compared++;
        expect(fast).toEqual(full(yaml));
      }),
      { numRuns: RUNS },
    );
    expect(compared).toBeGreaterThanOrEqual(0.8 * RUNS);
  });

  it('answers for typical skill frontmatter', () => {
    const yaml = [
      'name: pdf-toolkit',
      'description: "Extract text and tables from PDF files. Use when: the user has a .pdf"',
      "license: 'Apache-2.0'",
      'keywords: [pdf, forms, merge pages]',
      'tags:',
      '  - documents',
      '  - office',
      '',
    ].join('\n');
    const fast = parseSimpleFrontmatter(yaml);
    expect(fast).toEqual({
      name: 'pdf-toolkit',
      description: 'Extract text and tables from PDF files. Use when: the user has a .pdf',
      license: 'Apache-2.0',
      keywords: ['pdf', 'forms', 'merge pages'],
      tags: ['documents', 'office'],
    });
    expect(fast).toEqual(full(yaml));
  });

  it.each([
    ['a number', 'version: 1.10\n'],
    ['a boolean', 'user-invocable: true\n'],
    ['a duplicate key', 'name: a\nname: b\n'],
    ['a nested map', 'metadata:\n  version: "1"\n'],
    ['a trailing comment', 'name: a # note\n'],
    ['a multi-line plain scalar', 'description: one\n  two\n'],
    ['an anchor', 'name: &a x\n'],
    ['a block scalar', 'description: |\n  text\n'],
    ['a prototype key', '__proto__: x\n'],
  ])('declines %s (the full parser decides)', (_what, yaml) => {
    expect(parseSimpleFrontmatter(yaml)).toBeUndefined();
  });
});
