/**
 * The catalog's record of supporting files (migration 3, skill-files.ts says what is listed).
 * Listings are content-addressed rows of `file_manifests` (id from `manifestIdOf`, the truncated
 * flag, the files as JSON), written once and never changed; the working set (`skills.manifest_id`),
 * each generation's members and the serving rows point at them, so every published generation keeps
 * the listing it served (rollback and `catalog copy` reproduce it exactly). `file_stats` holds, per
 * skill folder, the size, mtime and digest of each listed file at the last index: the next index
 * re-reads only what changed. A skill without supporting files has no manifest (null).
 */
import { SkilldexError } from '../../errors.js';
import { RowWriter, runIn } from '../store/batch.js';
import type { Db } from '../store/db-type.js';
import {
  type DirStat,
  type FileStat,
  type FolderListing,
  type FolderStats,
  type SkillFile,
  type SkillFiles,
} from './skill-files.js';

/** A row of `file_manifests`: a listing as stored (files still as JSON text). */
export interface ManifestRow {
  readonly manifest_id: string;
  readonly truncated: number;
  readonly files: string;
}

/** The JSON text of a listing's files: `[{ path, digest, size }, …]` in the listing's order. */
export function encodeFiles(files: readonly SkillFile[]): string {
  return JSON.stringify(files.map((f) => ({ path: f.path, digest: f.digest, size: f.size })));
}

/** The listing a `file_manifests` row holds. CATALOG_CORRUPT when its JSON is not a listing. */
export function listingOf(row: Pick<ManifestRow, 'truncated' | 'files'>): SkillFiles {
  let files: unknown;
  try {
    files = JSON.parse(row.files);
  } catch (err) {
    throw corrupt(err);
  }
  if (
    !Array.isArray(files) ||
    !files.every(
      (f: unknown) =>
        typeof f === 'object' &&
        f !== null &&
        typeof (f as SkillFile).path === 'string' &&
        typeof (f as SkillFile).digest === 'string' &&
        typeof (f as SkillFile).size === 'number',
    )
  ) {
    throw corrupt(undefined);
  }
  return { files: files as SkillFile[], truncated: Number(row.truncated) === 1 };
}

/**
 * The JSON text of what an index saw of a folder: `{ "files": [[path, size, mtime_ms, digest], …] }`
 * in listing order, plus `"dirs": [[path, mtime_ms], …]` after a clean listing.
 */
export function encodeStats(listing: Pick<FolderListing, 'stats' | 'dirs'>): string {
  return JSON.stringify({
    files: listing.stats.map((s) => [s.path, s.size, s.mtime_ms, s.digest]),
    ...(listing.dirs !== undefined ? { dirs: listing.dirs.map((d) => [d.path, d.mtime_ms]) } : {}),
  });
}

/**
 * What a `file_stats` row holds. A value that does not read as stats counts as none: it is only a
 * cache, so a damaged row costs a walk and a re-read of the folder's files, never a wrong digest.
 */
export function decodeStats(json: string): FolderStats {
  const files = new Map<string, FileStat>();
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    // See above: the folder is listed afresh.
    return { files };
  }
  const o = (typeof v === 'object' && v !== null ? v : {}) as { files?: unknown; dirs?: unknown };
  for (const r of Array.isArray(o.files) ? (o.files as unknown[]) : []) {
    if (!Array.isArray(r) || r.length !== 4) return { files: new Map() };
    const [p, size, mtime, digest] = r as unknown[];
    if (
      typeof p !== 'string' ||
      typeof size !== 'number' ||
      typeof mtime !== 'number' ||
      typeof digest !== 'string'
    )
      return { files: new Map() };
    files.set(p, { path: p, size, mtime_ms: mtime, digest });
  }
  if (!Array.isArray(o.dirs)) return { files };
  const dirs: DirStat[] = [];
  for (const d of o.dirs as unknown[]) {
    if (!Array.isArray(d) || typeof d[0] !== 'string' || typeof d[1] !== 'number') return { files };
    dirs.push({ path: d[0], mtime_ms: d[1] });
  }
  return { files, dirs };
}

/** Every folder's stats JSON from the last index, by folder (real path). */
export function readFileStats(db: Db): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of db.prepare(`SELECT dir, stats FROM file_stats`).iterate() as Iterable<{
    dir: string;
    stats: string;
  }>)
    out.set(r.dir, r.stats);
  return out;
}

/**
 * The writes of one ingest to the supporting-file tables, many rows per statement (batch.ts: on
 * PostgreSQL each statement is a round trip); `flush` writes what is still collected.
 */
export class FileRecordWriter {
  // A manifest is content-addressed: an id already stored holds the same listing.
  private readonly manifests: RowWriter;
  private readonly stats: RowWriter;
  private dropped: string[] = [];

  constructor(private readonly db: Db) {
    this.manifests = new RowWriter(
      db,
      'file_manifests',
      ['manifest_id', 'truncated', 'files'],
      `ON CONFLICT (manifest_id) DO NOTHING`,
    );
    this.stats = new RowWriter(
      db,
      'file_stats',
      ['dir', 'stats'],
      `ON CONFLICT (dir) DO UPDATE SET stats = excluded.stats`,
    );
  }

  /** Stores the listing `listing` under its id (nothing when it is stored already). */
  storeManifest(manifestId: string, listing: SkillFiles): void {
    this.manifests.add({
      manifest_id: manifestId,
      truncated: listing.truncated ? 1 : 0,
      files: encodeFiles(listing.files),
    });
  }

  /** Records the stats JSON of the folder `dir` (once per folder and ingest). */
  writeStats(dir: string, stats: string): void {
    this.stats.add({ dir, stats });
  }

  /** Forgets the folder `dir` (no indexed skill lives there any more). */
  dropStats(dir: string): void {
    this.dropped.push(dir);
  }

  /** Writes everything collected so far. */
  flush(): void {
    this.manifests.flush();
    this.stats.flush();
    runIn(this.db, `DELETE FROM file_stats WHERE dir IN (%s)`, this.dropped);
    this.dropped = [];
  }
}

function corrupt(cause: unknown): SkilldexError {
  return new SkilldexError(
    'CATALOG_CORRUPT',
    'a files listing in the catalog is not valid JSON of { path, digest, size } entries',
    {},
    cause === undefined ? undefined : { cause },
  );
}
