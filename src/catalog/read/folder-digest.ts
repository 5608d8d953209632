/**
 * The digest of a whole skill folder (issue #28, `skilldex lock`): one `sha256:` over the folder's
 * files — its SKILL.md (under the name `SKILL.md`, with the revision's digest) and every supporting
 * file the index lists (skill-files.ts) — in the canonical line form files listings are hashed in
 * (`manifestIdOf`: `<path as JSON> \t <sha256:…> \t <size>` per file in UTF-8 path order, after a
 * `truncated` line when a bound cut the listing). The same files, the same bytes: the same digest on
 * any machine. Also the digests of the working set, computed from what the index recorded, so a
 * publish can be held to a lock without reading a file again. Pure except `workingSetDigests`, which
 * only reads the catalog.
 */
import type { Db } from '../store/db-type.js';
import { listingById, membersOf, type HistorySource } from './history.js';
import { manifestIdOf, type SkillFile, type SkillFiles } from '../write/skill-files.js';

/** The name a skill's own file has in its folder's file list. */
export const SKILL_MD = 'SKILL.md';

/** A skill folder's files: SKILL.md first, then the supporting files, as a listing. */
export function folderFiles(revisionId: string, size: number, supporting: SkillFiles): SkillFiles {
  return {
    files: [{ path: SKILL_MD, digest: revisionId, size }, ...supporting.files],
    truncated: supporting.truncated,
  };
}

/** The digest of a skill folder (see the header): never null, a folder always has its SKILL.md. */
export function folderDigestOf(revisionId: string, size: number, supporting: SkillFiles): string {
  return manifestIdOf(folderFiles(revisionId, size, supporting))!;
}

/** One working-set skill as a lock sees it. */
export interface RecordedFolder {
  readonly revision_id: string;
  readonly folder_digest: string;
  readonly files: readonly SkillFile[];
}

/**
 * The folder digest of every skill of the working set (what the next publish serves), by skill_id,
 * from the revisions and files listings the last index recorded.
 */
export function workingSetDigests(db: Db, schemaVersion: number): Map<string, RecordedFolder> {
  const src: HistorySource = { prepare: (s) => db.prepare(s), schemaVersion: () => schemaVersion };
  const sizes = new Map<string, number>();
  for (const r of db
    .prepare(
      `SELECT s.skill_id, r.size FROM skills s JOIN revisions r ON r.skill_id = s.skill_id AND r.revision_id = s.revision_id`,
    )
    .iterate() as Iterable<{ skill_id: string; size: number }>)
    sizes.set(r.skill_id, Number(r.size));
  const out = new Map<string, RecordedFolder>();
  for (const [id, m] of membersOf(src, null)) {
    const supporting = listingById(src, m.manifest_id);
    const all = folderFiles(m.revision_id, sizes.get(id) ?? 0, supporting);
    out.set(id, {
      revision_id: m.revision_id,
      folder_digest: manifestIdOf(all)!,
      files: all.files,
    });
  }
  return out;
}
