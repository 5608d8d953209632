/**
 * Operator views of a catalog: `status` (published generation, counts, working-set changes not yet
 * published, files drifted since indexing: served SKILL.md files and their recorded supporting
 * files) and `generations` (the publish history).
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { readBytesCapped, realpathOrUndefined, sha256Of } from '../../fsx/index.js';
import type { Db } from '../db.js';
import { generationRows, type GenerationRow } from './queries.js';
import type { GenerationCounts } from '../write/publish.js';
import type { GenerationHead } from './reader.js';
import {
  decodeStats,
  listingOf,
  readFileStats,
  type ManifestRow,
} from '../write/file-manifests.js';
import { storedJson } from '../store/stored.js';

/** One published generation in the history. */
export interface GenerationInfo extends GenerationHead {
  readonly seq: number;
  readonly parent_seq: number | null;
  readonly published: boolean;
}

/**
 * A served file that no longer matches what was indexed: a skill's SKILL.md (its revision), or one
 * of its recorded supporting files (its digest; `file` is then its path in the skill folder).
 */
export interface DriftedFile {
  readonly skill_id: string;
  /** The file's absolute path. */
  readonly path: string;
  /** For a supporting file: its path relative to the skill folder (POSIX). */
  readonly file?: string;
  readonly reason: 'missing' | 'changed';
}

/** The status report. */
export interface CatalogStatus {
  readonly catalog: string;
  readonly published: GenerationInfo | null;
  readonly working: {
    readonly skills: number;
    readonly active: number;
    readonly deprecated: number;
    readonly archived: number;
    readonly retired: number;
  };
  /** Working-set skills whose revision or state differs from the published generation. */
  readonly unpublished_changes: number;
  readonly drifted: readonly DriftedFile[];
  readonly revisions_seen: number;
}

/** A generation row as `generations` reports it; `publishedSeq` is the published one's. */
export function generationInfoOf(
  g: GenerationRow,
  publishedSeq: number | undefined,
): GenerationInfo {
  return {
    seq: g.seq,
    catalog_generation: g.generation_id,
    parent_seq: g.parent_seq,
    policy: g.policy,
    created_at: g.created_at,
    counts: storedJson<GenerationCounts>(g.counts, 'generations.counts'),
    published: g.seq === publishedSeq,
  };
}

/** Every generation, newest first. */
export function listGenerations(db: Db): GenerationInfo[] {
  const pub = db.prepare(`SELECT seq FROM published WHERE id = 1`).get() as
    { seq: number } | undefined;
  return generationRows(db).map((g) => generationInfoOf(g, pub?.seq));
}

/**
 * Status of the catalog `db` at `file`; checks every served file, SKILL.md and recorded supporting
 * files, for drift (stat, then hash when size or mtime differ from the last index).
 */
export function catalogStatus(db: Db, file: string): CatalogStatus {
  const gens = listGenerations(db);
  const published = gens.find((g) => g.published) ?? null;
  const w = db
    .prepare(
      `SELECT count(*) AS skills,
              count(*) FILTER (WHERE revision_id IS NOT NULL AND state = 'active') AS active,
              count(*) FILTER (WHERE revision_id IS NOT NULL AND state = 'deprecated') AS deprecated,
              count(*) FILTER (WHERE revision_id IS NOT NULL AND state = 'archived') AS archived,
              count(*) FILTER (WHERE revision_id IS NULL) AS retired
       FROM skills`,
    )
    .get() as CatalogStatus['working'];
  const unpublished = published
    ? (
        db
          .prepare(
            `SELECT count(*) AS n FROM (
               SELECT skill_id, revision_id, state FROM skills WHERE revision_id IS NOT NULL
               EXCEPT SELECT skill_id, revision_id, state FROM generation_members WHERE seq = ?
             ) AS added UNION ALL SELECT count(*) FROM (
               SELECT skill_id, revision_id, state FROM generation_members WHERE seq = ?
               EXCEPT SELECT skill_id, revision_id, state FROM skills WHERE revision_id IS NOT NULL
             ) AS dropped`,
          )
          .all(published.seq, published.seq) as { n: number }[]
      ).reduce((s, r) => s + r.n, 0)
    : w.skills - w.retired;
  const drifted: DriftedFile[] = [];
  const files = new Map<string, { size: number; mtime_ms: number }>();
  for (const f of db.prepare(`SELECT real_path, size, mtime_ms FROM files`).iterate() as Iterable<{
    real_path: string;
    size: number;
    mtime_ms: number;
  }>) {
    files.set(f.real_path, f);
  }
  for (const s of db
    .prepare(`SELECT skill_id, revision_id, real_path, size FROM serving ORDER BY skill_id`)
    .iterate() as Iterable<{
    skill_id: string;
    revision_id: string;
    real_path: string;
    size: number;
  }>) {
    let st;
    try {
      st = statSync(s.real_path);
    } catch {
      drifted.push({ skill_id: s.skill_id, path: s.real_path, reason: 'missing' });
      continue;
    }
    const known = files.get(s.real_path);
    if (known && known.size === st.size && known.mtime_ms === st.mtimeMs) continue;
    const bytes = readBytesCapped(s.real_path, Math.max(st.size, s.size) + 1);
    if (!bytes.ok || sha256Of(bytes.bytes) !== s.revision_id)
      drifted.push({ skill_id: s.skill_id, path: s.real_path, reason: 'changed' });
  }
  drifted.push(...supportingDrift(db));
  drifted.sort((a, b) =>
    a.skill_id < b.skill_id
      ? -1
      : a.skill_id > b.skill_id
        ? 1
        : a.path < b.path
          ? -1
          : a.path > b.path
            ? 1
            : 0,
  );
  const revs = (db.prepare(`SELECT count(*) AS n FROM revisions`).get() as { n: number }).n;
  return {
    catalog: file,
    published,
    working: w,
    unpublished_changes: unpublished,
    drifted,
    revisions_seen: revs,
  };
}

// The recorded supporting files of every served skill that are gone or no longer hash to their
// digest. A file whose size and mtime are those the last index hashed to the same digest is not read.
function supportingDrift(db: Db): DriftedFile[] {
  const out: DriftedFile[] = [];
  const stats = readFileStats(db);
  for (const s of db
    .prepare(
      `SELECT s.skill_id, s.real_path, m.truncated, m.files FROM serving s JOIN file_manifests m ON m.manifest_id = s.manifest_id ORDER BY s.skill_id`,
    )
    .iterate() as Iterable<{ skill_id: string; real_path: string } & ManifestRow>) {
    const dir = path.dirname(s.real_path);
    const json = stats.get(dir);
    const known = json === undefined ? undefined : decodeStats(json);
    for (const f of listingOf(s).files) {
      const abs = path.join(dir, ...f.path.split('/'));
      const drift = (reason: DriftedFile['reason']): void => {
        out.push({ skill_id: s.skill_id, path: abs, file: f.path, reason });
      };
      let st;
      try {
        st = lstatSync(abs);
      } catch {
        drift('missing');
        continue;
      }
      // Served only as a regular file at its own real path (a link there, or on the way, is drift).
      if (!st.isFile() || realpathOrUndefined(abs) !== abs) {
        drift('changed');
        continue;
      }
      const k = known?.files.get(f.path);
      if (k && k.digest === f.digest && k.size === st.size && k.mtime_ms === st.mtimeMs) continue;
      const bytes = readBytesCapped(abs, f.size, abs, true);
      if (!bytes.ok || sha256Of(bytes.bytes) !== f.digest) drift('changed');
    }
  }
  return out;
}
