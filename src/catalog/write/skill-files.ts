/**
 * The supporting files of a skill (issue #12): every regular file in the skill's folder besides its
 * SKILL.md (scripts, references, assets), listed at index time with its `sha256:` digest and size.
 * The listing is what the catalog records and what the MCP Skills extension serves and verifies
 * reads against (docs/integration.md §7, Limits); this file walks and hashes, it never touches the database.
 *
 * What is listed, and what never is:
 * - confined: a file reached through a symbolic link (a link to a file, or inside a linked folder)
 *   is never listed, wherever the link points; the folder walked is the real path of the skill's
 *   folder, so every listed path is its own real path;
 * - the same skip rules as discovery: `.git` and `node_modules` are never walked, and a folder
 *   holding its own SKILL.md is another skill, whose files are not this one's;
 * - only regular files (no FIFOs, sockets or devices);
 * - bounded: at most MAX_SKILL_FILES files and MAX_SKILL_FILES_BYTES bytes, at most
 *   MAX_SKILL_DEPTH folder levels and MAX_SKILL_ENTRIES directory entries per skill; files are taken
 *   in path order (UTF-8 byte order) and one that would pass a bound is left out with `truncated` set.
 *
 * Incremental, by what the previous index recorded of the folder: a folder holding nothing but its
 * SKILL.md is one listing of names; a folder whose every walked sub-folder has the mtime it had
 * before its listing then (so no entry was made, removed or renamed in it) and whose every listed
 * file has its size and mtime is not walked again; otherwise the folder is walked, and a file whose
 * size and mtime are unchanged keeps its digest, any other is read once (O_NOFOLLOW, size-capped)
 * and hashed. The no-walk path is taken only after a clean listing (no link, no problem, no bound)
 * whose folders all had an mtime older than RACY_MS when they were listed: an entry made within the
 * file system's timestamp granularity of a listing could leave its folder's mtime as it was.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { problem, type Problem } from '../../errors.js';
import {
  RACY_MS,
  SKIPPED_DIRS,
  lstatOrUndefined,
  readBytesCapped,
  realpathOrUndefined,
  sha256Of,
  toPosixRelative,
  walkFiles,
} from '../../fsx/index.js';

/** Most supporting files listed per skill (beyond: not listed, `truncated` set). */
export const MAX_SKILL_FILES = 200;
/** Most bytes of supporting files listed per skill, all files together: 10 MiB. */
export const MAX_SKILL_FILES_BYTES = 10 * 1024 * 1024;
/** Deepest folder level walked below the skill folder (real skills nest two or three levels). */
export const MAX_SKILL_DEPTH = 8;
/** Most directory entries looked at per skill folder (bounds the walk of a huge tree). */
export const MAX_SKILL_ENTRIES = 5_000;

/** One supporting file: its path relative to the skill folder (POSIX), digest and size. */
export interface SkillFile {
  readonly path: string;
  /** `sha256:<64 hex>` of the file's exact bytes. */
  readonly digest: string;
  readonly size: number;
}

/** The supporting files of one skill, in path order. */
export interface SkillFiles {
  readonly files: readonly SkillFile[];
  /** True when a bound (count, bytes, depth, entries) left files out. */
  readonly truncated: boolean;
}

/** What an index saw of one listed file: its size and mtime, and the digest of its bytes then. */
export interface FileStat {
  readonly path: string;
  readonly size: number;
  readonly mtime_ms: number;
  readonly digest: string;
}

/** A folder walked for a listing: its path in the skill folder (`.` for the folder itself), mtime. */
export interface DirStat {
  readonly path: string;
  readonly mtime_ms: number;
}

/** What an index recorded of a skill folder, for the next one. */
export interface FolderStats {
  /** Every listed file, by path. */
  readonly files: ReadonlyMap<string, FileStat>;
  /**
   * Every folder walked, with its mtime taken before it was listed; absent when the listing was not
   * clean (a link, a problem or a bound): the folder is then walked on every run.
   */
  readonly dirs?: readonly DirStat[];
}

/** A listing as an index takes it: the files, their stats for the next run, and what it cost. */
export interface FolderListing extends SkillFiles {
  /** The stat of every listed file, in the listing's order. */
  readonly stats: readonly FileStat[];
  /** The folders walked (FolderStats.dirs), when the listing was clean. */
  readonly dirs?: readonly DirStat[];
  /** True when the folder was not walked: nothing in it changed since the previous index. */
  readonly reused: boolean;
  /** Files read and hashed by this listing (the others kept their recorded digest). */
  readonly hashed: number;
  /**
   * Files left out for a reason worth telling: not regular, vanished, unreadable, swapped for a link
   * or grown past a bound while being read. (Links out and unreadable folders are discovery's skips.)
   */
  readonly problems: readonly Problem[];
}

