/**
 * Scopes and plugins (src/skills/scopes.ts, issue #2 §4, docs/cli.md `skilldex scan`): default scopes
 * in precedence order, installed_plugins.json versions 2 and 1, enabledPlugins false, unlisted
 * plugin folders never read, a missing or invalid registry read as "no filter", installPath
 * confined to ~/.claude/plugins. Every tree is a temporary fake home and project.
 */
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { discoverSkills, resolveScopes } from '../../src/skills/index.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { skill } from './support.js';

function fakeHome(files: Record<string, string>): { home: string; project: string } {
  const base = realpathSync(tmpDir());
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  mkdirSync(home);
  mkdirSync(project);
  writeTree(base, files);
  return { home, project };
}

const PLUGINS = 'home/.claude/plugins';

function registryV2(base: string, entries: Record<string, string>): string {
  const plugins: Record<string, unknown> = {};
  for (const [key, installPath] of Object.entries(entries)) {
    plugins[key] = [
      {
        scope: 'user',
        installPath: installPath.startsWith('/') ? installPath : path.join(base, installPath),
        version: '1.0.0',
      },
    ];
  }
  return JSON.stringify({ version: 2, plugins });
}

function ids(report: ReturnType<typeof discoverSkills>): string[] {
  return report.skills.map((s) => s.skill_id);
}

describe('resolveScopes', () => {
  it('lists the default scopes in precedence order with whether each exists', () => {
    const { home, project } = fakeHome({ 'home/.claude/skills/a/SKILL.md': skill('a') });
    const r = resolveScopes({ home, project });
    expect(r.scopes.map((s) => [s.kind, s.path, s.exists])).toEqual([
      ['personal', path.join(home, '.claude', 'skills'), true],
      ['personal-agents', path.join(home, '.agents', 'skills'), false],
      ['project', path.join(project, '.claude', 'skills'), false],
      ['project-agents', path.join(project, '.agents', 'skills'), false],
    ]);
  });

  it('replaces the defaults with explicit scopes, in order, without repeats', () => {
    const { home, project } = fakeHome({ 'x/a/SKILL.md': skill('a') });
    const x = path.join(path.dirname(home), 'x');
    const r = resolveScopes({ home, project, scopes: [x, path.join(home, 'missing'), x] });
    expect(r.scopes.map((s) => [s.kind, s.path, s.exists])).toEqual([
      ['custom', x, true],
      ['custom', path.join(home, 'missing'), false],
    ]);
    expect(r.plugin_filter).toBe('not applicable');
  });
});

