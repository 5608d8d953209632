/**
 * Bounded directory walker. Finds files by name below a root, in sorted (deterministic) order.
 * It skips `.git` and `node_modules`, follows a symbolic link only when its real path lies inside
 * one of the allowed roots, survives link loops (directories are tracked by real path), and stops
 * at a depth and an entry bound. Every folder it cannot read and every link it refuses becomes a
 * Problem: nothing is skipped silently. Given the listings of an earlier walk (`WalkListings`), it
 * `stat`s a folder instead of listing it again while the folder is unchanged.
 *
 * Hand-written rather than fdir: fdir suppresses or throws on directory errors as a whole and has
 * no entry bound, while discovery must report each unreadable folder and refused link and go on.
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { problem, type Problem } from '../errors.js';
import { errCode } from './read.js';
import { isInsideAny, lstatOrUndefined, realpathOrUndefined, statOrUndefined } from './resolve.js';

/** Folders never walked (docs/cli.md `skilldex scan`). */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Options of `walkFiles`. */
export interface WalkOptions {
  /** Real paths a followed link may point into; default: the walk root's real path. */
  readonly allowedRoots?: readonly string[];
  /** Deepest folder level walked below the root (root = 0). Default 24. */
  readonly maxDepth?: number;
  /** Most directory entries looked at in one walk. Default 500,000. */
  readonly maxEntries?: number;
  /**
   * Called with each folder (as walked, and its real path) just before it is listed, so a caller can
   * stat it first: a folder's mtime taken before its listing changes with any entry made after it.
   */
  readonly onDir?: (dir: string, real: string) => void;
  /** Listings to reuse and to record (`WalkListings`); default: every folder is listed. */
  readonly listings?: WalkListings;
}

/**
 * How old a folder's mtime must be, in ms, for its listing to be trusted on mtime alone next time:
 * Linux stamps files from a coarse clock (a few ms), NFS and FAT to the second or two. An entry
 * made within that time of a listing could leave the folder's mtime as it was.
 */
export const RACY_MS = 2_000;

/**
 * A folder's listing as a walk saw it, with the folder's identity, mtime and ctime taken before it:
 * the entry names in sorted (UTF-16 code unit) order, as the walk visits them, and one letter an
 * entry in `kinds`: `d` a folder, `l` a link, `f` anything else.
 */
export interface FolderListing {
  readonly dev: number;
  readonly ino: number;
  readonly mtimeMs: number;
  /** Moves with a change of the folder's own mode or owner too (a folder made unreadable). */
  readonly ctimeMs: number;
  readonly names: readonly string[];
  readonly kinds: string;
}

/**
 * Folder listings a walk reuses and records, by the folder's real path (as git trusts its index):
 * a folder whose device, inode, mtime and ctime are those of its listing in `previous` is not
 * listed again, since making, removing or renaming an entry in a folder changes its mtime (and a
 * change of its mode, e.g. one that makes it unreadable, its ctime). Only listings taken when both
 * times were at least RACY_MS old are recorded, so a later change always moves one of them away
 * from the recorded one. `seen` receives the listing of every folder this walk
 * reused or recorded (what the next walk may reuse).
 */
export interface WalkListings {
  readonly previous: ReadonlyMap<string, FolderListing>;
  readonly seen: Map<string, FolderListing>;
  /** The time RACY_MS is measured from (default: the system clock, which stamps the files). */
  readonly clock?: () => number;
}

/** Default walk bounds. */
export const DEFAULT_WALK_OPTIONS = Object.freeze({ maxDepth: 24, maxEntries: 500_000 });

/** One file found: the path as walked (through links), its real path, and its identity when seen. */
export interface WalkedFile {
  readonly path: string;
  readonly realPath: string;
  /** Device and inode the walk saw; a reader compares them with the file it opens. */
  readonly dev?: number;
  readonly ino?: number;
  /** Size in bytes and modification time (ms) from the same stat, for incremental re-reads. */
  readonly size?: number;
  readonly mtimeMs?: number;
  /** False when the entry is not a regular file (a FIFO, a socket, a device). */
  readonly isFile?: boolean;
  /** True when the file (not a link) was the only entry of its folder's listing. */
  readonly alone?: boolean;
}

/** What a walk found and what it refused. */
export interface WalkResult {
  readonly files: WalkedFile[];
  readonly problems: Problem[];
}

/**
 * Walks `root` and returns the files whose base name satisfies `matches`. A missing root gives an
 * empty result; a root that cannot be listed gives an UNREADABLE problem.
 */
