/**
 * `listing --host claude-code --apply` on a hand-formatted settings.json with CRLF line ends and no
 * final newline (issue 35: "keeps every byte of settings.json it does not change and --undo
 * restores the file exactly"): the controls go in with CRLF (never a mix), and `--undo` gives the
 * file back byte for byte.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tmpTree } from '../support/cli.js';

function md(name: string, description: string): string {
  return `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\n---\n\nBody.\n`;
}

const long = (w: string): string => `${w} `.repeat(120).trim();

const SETTINGS = '{\r\n\t"theme":   "dark",\r\n\t"permissions": {"allow": ["Bash(ls)"]}\r\n}';

describe('listing --apply and --undo on a CRLF settings.json', () => {
  it('writes the controls in CRLF and undo restores every byte', async () => {
    const home = tmpTree({
      '.claude/skills/skill-router/SKILL.md': md('skill-router', 'Load this to find a skill.'),
      '.claude/skills/alpha/SKILL.md': md('alpha', long('alpha')),
      '.claude/skills/beta/SKILL.md': md('beta', long('beta')),
      '.claude/skills/gamma/SKILL.md': md('gamma', long('gamma')),
      '.claude/settings.json': SETTINGS,
    });
    const opts = { cwd: home, env: { HOME: home, XDG_DATA_HOME: path.join(home, 'data') } };
    const file = path.join(home, '.claude', 'settings.json');
    const apply = await runCli(
      ['listing', '--host', 'claude-code', '--budget-chars', '900', '--apply'],
      opts,
    );
    expect(apply.code, apply.stderr).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('"skillOverrides"');
    // Every line end the apply wrote is CRLF; the file's last line still has none.
    expect(text).not.toMatch(/(^|[^\r])\n/);
    expect(text.endsWith('}')).toBe(true);
    const undo = await runCli(['listing', '--host', 'claude-code', '--undo'], opts);
    expect(undo.code, undo.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(SETTINGS);
  });
});
