/**
 * `skilldex index --watch` (issue #12): the built binary indexes, then re-indexes on real file edits
 * (one compact JSON report per line with --json), reports a failed re-index on stderr and goes on,
 * and exits 0 on SIGTERM.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO, runCli, skillMd, tmpDir, writeTree } from '../support/cli.js';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

/** Polls `check` every 25 ms until it returns a value other than undefined; fails after `ms`. */
async function waitFor<T>(check: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

interface Report {
  added: string[];
  changed: string[];
  removed: string[];
  publish: { seq: number; changed: boolean } | null;
}

describe('skilldex index --watch', () => {
  it('re-indexes and publishes on add, edit and delete; a failed re-index is reported and watching goes on', async () => {
    const dir = tmpDir('skilldex-watch-cli-');
    const scope = path.join(dir, 'skills');
    writeTree(scope, {
      'alpha/SKILL.md': skillMd('alpha', 'Alpha skill for testing'),
      'beta/SKILL.md': skillMd('beta', 'Beta skill for testing'),
      'gamma/SKILL.md': skillMd('gamma', 'Gamma skill for testing'),
    });
    const catalog = path.join(dir, 'catalog.sqlite');
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin', 'skilldex.js'),
        'index',
        '--watch',
        '--json',
        '--scope',
        scope,
        '--catalog',
        catalog,
      ],
      {
        cwd: dir,
        env: { PATH: process.env['PATH'], HOME: dir },
      },
    );
    children.push(child);
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    const reports = (): Report[] =>
      out
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => JSON.parse(l) as Report);
    await waitFor(() => (err.includes('watching') ? true : undefined));
    expect(reports()).toHaveLength(1);
    expect(reports()[0]!.added.sort()).toEqual(['alpha', 'beta', 'gamma']);

    writeTree(scope, { 'delta/SKILL.md': skillMd('delta', 'Delta skill for testing') });
    await waitFor(() => reports().find((r) => r.added.includes('delta')));
    writeFileSync(
      path.join(scope, 'delta/SKILL.md'),
      skillMd('delta', 'Delta skill for testing, edited'),
    );
    await waitFor(() => reports().find((r) => r.changed.includes('delta')));
    rmSync(path.join(scope, 'delta'), { recursive: true });
    await waitFor(() => reports().find((r) => r.removed.includes('delta')));

    // Three of four gone at once would retire more than half: refused, reported, still watching.
    for (const s of ['alpha', 'beta', 'gamma']) rmSync(path.join(scope, s), { recursive: true });
    await waitFor(() => (err.includes('CATALOG_SHRINK') ? true : undefined));
    writeTree(scope, {
      'alpha/SKILL.md': skillMd('alpha', 'Alpha skill for testing'),
      'beta/SKILL.md': skillMd('beta', 'Beta skill for testing'),
      'gamma/SKILL.md': skillMd('gamma', 'Gamma skill for testing'),
    });
    writeTree(scope, { 'epsilon/SKILL.md': skillMd('epsilon', 'Epsilon skill for testing') });
    await waitFor(() => reports().find((r) => r.added.includes('epsilon')));

    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    const status = await runCli(['status', '--catalog', catalog, '--json'], { env: { HOME: dir } });
    expect(status.code, status.stderr).toBe(0);
  });

  it('refuses --watch with --dry-run', async () => {
    const scope = tmpDir('skilldex-watch-cli-');
    const r = await runCli([
      'index',
      '--watch',
      '--dry-run',
      '--scope',
      scope,
      '--catalog',
      path.join(scope, 'c.sqlite'),
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
