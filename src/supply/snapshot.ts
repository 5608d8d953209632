/**
 * The library as it is on disk now, as a lock records it (issue #28): every skill discovery serves
 * in the given scopes (the winner of a shadowed id; no skipped file), with its folder's files and
 * their digests listed exactly as the index lists them (catalog `listSupportingFiles`: confined,
 * bounded, no link followed) plus SKILL.md, the folder digest over them, and where the folder is
 * written in a lock (relative to the lock's folder, else `~/…` under the home folder, else
 * absolute), and everything else in the folder the listing leaves out (inventory.ts). Reads the
 * scopes only.
 */
import path from 'node:path';
import {
  DEFAULT_MAX_FILE_BYTES,
  isInside,
  readBytesCapped,
  realpathOrUndefined,
  sha256Of,
} from '../fsx/index.js';
import {
  folderDigestOf,
  folderFiles,
  listSupportingFiles,
  type SkillFile,
} from '../catalog/index.js';
import { discoverSkills, type DiscoverOptions, type ScanReport } from '../skills/index.js';
import { compareUtf8 } from './file-changes.js';
import { inventoryOf } from './inventory.js';

/** One skill as it is on disk. */
export interface CurrentSkill {
  readonly skill_id: string;
  readonly scope: string;
  /** The skill folder as a lock writes it (lockPathOf). */
  readonly path: string;
  /** The folder's real path. */
  readonly dir: string;
  /** Absolute path of its SKILL.md, as discovered. */
  readonly skill_md: string;
  readonly revision_id: string;
  readonly folder_digest: string;
  /** SKILL.md and the supporting files, in path order. */
  readonly files: readonly SkillFile[];
  /** True when a bound left files out of the listing (and of the digest). */
  readonly truncated: boolean;
  /** What the listing leaves out, path → kind (inventory.ts; issue 36 L4). */
  readonly unlisted: ReadonlyMap<string, string>;
  /** True when a bound cut `unlisted`. */
  readonly unlisted_truncated: boolean;
  readonly version: string | null;
}

/** The library now: its skills by id, and discovery's report (skips, shadowed ids, problems). */
export interface LibrarySnapshot {
  readonly skills: ReadonlyMap<string, CurrentSkill>;
  readonly scan: ScanReport;
}

/**
 * Discovers the scopes and lists every served skill's folder (see the header). `onProgress` follows
 * discovery (SKILL.md files read out of found).
 */
export function snapshotLibrary(
  options: DiscoverOptions,
  lockDir: string,
  home: string | undefined,
  onProgress?: (done: number, total: number) => void,
): LibrarySnapshot {
  const scan = discoverSkills(options, onProgress);
  const skills = new Map<string, CurrentSkill>();
  for (const r of scan.skills) {
    const dir = path.dirname(r.real_path);
    const listing = listSupportingFiles(dir);
    const all = folderFiles(r.revision_id, r.size, listing);
    skills.set(r.skill_id, {
      skill_id: r.skill_id,
      scope: r.scope,
      path: lockPathOf(path.dirname(r.path), lockDir, home),
      dir,
      skill_md: r.path,
      revision_id: r.revision_id,
      folder_digest: folderDigestOf(r.revision_id, r.size, listing),
      files: [...all.files].sort((a, b) => compareUtf8(a.path, b.path)),
      truncated: listing.truncated,
      ...unlistedOf(dir, all.files),
      version: r.version ?? null,
    });
  }
  return { skills, scan };
}

/**
 * The skill folder `rel` (as a lock writes it, relative to `lockDir`) as it is now, read directly
 * rather than through discovery — for locks that pin folders (APM's): two folders with
 * byte-identical SKILL.md files are one skill to discovery but two deployments to such a lock.
 * Undefined when the folder, its SKILL.md, or its real path inside `lockDir` is not there.
 */
export function folderNow(lockDir: string, rel: string, skillId: string): CurrentSkill | undefined {
  const root = realpathOrUndefined(lockDir);
  const dir = realpathOrUndefined(path.resolve(lockDir, rel));
  if (root === undefined || dir === undefined || !isInside(root, dir)) return undefined;
  const md = path.join(dir, 'SKILL.md');
  const read = readBytesCapped(md, DEFAULT_MAX_FILE_BYTES, md, true);
  if (!read.ok) return undefined;
  const revision = sha256Of(read.bytes);
  const listing = listSupportingFiles(dir);
  const all = folderFiles(revision, read.bytes.length, listing);
  return {
    skill_id: skillId,
    scope: 'custom',
    path: rel,
    dir,
    skill_md: path.join(lockDir, rel, 'SKILL.md'),
    revision_id: revision,
    folder_digest: folderDigestOf(revision, read.bytes.length, listing),
    files: [...all.files].sort((a, b) => compareUtf8(a.path, b.path)),
    truncated: listing.truncated,
    ...unlistedOf(dir, all.files),
    version: null,
  };
}

// The folder's entries its listing leaves out (nested SKILL.md folders, node_modules, links, …).
function unlistedOf(
  dir: string,
  listed: readonly SkillFile[],
): { unlisted: ReadonlyMap<string, string>; unlisted_truncated: boolean } {
  const inv = inventoryOf(dir, new Set(listed.map((f) => f.path)));
  return { unlisted: inv.entries, unlisted_truncated: inv.truncated };
}

/**
 * How a lock writes the folder `dir`: relative to `lockDir` (POSIX, `.` for the folder itself) when
 * inside it, else `~/…` when inside `home`, else the absolute path. The same folder gives the same
 * text wherever the repository is checked out.
 */
export function lockPathOf(dir: string, lockDir: string, home: string | undefined): string {
  const rel = path.relative(lockDir, dir);
  if (rel === '') return '.';
  if (!rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  if (home !== undefined) {
    const h = path.relative(home, dir);
    if (h !== '' && !h.startsWith('..') && !path.isAbsolute(h))
      return `~/${h.split(path.sep).join('/')}`;
  }
  return dir.split(path.sep).join('/');
}
