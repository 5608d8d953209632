/**
 * A SKILL.md swapped between the walk and the read (issue #11): for a symbolic link to an outside
 * file, for another file, or by swapping its folder for a link. The walk's (dev, inode) and an
 * O_NOFOLLOW open keep the outside bytes out of the record. The swap is made between
 * `enumerateSkillFiles` and `loadSkillFile`, exactly where the race window of `index` lies; a last
 * case races a swapping child process over a bounded loop of scans (count and time).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  discoverSkills,
  enumerateSkillFiles,
  loadSkillFile,
  resolveScopes,
} from '../../src/skills/index.js';
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

describe('discovery racing a SKILL.md swapped for a link (child process swapper)', () => {
  it('never records the outside file, over a bounded loop of scans', async () => {
    const { scope, outside, file } = setup();
    const stop = path.join(path.dirname(scope), 'stop');
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs');
         const [file, target, stop] = process.argv.slice(1);
         const aside = file + '.aside';
         const until = Date.now() + 15000;
         // Each state is held for a short while, so a scan can list one and open the other.
         const hold = () => { const t = process.hrtime.bigint() + BigInt(Math.floor(Math.random() * 300000)); while (process.hrtime.bigint() < t) {} };
         while (!fs.existsSync(stop) && Date.now() < until) {
           try { fs.renameSync(file, aside); fs.symlinkSync(target, file); hold(); fs.unlinkSync(file); fs.renameSync(aside, file); hold(); } catch {}
         }`,
        file,
        path.join(outside, 'SKILL.md'),
        stop,
      ],
      { stdio: 'ignore' },
    );
    const until = Date.now() + 8000;
    const descriptions = new Set<string>();
    try {
      for (let i = 0; i < 300 && Date.now() < until; i++) {
        for (const s of discoverSkills({ scopes: [scope] }).skills) descriptions.add(s.description);
        // Let the swapper run between scans.
        if (i % 20 === 0) await new Promise((r) => setTimeout(r, 1));
      }
    } finally {
      writeFileSync(stop, '');
      await new Promise((r) => swapper.on('exit', r));
    }
    expect([...descriptions].filter((d) => d.includes('SECRET'))).toEqual([]);
  });
});
