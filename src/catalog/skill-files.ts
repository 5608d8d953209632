/**
 * The supporting files of a skill (issue #12): every regular file in the skill's folder besides its
 * SKILL.md (scripts, references, assets), listed at index time with its `sha256:` digest and size.
 * The listing is what the catalog records and what the MCP Skills extension serves and verifies
 * reads against (docs/integration.md §8); this file walks and hashes, it never touches the database.
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
 * Incremental: a file whose size and mtime equal what the previous index recorded keeps its recorded
 * digest and is not read again; any other file is read once (O_NOFOLLOW, size-capped) and hashed.
 */
import path from 'node:path';
import { problem, type Problem } from '../errors.js';
import {
  SKIPPED_DIRS,
  readBytesCapped,
  realpathOrUndefined,
  sha256Of,
  toPosixRelative,
  walkFiles,
} from '../fsx/index.js';

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

/** A listing as an index takes it: the files, their stats for the next run, and what it cost. */
export interface FolderListing extends SkillFiles {
  /** The stat of every listed file, in the listing's order. */
  readonly stats: readonly FileStat[];
  /** Files read and hashed by this listing (the others kept their recorded digest). */
  readonly hashed: number;
  /** Entries left out for a reason worth telling: links out, unreadable or non-regular files, bounds. */
  readonly problems: readonly Problem[];
}

/** The listing of a skill without supporting files. */
export const NO_FILES: SkillFiles = Object.freeze({ files: Object.freeze([]), truncated: false });

/**
 * Lists the supporting files of the skill folder `dir` (the real path of the folder holding the
 * skill's SKILL.md). `prior` holds what the previous index recorded for this folder, by path: a
 * file whose size and mtime are unchanged keeps its digest without being read.
 */
export function listSupportingFiles(
  dir: string,
  prior?: ReadonlyMap<string, FileStat>,
): FolderListing {
  const walked = walkFiles(dir, (name) => name !== '', {
    allowedRoots: [dir],
    maxDepth: MAX_SKILL_DEPTH,
    maxEntries: MAX_SKILL_ENTRIES,
  });
  // A folder holding its own SKILL.md is another skill: neither its files nor its problems are ours.
  const nested = walked.files
    .filter((f) => path.basename(f.path) === 'SKILL.md' && path.dirname(f.path) !== dir)
    .map((f) => path.dirname(f.path) + path.sep);
  const ours = (p: string): boolean => !nested.some((n) => p.startsWith(n));
  const problems: Problem[] = walked.problems.filter((p) => ours(p.path));
  let truncated = problems.some((p) => p.code === 'WALK_LIMIT');
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
    if (f.realPath !== f.path) continue;
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
    const known = prior?.get(rel);
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
  return { files, truncated, stats, hashed, problems };
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
