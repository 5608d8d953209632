/**
 * The supporting files of a served skill (issue #12, MCP Skills extension): every regular file in
 * the skill's folder besides its SKILL.md (scripts, references, assets), with digest and size.
 * Confined: files reached through a symbolic link are not listed, and a read checks that the
 * recorded real path is still the file's real path and opens it without following links. Bounded:
 * at most MAX_SKILL_FILES files and MAX_SKILL_FILES_BYTES bytes per skill, in path order.
 *
 * The catalog records the digest of SKILL.md only. A supporting file's digest is the one computed
 * when the skill (at its current revision) was first listed by this process (`SkillFilesMemo`); a
 * later read whose bytes differ is INDEX_DRIFT, as for a changed SKILL.md.
 */
import path from 'node:path';
import { SkilldexError } from '../errors.js';
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
/** Deepest folder level walked below the skill folder. */
const MAX_SKILL_DEPTH = 8;
/** Most directory entries looked at per skill folder (bounds a listing of a huge tree). */
const MAX_SKILL_ENTRIES = 5_000;

/** One supporting file: its path relative to the skill folder (POSIX), digest and size. */
export interface SkillFile {
  readonly path: string;
  readonly digest: string;
  readonly size: number;
}

/** The supporting files of one skill revision. */
export interface SkillFiles {
  readonly files: readonly SkillFile[];
  /** True when a bound (count, bytes, depth, entries) left files out. */
  readonly truncated: boolean;
}

interface Listed extends SkillFiles {
  readonly real: ReadonlyMap<string, string>;
}

/** Lists the supporting files below `dir` (the real path of a skill folder), hashing each. */
export function listSkillFiles(dir: string): SkillFiles & { real: ReadonlyMap<string, string> } {
  const walked = walkFiles(dir, (name) => name !== '', {
    allowedRoots: [dir],
    maxDepth: MAX_SKILL_DEPTH,
    maxEntries: MAX_SKILL_ENTRIES,
  });
  let truncated = walked.problems.some((p) => p.code === 'WALK_LIMIT');
  // A folder holding its own SKILL.md is another skill: its files are not this one's.
  const nested = walked.files
    .filter((f) => path.basename(f.path) === 'SKILL.md' && path.dirname(f.path) !== dir)
    .map((f) => path.dirname(f.path));
  const files: SkillFile[] = [];
  const real = new Map<string, string>();
  let bytes = 0;
  for (const f of walked.files) {
    if (f.path === path.join(dir, 'SKILL.md')) continue;
    if (nested.some((n) => f.path.startsWith(n + path.sep))) continue;
    // Reached through a link (its real path is not where it was walked): not listed.
    if (f.realPath !== f.path) continue;
    const rel = toPosixRelative(dir, f.path);
    if (rel.split('/').some((s) => SKIPPED_DIRS.has(s))) continue;
    if (files.length >= MAX_SKILL_FILES) {
      truncated = true;
      break;
    }
    const r = readBytesCapped(f.path, MAX_SKILL_FILES_BYTES - bytes, rel, true);
    if (!r.ok) {
      if (r.problem.code === 'FILE_TOO_LARGE') truncated = true;
      continue;
    }
    bytes += r.bytes.length;
    files.push({ path: rel, digest: sha256Of(r.bytes), size: r.bytes.length });
    real.set(rel, f.path);
  }
  return { files, truncated, real };
}

/**
 * Supporting-file listings remembered per skill revision: the first listing of a revision fixes
 * the digests later reads are verified against. Bounded to MEMO_LIMIT revisions (oldest dropped).
 */
export class SkillFilesMemo {
  private readonly memo = new Map<string, Listed>();

  /** The listing of `skillId` at `revisionId` whose folder is `dir` (computed on first use). */
  list(skillId: string, revisionId: string, dir: string): SkillFiles {
    const { files, truncated } = this.listed(skillId, revisionId, dir);
    return { files, truncated };
  }

  /**
   * The bytes of `rel` in the skill's listing, verified against the listed digest. FILE_NOT_FOUND
   * when the listing has no such file; INDEX_DRIFT when the file changed, moved or became a link.
   */
  read(
    skillId: string,
    revisionId: string,
    dir: string,
    rel: string,
  ): { file: SkillFile; bytes: Buffer } {
    const listed = this.listed(skillId, revisionId, dir);
    const file = listed.files.find((f) => f.path === rel);
    const real = listed.real.get(rel);
    if (file === undefined || real === undefined) {
      throw new SkilldexError(
        'FILE_NOT_FOUND',
        `skill ${skillId} lists no file ${JSON.stringify(rel)}`,
        { skill_id: skillId, path: rel },
      );
    }
    const now =
      realpathOrUndefined(real) === real ? readBytesCapped(real, file.size, rel, true) : undefined;
    if (
      now === undefined ||
      !now.ok ||
      now.bytes.length !== file.size ||
      sha256Of(now.bytes) !== file.digest
    ) {
      throw new SkilldexError(
        'INDEX_DRIFT',
        `${rel} of skill ${skillId} no longer matches ${file.digest}: re-index`,
        { skill_id: skillId, path: rel },
      );
    }
    return { file, bytes: now.bytes };
  }

  private listed(skillId: string, revisionId: string, dir: string): Listed {
    const key = `${skillId}\u0000${revisionId}`;
    let l = this.memo.get(key);
    if (l === undefined) {
      l = listSkillFiles(dir);
      if (this.memo.size >= MEMO_LIMIT) this.memo.delete(this.memo.keys().next().value!);
      this.memo.set(key, l);
    }
    return l;
  }
}

/** Most skill revisions whose listings a memo keeps. */
const MEMO_LIMIT = 10_000;
