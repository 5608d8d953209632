/**
 * What skilldex does for Cursor, and that docs/hosts.md says exactly that (issue 35: "what Cursor
 * can do (session start only)"). Cursor has no hook that sees a prompt and adds context
 * (`beforeSubmitPrompt` allows or blocks; `sessionStart` adds context before any prompt), so
 * `init --client cursor` installs no hook — it writes the MCP server into `~/.cursor/mcp.json` and
 * the router skill into `~/.cursor/skills`, the hook step `skip` naming why — and the page's Cursor
 * column and paragraph say so.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli, skillMd, tmpTree } from '../support/cli.js';

const DOC = readFileSync(path.join(REPO, 'docs', 'hosts.md'), 'utf8');

// The Cursor cell (the table's last column) of the row named `first`.
function cursorCell(first: string): string {
  const line = DOC.split('\n').find((l) => l.startsWith(`| ${first} `))!;
  const cells = line
    .slice(1, -1)
    .split('|')
    .map((c) => c.trim());
  return cells[cells.length - 1]!;
}

describe('Cursor: session start only', () => {
  it('init --client cursor writes the MCP server and the router skill, and no hook (skip, with why)', async () => {
    const home = tmpTree({ 'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files.') });
    const r = await runCli(['init', '--client', 'cursor', '--library', 'lib', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(r.code, r.stderr).toBe(0);
    const steps = (
      JSON.parse(r.stdout) as { steps: { step: string; action: string; detail: string }[] }
    ).steps;
    const hook = steps.find((s) => s.step === 'hook')!;
    expect(hook.action).toBe('skip');
    expect(hook.detail).toContain('beforeSubmitPrompt only allows or blocks it');
    expect(hook.detail).toContain('sessionStart runs before any prompt');
    expect(steps.find((s) => s.step === 'mcp')?.action).toBe('create');
    expect(
      (
        JSON.parse(readFileSync(path.join(home, '.cursor/mcp.json'), 'utf8')) as {
          mcpServers: Record<string, unknown>;
        }
      ).mcpServers['skilldex'],
    ).toBeDefined();
    expect(existsSync(path.join(home, '.cursor/skills/skill-router/SKILL.md'))).toBe(true);
    // No hook file of any kind in Cursor's folder.
    expect(readdirSync(path.join(home, '.cursor')).sort()).toEqual(['mcp.json', 'skills']);
  });

  it('docs/hosts.md says the same: the two hooks, what init writes, no skilldex hook', () => {
    expect(cursorCell('hook event')).toContain('`beforeSubmitPrompt` can only allow or block');
    expect(cursorCell('hook event')).toContain('`sessionStart` can add `additional_context`');
    const writes = cursorCell('where init writes');
    expect(writes).toContain('no hook');
    expect(writes).toContain('`~/.cursor/mcp.json`');
    expect(writes).toContain('`~/.cursor/skills`');
    expect(DOC).toContain('**Cursor (session start only).**');
    expect(DOC).toMatch(/reports its `hook` step\s+`skip`/);
  });
});
