/**
 * `skilldex status` on a machine with no catalog yet (issue 35): "not set up yet" is an answer, not
 * a refused command. It prints where the catalog would be, a "no catalog yet — run …" line naming
 * the next command (skilldex init on a fresh machine), the doctor summary, and exits 1 (DESIGN §7:
 * ran, found nothing usable — as for a drifted catalog, so `status || skilldex index` still works),
 * never 2; `--json` has `catalog_missing: true` and `next`. `doctor` keeps failing for the same
 * home; once a catalog exists, status exits 0 with `catalog_missing: false`.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpDir, writeTree } from '../support/cli.js';

interface StatusJson {
  catalog: string;
  catalog_missing: boolean;
  next?: string;
  published: unknown;
  working: { active: number };
  setup: { healthy: boolean; problems: number };
}

describe('skilldex status with no catalog yet', () => {
  it('says so and names skilldex init (exit 1, nothing on stderr); doctor still fails', async () => {
    const home = tmpDir('skilldex-status-fresh-');
    const env = { HOME: home, XDG_CONFIG_HOME: '', XDG_DATA_HOME: '', XDG_STATE_HOME: '' };
    const catalog = path.join(home, '.local', 'share', 'skilldex', 'catalog.sqlite');

    const text = await runCli(['status'], { env, cwd: home });
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain(`catalog: ${catalog} (none yet)`);
    expect(text.stdout).toContain('no catalog yet — run skilldex init');
    expect(text.stdout).toMatch(/^set-up: \d+ problem\(s\) — run skilldex doctor$/m);
    expect(text.stdout).not.toContain('CATALOG_MISSING');

    const json = await runCli(['status', '--json'], { env, cwd: home });
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as StatusJson;
    expect(body).toMatchObject({
      catalog,
      catalog_missing: true,
      next: 'skilldex init',
      published: null,
      working: { active: 0 },
      setup: { healthy: false },
    });
    expect(body).not.toHaveProperty('error');
    // Nothing was created by asking.
    expect(existsSync(catalog)).toBe(false);

    // doctor is the command that fails for a set-up that is not there.
    const doctor = await runCli(['doctor', '--json'], { env, cwd: home });
    expect(doctor.code).toBe(1);
    expect((JSON.parse(doctor.stdout) as { healthy: boolean }).healthy).toBe(false);

    // With a catalog, status answers as before: exit 0, catalog_missing false.
    writeTree(home, { 'lib/pdf-merge/SKILL.md': skillMd('pdf-merge', 'Merge PDF files.') });
    const index = await runCli(['index', '--catalog', catalog, '--scope', 'lib'], {
      env,
      cwd: home,
    });
    expect(index.code, index.stderr).toBe(0);
    const after = await runCli(['status', '--json'], { env, cwd: home });
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout) as StatusJson).toMatchObject({
      catalog_missing: false,
      working: { active: 1 },
    });
  });

  it('a corrupt catalog is still an integrity failure (exit 3), not "none yet"', async () => {
    const home = tmpDir('skilldex-status-corrupt-');
    writeTree(home, {
      'catalog.sqlite': 'this is not a SQLite file, but it is long enough '.repeat(4),
    });
    const r = await runCli(['status', '--catalog', path.join(home, 'catalog.sqlite'), '--json'], {
      env: { HOME: home },
      cwd: home,
    });
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CATALOG_CORRUPT' } });
  });
});
