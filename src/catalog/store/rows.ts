/** Row shapes of catalog tables, as SQLite returns them (JSON columns still as text). */

/** A row of `revisions`: one revision ever seen of one skill. */
export interface RevisionRow {
  skill_id: string;
  revision_id: string;
  seq: number;
  version: string | null;
  name: string;
  description: string;
  when_to_use: string | null;
  keywords: string;
  tags: string;
  path: string;
  real_path: string;
  scope: string;
  scope_path: string;
  plugin: string | null;
  size: number;
  normalized_sha256: string;
  body_offset: number;
  frontmatter: string;
  warnings: string;
  flags: string;
  first_seen: string;
}
