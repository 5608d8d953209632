/**
 * Confined, atomic writes. A command writes only inside the folder it owns: `writeInside` resolves
 * the target inside that folder (PATH_OUTSIDE_ROOT otherwise), opens the target's folder once, and
 * writes a temporary file beside the target, created exclusively (O_EXCL | O_NOFOLLOW: a link or a
 * file already standing at that name is never followed or overwritten), then renames it over the
 * target, so a crash never leaves half a file.
 *
 * A folder on the way swapped for a link between the check and the write must not move the write
 * out of the root. On Linux every step goes through the opened folder (`/proc/self/fd/N/name`
 * resolves from the folder's inode, not its path), so a swap cannot redirect it; elsewhere the
 * folder's identity is compared before and after. Either way the real path is re-checked after the
 * rename: a file that landed outside the root is removed, and the write fails with
 * PATH_OUTSIDE_ROOT. Any other file-system error is WRITE_FAILED, never an uncoded crash.
 */
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { SkilldexError, isSkilldexError } from '../errors.js';
import { errCode } from './read.js';
import { isInside, realpathOrUndefined, resolveInside } from './resolve.js';

// The temporary file's name after the process id: a counter and ~52 random bits. The file is
// created with O_EXCL | O_NOFOLLOW, so a name someone guessed and planted only fails the write
// (WRITE_FAILED), never redirects it: the suffix need not be cryptographic. Math.random instead of
// node:crypto keeps crypto unloaded in the prompt hook, which writes its session state on every
// prompt (loading node:crypto cost each prompt ~2.8 ms, bench:hook).
let tmpCount = 0;
function tmpSuffix(): string {
  tmpCount += 1;
  return `${tmpCount.toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

/**
 * Writes `data` to `rel` inside `root` atomically, creating folders below `root` as needed.
 * `rootReal` is the real path of `root` as the caller verified it; given, the write is confined to
 * it even when `root` itself is swapped for a link afterwards (default: resolved now). `mode` is
 * the new file's permission bits before the umask (default 0o644; `init` passes the mode of the
 * file it replaces, so a private config stays private).
 */
export function writeInside(
  root: string,
  rel: string,
  data: string | Uint8Array,
  rootReal?: string,
  mode = 0o644,
): string {
  const realRoot = rootReal ?? ensureRoot(root, rel);
  const target = resolveInside(root, rel);
  // Checked before any folder is made: a root swapped for a link must not get folders made outside.
  if (!isInside(realRoot, target)) throw escaped(rel, root, `it resolves to ${target}`);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
  } catch (err) {
    throw writeFailed(rel, root, err);
  }
  // Re-check after creating folders: a link planted on the way must not redirect the write.
  const checked = resolveInside(root, rel);
  if (!isInside(realRoot, checked)) throw escaped(rel, root, `it resolves to ${checked}`);
  const dir = path.dirname(checked);
  const base = path.basename(checked);
  let dirFd: number;
  try {
    dirFd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    throw escapedOrFailed(rel, root, err);
  }
  try {
    const at = folderHandle(dirFd, dir);
    const dirId = fstatSync(dirFd);
    checkFolder(at, dir, dirId, realRoot, rel, root);
    const tmp = path.join(at, `.${base}.tmp-${process.pid}-${tmpSuffix()}`);
    const final = path.join(at, base);
    let fd: number;
    try {
      fd = openSync(
        tmp,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode,
      );
    } catch (err) {
      throw escapedOrFailed(rel, root, err);
    }
    let mine: Stats;
    try {
      mine = fstatSync(fd);
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    } catch (err) {
      removeIfMine(tmp, undefined);
      throw writeFailed(rel, root, err);
    } finally {
      closeSync(fd);
    }
    try {
      checkFolder(at, dir, dirId, realRoot, rel, root);
      renameSync(tmp, final);
    } catch (err) {
      removeIfMine(tmp, mine);
      throw escapedOrFailed(rel, root, err);
    }
    // After the rename: the file must stand at the target, in the checked folder, inside the root.
    try {
      checkFolder(at, dir, dirId, realRoot, rel, root);
      if (!sameFile(lstatSync(final), mine))
        throw escaped(rel, root, 'the target folder changed during the write');
    } catch (err) {
      removeIfMine(final, mine);
      throw escapedOrFailed(rel, root, err);
    }
    return checked;
  } finally {
    closeSync(dirFd);
  }
}

/**
 * Removes the file `rel` inside `root` when it exists, through its opened folder like `writeInside`
 * (a folder swapped for a link never makes it remove a file outside the root). A missing file or
 * folder is a no-op.
 */
export function removeInside(root: string, rel: string, rootReal?: string): void {
  const checked = resolveInside(root, rel);
  const realRoot = rootReal ?? realpathOrUndefined(root) ?? path.resolve(root);
  const dir = path.dirname(checked);
  let dirFd: number;
  try {
    dirFd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw escapedOrFailed(rel, root, err);
  }
  try {
    const at = folderHandle(dirFd, dir);
    checkFolder(at, dir, fstatSync(dirFd), realRoot, rel, root);
    unlinkSync(path.join(at, path.basename(checked)));
  } catch (err) {
    if (errCode(err) === 'ENOENT') return;
    throw escapedOrFailed(rel, root, err);
  } finally {
    closeSync(dirFd);
  }
}

// The real path of `root`, created first when missing (so a linked parent such as macOS's /tmp
// resolves the same way for the root and for the paths below it).
function ensureRoot(root: string, rel: string): string {
  try {
    mkdirSync(root, { recursive: true });
  } catch (err) {
    throw writeFailed(rel, root, err);
  }
  return realpathOrUndefined(root) ?? path.resolve(root);
}

// `/proc/self/fd/N` names the opened folder itself on Linux; elsewhere the folder's path is used.
function folderHandle(dirFd: number, dir: string): string {
  const proc = `/proc/self/fd/${dirFd}`;
  return process.platform === 'linux' && existsSync(proc) ? proc : dir;
}

// The opened folder must still be the checked one, and its real path must lie inside the root.
function checkFolder(
  at: string,
  dir: string,
  dirId: Stats,
  realRoot: string,
  rel: string,
  root: string,
): void {
  const real = at === dir ? realpathOrUndefined(dir) : readlinkSync(at);
  if (real === undefined || !isInside(realRoot, real)) {
    throw escaped(rel, root, `its folder now resolves to ${real ?? 'nothing'}`);
  }
  if (!sameFile(statSync(at), dirId)) throw escaped(rel, root, 'its folder was replaced');
}

function sameFile(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}

// Removes `p` only when it is the file this write created (or, without `mine`, unconditionally a
// temporary name this write owns); follows no link.
function removeIfMine(p: string, mine: Stats | undefined): void {
  try {
    if (mine === undefined || sameFile(lstatSync(p), mine)) unlinkSync(p);
  } catch {
    // Already gone, or never created: nothing of ours is left at `p`.
  }
}

function escaped(rel: string, root: string, why: string): SkilldexError {
  return new SkilldexError(
    'PATH_OUTSIDE_ROOT',
    `write of ${rel} refused: ${why}, outside ${root}`,
    { root, path: rel },
  );
}

function escapedOrFailed(rel: string, root: string, err: unknown): SkilldexError {
  if (isSkilldexError(err)) return err;
  const code = errCode(err);
  // ELOOP / ENOTDIR: a link or a file now stands where a folder of the path was.
  if (code === 'ELOOP' || code === 'ENOTDIR')
    return escaped(rel, root, `a folder on its path was swapped (${code})`);
  return writeFailed(rel, root, err);
}

function writeFailed(rel: string, root: string, err: unknown): SkilldexError {
  return new SkilldexError(
    'WRITE_FAILED',
    `could not write ${rel} inside ${root}: ${errCode(err)}`,
    { root, path: rel, errno: errCode(err) },
    { cause: err },
  );
}
