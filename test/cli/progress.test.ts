/**
 * Progress lines (issue #12): drawn on a terminal's stderr after the first second, never in a pipe,
 * never under --json or --quiet; and `--quiet` silences advisory notes but not errors.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIo } from '../../src/cli/context.js';
import { progressLine } from '../../src/cli/progress.js';
import { runCli, skillMd, tmpTree } from '../support/cli.js';

function fakeIo(tty: boolean): { io: CliIo; err: () => string } {
  let err = '';
  return {
    io: { stdout: () => undefined, stderr: (s) => (err += s), env: {}, cwd: '/', stderrIsTTY: tty },
    err: () => err,
  };
}

describe('progressLine', () => {
  const run = (tty: boolean, enabled: boolean): string => {
    let now = 0;
    const f = fakeIo(tty);
    const p = progressLine(f.io, 'indexing', { enabled, clock: () => now });
    p.update(1, 10);
    now = 1500;
    p.update(5, 10);
    p.done();
    return f.err();
  };

  it('draws on a terminal after the first second and clears the line at the end', () => {
    const out = run(true, true);
    expect(out).toContain('indexing [###############...............] 5/10');
    expect(out).not.toContain('1/10');
    expect(out.endsWith('\r\x1b[2K')).toBe(true);
  });

  it('stays silent in a pipe, and when disabled (--json, --quiet)', () => {
    expect(run(false, true)).toBe('');
    expect(run(true, false)).toBe('');
  });
});

describe('--quiet', () => {
  it('silences advisory notes, not the result or the exit code', async () => {
    const root = tmpTree({
      'lib/a/SKILL.md': skillMd('a', 'alpha tool'),
      'q.jsonl': JSON.stringify({ id: 'q', query: 'alpha', relevant: ['nope'] }) + '\n',
    });
    const catalog = path.join(root, 'c.sqlite');
    expect(
      (
        await runCli(['index', '--catalog', catalog, '--scope', 'lib', '--quiet'], {
          cwd: root,
          env: { HOME: root },
        })
      ).code,
    ).toBe(0);
    const loud = await runCli(['eval', 'q.jsonl', '--catalog', catalog], {
      cwd: root,
      env: { HOME: root },
    });
    expect(loud.stderr).toContain('unknown label nope');
    const quiet = await runCli(['--quiet', 'eval', 'q.jsonl', '--catalog', catalog], {
      cwd: root,
      env: { HOME: root },
    });
    expect(quiet.code).toBe(1);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout).toContain('| q.jsonl |');
  });
});

describe('discoverSkills progress', () => {
  it('reports (0, total) first and (total, total) last', async () => {
    const { discoverSkills } = await import('../../src/index.js');
    const root = tmpTree({
      'a/SKILL.md': skillMd('a', 'alpha'),
      'b/SKILL.md': skillMd('b', 'beta'),
      'c/SKILL.md': skillMd('c', 'gamma'),
    });
    const calls: [number, number][] = [];
    const report = discoverSkills({ scopes: [root] }, (done, total) => calls.push([done, total]));
    expect(report.skills).toHaveLength(3);
    expect(calls[0]).toEqual([0, 3]);
    expect(calls[calls.length - 1]).toEqual([3, 3]);
  });
});
