/**
 * Confined writes (src/fsx/write.ts, issue #11): a link already standing at a temporary name is
 * never followed, and a folder swapped for a link to the outside while writes run never leaves a
 * file outside the root nor crashes uncoded. The race runs as a bounded loop (count and time) in
 * two child processes on the built dist/: one writes, one swaps the folder back and forth.
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeInside } from '../../src/fsx/index.js';
import { REPO, tmpDir } from '../support/cli.js';

describe('writeInside', () => {
  it('never follows a link planted at the old temporary name', () => {
    const base = realpathSync(tmpDir());
    const root = path.join(base, 'root');
    mkdirSync(root);
    const victim = path.join(base, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    symlinkSync(victim, path.join(root, `INDEX.md.tmp-${process.pid}`));
    writeInside(root, 'INDEX.md', 'hello\n');
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    expect(readFileSync(path.join(root, 'INDEX.md'), 'utf8')).toBe('hello\n');
  });

  it('refuses a target folder that is a link out of the root (PATH_OUTSIDE_ROOT)', () => {
    const base = realpathSync(tmpDir());
    const root = path.join(base, 'root');
    const outside = path.join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    symlinkSync(outside, path.join(root, 'sub'));
    expect(() => writeInside(root, 'sub/INDEX.md', 'x')).toThrow(
      expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }),
    );
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('writeInside racing a folder swap (child processes, needs npm run build)', () => {
  it('never leaves a file outside the root and only fails with codes', async () => {
    const dist = path.join(REPO, 'dist', 'fsx', 'index.js');
    if (!existsSync(dist)) throw new Error('dist/ is missing: run npm run build');
    const base = realpathSync(tmpDir('skilldex-write-race-'));
    const root = path.join(base, 'root');
    const outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'sub'), { recursive: true });
    mkdirSync(outside);
    const stop = path.join(base, 'stop');
    // The swapper: `sub` is a real folder, then a link to `outside`, then a real folder again.
    const swapper = spawn(
      process.execPath,
      [
        '-e',
        `const fs = require('node:fs'); const p = require('node:path');
         const [root, outside, stop] = process.argv.slice(1);
         const sub = p.join(root, 'sub'), aside = p.join(root, 'sub-aside');
         const until = Date.now() + 15000;
         while (!fs.existsSync(stop) && Date.now() < until) {
           try { fs.renameSync(sub, aside); fs.symlinkSync(outside, sub); fs.unlinkSync(sub); fs.renameSync(aside, sub); } catch {}
         }`,
        root,
        outside,
        stop,
      ],
      { stdio: 'ignore' },
    );
    // The writer: 400 writes or 10 seconds, whichever ends first; counts outcomes by code.
    const writer = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { writeInside } = await import(${JSON.stringify(pathToFileURL(dist).href)});
         const [root, stop] = process.argv.slice(1);
         const counts = {};
         const until = Date.now() + 10000;
         for (let i = 0; i < 400 && Date.now() < until; i++) {
           let code = 'ok';
           try { writeInside(root, 'sub/INDEX.md', 'run ' + i + '\\n'); } catch (e) { code = e && e.code && e.name === 'SkilldexError' ? e.code : 'UNCODED ' + String(e && e.stack); }
           counts[code] = (counts[code] ?? 0) + 1;
         }
         (await import('node:fs')).writeFileSync(stop, '');
         process.stdout.write(JSON.stringify(counts));`,
        root,
        stop,
      ],
      { encoding: 'utf8', timeout: 30_000 },
    );
    await new Promise((resolve) => swapper.on('exit', resolve));
    expect(writer.status, writer.stderr).toBe(0);
    const counts = JSON.parse(writer.stdout) as Record<string, number>;
    for (const code of Object.keys(counts))
      expect(['ok', 'PATH_OUTSIDE_ROOT', 'WRITE_FAILED']).toContain(code);
    expect(readdirSync(outside)).toEqual([]);
  });
});

describe('writeInside with a verified root (issue #11)', () => {
  it('refuses a root swapped for a link after it was verified, and makes nothing outside', () => {
    const base = realpathSync(tmpDir());
    const root = path.join(base, 'root');
    const outside = path.join(base, 'outside');
    mkdirSync(root);
    mkdirSync(outside);
    const rootReal = realpathSync(root);
    renameSync(root, path.join(base, 'root-aside'));
    symlinkSync(outside, root);
    expect(() => writeInside(root, 'sub/INDEX.md', 'x', rootReal)).toThrow(
      expect.objectContaining({ code: 'PATH_OUTSIDE_ROOT' }),
    );
    expect(readdirSync(outside)).toEqual([]);
  });
});
