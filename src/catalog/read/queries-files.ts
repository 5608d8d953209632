/**
 * Reads of the published generation's supporting-file listings (file-manifests.ts), for the MCP
 * Skills extension: one skill's listing, or the listings of a page of skills in one statement. Never
 * reads the file system: what is listed is what the index recorded. A catalog of a schema before
 * migration 3 (not yet opened by a writer of this version) records no listings: every skill reads
 * as having no supporting files until the next `skilldex index`.
 */
import { listingOf, type ManifestRow } from '../write/file-manifests.js';
import type { CatalogReader } from './reader.js';
import { NO_FILES, type SkillFiles } from '../write/skill-files.js';

/** The schema version from which the catalog records supporting files. */
export const FILES_SCHEMA_VERSION = 3;

/** The recorded supporting files of the served skill `skillId` (NO_FILES when it has none). */
export function servedFilesOf(reader: CatalogReader, skillId: string): SkillFiles {
  if (reader.schemaVersion() < FILES_SCHEMA_VERSION) return NO_FILES;
  const row = reader
    .prepare(
      `SELECT m.truncated, m.files FROM serving s JOIN file_manifests m ON m.manifest_id = s.manifest_id WHERE s.skill_id = ?`,
    )
    .get(skillId) as Pick<ManifestRow, 'truncated' | 'files'> | undefined;
  return row ? listingOf(row) : NO_FILES;
}

/**
 * The recorded listings of the served skills with ids after `after` up to and including `through`
 * (a page of `servedPage`), by skill_id; skills without supporting files are absent.
 */
export function servedFilesBetween(
  reader: CatalogReader,
  after: string,
  through: string,
): Map<string, SkillFiles> {
  const out = new Map<string, SkillFiles>();
  if (reader.schemaVersion() < FILES_SCHEMA_VERSION) return out;
  for (const r of reader
    .prepare(
      `SELECT s.skill_id, m.truncated, m.files FROM serving s JOIN file_manifests m ON m.manifest_id = s.manifest_id
       WHERE s.skill_id > ? AND s.skill_id <= ?`,
    )
    .iterate(after, through) as Iterable<{ skill_id: string } & ManifestRow>) {
    out.set(r.skill_id, listingOf(r));
  }
  return out;
}
