/**
 * Root-confined resolution (src/fsx/resolve.ts, issue #2 §3): `..` escapes, absolute paths, NUL
 * bytes and links whose real path leaves the root are refused with PATH_OUTSIDE_ROOT; inner `..`
 * and links that stay inside are fine. Links are created at test time.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isInside, resolveInside, toPosixRelative, writeInside } from '../../src/fsx/index.js';
import { isInsideAny } from '../../src/fsx/resolve.js';
import { tmpDir, tmpTree } from '../support/cli.js';

function refusal(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  return undefined;
}

const OUTSIDE = { code: 'PATH_OUTSIDE_ROOT' };

describe('resolveInside', () => {
  it('refuses .. that leaves the root', () => {
    const root = tmpTree({ 'a/f.txt': 'x' });
    expect(refusal(() => resolveInside(root, '..'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, '../x'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'a/../../x'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, `../${path.basename(root)}x/f`))).toMatchObject(
      OUTSIDE,
    );
  });

  it('refuses absolute paths, even ones inside the root', () => {
    const root = tmpTree({ 'f.txt': 'x' });
    expect(refusal(() => resolveInside(root, '/etc/passwd'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, path.join(root, 'f.txt')))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'C:\\Windows'))).toMatchObject(OUTSIDE);
  });

  it('refuses NUL bytes', () => {
    const root = tmpTree({ 'f.txt': 'x' });
    expect(refusal(() => resolveInside(root, 'f.txt\0.md'))).toMatchObject(OUTSIDE);
  });

  it('refuses links whose real path leaves the root, at any depth of the path', () => {
    const outside = tmpTree({ 'secret.txt': 'secret', 'd/inner.txt': 'x' });
    const root = tmpTree({ 'a/ok.txt': 'x' });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'file-link'));
    symlinkSync(outside, path.join(root, 'a', 'dir-link'));
    expect(refusal(() => resolveInside(root, 'file-link'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'a/dir-link'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'a/dir-link/d/inner.txt'))).toMatchObject(OUTSIDE);
    // Not created yet, but below a link that leaves: still refused.
    expect(refusal(() => resolveInside(root, 'a/dir-link/new/file.txt'))).toMatchObject(OUTSIDE);
  });

  it('refuses broken and looping links, whose target could later appear outside', () => {
    const root = tmpTree({ 'f.txt': 'x' });
    symlinkSync('/nonexistent-skilldex-outside/x', path.join(root, 'dangling'));
    symlinkSync('loop', path.join(root, 'loop'));
    expect(refusal(() => resolveInside(root, 'dangling'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'dangling/y'))).toMatchObject(OUTSIDE);
    expect(refusal(() => resolveInside(root, 'loop'))).toMatchObject(OUTSIDE);
  });

  it('accepts inner .. and returns the real path', () => {
    const root = tmpTree({ 'a/x.txt': 'x', 'b/y.txt': 'y' });
    const real = realpathSync(root);
    expect(resolveInside(root, 'a/../b/y.txt')).toBe(path.join(real, 'b', 'y.txt'));
    expect(resolveInside(root, './a/./x.txt')).toBe(path.join(real, 'a', 'x.txt'));
    expect(resolveInside(root, '.')).toBe(real);
    expect(resolveInside(root, '')).toBe(real);
  });

  it('accepts links that stay inside the root and resolves them', () => {
    const root = tmpTree({ 'real/f.txt': 'x' });
    const real = realpathSync(root);
    symlinkSync(path.join(root, 'real'), path.join(root, 'inner-link'));
    symlinkSync('real/f.txt', path.join(root, 'relative-link'));
    expect(resolveInside(root, 'inner-link/f.txt')).toBe(path.join(real, 'real', 'f.txt'));
    expect(resolveInside(root, 'relative-link')).toBe(path.join(real, 'real', 'f.txt'));
  });

  it('returns paths not created yet below the real root', () => {
    const root = tmpTree({ 'a/x.txt': 'x' });
    const real = realpathSync(root);
    expect(resolveInside(root, 'a/new/deeper.txt')).toBe(path.join(real, 'a', 'new', 'deeper.txt'));
  });

  it('works when the root itself is reached through a link', () => {
    const target = tmpTree({ 'f.txt': 'x' });
    const holder = tmpDir();
    symlinkSync(target, path.join(holder, 'root-link'));
    expect(resolveInside(path.join(holder, 'root-link'), 'f.txt')).toBe(
      path.join(realpathSync(target), 'f.txt'),
    );
  });

  it('never returns a path outside the root for any list of segments', () => {
    const root = tmpTree({ 'a/b/f.txt': 'x', 'c/g.txt': 'y' });
    const real = realpathSync(root);
    const segment = fc.constantFrom('a', 'b', 'c', '..', '.', 'f.txt', 'new');
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), (segs) => {
        const rel = segs.join('/');
        const lexicalInside = isInside(real, path.resolve(real, rel));
        try {
          const out = resolveInside(root, rel);
          expect(lexicalInside).toBe(true);
          expect(isInside(real, out)).toBe(true);
        } catch (err) {
          expect(err).toMatchObject(OUTSIDE);
          expect(lexicalInside).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('isInside, isInsideAny, toPosixRelative', () => {
  it('compares whole path segments', () => {
    expect(isInside('/a/b', '/a/b')).toBe(true);
    expect(isInside('/a/b', '/a/b/c')).toBe(true);
    expect(isInside('/a/b', '/a/bc')).toBe(false);
    expect(isInside('/a/b', '/a')).toBe(false);
    expect(isInside('/a', '/a/..hidden')).toBe(true);
    expect(isInsideAny(['/x', '/a'], '/a/f')).toBe(true);
    expect(isInsideAny([], '/a/f')).toBe(false);
  });

  it('gives POSIX relative paths, . for the root', () => {
    expect(toPosixRelative('/r', '/r')).toBe('.');
    expect(toPosixRelative('/r', '/r/a/b.md')).toBe('a/b.md');
  });
});

describe('writeInside', () => {
  it('writes inside the root, creating folders', () => {
    const root = tmpDir();
    const written = writeInside(root, 'out/deep/f.txt', 'hello');
    expect(written).toBe(path.join(realpathSync(root), 'out', 'deep', 'f.txt'));
  });

  it('refuses targets outside the root, links included, and writes nothing there', () => {
    const root = tmpDir();
    const outside = tmpDir();
    mkdirSync(path.join(root, 'd'));
    symlinkSync(outside, path.join(root, 'd', 'escape'));
    writeFileSync(path.join(root, 'd', 'keep.txt'), 'x');
    expect(refusal(() => writeInside(root, '../x.txt', 'x'))).toMatchObject(OUTSIDE);
    expect(refusal(() => writeInside(root, 'd/escape/x.txt', 'x'))).toMatchObject(OUTSIDE);
  });
});
