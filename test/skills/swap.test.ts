/**
 * A SKILL.md swapped between the walk and the read (issue #11): for a symbolic link to an outside
 * file, for another file, or by swapping its folder for a link. The walk's (dev, inode) and an
 * O_NOFOLLOW open keep the outside bytes out of the record. The swap is made between
 * `enumerateSkillFiles` and `loadSkillFile`, exactly where the race window of `index` lies.
 */
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { enumerateSkillFiles, loadSkillFile, resolveScopes } from '../../src/skills/index.js';
import { tmpDir } from '../support/cli.js';
import { skill } from './support.js';

function setup(): { scope: string; outside: string; file: string } {
  const base = realpathSync(tmpDir());
  const scope = path.join(base, 'scope');
  const outside = path.join(base, 'outside');
  mkdirSync(path.join(scope, 'pdf'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(scope, 'pdf', 'SKILL.md'), skill('pdf', 'Read PDFs.'));
  writeFileSync(path.join(outside, 'SKILL.md'), skill('pdf', 'SECRET outside bytes.'));
  return { scope, outside, file: path.join(scope, 'pdf', 'SKILL.md') };
}

function walk(scope: string) {
  const { files } = enumerateSkillFiles(resolveScopes({ scopes: [scope] }).scopes);
  expect(files).toHaveLength(1);
  return files[0]!;
}

describe('a SKILL.md swapped after the walk', () => {
  it('loads normally when nothing changed', () => {
    const { scope } = setup();
    const r = loadSkillFile(walk(scope));
    expect(r.ok).toBe(true);
  });

  it('refuses a symbolic link put in its place (O_NOFOLLOW)', () => {
    const { scope, outside, file } = setup();
    const origin = walk(scope);
    rmSync(file);
    symlinkSync(path.join(outside, 'SKILL.md'), file);
    const r = loadSkillFile(origin);
    expect(r).toMatchObject({ ok: false, problem: { code: 'PATH_OUTSIDE_ROOT' } });
  });

  it('refuses another file renamed over it (inode differs)', () => {
    const { scope, file } = setup();
    const origin = walk(scope);
    const other = path.join(scope, 'other.md');
    writeFileSync(other, skill('pdf', 'Replaced.'));
    renameSync(other, file);
    const r = loadSkillFile(origin);
    expect(r).toMatchObject({ ok: false, problem: { code: 'FILE_SWAPPED' } });
  });

  it('refuses a folder on its path swapped for a link to the outside (inode differs)', () => {
    const { scope, outside } = setup();
    const origin = walk(scope);
    renameSync(path.join(scope, 'pdf'), path.join(scope, 'pdf-old'));
    symlinkSync(outside, path.join(scope, 'pdf'));
    const r = loadSkillFile(origin);
    expect(r).toMatchObject({ ok: false, problem: { code: 'FILE_SWAPPED' } });
  });
});
