/**
 * The walk up from a working folder to the files a project may hold (issue 36 M5). One rule set
 * for every such search (the project config, the default substrate root): a folder found this way
 * is the project's, so the walk
 *
 * - never reaches the home folder or anything above it (a file there is no project's),
 * - ends at the first folder holding `.git` (a repository root) or at the file-system root,
 *
 * and what it finds is untrusted input that another user must not be able to plant: callers refuse
 * a found file or folder that `ownedByAnotherUser` says belongs to someone else.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { isInside } from './resolve.js';

/**
 * The folders a project walk visits, nearest first: `cwd`, then each parent, stopping before the
 * home folder or any ancestor of it (when `home` is given) and after the first folder holding
 * `.git`. Lazy: the caller stops at its first find, and no folder above that is looked at.
 */
export function* projectAncestors(cwd: string, home?: string): Generator<string, void, void> {
  let dir = path.resolve(cwd);
  const stop = home === undefined || home === '' ? undefined : path.resolve(home);
  for (;;) {
    // The home folder and its ancestors hold no project: stop there.
    if (stop !== undefined && isInside(dir, stop)) return;
    yield dir;
    if (existsSync(path.join(dir, '.git'))) return;
    const up = path.dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/**
 * True when a file or folder owned by `ownerUid` belongs to another user than `me`: neither the
 * running user nor root (root owns system folders every user may rely on). Unknown `me` (a
 * platform without getuid): false, as ownership cannot be told there.
 */
export function ownedByAnotherUser(
  ownerUid: number,
  me: number | undefined = process.getuid?.(),
): boolean {
  return me !== undefined && ownerUid !== me && ownerUid !== 0;
}
