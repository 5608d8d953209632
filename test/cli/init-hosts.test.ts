/**
 * `skilldex init` for Gemini CLI and VS Code (issue 35): Gemini CLI gets the router skill in
 * ~/.gemini/skills, `mcpServers.skilldex` and a `hooks.BeforeAgent` hook running `skilldex hook
 * gemini-cli` in ~/.gemini/settings.json (timeout in milliseconds); VS Code gets the router skill in
 * ~/.copilot/skills, a `UserPromptSubmit` hook running `skilldex hook vscode` in its own
 * ~/.copilot/hooks/skilldex.json, and a printed `code --add-mcp`. A second init is `unchanged`;
 * `init --undo` gives every file back byte for byte. And the file steps read a file again right
 * before writing it: an edit made after the plan is kept, not overwritten (issue 36 L12).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonAppendElement } from '../../src/cli/init/edits.js';
import { planEdits, planWholeFile } from '../../src/cli/init/steps.js';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface Report {
  steps: { step: string; action: string; target: string }[];
  catalog: string;
}

const LIB = { 'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables') };

async function init(home: string, args: string[]): Promise<{ code: number; report: Report }> {
  const r = await runCli(['init', ...args, '--json'], { cwd: home, env: { HOME: home } });
  return { code: r.code, report: JSON.parse(r.stdout) as Report };
}

describe('init for Gemini CLI and VS Code', () => {
  it('gemini-cli: MCP entry, BeforeAgent hook and router skill; a second init is unchanged; undo gives settings.json back byte for byte', async () => {
    const mine = '{\n  "theme": "Dracula",\n  "mcpServers": {}\n}\n';
    const home = tmpTree({ ...LIB, '.gemini/settings.json': mine });
    const first = await init(home, ['--client', 'gemini-cli', '--library', 'lib', '--yes']);
    expect(first.code).toBe(0);
    const file = path.join(home, '.gemini/settings.json');
    const settings = JSON.parse(readFileSync(file, 'utf8')) as {
      theme: string;
      mcpServers: { skilldex: { args: string[] } };
      hooks: { BeforeAgent: { hooks: { type: string; command: string; timeout: number }[] }[] };
    };
    expect(settings.theme).toBe('Dracula');
    // Both steps edit the same file: the hook step must not drop the MCP entry written before it.
    expect(settings.mcpServers.skilldex.args.slice(-3)).toEqual([
      'mcp',
      '--catalog',
      first.report.catalog,
    ]);
    const hook = settings.hooks.BeforeAgent[0]!.hooks[0]!;
    expect(hook.type).toBe('command');
    expect(hook.command).toContain('hook gemini-cli --catalog');
    expect(hook.timeout).toBe(5000);
    expect(existsSync(path.join(home, '.gemini/skills/skill-router/SKILL.md'))).toBe(true);

    const second = await init(home, ['--client', 'gemini-cli', '--yes']);
    for (const s of second.report.steps) expect(s.action, s.step).toBe('unchanged');

    const undo = await runCli(['init', '--undo', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(undo.code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(mine);
    expect(existsSync(path.join(home, '.gemini/skills/skill-router'))).toBe(false);
  });

  it('vscode: a UserPromptSubmit hook in ~/.copilot/hooks/skilldex.json, the router in ~/.copilot/skills, code --add-mcp printed; undo removes them', async () => {
    const home = tmpTree(LIB);
    const first = await init(home, ['--client', 'vscode', '--library', 'lib', '--yes']);
    expect(first.code).toBe(0);
    const hooks = path.join(home, '.copilot/hooks/skilldex.json');
    const doc = JSON.parse(readFileSync(hooks, 'utf8')) as {
      hooks: { UserPromptSubmit: { type: string; command: string; timeout: number }[] };
    };
    expect(doc.hooks.UserPromptSubmit).toHaveLength(1);
    expect(doc.hooks.UserPromptSubmit[0]!.type).toBe('command');
    expect(doc.hooks.UserPromptSubmit[0]!.command).toContain('hook vscode --catalog');
    expect(doc.hooks.UserPromptSubmit[0]!.timeout).toBe(5);
    expect(first.report.steps.find((s) => s.step === 'mcp')?.target).toMatch(/^code --add-mcp /);
    expect(existsSync(path.join(home, '.copilot/skills/skill-router/SKILL.md'))).toBe(true);

    const undo = await runCli(['init', '--undo', '--yes', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(undo.code).toBe(0);
    expect(existsSync(hooks)).toBe(false);
    expect(existsSync(path.join(home, '.copilot/skills/skill-router'))).toBe(false);
  });

  it('an edit made between the plan and the write is kept, not overwritten (issue 36 L12)', () => {
    const home = tmpTree({ 'settings.json': '{\n  "theme": "dark"\n}\n' });
    const file = path.join(home, 'settings.json');
    const entry = {
      hooks: [{ type: 'command', command: 'skilldex hook claude-code', timeout: 5 }],
    };
    const step = planEdits(
      { client: 'claude-code', force: false, backups: path.join(home, 'backups') },
      'hook',
      file,
      'the hook',
      [(t) => jsonAppendElement(file, t, ['hooks', 'UserPromptSubmit'], entry)],
    );
    expect(step.step.action).toBe('merge');
    // The user saves the file while init indexes.
    writeFileSync(file, '{\n  "theme": "dark",\n  "model": "opus"\n}\n');
    const records = step.apply!();
    expect(records).toHaveLength(1);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      theme: 'dark',
      model: 'opus',
      hooks: { UserPromptSubmit: [entry] },
    });
  });

  it('a whole file init owns that changed between the plan and the write is FILE_EXISTS, not overwritten (issue 36 L12)', () => {
    const home = tmpTree({});
    const file = path.join(home, 'skill-router', 'SKILL.md');
    const step = planWholeFile(
      { client: 'claude-code', force: false, backups: path.join(home, 'backups') },
      'router-skill',
      file,
      '---\nname: skill-router\ndescription: Route.\n---\n',
      'the router skill',
    );
    expect(step.step.action).toBe('create');
    // Something writes the file while init indexes.
    writeTree(home, { 'skill-router/SKILL.md': 'mine\n' });
    expect(() => step.apply!()).toThrow(expect.objectContaining({ code: 'FILE_EXISTS' }));
    expect(readFileSync(file, 'utf8')).toBe('mine\n');
  });
});
