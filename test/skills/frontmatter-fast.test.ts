/**
 * The frontmatter fast path must return exactly what the full `yaml` parser returns whenever it
 * answers at all: a property test over generated frontmatter, plus the cases it must decline.
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
  'pdf', 'Extract', 'text', ' ', ':', ': ', '#', ' #', "'", '"', '-', '- ', '[', ']', '{', '}', ',', '&', '*', '!',
  '|', '>', '%', '@', '`', '?', 'true', 'null', '~', '1', '1.10', '0x1F', '.inf', 'é', '日本', '\\', '\\n', '\t', 'a-b',
);
const text = fc.array(piece, { minLength: 0, maxLength: 8 }).map((p) => p.join(''));
const key = fc.constantFrom('name', 'description', 'version', 'keywords', 'tags', 'license', 'x_y', 'a-b', '__proto__', 'name');
const value = fc.oneof(
  text,
  text.map((t) => JSON.stringify(t)),
  text.map((t) => `'${t.replace(/'/g, "''")}'`),
  fc.array(text, { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
);
const line = fc.oneof(
  fc.tuple(key, value).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key, fc.array(text, { minLength: 1, maxLength: 3 })).map(([k, xs]) => `${k}:\n${xs.map((x) => `  - ${x}`).join('\n')}`),
  fc.constantFrom('# comment', '', '  indented: x', 'name:', 'key: value # trailing'),
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
