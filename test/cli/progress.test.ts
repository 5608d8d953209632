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
    const { discoverSkills } = await import('../../src/internal.js');
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

describe('progress of cascade build, cascade audit and enrich', () => {
  // A clock that moves 2 s per reading: every update after the first is past the 1 s threshold.
  const tty = (): { clock: () => number } => {
    let now = 0;
    return { clock: () => (now += 2000) };
  };
  const tree = (): string =>
    tmpTree({
      // The project scope of enrich, and the tree the cascade commands are given.
      '.claude/skills/a/SKILL.md': skillMd('alpha-tool', 'alpha charts'),
      '.claude/skills/b/SKILL.md': skillMd('beta-tool', 'beta tables'),
      '.claude/skills/c/SKILL.md': skillMd('gamma-tool', 'gamma forms'),
    });
  const cases: [string, (root: string) => string[], string][] = [
    [
      'cascade build',
      () => ['cascade', 'build', '.claude/skills'],
      'cascade build: reading skills [',
    ],
    [
      'cascade audit',
      () => ['cascade', 'audit', '.claude/skills'],
      'cascade audit: crawling skills [',
    ],
    [
      'enrich',
      (root) => [
        'enrich',
        '--brief',
        'alpha charts',
        '--home',
        root,
        '--project',
        root,
        '--out',
        'evidence/skill-enrichment/t',
      ],
      'enrich: reading skills [',
    ],
  ];
  for (const [name, argv, label] of cases) {
    it(`${name}: drawn on a terminal, silent in a pipe, under --json and under --quiet`, async () => {
      const root = tree();
      if (name === 'cascade audit')
        await runCli(['cascade', 'build', '.claude/skills'], { cwd: root });
      const env = { HOME: root };
      const shown = await runCli(argv(root), { cwd: root, env, tty: tty() });
      expect(shown.stderr).toContain(label);
      expect(shown.stderr).toMatch(/\] 3\/3/);
      expect(shown.stderr.endsWith('\r\x1b[2K')).toBe(true);
      const piped = await runCli(argv(root), { cwd: root, env });
      expect(piped.stderr).not.toContain(label);
      const json = await runCli([...argv(root), '--json'], { cwd: root, env, tty: tty() });
      expect(json.stderr).not.toContain(label);
      const quiet = await runCli(['--quiet', ...argv(root)], { cwd: root, env, tty: tty() });
      expect(quiet.stderr).not.toContain(label);
      expect(quiet.code).toBe(shown.code);
    });
  }
});

describe('library progress callbacks', () => {
  it('buildCascade, auditCascade and enrichSkills report (0, total) first and (total, total) last', async () => {
    const { auditCascade, buildCascade, enrichSkills } = await import('../../src/internal.js');
    const root = tmpTree({
      '.claude/skills/a/SKILL.md': skillMd('alpha-tool', 'alpha charts'),
      '.claude/skills/b/SKILL.md': skillMd('beta-tool', 'beta tables'),
    });
    const lib = path.join(root, '.claude/skills');
    const seen = (): { calls: [number, number][]; fn: (d: number, t: number) => void } => {
      const calls: [number, number][] = [];
      return { calls, fn: (d, t) => calls.push([d, t]) };
    };
    const b = seen();
    buildCascade(lib, { onProgress: b.fn });
    const a = seen();
    auditCascade(lib, { onProgress: a.fn });
    const e = seen();
    enrichSkills({
      brief: 'alpha charts',
      target: 'evidence/skill-enrichment/t',
      env: {},
      home: root,
      project: root,
      cwd: root,
      onProgress: e.fn,
    });
    for (const calls of [b.calls, a.calls, e.calls]) {
      expect(calls[0]).toEqual([0, 2]);
      expect(calls[calls.length - 1]).toEqual([2, 2]);
    }
  });
});
