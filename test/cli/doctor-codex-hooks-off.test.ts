/**
 * Codex runs hooks by default (issue 35), unless the user's own `$CODEX_HOME/config.toml` says
 * `[features] hooks = false` (or the older `codex_hooks = false`): then the skilldex hook init
 * put in `hooks.json` never runs, and doctor's `hook.codex` check fails naming the file and the
 * fix, without running the hook. With the line gone, the check passes again.
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

async function hookCheck(home: string, env: Record<string, string>): Promise<Check> {
  const r = await runCli(['doctor', '--json'], { cwd: home, env });
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'hook.codex')!;
}

describe("doctor: Codex's hooks switched off in the user's config.toml", () => {
  it.each(['hooks', 'codex_hooks'])('[features] %s = false fails hook.codex', async (key) => {
    const home = tmpTree({
      'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
      '.codex/config.toml': 'model = "o4"\n',
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const init = await runCli(['init', '--client', 'codex', '--library', 'lib', '--yes'], {
      cwd: home,
      env,
    });
    expect(init.code, init.stderr).toBe(0);
    expect((await hookCheck(home, env)).status).toBe('ok');

    const config = path.join(home, '.codex', 'config.toml');
    const before = readFileSync(config, 'utf8');
    writeFileSync(config, `${before}\n[features]\n${key} = false\n`);
    const off = await hookCheck(home, env);
    expect(off.status).toBe('fail');
    expect(off.message).toContain(`([features] ${key} = false)`);
    expect(off.message).toContain(config);
    expect(off.fix).toContain(`remove "${key} = false" from [features] in ${config}`);

    writeFileSync(config, `${before}\n[features]\n${key} = true\n`);
    expect((await hookCheck(home, env)).status).toBe('ok');
  });
});
