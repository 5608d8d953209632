/**
 * A catalog removed after init, while the library still holds skills (issue 35: doctor names every
 * way the set-up can break, each with its fix): doctor's `catalog` check fails saying the library
 * holds skills to index, with `skilldex index` as the fix — not "add skill folders", which is the
 * fix only for a library that holds none; `status` answers "no catalog yet — run skilldex doctor"
 * (exit 1); after `skilldex index` (no options) the check is ok again.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree, writeTree } from '../support/cli.js';

interface Check {
  id: string;
  status: string;
  message: string;
  fix?: string;
}

async function catalogCheck(home: string, env: Record<string, string>): Promise<Check> {
  const r = await runCli(['doctor', '--json'], { cwd: home, env });
  return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'catalog')!;
}

describe('doctor: the catalog removed after init', () => {
  it('names the skills waiting in the library and skilldex index as the fix; index makes it ok', async () => {
    const home = tmpTree({
      '.claude/skills/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
      '.claude/skills/csv-clean/SKILL.md': skillMd('csv-clean', 'Clean CSV spreadsheets.'),
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    expect((await runCli(['init', '--yes'], { cwd: home, env })).code).toBe(0);
    expect((await catalogCheck(home, env)).status).toBe('ok');

    const catalog = path.join(home, '.local/share/skilldex/catalog.sqlite');
    for (const f of ['', '-wal', '-shm']) rmSync(catalog + f, { force: true });
    const gone = await catalogCheck(home, env);
    expect(gone.status).toBe('fail');
    expect(gone.message).toContain('CATALOG_MISSING');
    expect(gone.message).toContain('holds 2 skill(s) to index (');
    expect(gone.message).not.toContain('skill-router');
    expect(gone.fix).toMatch(/^skilldex index /);
    expect(gone.fix).not.toContain('add skill folders');

    const status = await runCli(['status'], { cwd: home, env });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain('no catalog yet — run skilldex doctor');

    expect((await runCli(['index'], { cwd: home, env })).code).toBe(0);
    expect((await catalogCheck(home, env)).status).toBe('ok');
  });

  it('names a skill added to the library since the last index (a stale index), fixed by skilldex index', async () => {
    const home = tmpTree({
      '.claude/skills/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files into one.'),
    });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    expect((await runCli(['init', '--yes'], { cwd: home, env })).code).toBe(0);
    writeTree(home, {
      '.claude/skills/csv-clean/SKILL.md': skillMd('csv-clean', 'Clean CSV spreadsheets.'),
    });
    const stale = await catalogCheck(home, env);
    expect(stale.status).toBe('fail');
    expect(stale.message).toMatch(/^1 skill\(s\) in the library are not in .* yet/);
    expect(stale.message).toContain('csv-clean');
    expect(stale.fix).toBe('skilldex index');
    expect((await runCli(['index'], { cwd: home, env })).code).toBe(0);
    expect((await catalogCheck(home, env)).status).toBe('ok');
  });

  it('an empty library keeps the fix that says to add skills and run init again', async () => {
    const home = tmpTree({ 'keep/.placeholder': '' });
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    expect((await runCli(['init', '--yes'], { cwd: home, env })).code).toBe(0);
    const c = await catalogCheck(home, env);
    expect(c.status).toBe('fail');
    expect(c.message).toContain('holds no skill yet');
    expect(c.fix).toMatch(
      /^add skill folders \(each with a SKILL\.md\) to .*, then run skilldex init again/,
    );
  });
});