/** The listing of a skill without supporting files. */
export const NO_FILES: SkillFiles = Object.freeze({ files: Object.freeze([]), truncated: false });

/**
 * Lists the supporting files of the skill folder `dir` (the real path of the folder holding the
 * skill's SKILL.md). `prior` is what the previous index recorded for this folder: unchanged files
 * keep their digest without being read, and an unchanged folder is not walked at all. `clock` is
 * the time (ms since the epoch) folder mtimes are compared with for RACY_MS (default: the system
 * clock, which stamps the files); it never reaches a listing. `alone`: discovery's walk has just
 * listed the folder and found only SKILL.md in it, so it is neither listed nor walked again.
 */
export function listSupportingFiles(
  dir: string,
  prior?: FolderStats,
  clock: () => number = Date.now,
  alone = false,
): FolderListing {
  const shortcut = listingWithoutWalk(dir, prior, alone);
  if (shortcut !== undefined) return shortcut;
  const dirs: DirStat[] = [];
  let clean = true;
  const walked = walkFiles(dir, (name) => name !== '', {
    allowedRoots: [dir],
    maxDepth: MAX_SKILL_DEPTH,
    maxEntries: MAX_SKILL_ENTRIES,
    onDir: (d, real) => {
      // Taken before the folder is listed: an entry made after the listing changes it.
      const st = d === real ? lstatOrUndefined(d) : undefined;
      if (st?.isDirectory() && clock() - st.mtimeMs >= RACY_MS)
        dirs.push({ path: toPosixRelative(dir, d), mtime_ms: st.mtimeMs });
      else clean = false;
    },
  });
  // A folder holding its own SKILL.md is another skill: neither its files nor its problems are ours.
  const nested = walked.files
    .filter((f) => path.basename(f.path) === 'SKILL.md' && path.dirname(f.path) !== dir)
    .map((f) => path.dirname(f.path) + path.sep);
  const ours = (p: string): boolean => !nested.some((n) => p.startsWith(n));
  // What the walk refused (links out, loops, unreadable folders) discovery's walk of the scope
  // reports already, as skips; here it only makes the listing unclean, and a bound truncates it.
  const refused = walked.problems.filter((p) => ours(p.path));
  let truncated = refused.some((p) => p.code === 'WALK_LIMIT');
  const problems: Problem[] = [];
  const candidates = walked.files
    .filter((f) => f.path !== path.join(dir, 'SKILL.md') && ours(f.path))
    .map((f) => {
      const rel = toPosixRelative(dir, f.path);
      return { f, rel, key: Buffer.from(rel, 'utf8') };
    })
    .filter(({ rel }) => !rel.split('/').some((s) => SKIPPED_DIRS.has(s)))
    .sort((a, b) => Buffer.compare(a.key, b.key));
  const files: SkillFile[] = [];
  const stats: FileStat[] = [];
  let bytes = 0;
  let hashed = 0;
  for (const { f, rel } of candidates) {
    // Reached through a link (its real path is not where it was walked): never listed.
    if (f.realPath !== f.path) {
      clean = false;
      continue;
    }
    if (f.isFile === false) {
      problems.push(problem('NOT_A_FILE', f.path, `${f.path} is not a regular file; not listed`));
      continue;
    }
    if (f.size === undefined || f.mtimeMs === undefined) {
      problems.push(problem('UNREADABLE', f.path, `${f.path} vanished while it was listed`));
      continue;
    }
    if (files.length >= MAX_SKILL_FILES) {
      truncated = true;
      break;
    }
    if (bytes + f.size > MAX_SKILL_FILES_BYTES) {
      truncated = true;
      continue;
    }
    const known = prior?.files.get(rel);
    let stat: FileStat;
    if (known && known.size === f.size && known.mtime_ms === f.mtimeMs) {
      stat = known;
    } else {
      const read = readListed(f.path, rel, MAX_SKILL_FILES_BYTES - bytes);
      if (!read.ok) {
        if (read.problem.code === 'FILE_TOO_LARGE') truncated = true;
        problems.push(read.problem);
        continue;
      }
      hashed++;
      stat = {
        path: rel,
        size: read.bytes.length,
        mtime_ms: read.mtimeMs,
        digest: sha256Of(read.bytes),
      };
    }
    bytes += stat.size;
    files.push({ path: rel, digest: stat.digest, size: stat.size });
    stats.push(stat);
  }
  clean = clean && !truncated && problems.length === 0 && refused.length === 0;
  return { files, truncated, stats, ...(clean ? { dirs } : {}), reused: false, hashed, problems };
}