describe('plugins', () => {
  it('reads enabled plugins of a version 2 registry, with ids plugin:name', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/cache/mkt/pdfplug/1.0.0/skills/extract/SKILL.md`]: skill('extract'),
      [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
        'pdfplug@mkt': `${PLUGINS}/cache/mkt/pdfplug/1.0.0`,
      }),
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(report.plugin_filter).toBe('enabled-list');
    expect(report.problems).toEqual([]);
    expect(ids(report)).toEqual(['pdfplug:extract']);
    expect(report.skills[0]).toMatchObject({ name: 'extract', scope: 'plugin', plugin: 'pdfplug' });
  });

  it('reads a version 1 registry (one install record per plugin)', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/cache/mkt/docplug/2.0.0/skills/redline/SKILL.md`]: skill('redline'),
      [`${PLUGINS}/installed_plugins.json`]: JSON.stringify({
        version: 1,
        plugins: {
          'docplug@mkt': {
            version: '2.0.0',
            installPath: path.join(base, PLUGINS, 'cache/mkt/docplug/2.0.0'),
          },
        },
      }),
    });
    expect(
      ids(discoverSkills({ home: path.join(base, 'home'), project: path.join(base, 'project') })),
    ).toEqual(['docplug:redline']);
  });

  it('reads the plain layout ~/.claude/plugins/<name>/skills of a listed plugin', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/plainplug/skills/tidy/SKILL.md`]: skill('tidy'),
      [`${PLUGINS}/installed_plugins.json`]: JSON.stringify({
        version: 2,
        plugins: { 'plainplug@local': [] },
      }),
    });
    expect(
      ids(discoverSkills({ home: path.join(base, 'home'), project: path.join(base, 'project') })),
    ).toEqual(['plainplug:tidy']);
  });

  it('leaves out a plugin that settings.json enabledPlugins sets to false', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/cache/mkt/on/1/skills/a/SKILL.md`]: skill('a'),
      [`${PLUGINS}/cache/mkt/off/1/skills/b/SKILL.md`]: skill('b'),
      [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
        'on@mkt': `${PLUGINS}/cache/mkt/on/1`,
        'off@mkt': `${PLUGINS}/cache/mkt/off/1`,
      }),
      'home/.claude/settings.json': JSON.stringify({
        enabledPlugins: { 'off@mkt': false, 'on@mkt': true },
      }),
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(ids(report)).toEqual(['on:a']);
    expect(report.enumerated.some((p) => p.includes('/off/'))).toBe(false);
  });

  it('ignores an unparseable settings.json with SETTINGS_UNREADABLE (plugins stay enabled)', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/cache/mkt/on/1/skills/a/SKILL.md`]: skill('a'),
      [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
        'on@mkt': `${PLUGINS}/cache/mkt/on/1`,
      }),
      'home/.claude/settings.json': '{ "enabledPlugins": ',
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(ids(report)).toEqual(['on:a']);
    expect(report.problems.map((p) => p.code)).toEqual(['SETTINGS_UNREADABLE']);
  });

  it('never reads a plugin folder the registry does not list', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      [`${PLUGINS}/listed/skills/a/SKILL.md`]: skill('a'),
      [`${PLUGINS}/rogue/skills/b/SKILL.md`]: skill('b'),
      [`${PLUGINS}/cache/mkt/rogue/1/skills/c/SKILL.md`]: skill('c'),
      [`${PLUGINS}/installed_plugins.json`]: JSON.stringify({
        version: 2,
        plugins: { 'listed@mkt': [] },
      }),
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(ids(report)).toEqual(['listed:a']);
    expect(report.scopes.filter((s) => s.plugin === 'rogue')).toEqual([]);
    expect(report.enumerated.filter((p) => p.includes('rogue'))).toEqual([]);
  });

  it.each([
    ['missing', undefined],
    ['not JSON', '{ "version": 2, '],
    ['binary', '\u0000\u0001'],
  ])(
    'reads every plugin folder when the registry is %s, and says no filter was applied',
    (_what, registry) => {
      const base = realpathSync(tmpDir());
      writeTree(base, {
        [`${PLUGINS}/plain/skills/a/SKILL.md`]: skill('a'),
        [`${PLUGINS}/cache/mkt/cached/1.0.0/skills/b/SKILL.md`]: skill('b'),
        [`${PLUGINS}/marketplaces/mkt/skills/c/SKILL.md`]: skill('c'),
        ...(registry !== undefined ? { [`${PLUGINS}/installed_plugins.json`]: registry } : {}),
      });
      const report = discoverSkills({
        home: path.join(base, 'home'),
        project: path.join(base, 'project'),
      });
      expect(report.plugin_filter).toBe('none (installed_plugins.json unreadable)');
      expect(report.problems.map((p) => p.code)).toEqual(['PLUGIN_REGISTRY_UNREADABLE']);
      expect(ids(report)).toEqual(['cached:b', 'plain:a']);
    },
  );

  it('refuses an installPath outside ~/.claude/plugins and never reads it', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      'elsewhere/evil/skills/x/SKILL.md': skill('x'),
      [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
        'evil@mkt': path.join(base, 'elsewhere', 'evil'),
        'sneaky@mkt': `${PLUGINS}/../../../elsewhere/evil`,
      }),
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(report.skills).toEqual([]);
    expect(report.enumerated).toEqual([]);
    expect(report.problems.map((p) => p.code)).toEqual(['PATH_OUTSIDE_ROOT', 'PATH_OUTSIDE_ROOT']);
  });

  it('refuses an installPath that is a link leading out of ~/.claude/plugins', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      'elsewhere/evil/skills/x/SKILL.md': skill('x'),
      [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
        'evil@mkt': `${PLUGINS}/cache/mkt/evil/1`,
      }),
    });
    mkdirSync(path.join(base, PLUGINS, 'cache', 'mkt', 'evil'), { recursive: true });
    symlinkSync(
      path.join(base, 'elsewhere', 'evil'),
      path.join(base, PLUGINS, 'cache', 'mkt', 'evil', '1'),
    );
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(report.skills).toEqual([]);
    expect(report.problems.map((p) => p.code)).toEqual(['PATH_OUTSIDE_ROOT']);
  });
});

describe('plugin registry keys (issue #11)', () => {
  it('refuses a key that climbs out of ~/.claude/plugins and never reads the folder it names', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      'home/elsewhere/skills/x/SKILL.md': skill('x'),
      [`${PLUGINS}/installed_plugins.json`]: JSON.stringify({
        version: 2,
        plugins: { '../../../elsewhere@market': [], '..@market': [], 'a/b@market': [] },
      }),
    });
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(report.skills).toEqual([]);
    expect(report.enumerated).toEqual([]);
    expect(report.scopes.filter((s) => s.kind === 'plugin')).toEqual([]);
    expect(report.problems.map((p) => p.code)).toEqual([
      'PATH_OUTSIDE_ROOT',
      'PATH_OUTSIDE_ROOT',
      'PATH_OUTSIDE_ROOT',
    ]);
  });

  it('refuses a plugin folder that is a link out of ~/.claude/plugins', () => {
    const base = realpathSync(tmpDir());
    writeTree(base, {
      'elsewhere/skills/x/SKILL.md': skill('x'),
      [`${PLUGINS}/installed_plugins.json`]: JSON.stringify({
        version: 2,
        plugins: { 'evil@market': [] },
      }),
    });
    symlinkSync(path.join(base, 'elsewhere'), path.join(base, PLUGINS, 'evil'));
    const report = discoverSkills({
      home: path.join(base, 'home'),
      project: path.join(base, 'project'),
    });
    expect(report.skills).toEqual([]);
    expect(report.problems.map((p) => p.code)).toEqual(['PATH_OUTSIDE_ROOT']);
  });

  // issue 25: the skills folder itself, not only the plugin folder or installPath, is checked.
  it.each(['enabled-list', 'no registry'])(
    "refuses a plugin's skills folder that is a link out of ~/.claude/plugins (%s)",
    (mode) => {
      const base = realpathSync(tmpDir());
      writeTree(base, {
        'home/secrets/x/SKILL.md': skill('x'),
        [`${PLUGINS}/plain/.keep`]: '',
        [`${PLUGINS}/cache/mkt/cached/1/.keep`]: '',
        ...(mode === 'enabled-list'
          ? {
              [`${PLUGINS}/installed_plugins.json`]: registryV2(base, {
                'plain@market': `${PLUGINS}/plain`,
                'cached@mkt': `${PLUGINS}/cache/mkt/cached/1`,
              }),
            }
          : {}),
      });
      symlinkSync(path.join(base, 'home', 'secrets'), path.join(base, PLUGINS, 'plain', 'skills'));
      symlinkSync(
        path.join(base, 'home', 'secrets'),
        path.join(base, PLUGINS, 'cache', 'mkt', 'cached', '1', 'skills'),
      );
      const report = discoverSkills({
        home: path.join(base, 'home'),
        project: path.join(base, 'project'),
      });
      expect(report.skills).toEqual([]);
      expect(report.enumerated).toEqual([]);
      expect(
        report.problems
          .filter((p) => p.code === 'PATH_OUTSIDE_ROOT')
          .map((p) => p.path)
          .sort(),
      ).toEqual(
        [
          path.join(base, PLUGINS, 'cache', 'mkt', 'cached', '1', 'skills'),
          path.join(base, PLUGINS, 'plain', 'skills'),
        ].sort(),
      );
    },
  );
});
