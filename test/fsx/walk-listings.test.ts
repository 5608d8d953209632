/**
 * Folder listings a walk reuses (src/fsx/walk.ts `WalkListings`) and the catalog keeps
 * (src/catalog/write/walk-listings.ts): a walk that reuses listings finds exactly what a walk that
 * lists every folder finds; a folder whose mtime moved (an entry made, removed or renamed) is
 * listed again; a folder listed within RACY_MS of its mtime is never recorded; a listing for
 * another mtime or inode is never used; the stored form round-trips and a damaged one is no listing.
 */
import {
  chmodSync,
  mkdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { deflateRawSync } from 'node:zlib';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RACY_MS, walkFiles, type FolderListing, type WalkListings } from '../../src/fsx/index.js';
import type { WalkResult } from '../../src/fsx/walk.js';
import { decodeListings, encodeListings } from '../../src/catalog/write/walk-listings.js';
import { tmpDir, tmpTree } from '../support/cli.js';

const isSkill = (n: string): boolean => n === 'SKILL.md';

/**
 * A folder's ctime cannot be set back (utimes moves it to now), so the walks here read a clock a
 * minute ahead: every folder made by the test is then RACY_MS old to them.
 */
const LATER = (): number => Date.now() + 60_000;

function listings(previous: ReadonlyMap<string, FolderListing> = new Map()): WalkListings {
  return { previous, seen: new Map(), clock: LATER };
}

const plain = (r: WalkResult): unknown => JSON.stringify(r);

describe('walk listings', () => {
  it('a second walk reuses every aged folder and finds exactly what a full listing finds', () => {
    const root = tmpTree({
      'a/SKILL.md': 'a',
      'a/refs/x.md': 'x',
      'b/SKILL.md': 'b',
      'c/d/SKILL.md': 'cd',
      'e/README.md': 'e',
    });
    const first = listings();
    const r1 = walkFiles(root, isSkill, { listings: first });
    expect(plain(r1)).toBe(plain(walkFiles(root, isSkill)));
    // Root, a, a/refs, b, c, c/d, e.
    expect(first.seen.size).toBe(7);
    const second = listings(first.seen);
    const r2 = walkFiles(root, isSkill, { listings: second });
    expect(plain(r2)).toBe(plain(r1));
    // Reused: the very listing objects of the first walk.
    for (const [real, l] of second.seen) expect(first.seen.get(real)).toBe(l);
    expect(second.seen.size).toBe(7);
  });

  it('an entry made, removed or renamed in an aged folder is seen: its mtime moved', () => {
    const root = tmpTree({ 'a/SKILL.md': 'a', 'b/SKILL.md': 'b' });
    const first = listings();
    walkFiles(root, isSkill, { listings: first });
    mkdirSync(path.join(root, 'c'));
    writeFileSync(path.join(root, 'c/SKILL.md'), 'c');
    rmSync(path.join(root, 'b/SKILL.md'));
    writeFileSync(path.join(root, 'a/notes.md'), 'n');
    const again = walkFiles(root, isSkill, { listings: listings(first.seen) });
    expect(plain(again)).toBe(plain(walkFiles(root, isSkill)));
    expect(again.files.map((f) => path.relative(root, f.path))).toEqual([
      'a/SKILL.md',
      'c/SKILL.md',
    ]);
    // a/SKILL.md is no longer alone in its folder.
    expect(again.files[0]!.alone).toBe(false);
  });

  it('a folder listed within RACY_MS of its mtime or ctime is not recorded', () => {
    const root = tmpTree({ 'a/SKILL.md': 'a', 'b/SKILL.md': 'b' });
    const real = realpathSync(root);
    // Just made: nothing is recorded by a walk on the system clock.
    const now = { previous: new Map(), seen: new Map() };
    walkFiles(root, isSkill, { listings: now });
    expect(now.seen.size).toBe(0);
    // A clock RACY_MS later records them; b's mtime set to that time keeps b out.
    const at = Date.now() + 60_000;
    utimesSync(path.join(root, 'b'), new Date(at), new Date(at));
    const later = { previous: new Map(), seen: new Map(), clock: () => at + RACY_MS - 1 };
    walkFiles(root, isSkill, { listings: later });
    expect(later.seen.has(path.join(real, 'a'))).toBe(true);
    expect(later.seen.has(path.join(real, 'b'))).toBe(false);
  });

  it('a folder whose mode changed (ctime moved, mtime not) is listed again', () => {
    const root = tmpTree({ 'a/SKILL.md': 'a' });
    const a = path.join(realpathSync(root), 'a');
    const first = listings();
    walkFiles(root, isSkill, { listings: first });
    const before = statSync(a);
    // Past the file system's timestamp granularity (a few ms), so the ctime can move.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 30);
    chmodSync(a, 0o700);
    chmodSync(a, 0o755);
    const after = statSync(a);
    expect(after.mtimeMs).toBe(before.mtimeMs);
    expect(after.ctimeMs).toBeGreaterThan(before.ctimeMs);
    const second = listings(first.seen);
    walkFiles(root, isSkill, { listings: second });
    expect(second.seen.get(a)).not.toBe(first.seen.get(a));
  });

  it('a listing recorded for another mtime, inode or device is not used', () => {
    const root = tmpTree({ 'a/SKILL.md': 'a' });
    const real = path.join(realpathSync(root), 'a');
    const st = statSync(real);
    const forged = (o: Partial<FolderListing>): Map<string, FolderListing> =>
      new Map([
        [
          real,
          {
            dev: st.dev,
            ino: st.ino,
            mtimeMs: st.mtimeMs,
            ctimeMs: st.ctimeMs,
            names: ['ghost', 'SKILL.md'],
            kinds: 'ff',
            ...o,
          },
        ],
      ]);
    const truth = plain(walkFiles(root, isSkill));
    for (const o of [
      { mtimeMs: st.mtimeMs + 1 },
      { ctimeMs: st.ctimeMs + 1 },
      { ino: st.ino + 1 },
      { dev: st.dev + 1 },
    ])
      expect(plain(walkFiles(root, isSkill, { listings: listings(forged(o)) }))).toBe(truth);
    // The same identity and mtime is trusted (as git trusts its index): it is the walk's own record.
    const trusted = walkFiles(root, isSkill, { listings: listings(forged({})) });
    expect(trusted.files[0]!.alone).toBe(false);
  });

  it('links are followed on every walk, reused listing or not', () => {
    const root = tmpDir('skilldex-listings-link-');
    mkdirSync(path.join(root, 'lib/a'), { recursive: true });
    mkdirSync(path.join(root, 'other/b'), { recursive: true });
    writeFileSync(path.join(root, 'lib/a/SKILL.md'), 'a');
    writeFileSync(path.join(root, 'other/b/SKILL.md'), 'b');
    symlinkSync(path.join(root, 'other/b'), path.join(root, 'lib/b'));
    const lib = path.join(root, 'lib');
    const first = listings();
    walkFiles(lib, isSkill, { listings: first, allowedRoots: [realpathSync(root)] });
    const again = walkFiles(lib, isSkill, {
      listings: listings(first.seen),
      allowedRoots: [realpathSync(root)],
    });
    expect(again.files.map((f) => path.relative(lib, f.path))).toEqual([
      'a/SKILL.md',
      'b/SKILL.md',
    ]);
    // The link's target is refused when it leaves the allowed roots, whatever the listing says.
    const refused = walkFiles(lib, isSkill, { listings: listings(first.seen) });
    expect(refused.problems.map((p) => p.code)).toEqual(['PATH_OUTSIDE_ROOT']);
  });
});