/**
 * The listing of `dir` when no walk is needed: `prior`'s, reused, when the folder is unchanged
 * since; an empty one when SKILL.md is the folder's only entry. Undefined: walk it.
 */
function listingWithoutWalk(
  dir: string,
  prior: FolderStats | undefined,
  alone: boolean,
): FolderListing | undefined {
  if (prior?.dirs !== undefined && unchanged(dir, prior.dirs, prior.files)) {
    const stats = [...prior.files.values()];
    return {
      files: stats.map((f) => ({ path: f.path, digest: f.digest, size: f.size })),
      truncated: false,
      stats,
      dirs: prior.dirs,
      reused: true,
      hashed: 0,
      problems: [],
    };
  }
  // The common folder: its SKILL.md and nothing else (seen so by discovery's walk, `alone`, or one
  // listing of names here), no walk.
  if (alone || onlySkillFile(dir)) {
    return {
      files: [],
      truncated: false,
      stats: [],
      dirs: [],
      reused: false,
      hashed: 0,
      problems: [],
    };
  }
  return undefined;
}

/**
 * True when every recorded folder is still a folder with the mtime recorded (no entry was made,
 * removed or renamed in it) and every recorded file a regular file of the recorded size and mtime:
 * the test a listing is reused by (also the fast re-index's, reindex-digest.ts).
 */
export function unchanged(
  dir: string,
  dirs: readonly DirStat[],
  files: ReadonlyMap<string, FileStat>,
): boolean {
  for (const d of dirs) {
    const st = lstatOrUndefined(path.join(dir, ...d.path.split('/')));
    if (!st?.isDirectory() || st.mtimeMs !== d.mtime_ms) return false;
  }
  for (const f of files.values()) {
    const st = lstatOrUndefined(path.join(dir, ...f.path.split('/')));
    if (!st?.isFile() || st.size !== f.size || st.mtimeMs !== f.mtime_ms) return false;
  }
  return true;
}

/** True when `dir` holds only its SKILL.md (a folder that cannot be listed is walked, which says why). */
export function onlySkillFile(dir: string): boolean {
  try {
    return readdirSync(dir).every((n) => n === 'SKILL.md');
  } catch {
    // The walk reports the folder as UNREADABLE with its reason.
    return false;
  }
}

// One read of a listed file: its path must still be its own real path (no folder on the way swapped
// for a link since the walk), and it is opened without following a link at its place.
function readListed(
  file: string,
  rel: string,
  maxBytes: number,
): { ok: true; bytes: Buffer; mtimeMs: number } | { ok: false; problem: Problem } {
  if (realpathOrUndefined(file) !== file) {
    return {
      ok: false,
      problem: problem(
        'PATH_OUTSIDE_ROOT',
        file,
        `${file} no longer resolves to itself; not listed`,
      ),
    };
  }
  const r = readBytesCapped(file, maxBytes, rel, true);
  return r.ok ? r : { ok: false, problem: { ...r.problem, path: file } };
}

/**
 * The id of a files listing: `sha256:<64 hex>` over its canonical text, one line
 * `<path as a JSON string> \t <digest> \t <size>` per file in path order, preceded by a line
 * `truncated` when a bound left files out. Null for a skill without supporting files (not truncated):
 * its generation line stays `skill_id \t revision_id \t state` (generation.ts).
 */
export function manifestIdOf(listing: SkillFiles): string | null {
  if (listing.files.length === 0 && !listing.truncated) return null;
  const lines = [...listing.files]
    .sort((a, b) => compareUtf8(a.path, b.path))
    .map((f) => `${JSON.stringify(f.path)}\t${f.digest}\t${f.size}\n`);
  return sha256Of((listing.truncated ? 'truncated\n' : '') + lines.join(''));
}

/**
 * Orders strings by their UTF-8 bytes (the same as code point order): the order SQLite's BINARY and
 * PostgreSQL's "C" collation sort text in, so a listing reads back from either in the order it was made.
 */
export function compareUtf8(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
