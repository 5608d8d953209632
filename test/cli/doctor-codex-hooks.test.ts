/**
 * Two ways Codex keeps the hook `skilldex init --client codex` wrote into `$CODEX_HOME/hooks.json`
 * from running, each silent but for a start-up line (issue 35), and named by doctor's `hook.codex`:
 * - trust: Codex runs a new or changed non-managed hook only after the person trusted it in
 *   `/hooks`, recorded in config.toml as `[hooks.state."<hooks.json>:user_prompt_submit:<g>:<h>"]`
 *   `trusted_hash` (developers.openai.com/codex/hooks, "Review and trust hooks"): with no such
 *   entry the check is a `warn` naming the key and `/hooks`; with the hash of the hook as it is,
 *   `ok`; with the hash of another definition (the hook changed since it was trusted: Codex skips
 *   it as "modified"), a `warn`; `enabled = false` there (turned off in `/hooks`) is a `fail`.
 *   init says so when it writes the hook.
 * - `[features] hooks = false` (or the older `codex_hooks = false`) in the user's config.toml:
 *   hooks are on by default, so only that line turns them off — a `fail` naming the file and fix.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexHookHash } from '../../src/cli/doctor/hook-hosts.js';
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

// The [hooks.state] entry Codex writes when the person trusts skilldex's hook as it is now.
function trustEntry(h: { home: string; key: string }): string {
  const file = path.join(h.home, '.codex', 'hooks.json');
  const doc = JSON.parse(readFileSync(file, 'utf8')) as {
    hooks: { UserPromptSubmit: { hooks: unknown[] }[] };
  };
  const hash = codexHookHash('user_prompt_submit', doc.hooks.UserPromptSubmit[0]!.hooks[0]);
  return `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(hash)}\n`;
}

describe("Codex's trusted_hash of a command hook", () => {
  it('is the hash a Codex install recorded for a known hook', () => {
    // A UserPromptSubmit hook of timeout 60 and its trusted_hash as Codex 0.151.0 recorded them,
    // quoted as a golden vector by a public Codex integration's test suite.
    const handler = {
      type: 'command',
      command: 'node C:\\Users\\atran\\.codex\\neuron\\neuron-codex.js hook UserPromptSubmit',
      timeout: 60,
    };
    expect(codexHookHash('user_prompt_submit', handler)).toBe(
      'sha256:323ab45fdc891a5e1b206d9553455e0809415b0ae38be3e8f464bbb7d381a8fd',
    );
  });

  it('covers what Codex normalizes: default timeout, status message; unknown forms are not hashed', () => {
    const base = { type: 'command', command: 'skilldex hook codex' };
    expect(codexHookHash('user_prompt_submit', base)).toBe(
      codexHookHash('user_prompt_submit', { ...base, timeout: 600 }),
    );
    expect(codexHookHash('user_prompt_submit', { ...base, timeout: 0 })).toBe(
      codexHookHash('user_prompt_submit', { ...base, timeout: 1 }),
    );
    const hashes = new Set([
      codexHookHash('user_prompt_submit', base),
      codexHookHash('user_prompt_submit', { ...base, timeout: 5 }),
      codexHookHash('user_prompt_submit', { ...base, statusMessage: 'routing' }),
      codexHookHash('user_prompt_submit', { ...base, command: 'skilldex hook codex --max 2' }),
      codexHookHash('session_start', base),
    ]);
    expect(hashes.size).toBe(5);
    expect(codexHookHash('user_prompt_submit', { ...base, commandWindows: 'x' })).toBeUndefined();
    expect(codexHookHash('user_prompt_submit', { type: 'prompt' })).toBeUndefined();
    expect(codexHookHash('user_prompt_submit', { ...base, timeout: '5' })).toBeUndefined();
  });
});

describe("doctor: Codex's hook trust", () => {
  it('a trust recorded for another definition of the hook (changed since) is a warn naming /hooks', async () => {
    const h = await codexHome();
    const stale = `[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "sha256:${'a'.repeat(64)}"\n`;
    writeFileSync(h.config, `${h.before}\n${stale}`);
    const changed = await hookCheck(h.home, h.env);
    expect(changed.status).toBe('warn');
    expect(changed.message).toContain("skilldex's hook changed since Codex trusted it");
    expect(changed.message).toContain(`sha256:${'a'.repeat(64)}`);
    expect(changed.fix).toContain('open /hooks');
    writeFileSync(h.config, `${h.before}\n${trustEntry(h)}`);
    expect((await hookCheck(h.home, h.env)).status).toBe('ok');
  });

  it('init names the trust step; untrusted is a warn naming /hooks, trusted is ok, disabled fails', async () => {
    const h = await codexHome();
    expect(h.warnings.join('\n')).toContain('open /hooks');
    const untrusted = await hookCheck(h.home, h.env);
    expect(untrusted.status).toBe('warn');
    expect(untrusted.message).toContain(`no [hooks.state."${h.key}"] trusted_hash in ${h.config}`);
    expect(untrusted.fix).toContain('open /hooks');

    const entry = trustEntry(h);
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
    const trusted = trustEntry(h);
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
