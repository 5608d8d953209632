/**
 * The bounded walker (src/fsx/walk.ts, issue #2 §3): skips .git and node_modules, sorted order,
 * links followed only into allowed roots, link loops survived, depth and entry bounds, and every
 * refusal a coded Problem. Links and FIFOs are created at test time.
 *
 * Unreadable folders: tests usually run as root here, and chmod 000 does not stop root from
 * listing a folder. So the permission case runs the walker (from the built dist/) in a child
 * process that drops to the `nobody` user when we are root, and in process otherwise; the other
 * UNREADABLE branches (a root that is a file, a broken SKILL.md link) need no privileges.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../src/errors.js';
import { walkFiles } from '../../src/fsx/index.js';
import { type WalkResult } from '../../src/fsx/walk.js';
import { REPO, tmpTree } from '../support/cli.js';
import { runAsNobody } from '../support/unprivileged.js';

const isSkill = (n: string): boolean => n === 'SKILL.md';

function rels(root: string, r: WalkResult): string[] {
  return r.files.map((f) => path.relative(root, f.path));
}

function codes(r: { problems: readonly Problem[] }): string[] {
  return r.problems.map((p) => p.code);
}

describe('walkFiles', () => {
  it('finds matching files in sorted depth-first order, skipping .git and node_modules', () => {
    const root = tmpTree({
      'b/SKILL.md': 'b',
      'a/z/SKILL.md': 'az',
      'a/SKILL.md': 'a',
      'a/README.md': 'no',
      'SKILL.md': 'root',
      '.git/SKILL.md': 'no',
      'node_modules/pkg/SKILL.md': 'no',
      'c/node_modules/SKILL.md': 'no',
      'c/.git/x/SKILL.md': 'no',
      '.hidden/SKILL.md': 'yes',
    });
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual([
      'SKILL.md',
      '.hidden/SKILL.md',
      'a/SKILL.md',
      'a/z/SKILL.md',
      'b/SKILL.md',
    ]);
    expect(r.problems).toEqual([]);
  });

  it('gives an empty result for a missing root', () => {
    expect(walkFiles('/nonexistent-skilldex-root', isSkill)).toEqual({ files: [], problems: [] });
  });

  it('never follows a link out of its scope, to a folder or a file', () => {
    const outside = tmpTree({ 'evil/SKILL.md': 'outside', 'SKILL.md': 'outside file' });
    const root = tmpTree({ 'ok/SKILL.md': 'inside' });
    symlinkSync(path.join(outside, 'evil'), path.join(root, 'evil'));
    mkdirSync(path.join(root, 'file-link'));
    symlinkSync(path.join(outside, 'SKILL.md'), path.join(root, 'file-link', 'SKILL.md'));
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual(['ok/SKILL.md']);
    expect(r.problems.map((p) => [p.code, path.relative(root, p.path)])).toEqual([
      ['PATH_OUTSIDE_ROOT', 'evil'],
      ['PATH_OUTSIDE_ROOT', 'file-link/SKILL.md'],
    ]);
  });

  it('follows links into another allowed root and reports the real path', () => {
    const other = tmpTree({ 'shared/SKILL.md': 'shared' });
    const root = tmpTree({ 'own/SKILL.md': 'own' });
    symlinkSync(path.join(other, 'shared'), path.join(root, 'shared'));
    const r = walkFiles(root, isSkill, { allowedRoots: [realpathSync(root), realpathSync(other)] });
    expect(rels(root, r)).toEqual(['own/SKILL.md', 'shared/SKILL.md']);
    expect(r.files[1]!.realPath).toBe(path.join(realpathSync(other), 'shared', 'SKILL.md'));
    expect(r.problems).toEqual([]);
  });

  it('follows links inside the root', () => {
    const root = tmpTree({ 'real/SKILL.md': 'x' });
    symlinkSync(path.join(root, 'real', 'SKILL.md'), path.join(root, 'real', 'alias.md'));
    mkdirSync(path.join(root, 'other'));
    symlinkSync('../real/SKILL.md', path.join(root, 'other', 'SKILL.md'));
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual(['other/SKILL.md', 'real/SKILL.md']);
    expect(new Set(r.files.map((f) => f.realPath)).size).toBe(1);
  });

  it('survives a link loop (a folder link to an ancestor) with LINK_LOOP', () => {
    const root = tmpTree({ 'a/b/SKILL.md': 'x' });
    symlinkSync(path.join(root, 'a'), path.join(root, 'a', 'b', 'up'));
    symlinkSync(root, path.join(root, 'a', 'root-again'));
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual(['a/b/SKILL.md']);
    expect(codes(r)).toEqual(['LINK_LOOP', 'LINK_LOOP']);
  });

  it('reports a self-referencing SKILL.md link as unreadable and goes on', () => {
    const root = tmpTree({ 'ok/SKILL.md': 'x' });
    mkdirSync(path.join(root, 'loop'));
    symlinkSync('SKILL.md', path.join(root, 'loop', 'SKILL.md'));
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual(['ok/SKILL.md']);
    expect(r.problems.map((p) => [p.code, path.relative(root, p.path)])).toEqual([
      ['UNREADABLE', 'loop/SKILL.md'],
    ]);
  });

  it('reports a broken SKILL.md link as unreadable', () => {
    const root = tmpTree({ 'ok/SKILL.md': 'x' });
    mkdirSync(path.join(root, 'gone'));
    symlinkSync(path.join(root, 'nowhere', 'SKILL.md'), path.join(root, 'gone', 'SKILL.md'));
    const r = walkFiles(root, isSkill);
    expect(rels(root, r)).toEqual(['ok/SKILL.md']);
    expect(codes(r)).toEqual(['UNREADABLE']);
  });

  it('reports a root that cannot be listed (a file where a folder is expected) as unreadable', () => {
    const root = tmpTree({ 'file.txt': 'x' });
    const r = walkFiles(path.join(root, 'file.txt'), isSkill);
    expect(r.files).toEqual([]);
    expect(codes(r)).toEqual(['UNREADABLE']);
  });

  it('stops at the depth bound with WALK_LIMIT and keeps what is shallower', () => {
    const root = tmpTree({
      'a/SKILL.md': '1',
      'a/b/SKILL.md': '2',
      'a/b/c/SKILL.md': '3',
      'a/b/c/d/SKILL.md': '4',
    });
    const r = walkFiles(root, isSkill, { maxDepth: 2 });
    expect(rels(root, r)).toEqual(['a/SKILL.md', 'a/b/SKILL.md']);
    expect(r.problems.map((p) => [p.code, path.relative(root, p.path)])).toEqual([
      ['WALK_LIMIT', 'a/b/c'],
    ]);
  });

  it('stops at the entry bound with one WALK_LIMIT', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`s${String(i).padStart(2, '0')}/SKILL.md`] = String(i);
    const root = tmpTree(files);
    const r = walkFiles(root, isSkill, { maxEntries: 10 });
    expect(r.files.length).toBeLessThan(10);
    expect(codes(r)).toEqual(['WALK_LIMIT']);
  });

  it('finds a FIFO named SKILL.md so the reader can refuse it with a reason', () => {
    const root = tmpTree({ 'ok/SKILL.md': 'x' });
    mkdirSync(path.join(root, 'pipe'));
    spawnSync('mkfifo', [path.join(root, 'pipe', 'SKILL.md')]);
    expect(rels(root, walkFiles(root, isSkill))).toEqual(['ok/SKILL.md', 'pipe/SKILL.md']);
  });
});

describe('walkFiles on a folder without read permission', () => {
  const locked: string[] = [];
  afterEach(() => {
    for (const d of locked.splice(0)) chmodSync(d, 0o755);
  });

  it('reports the folder as UNREADABLE and walks the rest', (ctx) => {
    const root = tmpTree({ 'open/SKILL.md': 'x', 'locked/inner/SKILL.md': 'y' });
    chmodSync(root, 0o755);
    const lockedDir = path.join(root, 'locked');
    chmodSync(lockedDir, 0o000);
    locked.push(lockedDir);
    const result = walkAsUnprivileged(root, (note) => ctx.skip(note) as never);
    expect(result.files.map((f) => path.relative(root, f.path))).toEqual(['open/SKILL.md']);
    expect(result.problems.map((p) => [p.code, path.relative(root, p.path)])).toEqual([
      ['UNREADABLE', 'locked'],
    ]);
  });
});

// Root ignores permission bits, so as root the walk runs in a child process as `nobody`; skipped,
// with the reason, when that user cannot reach the test tree.
function walkAsUnprivileged(root: string, skip: (note: string) => never): WalkResult {
  if (process.getuid?.() !== 0) return walkFiles(root, isSkill);
  const r = runAsNobody<WalkResult>(
    path.join(REPO, 'dist', 'fsx', 'index.js'),
    `m.walkFiles(${JSON.stringify(root)}, (n) => n === 'SKILL.md')`,
    root,
  );
  return r.ok ? r.value : skip(r.skip);
}

describe('alone: the only entry of its folder', () => {
  it('is set for a file alone in its folder, not beside another entry, and never for a link', () => {
    const root = tmpTree({
      'solo/SKILL.md': 'a',
      'pair/SKILL.md': 'b',
      'pair/run.sh': 'c',
      'target/SKILL.md': 'd',
      'target/data.csv': 'e',
    });
    mkdirSync(path.join(root, 'linked'));
    symlinkSync(path.join(root, 'target', 'SKILL.md'), path.join(root, 'linked', 'SKILL.md'));
    const r = walkFiles(root, (n) => n === 'SKILL.md');
    const alone = Object.fromEntries(
      r.files.map((f) => [path.relative(root, f.path), f.alone === true]),
    );
    expect(alone).toEqual({
      'solo/SKILL.md': true,
      'pair/SKILL.md': false,
      'linked/SKILL.md': false,
      'target/SKILL.md': false,
    });
  });
});
