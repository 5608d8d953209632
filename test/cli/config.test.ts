/**
 * The config file and `skilldex config` (issue #12): precedence flags > environment > project
 * config > user config > defaults, each value reported with its source; unknown keys and bad types
 * refused with CONFIG_INVALID; and a catalog that remembers its scopes, so a bare `index` from
 * another folder re-indexes them instead of retiring them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

interface Effective {
  files: { user: { path: string; exists: boolean }; project: string | null };
  settings: Record<string, { value: unknown; source: string }>;
}

async function effective(
  argv: string[],
  cwd: string,
  env: Record<string, string>,
): Promise<Effective> {
  const r = await runCli([...argv, 'config', '--json'], { cwd, env });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Effective;
}

describe('skilldex config', () => {
  it('reports defaults under an empty HOME, with the XDG paths', async () => {
    const home = tmpTree({});
    const e = await effective([], home, { HOME: home });
    expect(e.files.user).toEqual({
      path: path.join(home, '.config', 'skilldex', 'config.toml'),
      exists: false,
    });
    expect(e.files.project).toBeNull();
    expect(e.settings['catalog']).toEqual({
      value: path.join(home, '.local', 'share', 'skilldex', 'catalog.sqlite'),
      source: 'default',
    });
    expect(e.settings['telemetry']).toEqual({ value: true, source: 'default' });
    expect(e.settings['library.scopes']).toEqual({ value: null, source: 'default' });
    const xdg = await effective([], home, { HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') });
    expect(xdg.files.user.path).toBe(path.join(home, 'xdg', 'skilldex', 'config.toml'));
  });

  it('applies flags > environment > project > user > defaults and names each source', async () => {
    const home = tmpTree({
      '.config/skilldex/config.toml':
        'catalog = "~/user.sqlite"\ntelemetry = false\npolicy = "tf.skillrouter.hybrid-lexical.v1"\n[library]\nscopes = ["~/lib"]\n[mcp]\nhost = "::1"\n',
      'proj/.skilldex/config.toml':
        'catalog = "../project.sqlite"\n[library]\nscopes = ["../skills"]\n',
      'proj/sub/.keep': '',
    });
    const userFile = path.join(home, '.config', 'skilldex', 'config.toml');
    const projFile = path.join(home, 'proj', '.skilldex', 'config.toml');
    const cwd = path.join(home, 'proj', 'sub');
    const e = await effective([], cwd, { HOME: home });
    expect(e.files.project).toBe(projFile);
    expect(e.settings['catalog']).toEqual({
      value: path.join(home, 'proj', 'project.sqlite'),
      source: `project ${projFile}`,
    });
    expect(e.settings['library.scopes']).toEqual({
      value: [path.join(home, 'proj', 'skills')],
      source: `project ${projFile}`,
    });
    expect(e.settings['telemetry']).toEqual({ value: false, source: `user ${userFile}` });
    expect(e.settings['mcp.host']).toEqual({ value: '::1', source: `user ${userFile}` });

    const env = await effective([], cwd, {
      HOME: home,
      SKILLDEX_CATALOG: '/x/env.sqlite',
      SKILLDEX_TELEMETRY: 'on',
    });
    expect(env.settings['catalog']).toEqual({
      value: '/x/env.sqlite',
      source: 'env SKILLDEX_CATALOG',
    });
    expect(env.settings['telemetry']).toEqual({ value: true, source: 'env SKILLDEX_TELEMETRY' });

    // A flag beats the environment: index with --catalog writes where the flag says.
    writeFileSync(path.join(home, 'other.toml'), 'catalog = "named.sqlite"\n');
    const named = await effective(['--config', path.join(home, 'other.toml')], home, {
      HOME: home,
    });
    expect(named.settings['catalog']).toEqual({
      value: path.join(home, 'named.sqlite'),
      source: `user ${path.join(home, 'other.toml')}`,
    });
    const viaEnv = await effective([], home, {
      HOME: home,
      SKILLDEX_CONFIG: path.join(home, 'other.toml'),
    });
    expect(viaEnv.settings['catalog']?.value).toBe(path.join(home, 'named.sqlite'));
  });

  it('a flag beats every layer', async () => {
    const home = tmpTree({
      'skilldex.toml': 'catalog = "p.sqlite"\n',
      'lib/a/SKILL.md': skillMd('a', 'alpha tool'),
    });
    const r = await runCli(['index', '--catalog', 'flag.sqlite', '--scope', 'lib', '--json'], {
      cwd: home,
      env: { HOME: home, SKILLDEX_CATALOG: 'env.sqlite' },
    });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { catalog: string }).catalog).toBe(
      path.join(home, 'flag.sqlite'),
    );
  });

  it('refuses unknown keys, wrong types, bad TOML and a named file that is missing', async () => {
    const home = tmpTree({
      'unknown.toml': 'catalgo = "x"\n',
      'type.toml': 'telemetry = "no"\n',
      'nested.toml': '[mcp]\nport = 1\n',
      'broken.toml': 'catalog = \n',
      'bad.json': '{"library": {"scopes": "lib"}}',
      'floor.toml': 'min_confidence = 1.5\n',
      'floor-type.toml': 'min_confidence = "high"\n',
    });
    for (const [file, key] of [
      ['unknown.toml', 'catalgo'],
      ['type.toml', 'telemetry'],
      ['nested.toml', 'mcp.port'],
      ['broken.toml', undefined],
      ['bad.json', 'library.scopes'],
      ['floor.toml', 'min_confidence'],
      ['floor-type.toml', 'min_confidence'],
    ] as const) {
      const r = await runCli(['--config', path.join(home, file), 'config', '--json'], {
        cwd: home,
        env: { HOME: home },
      });
      expect(r.code, file).toBe(2);
      const err = (
        JSON.parse(r.stdout) as { error: { code: string; details: { file: string; key?: string } } }
      ).error;
      expect(err.code, file).toBe('CONFIG_INVALID');
      expect(err.details.file).toBe(path.join(home, file));
      if (key !== undefined) expect(err.details.key, file).toBe(key);
    }
    const missing = await runCli(['config'], {
      cwd: home,
      env: { HOME: home, SKILLDEX_CONFIG: path.join(home, 'nope.toml') },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('FILE_NOT_FOUND');
  });
});

describe('a catalog remembers its scopes', () => {
  it('a bare index from another folder re-indexes the remembered scopes instead of retiring them', async () => {
    const home = tmpTree({
      'projA/.claude/skills/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
      'projB/.claude/skills/beta/SKILL.md': skillMd('beta', 'beta tool for charts'),
    });
    const env = { HOME: home };
    const first = await runCli(['index', '--json'], { cwd: path.join(home, 'projA'), env });
    expect(first.code, first.stderr).toBe(0);
    const second = await runCli(['index', '--json'], { cwd: path.join(home, 'projB'), env });
    expect(second.code, second.stderr).toBe(0);
    const report = JSON.parse(second.stdout) as {
      removed: unknown[];
      added: unknown[];
      unchanged: number;
    };
    expect(report.removed).toEqual([]);
    expect(report.added).toEqual([]);
    expect(report.unchanged).toBe(1);
    const found = await runCli(['search', 'alpha pdf tables', '--json', '--no-telemetry'], {
      cwd: path.join(home, 'projB'),
      env,
    });
    expect(
      (JSON.parse(found.stdout) as { candidates: { skill_id: string }[] }).candidates.map(
        (c) => c.skill_id,
      ),
    ).toContain('alpha');

    // Explicit scope flags replace the memory, and the new scopes are remembered in turn.
    mkdirSync(path.join(home, 'libC', 'gamma'), { recursive: true });
    writeFileSync(path.join(home, 'libC', 'gamma', 'SKILL.md'), skillMd('gamma', 'gamma helper'));
    const third = await runCli(['index', '--scope', 'libC', '--json'], { cwd: home, env });
    expect((JSON.parse(third.stdout) as { removed: unknown[] }).removed).toHaveLength(1);
    const scopes = await effective([], path.join(home, 'projB'), env);
    expect(scopes.settings['library.scopes']?.value).toEqual([path.join(home, 'libC')]);
    expect(scopes.settings['library.scopes']?.source).toMatch(/^catalog /);
    const again = await runCli(['index', '--json'], { cwd: path.join(home, 'projA'), env });
    const r = JSON.parse(again.stdout) as { removed: unknown[]; unchanged: number };
    expect(r.removed).toEqual([]);
    expect(r.unchanged).toBe(1);
  });
});