describe('stored walk listings', () => {
  it('round-trip any names (tabs, newlines, non-ASCII) and kinds', () => {
    fc.assert(
      fc.property(
        fc.dictionary(
          fc.string({ minLength: 1 }).filter((s) => !s.includes('\0')),
          fc.record({
            dev: fc.nat(),
            ino: fc.nat(),
            mtimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }),
            ctimeMs: fc.double({ min: 0, max: 4e12, noNaN: true }),
            entries: fc.array(
              fc.tuple(
                fc.string({ minLength: 1 }).filter((s) => !s.includes('\0')),
                fc.constantFrom('d', 'l', 'f'),
              ),
            ),
          }),
        ),
        (d) => {
          const m = new Map<string, FolderListing>(
            Object.entries(d).map(([k, v]) => [
              k,
              {
                dev: v.dev,
                ino: v.ino,
                mtimeMs: v.mtimeMs,
                ctimeMs: v.ctimeMs,
                names: v.entries.map((e) => e[0]),
                kinds: v.entries.map((e) => e[1]).join(''),
              },
            ]),
          );
          expect(decodeListings(encodeListings(m))).toEqual(m);
        },
      ),
    );
  });

  it('a damaged or foreign value is no listing', () => {
    expect(decodeListings(undefined).size).toBe(0);
    expect(decodeListings('not base64 deflate').size).toBe(0);
    expect(decodeListings(Buffer.from('x').toString('base64')).size).toBe(0);
    const good = encodeListings(
      new Map([
        ['/a', { dev: 1, ino: 2, mtimeMs: 3, ctimeMs: 4, names: ['SKILL.md'], kinds: 'f' }],
      ]),
    );
    expect(decodeListings(good).size).toBe(1);
    // A record whose kinds promise more names than follow, or hold another letter.
    const raw = (s: string): string => deflateRawSync(Buffer.from(s)).toString('base64');
    const rec = (...f: string[]): string => raw(['walk-listings/1', ...f].join('\u0000'));
    expect(decodeListings(rec('/a', '3', '4', '1', '2', 'f', 'SKILL.md')).size).toBe(1);
    expect(decodeListings(rec('/a', '3', '4', '1', '2', 'ff', 'SKILL.md')).size).toBe(0);
    expect(decodeListings(rec('/a', '3', '4', '1', '2', 'x', 'SKILL.md')).size).toBe(0);
    expect(decodeListings(rec('/a', 'later', '4', '1', '2', 'f', 'SKILL.md')).size).toBe(0);
    // Another format (this one without its name) is no listing.
    expect(decodeListings(raw('/a\u00003\u00004\u00001\u00002\u0000f\u0000SKILL.md')).size).toBe(0);
  });
});
