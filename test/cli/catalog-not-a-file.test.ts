/**
 * A catalog path that is not a regular file (issue 36 L2): a FIFO named as the catalog (by a
 * project config, say) must not block `hook` or `search` past the hook's 1 s deadline. It is
 * refused before anything is opened, with NOT_A_FILE (exit 2) naming the file; so are a FIFO
 * beside it (`-wal`) and a FIFO telemetry file, and a folder.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import { REPO, runCli, tmpTree } from '../support/cli.js';

// Should a fix regress, the FIFO is opened for a few seconds by a writer that then closes it, so
// the blocked open returns (the test then fails on its time) instead of hanging the worker.
function unblockLater(fifo: string): () => void {
  const child = spawn(
    'timeout',
    ['6', 'sh', '-c', `sleep 2; for i in 1 2 3 4 5; do : > "$1"; done`, 'sh', fifo],
    {
      stdio: 'ignore',
    },
  );
  return () => child.kill();
}

async function hook(
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await run(['hook', 'generic', '--strict', '--json'], {
    stdout: (s) => {
      out += s;
    },
    stderr: (s) => {
      out += s;
    },
    env,
    cwd,
    stderrIsTTY: false,
    readStdin: () => Promise.resolve('merge two pdf files'),
  });
  return { code, out };
}

describe('a catalog that is not a regular file', () => {
  it('a FIFO catalog named by a project config: hook and search refuse it at once', async () => {
    const home = tmpTree({ 'repo/.skilldex/config.toml': 'catalog = "cat.sqlite"\n' });
    const repo = path.join(home, 'repo');
    const fifo = path.join(repo, '.skilldex', 'cat.sqlite');
    execFileSync('mkfifo', [fifo]);
    const stop = unblockLater(fifo);
    try {
      const env = { HOME: home };
      // Warm up: the first in-process run loads the modules, which is not what is timed here.
      await runCli(['search', 'x', '--catalog', path.join(home, 'none.sqlite')], {
        cwd: home,
        env,
      });
      await hook(home, { ...env, SKILLDEX_CATALOG: path.join(home, 'none.sqlite') });
      const t0 = Date.now();
      const s = await runCli(['search', 'merge pdf', '--json'], { cwd: repo, env });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(s.code, s.stdout + s.stderr).toBe(2);
      const err = (JSON.parse(s.stdout) as { error: { code: string; message: string } }).error;
      expect(err.code).toBe('NOT_A_FILE');
      expect(err.message).toContain(fifo);
      expect(err.message).toContain('a FIFO');

      const t1 = Date.now();
      const h = await hook(repo, env);
      expect(Date.now() - t1).toBeLessThan(1000);
      expect(h.code, h.out).toBe(2);
      expect(h.out).toContain('NOT_A_FILE');

      const i = await runCli(
        ['index', '--scope', path.join(REPO, 'examples', 'skills'), '--json'],
        {
          cwd: repo,
          env,
        },
      );
      expect(i.code, i.stdout + i.stderr).toBe(2);
      expect(i.stdout).toContain('NOT_A_FILE');
    } finally {
      stop();
    }
  });

  it('a FIFO beside the catalog, or a folder in its place, is refused too', async () => {
    const home = tmpTree({ '.keep': '' });
    const catalog = path.join(home, 'cat.sqlite');
    const indexed = await runCli(
      ['index', '--catalog', catalog, '--scope', path.join(REPO, 'examples', 'skills')],
      { cwd: home, env: { HOME: home } },
    );
    expect(indexed.code, indexed.stderr).toBe(0);
    const wal = `${catalog}-wal`;
    execFileSync('mkfifo', [wal]);
    const stop = unblockLater(wal);
    try {
      const t0 = Date.now();
      const r = await runCli(['search', 'merge pdf', '--catalog', catalog, '--json'], {
        cwd: home,
        env: { HOME: home },
      });
      expect(Date.now() - t0).toBeLessThan(1000);
      expect(r.code).toBe(2);
      expect(r.stdout).toContain('NOT_A_FILE');
      expect(r.stdout).toContain(wal);
    } finally {
      stop();
    }
    const dir = path.join(home, 'dir.sqlite');
    mkdirSync(dir);
    const d = await runCli(['status', '--catalog', dir, '--json'], {
      cwd: home,
      env: { HOME: home },
    });
    expect(d.code).toBe(2);
    expect(JSON.parse(d.stdout)).toMatchObject({ error: { code: 'NOT_A_FILE' } });
  });
});
