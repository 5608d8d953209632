/**
 * The fast path of an unchanged re-index (issue 33, "unchanged re-index ≤ 0.05 of a full index").
 *
 * After an index that published, the catalog keeps one record (a `meta` row): a sha256 over the
 * walk of the scopes as discovery saw it (every SKILL.md's path, real path, scope, plugin, device
 * and inode, size and mtime, whether it was alone in its folder; every skip and scope problem) and
 * over the settings that change what is indexed (policy, body layout, kept revisions, discovery
 * bounds, scopes and preferences), with the published generation it produced and the parts of its
 * report an unchanged run repeats. The next index walks the scopes, and when the digest, the
 * settings and the published generation are the same and every skill folder with supporting files
 * is unchanged by the test a listing is reused by (skill-files.ts `unchanged`: the folders' mtimes,
 * recorded only when older than RACY_MS, and each file's size and mtime), it answers the report an
 * unchanged index gives without reading the per-table state (files ⨝ revisions, skills, members,
 * serving). Anything else takes the ordinary path, which is always correct.
 *
 * The record is dropped by every write that changes the working set without a walk (an ingest
 * that changed something, a lifecycle change, a rollback, forgetting the file stats), and is
 * written only when no other connection committed during the run; it also names the published
 * generation, so any publish since (by any writer) voids it.
 */
import path from 'node:path';
import { nodeCrypto } from '../../fsx/index.js';
import type { Problem } from '../../errors.js';
import type { DuplicateGroup, FileOrigin, ShadowedSkill, SkippedFile } from '../../skills/index.js';
import type { Db } from '../db.js';
import { readMeta, writeMeta } from '../store/meta.js';
import { decodeStats, readFileStats } from './file-manifests.js';
import type { PublishResult } from './publish.js';
import { onlySkillFile, unchanged } from './skill-files.js';

/** The `meta` key of the record. */
export const REINDEX_META_KEY = 'reindex_fast_path';

/**
 * What an unchanged index repeats from the run that wrote the record: the generation its publish
 * published (or found published unchanged), and what its ingest found.
 */
export interface ReindexRecord extends Pick<
  PublishResult,
  'seq' | 'catalog_generation' | 'counts'
> {
  /** reindexDigest of that run's walk and settings. */
  readonly digest: string;
  /** Skills in the working set after it (an unchanged run's `unchanged`). */
  readonly unchanged: number;
  readonly duplicates: readonly DuplicateGroup[];
  readonly shadowed: readonly ShadowedSkill[];
  /**
   * The usage store as the run's author-example sync left it (the operator's identity of the
   * telemetry file); absent when it cannot tell (PostgreSQL): the fast path then syncs again.
   */
  readonly usage?: string;
}

/** The walk of the scopes as a fast re-index compares it. */
export interface WalkSeen {
  readonly files: readonly FileOrigin[];
  readonly skipped: readonly SkippedFile[];
  readonly problems: readonly Problem[];
}

let fastRuns = 0;

/** How many indexes in this process took the fast path (for tests: never a timing). */
export function reindexFastPathCount(): number {
  return fastRuns;
}

/** The digest of a walk and of the settings (any JSON value) that decide what it indexes. */
export function reindexDigest(walk: WalkSeen, settings: unknown): string {
  // One hash update per file (no intermediate JSON): this runs on every re-index.
  const h = nodeCrypto().createHash('sha256');
  h.update(JSON.stringify(settings));
  for (const f of walk.files)
    h.update(
      `\n${f.path}\0${f.realPath}\0${f.scope}\0${f.scopePath}\0${f.plugin ?? '\u0001'}\0` +
        `${f.identity?.dev ?? '-'}:${f.identity?.ino ?? '-'}\0${f.seen?.size ?? '-'}\0` +
        `${f.seen?.mtimeMs ?? '-'}\0${f.alone === true ? 1 : 0}`,
    );
  h.update('\n' + JSON.stringify(walk.skipped) + '\n' + JSON.stringify(walk.problems));
  return 'sha256:' + h.digest('hex');
}

/** Drops the record: the next index takes the ordinary path. */
export function clearReindexRecord(db: Db): void {
  db.prepare(`DELETE FROM meta WHERE key = ?`).run(REINDEX_META_KEY);
}

/** Stores `record` unless the same one is stored (an unchanged run commits nothing). */
export function writeReindexRecord(db: Db, record: ReindexRecord): void {
  const json = JSON.stringify(record);
  if (readMeta(db, REINDEX_META_KEY) !== json) writeMeta(db, REINDEX_META_KEY, json);
}

/** What the fast path found: the record it repeats and the supporting files it checked. */
export interface FastReindex {
  readonly record: ReindexRecord;
  /** Supporting files of the checked folders, and how many folders were checked (`reused`). */
  readonly listed: number;
  readonly reused: number;
}

/**
 * The record when an index of the walk whose digest is `digest` (`files`: its SKILL.md files)
 * would change nothing, else undefined: the digest matches, the published generation is the
 * record's, no serving rebuild is pending, and every skill folder that is not alone in the walk is
 * unchanged since its recorded listing (or holds nothing but its SKILL.md), as an ingest would find.
 */
export function fastReindex(
  db: Db,
  digest: string,
  files: readonly FileOrigin[],
): FastReindex | undefined {
  const raw = readMeta(db, REINDEX_META_KEY);
  if (raw === undefined) return undefined;
  let record: ReindexRecord;
  try {
    record = JSON.parse(raw) as ReindexRecord;
  } catch {
    // Not a record this code wrote: the ordinary path rewrites it.
    return undefined;
  }
  // A value that is not an object (a damaged row) is no record: the ordinary path rewrites it.
  if (typeof record !== 'object' || record === null || record.digest !== digest) return undefined;
  if (readMeta(db, 'serving_rebuild') === '1') return undefined;
  if (!publishedIs(db, record)) return undefined;
  const folders = new Set(
    files.filter((f) => f.alone !== true).map((f) => path.dirname(f.realPath)),
  );
  if (folders.size === 0) return { record, listed: 0, reused: 0 };
  const stats = readFileStats(db);
  let listed = 0;
  let reused = 0;
  for (const dir of folders) {
    const json = stats.get(dir);
    if (json === undefined) {
      // No supporting files recorded: an ingest lists the folder's names, and so does this check.
      if (onlySkillFile(dir)) continue;
      return undefined;
    }
    const prior = decodeStats(json);
    if (prior.dirs === undefined || !unchanged(dir, prior.dirs, prior.files)) return undefined;
    listed += prior.files.size;
    reused++;
  }
  return { record, listed, reused };
}

/**
 * True when the record `fast` answered from is still stored and its generation still published:
 * checked again after the progress callback, which another writer may have run alongside.
 */
export function fastReindexStillCurrent(db: Db, fast: FastReindex): boolean {
  const raw = readMeta(db, REINDEX_META_KEY);
  return raw !== undefined && raw === JSON.stringify(fast.record) && publishedIs(db, fast.record);
}

// Whether the published generation is the one `record` names.
function publishedIs(db: Db, record: ReindexRecord): boolean {
  const current = db
    .prepare(
      `SELECT g.seq, g.generation_id FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
    )
    .get() as { seq: number; generation_id: string } | undefined;
  return current?.seq === record.seq && current.generation_id === record.catalog_generation;
}

/** Counts one fast run (called by the operator when it answers from the record). */
export function countFastReindex(): void {
  fastRuns++;
}
