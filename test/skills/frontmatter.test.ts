/**
 * Frontmatter split and parse (src/skills/frontmatter.ts, issue #2 §4): fences with CRLF, coded
 * skips for missing and unclosed fences, duplicate keys and syntax errors with their file line,
 * YAML alias bombs refused quickly, non-mapping documents refused, YAML read as data only.
 */
import { describe, expect, it } from 'vitest';
import { parseFrontmatter, splitFrontmatter } from '../../src/skills/index.js';
import { MAX_ALIAS_COUNT } from '../../src/skills/frontmatter.js';
import { ALIAS_BOMB } from './support.js';

const L = 'skills/x/SKILL.md';

function parsed(yaml: string): Record<string, unknown> {
  const r = parseFrontmatter(yaml, L);
  if (!r.ok) throw new Error(`expected a parse, got ${r.problem.code}`);
  return r.data;
}

describe('splitFrontmatter', () => {
  it('splits LF frontmatter and finds the body', () => {
    const text = '---\nname: a\ndescription: b\n---\n# Body\n';
    const r = splitFrontmatter(text, L);
    expect(r).toMatchObject({ ok: true, yaml: 'name: a\ndescription: b\n', yamlLine: 2 });
    if (r.ok) expect(text.slice(r.bodyOffset)).toBe('# Body\n');
  });

  it('splits CRLF frontmatter and finds the body', () => {
    const text = '---\r\nname: a\r\ndescription: b\r\n---\r\n# Body\r\n';
    const r = splitFrontmatter(text, L);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(text.slice(r.bodyOffset)).toBe('# Body\r\n');
    expect(parsed(r.yaml)).toEqual({ name: 'a', description: 'b' });
  });

  it('accepts trailing blanks on the fences and a closing fence at the end of the file', () => {
    const text = '--- \nname: a\n---\t';
    const r = splitFrontmatter(text, L);
    expect(r).toMatchObject({ ok: true, yaml: 'name: a\n' });
    if (r.ok) expect(r.bodyOffset).toBe(text.length);
  });

  it('never treats a --- inside a value as the closing fence', () => {
    const r = splitFrontmatter('---\nname: a\ndescription: "x --- y"\n---\nbody\n', L);
    expect(r.ok && parsed(r.yaml)).toEqual({ name: 'a', description: 'x --- y' });
  });

  it('refuses a file that does not start with a fence: FRONTMATTER_MISSING', () => {
    for (const text of [
      '# Title\n\nname: a\n',
      '\n---\nname: a\n---\n',
      '',
      '----\nname: a\n---\n',
      'name: a\n---\n',
    ]) {
      expect(splitFrontmatter(text, L)).toMatchObject({
        ok: false,
        problem: { code: 'FRONTMATTER_MISSING', path: L },
      });
    }
  });

  it('refuses a fence that is never closed: FRONTMATTER_UNCLOSED', () => {
    for (const text of [
      '---\nname: a\ndescription: b\n',
      '---\r\nname: a\r\n',
      '---\nname: a\n-- \n# body',
      '---\n',
    ]) {
      expect(splitFrontmatter(text, L)).toMatchObject({
        ok: false,
        problem: { code: 'FRONTMATTER_UNCLOSED', line: 1 },
      });
    }
  });
});

