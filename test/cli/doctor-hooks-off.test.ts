/**
 * Host settings that switch every hook off, so the hook init wrote never runs, silently (issue 35),
 * each named by doctor's `hook.<client>` check with the file and the fix:
 * - Claude Code: `"disableAllHooks": true` in `~/.claude/settings.json` (code.claude.com/docs/en/settings).
 * - VS Code runs no chat hook at all when its user settings set `"chat.useChatHooks": false` (default
 * true; microsoft/vscode chat configuration, PromptsConfig.USE_CHAT_HOOKS): the hook
 * `skilldex init --client vscode` wrote into `~/.copilot/hooks/skilldex.json` then never runs,
 * silently (issue 35). doctor's `hook.vscode` fails naming the settings file and the fix; the
 * default (or true) passes. The settings are read as JSON with comments, as VS Code reads them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

interface Check {
  id: string;
  status: string;
  message: string;
  fix?: string;
}

async function hookCheck(
  home: string,
  env: Record<string, string>,
  client = 'vscode',
): Promise<Check> {
  const r = await runCli(['doctor', '--json'], { cwd: home, env });
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find(
    (c) => c.id === `hook.${client}`,
  )!;
}

describe("doctor: Claude Code's hooks switched off", () => {
  it('"disableAllHooks": true in ~/.claude/settings.json fails hook.claude-code; removing it passes', async () => {
    const home = tmpTree({
      '.claude/skills/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
      '.claude/settings.json': '{\n  "theme": "dark"\n}\n',
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    expect((await runCli(['init', '--yes'], { cwd: home, env })).code).toBe(0);
    expect((await hookCheck(home, env, 'claude-code')).status).toBe('ok');
    const file = path.join(home, '.claude', 'settings.json');
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    writeFileSync(file, JSON.stringify({ ...doc, disableAllHooks: true }, null, 2));
    const off = await hookCheck(home, env, 'claude-code');
    expect(off.status).toBe('fail');
    expect(off.message).toContain(`"disableAllHooks" is true in ${file}`);
    expect(off.fix).toBe(`remove "disableAllHooks": true from ${file}`);
    writeFileSync(file, JSON.stringify({ ...doc, disableAllHooks: false }, null, 2));
    expect((await hookCheck(home, env, 'claude-code')).status).toBe('ok');
  });
});

describe("doctor: VS Code's chat hooks switched off", () => {
  it('"chat.useChatHooks": false fails hook.vscode; true passes', async () => {
    const home = tmpTree({
      'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
      '.config/Code/User/settings.json': '{\n  // mine\n  "editor.fontSize": 13\n}\n',
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const init = await runCli(['init', '--client', 'vscode', '--library', 'lib', '--yes'], {
      cwd: home,
      env,
    });
    expect(init.code, init.stderr).toBe(0);
    expect((await hookCheck(home, env)).status).toBe('ok');

    const settings = path.join(home, '.config/Code/User/settings.json');
    writeFileSync(settings, '{\n  // mine\n  "chat.useChatHooks": false\n}\n');
    const off = await hookCheck(home, env);
    expect(off.status).toBe('fail');
    expect(off.message).toContain(`"chat.useChatHooks" is false in ${settings}`);
    expect(off.fix).toContain(`set "chat.useChatHooks": true in ${settings}`);

    writeFileSync(settings, '{"chat.useChatHooks": true}');
    expect((await hookCheck(home, env)).status).toBe('ok');
  });
});
