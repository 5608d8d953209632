/**
 * Lenient frontmatter (issue #22, docs/cli.md `skilldex scan`): a SKILL.md that strict YAML refuses
 * only because a one-line plain value holds an inner `: ` (or ` #`, a tab, a reserved first
 * character), is read the way hosts read it and indexed with a FRONTMATTER_LENIENT warning carrying
 * the line; everything else about frontmatter safety stays (alias bombs, non-mappings, broken
 * multi-line values, keys given twice and unclosed quotes are still refused: issue 36 R1, R2). The description shapes
 * are the real ones of ../shared/bench/trigger (the pipelinq persona testers, repo-proof).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSkills } from '../../src/skills/index.js';
import { parseFrontmatter } from '../../src/skills/index.js';
import { tmpDir } from '../support/cli.js';

const L = 'skills/x/SKILL.md';

describe('parseFrontmatter, lenient reading', () => {
  it.each([
    [
      'a persona tester (pipelinq)',
      'Persona Tester: Fatima El-Amrani — Low-Literate Migrant Citizen. Tests accessibility: plain language, icons',
    ],
    [
      'repo-proof',
      'Use this skill when a user needs to prove that a repository works from a fresh clone: audit the README, run it, record the evidence',
    ],
    ['a trigger list', 'Use when: the user asks about PDFs, forms or tables'],
    ['a language name with a hash', 'C# and F#: format code consistently'],
    ['a tab', 'Splits\ttabbed: columns'],
    ['a leading @', '@mentions: route a message to the right team'],
    ['a stray quote', '"Fast" PDF tools: extract and merge'],
  ])('%s: the whole line is the value, reported on its line', (_, description) => {
    const r = parseFrontmatter(`name: x\ndescription: ${description}\nlicense: MIT\n`, L, 2);
    expect(r).toMatchObject({
      ok: true,
      data: { name: 'x', description, license: 'MIT' },
      lenient: [{ line: 3, key: 'description', reason: 'unquoted' }],
    });
  });

  it('valid YAML is read strictly, with nothing lenient (a comment stays a comment)', () => {
    const r = parseFrontmatter('name: x\ndescription: Reads PDFs # a comment\n', L, 2, {
      fastPath: false,
    });
    expect(r).toEqual({ ok: true, data: { name: 'x', description: 'Reads PDFs' }, lenient: [] });
  });

  it('repairs only the lines that need it, and several of them', () => {
    const r = parseFrontmatter(
      'name: x\ndescription: Do: this\nwhen_to_use: Use when: that\nversion: 1.2.0\n',
      L,
      2,
    );
    expect(r).toMatchObject({
      ok: true,
      data: { description: 'Do: this', when_to_use: 'Use when: that', version: '1.2.0' },
      lenient: [
        { line: 3, key: 'description' },
        { line: 4, key: 'when_to_use' },
      ],
    });
  });

  it('still refuses what no host can read: a broken multi-line value, a broken flow list, a non-mapping', () => {
    for (const yaml of [
      // The inner colon is on an indented continuation line: not a one-line value.
      'name: x\ndescription: First line\n  Keywords: a, b\n',
      'name: x\ndescription: ok\nkeywords: [a, b\n',
      '- just\n- a list: here\n',
    ]) {
      expect(parseFrontmatter(yaml, L, 2)).toMatchObject({
        ok: false,
        problem: { code: 'MALFORMED_FRONTMATTER' },
      });
    }
  });

  it('keeps the alias limit on the lenient retry', () => {
    const anchors = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      anchors.push(`${cur}: &${cur} [*${prev}, *${prev}, *${prev}, *${prev}, *${prev}, *${prev}]`);
    }
    const yaml = `name: x\ndescription: Bomb: here\n${anchors.join('\n')}\n`;
    expect(parseFrontmatter(yaml, L, 2)).toMatchObject({
      ok: false,
      problem: { code: 'MALFORMED_FRONTMATTER' },
    });
  });

  it('never repairs a quote that does not close on its line (issue 36 R2)', () => {
    for (const [description, line] of [
      ['"Reads PDFs: and never closes', 3],
      ["'Reads PDFs: and never closes", 3],
      ['"Escaped \\" is not a close: still open', 3],
    ] as const) {
      expect(parseFrontmatter(`name: x\ndescription: ${description}\n`, L, 2)).toMatchObject({
        ok: false,
        problem: { code: 'MALFORMED_FRONTMATTER', line: expect.any(Number) },
      });
      const r = parseFrontmatter(`name: x\ndescription: ${description}\n`, L, 2);
      if (!r.ok) expect(r.problem.line).toBeGreaterThanOrEqual(line);
    }
  });

  it('lenient: false keeps the strict error', () => {
    expect(
      parseFrontmatter('name: x\ndescription: Do: this\n', L, 2, { lenient: false }),
    ).toMatchObject({ ok: false, problem: { code: 'MALFORMED_FRONTMATTER', line: 3 } });
  });
});

describe('discovery indexes what hosts load', () => {
  it('a description with an unquoted ": " is a skill, with FRONTMATTER_LENIENT on its line', () => {
    const root = tmpDir('skilldex-lenient-');
    mkdirSync(path.join(root, 'test-persona-fatima'));
    writeFileSync(
      path.join(root, 'test-persona-fatima', 'SKILL.md'),
      '---\nname: test-persona-fatima\ndescription: Persona Tester: Fatima El-Amrani — tests plain language\n---\n# Body\n',
    );
    const report = discoverSkills({ scopes: [root] });
    expect(report.skipped).toEqual([]);
    const [rec] = report.skills;
    expect(rec?.description).toBe('Persona Tester: Fatima El-Amrani — tests plain language');
    expect(rec?.warnings).toMatchObject([{ code: 'FRONTMATTER_LENIENT', line: 3 }]);
  });
});