describe('parseFrontmatter', () => {
  it('parses a mapping of YAML 1.2 core values', () => {
    expect(
      parsed('name: a\ndescription: b\nkeywords: [x, y]\nuser-invocable: false\ncount: 3\n'),
    ).toEqual({
      name: 'a',
      description: 'b',
      keywords: ['x', 'y'],
      'user-invocable': false,
      count: 3,
    });
  });

  it('keeps numbers with a fraction as written (version: 1.10 stays "1.10")', () => {
    expect(parsed('version: 1.10\nother: 2.0\n')).toEqual({ version: '1.10', other: '2.0' });
  });

  it('refuses duplicate keys with the file line of the duplicate when strict', () => {
    const r = parseFrontmatter('name: a\ndescription: b\nname: c\n', L, 2, { lenient: false });
    expect(r).toMatchObject({
      ok: false,
      problem: { code: 'MALFORMED_FRONTMATTER', path: L, line: 4 },
    });
  });

  it('refuses a duplicate key leniently too, naming the key and its line (issue 36 R1)', () => {
    // Hosts disagree on which value stands: a reviewer reads the first, PyYAML the last, Codex
    // refuses the file. skilldex refuses it, whatever else the lenient reading would repair.
    for (const [yaml, key, line] of [
      ['name: a\ndescription: b\nname: c\n', 'name', 4],
      ['name: x\ndescription: one\ndescription: two\n', 'description', 4],
      ['name: dup-name\ndescription: Use when: a PDF\nname: trusted-helper\n', 'name', 4],
      [
        'name: x\ndescription: Do: this\nlicense: MIT\ndescription: Other: that\n',
        'description',
        5,
      ],
    ] as const) {
      const r = parseFrontmatter(yaml, L, 2);
      expect(r).toMatchObject({
        ok: false,
        problem: { code: 'MALFORMED_FRONTMATTER', path: L, line },
      });
      if (!r.ok) expect(r.problem.message).toContain(`duplicate key "${key}"`);
    }
  });

  it('reads a key repeated only inside a nested map with its last value, reported as lenient', () => {
    // As a real skill of the trigger set ships it (metadata.version twice): nothing a host routes
    // or runs by, read as PyYAML reads it; a top-level key beside it is still refused.
    const yaml =
      'name: x\ndescription: d\nmetadata:\n  version: "1.0"\n  author: a\n  version: v2\n';
    const r = parseFrontmatter(yaml, L, 2);
    expect(r).toMatchObject({
      ok: true,
      data: { name: 'x', description: 'd', metadata: { version: 'v2', author: 'a' } },
      lenient: [{ key: 'version', line: 7, reason: 'duplicate-key' }],
    });
    const both = parseFrontmatter(`${yaml}name: y\n`, L, 2);
    expect(both).toMatchObject({ ok: false, problem: { code: 'MALFORMED_FRONTMATTER' } });
    expect(parseFrontmatter(yaml, L, 2, { lenient: false })).toMatchObject({ ok: false });
  });

  it('refuses invalid YAML with the file line of the error', () => {
    const r = parseFrontmatter('name: a\ndescription: b\nkeywords: [x, y\n', L, 2);
    expect(r).toMatchObject({ ok: false, problem: { code: 'MALFORMED_FRONTMATTER' } });
    if (!r.ok) expect(r.problem.line).toBeGreaterThanOrEqual(4);
    // yaml line 3 of the frontmatter is line 4 of the file (the opening fence is line 1).
    expect(parseFrontmatter('name: a\ndescription: b\n@bad: x\n', L, 2)).toMatchObject({
      ok: false,
      problem: { code: 'MALFORMED_FRONTMATTER', line: 4 },
    });
    expect(
      parseFrontmatter('name: a\ndescription: b\nkey: value: other\n', L, 7, { lenient: false }),
    ).toMatchObject({ ok: false, problem: { code: 'MALFORMED_FRONTMATTER', line: 9 } });
  });

  it('refuses a YAML alias bomb (billion laughs) at once', () => {
    expect(MAX_ALIAS_COUNT).toBeGreaterThan(0);
    expect(parseFrontmatter(ALIAS_BOMB, L)).toMatchObject({
      ok: false,
      problem: { code: 'MALFORMED_FRONTMATTER', path: L },
    });
  });

  it('allows a few ordinary aliases', () => {
    expect(parsed('name: &n shared\ndescription: *n\n')).toEqual({
      name: 'shared',
      description: 'shared',
    });
  });

  it('refuses documents that are not a mapping', () => {
    for (const yaml of [
      '',
      '# only a comment\n',
      '- a\n- b\n',
      'just a string\n',
      '42\n',
      'null\n',
    ]) {
      expect(parseFrontmatter(yaml, L)).toMatchObject({
        ok: false,
        problem: { code: 'MALFORMED_FRONTMATTER' },
      });
    }
  });

  it('refuses a second YAML document in the frontmatter', () => {
    expect(parseFrontmatter('name: a\n---\nname: b\n', L)).toMatchObject({
      ok: false,
      problem: { code: 'MALFORMED_FRONTMATTER' },
    });
  });

  it('reads tags and merge keys as plain data, never as code or merges', () => {
    const data = parsed(
      'name: a\ndescription: !!js/function "function () { return 1 }"\n<<: { injected: true }\n',
    );
    expect(data['description']).toBe('function () { return 1 }');
    expect(data['<<']).toEqual({ injected: true });
    expect(data['injected']).toBeUndefined();
  });
});
