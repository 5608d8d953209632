/**
 * VS Code runs no chat hook at all when its user settings set `"chat.useChatHooks": false` (default
 * true; microsoft/vscode chat configuration, PromptsConfig.USE_CHAT_HOOKS): the hook
 * `skilldex init --client vscode` wrote into `~/.copilot/hooks/skilldex.json` then never runs,
 * silently (issue 35). doctor's `hook.vscode` fails naming the settings file and the fix; the
 * default (or true) passes. The settings are read as JSON with comments, as VS Code reads them.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

interface Check {
  id: string;
  status: string;
  message: string;
  fix?: string;
}

async function hookCheck(home: string, env: Record<string, string>): Promise<Check> {
  const r = await runCli(['doctor', '--json'], { cwd: home, env });
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'hook.vscode')!;
}

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