export function walkFiles(
  root: string,
  matches: (name: string) => boolean,
  options: WalkOptions = {},
): WalkResult {
  const maxDepth = options.maxDepth ?? DEFAULT_WALK_OPTIONS.maxDepth;
  const maxEntries = options.maxEntries ?? DEFAULT_WALK_OPTIONS.maxEntries;
  const files: WalkedFile[] = [];
  const problems: Problem[] = [];
  const realRoot = realpathOrUndefined(root);
  if (realRoot === undefined) return { files, problems };
  const allowed = options.allowedRoots ?? [realRoot];
  const visited = new Set<string>([realRoot]);
  let entries = 0;
  let limitHit = false;

  // Depth-first, children in sorted order; the stack holds folders still to list.
  const stack: { dir: string; real: string; depth: number }[] = [
    { dir: root, real: realRoot, depth: 0 },
  ];
  while (stack.length > 0) {
    const { dir, real, depth } = stack.pop()!;
    options.onDir?.(dir, real);
    let listing: Pick<FolderListing, 'names' | 'kinds'>;
    try {
      listing = listFolder(dir, real, options.listings);
    } catch (err) {
      problems.push(
        problem('UNREADABLE', dir, `folder ${dir} could not be listed: ${errCode(err)}`),
      );
      continue;
    }
    const subdirs: { dir: string; real: string; depth: number }[] = [];
    const { names, kinds } = listing;
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      const kind = kinds[k];
      if (++entries > maxEntries) {
        if (!limitHit)
          problems.push(
            problem('WALK_LIMIT', dir, `walk stopped after ${maxEntries} entries below ${root}`),
          );
        limitHit = true;
        break;
      }
      const full = depth === 0 ? path.join(dir, name) : childPath(dir, name);
      let isDir = kind === 'd';
      let realPath = childPath(real, name);
      let st: FileStat | undefined;
      if (kind === 'l') {
        const link = followLink(full, matches(name), allowed, problems);
        if (link === undefined) continue;
        st = link.st;
        isDir = st.isDirectory();
        realPath = link.target;
      }
      if (isDir) {
        if (SKIPPED_DIRS.has(name)) continue;
        if (visited.has(realPath)) {
          problems.push(
            problem('LINK_LOOP', full, `${full} leads back to ${realPath}, already walked`),
          );
          continue;
        }
        if (depth + 1 > maxDepth) {
          problems.push(
            problem('WALK_LIMIT', full, `${full} is deeper than the bound of ${maxDepth} levels`),
          );
          continue;
        }
        visited.add(realPath);
        subdirs.push({ dir: full, real: realPath, depth: depth + 1 });
      } else if (matches(name)) {
        // A non-regular file with the right name is still reported: the reader refuses it with a reason.
        // The identity is taken now, so a file swapped between the walk and the read is noticed.
        if (st === undefined) st = lstatOrUndefined(full);
        // Alone in the folder, and the folder's own file (a link's target lies in another folder).
        const alone = names.length === 1 && kind !== 'l';
        files.push(walkedFile(full, realPath, st, alone));
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
    if (limitHit) break;
  }
  return { files, problems };
}

// The entries of the folder `dir` (real path `real`) in sorted order: the listing `listings` holds
// for it when the folder's device, inode and mtime are unchanged, else listed now (and recorded
// when its times, taken before the listing, are old enough to be trusted next time). Throws what
// readdir throws.
function listFolder(
  dir: string,
  real: string,
  listings: WalkListings | undefined,
): Pick<FolderListing, 'names' | 'kinds'> {
  if (listings === undefined) return readFolder(dir);
  const st = statOrUndefined(real);
  const prior = listings.previous.get(real);
  if (
    st !== undefined &&
    prior !== undefined &&
    prior.mtimeMs === st.mtimeMs &&
    prior.ctimeMs === st.ctimeMs &&
    prior.ino === st.ino &&
    prior.dev === st.dev
  ) {
    listings.seen.set(real, prior);
    return prior;
  }
  const read = readFolder(dir);
  const newest = st === undefined ? 0 : Math.max(st.mtimeMs, st.ctimeMs);
  if (st?.isDirectory() === true && (listings.clock ?? Date.now)() - newest >= RACY_MS) {
    const { dev, ino, mtimeMs, ctimeMs } = st;
    listings.seen.set(real, { dev, ino, mtimeMs, ctimeMs, ...read });
  }
  return read;
}

// The entries of `dir`, sorted by name, and their kinds.
function readFolder(dir: string): Pick<FolderListing, 'names' | 'kinds'> {
  const dirents = readdirSync(dir, { withFileTypes: true });
  dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let kinds = '';
  for (const d of dirents) kinds += d.isDirectory() ? 'd' : d.isSymbolicLink() ? 'l' : 'f';
  return { names: dirents.map((d) => d.name), kinds };
}

// `path.join(dir, name)` for a folder already normalized (a real path, or a path this walk joined)
// and a name read from it, which holds no separator and is never `.` or `..`: the two are joined
// as they are (a walk joins two paths per entry; path.join normalizes both again each time).
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? path.join(dir, name) : dir + path.sep + name;
}

/**
 * Where the link `full` leads, with its target's stat; undefined (and a problem) when it is broken
 * or loops (reported only when `named`, its name being one the walk looks for), points outside
 * `allowed`, or its target cannot be read.
 */
function followLink(
  full: string,
  named: boolean,
  allowed: readonly string[],
  problems: Problem[],
): { target: string; st: FileStat } | undefined {
  const target = realpathOrUndefined(full);
  if (target === undefined) {
    if (named) problems.push(problem('UNREADABLE', full, `link ${full} is broken or loops`));
    return undefined;
  }
  if (!isInsideAny(allowed, target)) {
    problems.push(
      problem(
        'PATH_OUTSIDE_ROOT',
        full,
        `link ${full} points to ${target}, outside the sanctioned scopes`,
      ),
    );
    return undefined;
  }
  try {
    return { target, st: statSync(target) };
  } catch (err) {
    problems.push(
      problem('UNREADABLE', full, `link target ${target} could not be read: ${errCode(err)}`),
    );
    return undefined;
  }
}

/** The walked file at `full`, with the identity of `st` when it was taken. */
function walkedFile(
  full: string,
  realPath: string,
  st: FileStat | undefined,
  alone: boolean,
): WalkedFile {
  return st === undefined
    ? { path: full, realPath, alone }
    : {
        path: full,
        realPath,
        dev: st.dev,
        ino: st.ino,
        size: st.size,
        mtimeMs: st.mtimeMs,
        isFile: st.isFile(),
        alone,
      };
}

/** The parts of a stat the walk keeps. */
interface FileStat {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
  isDirectory(): boolean;
  isFile(): boolean;
}
