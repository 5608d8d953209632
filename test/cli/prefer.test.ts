/**
 * Choosing between two files that define one skill id (issue 27): by default the earlier scope
 * wins, then path order, and the other is reported shadowed; `--prefer DIR` (or `library.prefer`)
 * keeps the one inside DIR instead, even inside one scope, says so in the shadowed record
 * (`preferred`), and a bare `skilldex index` afterwards keeps the choice (the catalog remembers it).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveIdentities, type SkillRecord } from '../../src/skills/index.js';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

const served = async (home: string, catalog: string): Promise<string> => {
  const r = await runCli(['show', 'pdf', '--catalog', catalog, '--json'], {
    cwd: home,
    env: { HOME: home },
  });
  return (JSON.parse(r.stdout) as { location: { path: string } }).location.path;
};

describe('--prefer', () => {
  it('chooses the shadowed copy inside one scope, reports it, and a bare index keeps the choice', async () => {
    const home = tmpTree({
      'lib/a/pdf/SKILL.md': skillMd('pdf', 'PDF tools from team A'),
      'lib/b/pdf/SKILL.md': skillMd('pdf', 'PDF tools from team B'),
    });
    const catalog = path.join(home, 'c.sqlite');
    const index = (extra: string[]) =>
      runCli(['index', '--catalog', catalog, ...extra, '--json'], {
        cwd: home,
        env: { HOME: home },
      });
    const first = await index(['--scope', 'lib']);
    expect(first.code).toBe(0);
    expect(await served(home, catalog)).toBe(path.join(home, 'lib/a/pdf/SKILL.md'));

    const chosen = await index(['--scope', 'lib', '--prefer', 'lib/b']);
    const report = JSON.parse(chosen.stdout) as {
      shadowed: { winner: string; shadowed: string; preferred?: string }[];
    };
    expect(report.shadowed).toEqual([
      {
        skill_id: 'pdf',
        winner: path.join(home, 'lib/b/pdf/SKILL.md'),
        winner_scope: 'custom',
        shadowed: path.join(home, 'lib/a/pdf/SKILL.md'),
        shadowed_scope: 'custom',
        preferred: path.join(home, 'lib/b'),
      },
    ]);
    expect(await served(home, catalog)).toBe(path.join(home, 'lib/b/pdf/SKILL.md'));

    // A bare index re-reads the remembered scopes with the remembered preference.
    expect((await index([])).code).toBe(0);
    expect(await served(home, catalog)).toBe(path.join(home, 'lib/b/pdf/SKILL.md'));
  });

  it('takes library.prefer from the config, and scan shows the choice', async () => {
    const home = tmpTree({
      'lib/a/pdf/SKILL.md': skillMd('pdf', 'PDF tools from team A'),
      'lib/b/pdf/SKILL.md': skillMd('pdf', 'PDF tools from team B'),
    });
    writeTree(home, {
      '.config/skilldex/config.toml': `[library]\nscopes = ["${path.join(home, 'lib')}"]\nprefer = ["${path.join(home, 'lib/b')}"]\n`,
    });
    const catalog = path.join(home, 'c.sqlite');
    expect(
      (await runCli(['index', '--catalog', catalog], { cwd: home, env: { HOME: home } })).code,
    ).toBe(0);
    expect(await served(home, catalog)).toBe(path.join(home, 'lib/b/pdf/SKILL.md'));
    const scan = await runCli(['scan', '--scope', 'lib', '--prefer', 'lib/b', '--verbose'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(scan.stdout).toContain('preferred: lib/b');
  });
});

describe('resolveIdentities with prefer', () => {
  const rec = (id: string, p: string): SkillRecord =>
    ({
      skill_id: id,
      path: p,
      real_path: p,
      scope: 'custom',
      revision_id: `sha256:${p}`,
      normalized_sha256: p,
    }) as unknown as SkillRecord;

  it('keeps the first of an id without a preference, and the one in the earliest preferred folder with one', () => {
    const records = [
      rec('x', '/s/a/x/SKILL.md'),
      rec('x', '/s/b/x/SKILL.md'),
      rec('x', '/s/c/x/SKILL.md'),
      rec('y', '/s/a/y/SKILL.md'),
    ];
    expect(resolveIdentities(records).skills.map((r) => r.path)).toEqual([
      '/s/a/x/SKILL.md',
      '/s/a/y/SKILL.md',
    ]);
    const chosen = resolveIdentities(records, ['/s/c', '/s/b']);
    expect(chosen.skills.map((r) => r.path)).toEqual(['/s/c/x/SKILL.md', '/s/a/y/SKILL.md']);
    expect(chosen.shadowed.map((s) => [s.shadowed, s.preferred])).toEqual([
      ['/s/a/x/SKILL.md', '/s/c'],
      ['/s/b/x/SKILL.md', '/s/c'],
    ]);
  });
});
