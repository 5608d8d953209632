/**
 * `index --dry-run` says what it would do (issue 35): its text starts with "would index …" and its
 * JSON `summary` does too, never "indexed …"; a real run says "indexed …". Nothing is written.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

describe('index --dry-run', () => {
  it('says "would index" in text and JSON, and a real run says "indexed"', async () => {
    const home = tmpTree({
      'lib/alpha/SKILL.md': skillMd('alpha', 'alpha tool for pdf tables'),
      'lib/bravo/SKILL.md': skillMd('bravo', 'bravo tool for csv files'),
    });
    const env = { HOME: home };
    const catalog = path.join(home, 'cat.sqlite');
    const args = ['index', '--catalog', catalog, '--scope', 'lib'];

    const fresh = await runCli([...args, '--dry-run'], { cwd: home, env });
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toMatch(/^would index 2 SKILL\.md files into cat\.sqlite /);
    expect(fresh.stdout).toContain('  would add 2, change 0, remove 0;');
    expect(fresh.stdout).toContain('dry run: nothing was written');
    expect(fresh.stdout).not.toMatch(/^indexed/m);

    const real = await runCli([...args, '--json'], { cwd: home, env });
    expect(real.code, real.stderr).toBe(0);
    expect((JSON.parse(real.stdout) as { summary: string }).summary).toBe(
      `indexed 2 SKILL.md files into ${catalog} (2 added, 0 changed, 0 retired, 0 unchanged)`,
    );
    const before = readFileSync(catalog);

    const dry = await runCli([...args, '--dry-run', '--json'], { cwd: home, env });
    expect(dry.code, dry.stderr).toBe(0);
    const report = JSON.parse(dry.stdout) as { summary: string; dry_run: boolean };
    expect(report.dry_run).toBe(true);
    expect(report.summary).toBe(
      `would index 2 SKILL.md files into ${catalog} (0 to be added, 0 to be changed, 0 to be retired, 2 unchanged); nothing was written`,
    );
    const text = await runCli([...args, '--dry-run'], { cwd: home, env });
    expect(text.stdout).toMatch(/^would index 2 SKILL\.md files/);
    expect(readFileSync(catalog).equals(before)).toBe(true);
  });
});
