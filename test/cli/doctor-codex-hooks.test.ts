/**
 * Two ways Codex keeps the hook `skilldex init --client codex` wrote into `$CODEX_HOME/hooks.json`
 * from running, each silent but for a start-up line (issue 35), and named by doctor's `hook.codex`:
 * - trust: Codex runs a new or changed non-managed hook only after the person trusted it in
 *   `/hooks`, recorded in config.toml as `[hooks.state."<hooks.json>:user_prompt_submit:<g>:<h>"]`
 *   `trusted_hash` (developers.openai.com/codex/hooks, "Review and trust hooks"): with no such
 *   entry the check is a `warn` naming the key and `/hooks`; with one, `ok`; `enabled = false`
 *   there (turned off in `/hooks`) is a `fail`. init says so when it writes the hook.
 * - `[features] hooks = false` (or the older `codex_hooks = false`) in the user's config.toml:
 *   hooks are on by default, so only that line turns them off — a `fail` naming the file and fix.
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

async function codexHome() {
  const home = tmpTree({
    'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
    '.codex/config.toml': 'model = "o4"\n',
  });
  const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
  const init = await runCli(['init', '--client', 'codex', '--library', 'lib', '--yes', '--json'], {
    cwd: home,
    env,
  });
  expect(init.code, init.stderr).toBe(0);
  const config = path.join(home, '.codex', 'config.toml');
  const key = `${path.join(home, '.codex', 'hooks.json')}:user_prompt_submit:0:0`;
  const warnings = (JSON.parse(init.stdout) as { warnings: string[] }).warnings;
  return { home, env, config, key, warnings, before: readFileSync(config, 'utf8') };
}

describe("doctor: Codex's hook trust", () => {
  it('init names the trust step; untrusted is a warn naming /hooks, trusted is ok, disabled fails', async () => {
    const h = await codexHome();
    expect(h.warnings.join('\n')).toContain('open /hooks');
    const untrusted = await hookCheck(h.home, h.env);
    expect(untrusted.status).toBe('warn');
    expect(untrusted.message).toContain(`no [hooks.state."${h.key}"] trusted_hash in ${h.config}`);
    expect(untrusted.fix).toContain('open /hooks');

    const entry = `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "sha256:${'a'.repeat(64)}"\n`;
    writeFileSync(h.config, `${h.before}\n${entry}`);
    expect((await hookCheck(h.home, h.env)).status).toBe('ok');

    writeFileSync(h.config, `${h.before}\n${entry}enabled = false\n`);
    const off = await hookCheck(h.home, h.env);
    expect(off.status).toBe('fail');
    expect(off.message).toContain('turned off in Codex');
  });
});

describe("doctor: Codex's hooks switched off in the user's config.toml", () => {
  it.each(['hooks', 'codex_hooks'])('[features] %s = false fails hook.codex', async (key) => {
    const h = await codexHome();
    const trusted = `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "sha256:${'b'.repeat(64)}"\n`;
    writeFileSync(h.config, `${h.before}\n${trusted}`);
    expect((await hookCheck(h.home, h.env)).status).toBe('ok');

    writeFileSync(h.config, `${h.before}\n${trusted}\n[features]\n${key} = false\n`);
    const off = await hookCheck(h.home, h.env);
    expect(off.status).toBe('fail');
    expect(off.message).toContain(`([features] ${key} = false)`);
    expect(off.message).toContain(h.config);
    expect(off.fix).toContain(`remove "${key} = false" from [features] in ${h.config}`);

    writeFileSync(h.config, `${h.before}\n${trusted}\n[features]\n${key} = true\n`);
    expect((await hookCheck(h.home, h.env)).status).toBe('ok');
  });
});
