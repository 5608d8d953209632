/**
 * Issue 35: lint accepts every field Claude Code's skills frontmatter reference documents
 * (code.claude.com/docs/en/skills, "Frontmatter reference"), so a skill using `effort`, `paths`,
 * `arguments`, `disallowed-tools`, `background` or `shell` gets no UNKNOWN_FIELD; a field no host
 * reads still does. A SKILL.md whose frontmatter only parses leniently gets FRONTMATTER_LENIENT
 * saying Claude Code will not read its description, with the fix.
 */
import { describe, expect, it } from 'vitest';
import { lintLibrary, type LintFinding } from '../../src/lint/index.js';
import { tmpTree } from '../support/cli.js';

const NO_HOME = { home: '/nonexistent-home', project: '/nonexistent-project' };

function lint(files: Record<string, string>): LintFinding[] {
  return [
    ...lintLibrary({
      scopes: [tmpTree(files)],
      ...NO_HOME,
      only: ['UNKNOWN_FIELD', 'FRONTMATTER_LENIENT'],
    }).findings,
  ];
}

describe("Claude Code's documented frontmatter fields", () => {
  it('are not UNKNOWN_FIELD; an undocumented field is', () => {
    const fm = [
      'name: release-notes',
      'description: "Drafts release notes from merged pull requests, grouped by component."',
      'when_to_use: when a release is tagged',
      'argument-hint: "[version]"',
      'arguments: version channel',
      'disable-model-invocation: false',
      'user-invocable: true',
      'allowed-tools: Read Grep',
      'disallowed-tools: Write',
      'model: sonnet',
      'effort: high',
      'context: fork',
      'agent: Explore',
      'background: false',
      'paths: "docs/**, CHANGELOG.md"',
      'shell: bash',
      'hooks:',
      '  PreToolUse: []',
      'license: MIT',
      'compatibility: needs git',
      'metadata:',
      '  owner: docs',
      'colour: blue',
    ].join('\n');
    const f = lint({ 'release-notes/SKILL.md': `---\n${fm}\n---\n\n# Release notes\n` });
    expect(f.map((x) => [x.code, x.field])).toEqual([['UNKNOWN_FIELD', 'colour']]);
  });
});

describe('a frontmatter only the lenient reader parses', () => {
  it('is a warning saying Claude Code will not read its description, with the fix', () => {
    const f = lint({
      'persona-tester/SKILL.md':
        '---\nname: persona-tester\ndescription: Persona Tester: Fatima tests signup forms and checkout flows end to end\n---\n\n# Persona\n',
    });
    expect(f).toHaveLength(1);
    expect(f[0]).toMatchObject({
      code: 'FRONTMATTER_LENIENT',
      severity: 'warning',
      line: 3,
      field: 'description',
      details: { hosts_without_description: ['claude-code'] },
    });
    expect(f[0]!.message).toMatch(/Claude Code .* do not read its description/);
    expect(f[0]!.fix).toMatch(/quote the value/);
    expect(f[0]!.fix).toMatch(/Claude Code then reads the description/);
  });
});
