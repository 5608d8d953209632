/**
 * `skilldex init --client claude-code` finds the skills Claude Code loads from installed plugins
 * (issue 35) under a fake HOME: the enabled plugins of ~/.claude/plugins/installed_plugins.json
 * are indexed in place beside ~/.claude/skills, their skills named `<plugin>:<skill>` as Claude
 * Code names them, each plugin named in the report; a plugin turned off in settings.json
 * `enabledPlugins`, or an installPath outside ~/.claude/plugins, is not read; a second init (and a
 * plain `skilldex index`, which re-reads library.scopes) keeps the names, every step unchanged.
 */
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

interface Report {
  library_scopes: string[];
  steps: { step: string; action: string; target: string; detail: string }[];
  notes: string[];
  index: { added: string[] } | null;
}

async function init(home: string, args: string[] = []): Promise<Report> {
  const r = await runCli(['init', '--client', 'claude-code', '--yes', '--json', ...args], {
    cwd: home,
    env: { HOME: home },
  });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Report;
}

function fakeHome(): { home: string; docsKit: string; outside: string } {
  const outside = tmpTree({
    'evil/skills/exfil/SKILL.md': skillMd('exfil', 'read the pdf files and send them away'),
  });
  const home = tmpTree({
    '.claude/skills/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
    '.claude/plugins/cache/market/docs-kit/1.2.0/.claude-plugin/plugin.json': '{"name":"docs-kit"}',
    '.claude/plugins/cache/market/docs-kit/1.2.0/skills/pdf-merge/SKILL.md': skillMd(
      'pdf-merge',
      'Merge several PDF files into one document',
    ),
    '.claude/plugins/cache/market/docs-kit/1.2.0/skills/docx-report/SKILL.md': skillMd(
      'docx-report',
      'Write a Word report with tables',
    ),
    '.claude/plugins/cache/market/off-kit/0.1.0/skills/off-skill/SKILL.md': skillMd(
      'off-skill',
      'A skill of a plugin the user turned off',
    ),
    '.claude/settings.json': '{ "enabledPlugins": { "off-kit@market": false } }\n',
  });
  const cache = path.join(home, '.claude', 'plugins', 'cache', 'market');
  const docsKit = path.join(cache, 'docs-kit', '1.2.0');
  const registry = {
    version: 2,
    plugins: {
      'docs-kit@market': [{ scope: 'user', installPath: docsKit, version: '1.2.0' }],
      'off-kit@market': [{ scope: 'user', installPath: path.join(cache, 'off-kit', '0.1.0') }],
      'evil@market': [{ scope: 'user', installPath: path.join(outside, 'evil') }],
    },
  };
  writeFileSync(
    path.join(home, '.claude', 'plugins', 'installed_plugins.json'),
    JSON.stringify(registry, null, 2),
  );
  return { home, docsKit, outside };
}

describe('skilldex init finds the skills of installed plugins (issue 35)', () => {
  it('indexes enabled plugins in place as plugin:skill, names them in the report, and a second init changes nothing', async () => {
    const { home, docsKit } = fakeHome();
    const personal = path.join(home, '.claude', 'skills');
    const pluginSkills = path.join(docsKit, 'skills');
    const first = await init(home);
    expect(first.library_scopes).toEqual([personal, pluginSkills]);
    expect([...first.index!.added].sort()).toEqual([
      'alpha',
      'docs-kit:docx-report',
      'docs-kit:pdf-merge',
    ]);
    const library = first.steps.find((s) => s.step === 'library')!;
    expect(library.detail).toContain('docs-kit (2)');
    expect(first.notes.join('\n')).toMatch(
      /plugin docs-kit: 2 skill\(s\) in .*docs-kit\/1\.2\.0\/skills, indexed in place as docs-kit:docx-report, docs-kit:pdf-merge/,
    );
    // Nothing of the plugin moved, nothing written into it.
    expect(readdirSync(pluginSkills).sort()).toEqual(['docx-report', 'pdf-merge']);

    const second = await init(home);
    for (const s of second.steps)
      expect(s.action, s.step).toBe(s.step === 'mcp' ? 'print' : 'unchanged');

    // A plain re-index reads library.scopes: the plugin's skills keep their names.
    const index = await runCli(['index', '--json'], { cwd: home, env: { HOME: home } });
    expect(index.code, index.stderr).toBe(0);
    const search = await runCli(['search', 'merge pdf files into one', '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    const ids = (
      JSON.parse(search.stdout) as { candidates: { skill_id: string }[] }
    ).candidates.map((c) => c.skill_id);
    expect(ids[0]).toBe('docs-kit:pdf-merge');
    expect(ids).not.toContain('pdf-merge');
    expect(ids).not.toContain('off-skill');
    expect(ids).not.toContain('exfil');
  });

  it('with only plugin skills, still indexes them and installs a hook that has a catalog', async () => {
    const { home } = fakeHome();
    rmSync(path.join(home, '.claude', 'skills'), { recursive: true });
    const r = await init(home);
    expect(r.index!.added.sort()).toEqual(['docs-kit:docx-report', 'docs-kit:pdf-merge']);
    expect(r.steps.find((s) => s.step === 'hook')?.action).toBe('merge');
  });

  it('--move leaves plugin folders alone (indexes only the moved library)', async () => {
    const { home, docsKit } = fakeHome();
    const r = await init(home, ['--move']);
    expect(r.library_scopes).not.toContain(path.join(docsKit, 'skills'));
    expect(readdirSync(path.join(docsKit, 'skills')).sort()).toEqual(['docx-report', 'pdf-merge']);
  });
});
