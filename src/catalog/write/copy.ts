/**
 * `skilldex catalog copy FROM TO`: a whole catalog from one backend to another (SQLite file ↔
 * PostgreSQL, or the same kind): every revision, generation and its members, lifecycle state and
 * history, the supporting-file listings and their stats, the stored revision texts, the serving
 * tables of the published generation, and the telemetry and usage examples beside it. Into an empty
 * target only; verified afterwards by reading the generation history back from the target,
 * recomputing every files listing's id from its files and the published generation's id from its
 * members. A source of an older schema is copied as it is and reads as migrated in the target.
 *
 * All or nothing: a SQLite target is written as temporary files beside it (catalog and telemetry
 * file) that are renamed into place only once the copy is verified; a PostgreSQL target gets the
 * catalog and its side tables in one transaction. A copy that fails at any step (the telemetry
 * side included) leaves the target as it was, and can be run again.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { SkilldexError } from '../../errors.js';
import {
  catalogExists,
  closeCatalog,
  openCatalogForWrite,
  openCatalogReadOnly,
  openSideStore,
} from '../db.js';
import { dialectOf, type Db } from '../store/db-type.js';
import { computeGeneration, type Member } from './generation.js';
import { listingOf, type ManifestRow } from './file-manifests.js';
import { manifestIdOf } from './skill-files.js';
import { isPgLocation } from '../store/location.js';
import { migrateSideStore } from '../side/side-migrate.js';
import { telemetryPathFor } from '../side/telemetry.js';
import { LAYOUT_SCHEMA_VERSION } from '../store/layout.js';
import { layoutDataSql } from '../store/migrations.js';

/** Catalog tables in the order they are copied (parents first). */
const CATALOG_TABLES = [
  'meta',
  'revisions',
  'files',
  'skills',
  'generations',
  'generation_members',
  'published',
  'serving',
  'vocab',
  'postings',
  'serving_docs',
  'file_manifests',
  'file_stats',
  'revision_texts',
] as const;
/** Tables an older schema may lack (created by a later migration): copied when the source has them. */
const LATER_TABLES: ReadonlySet<string> = new Set([
  'file_manifests',
  'file_stats',
  'revision_texts',
]);
/** Side tables (telemetry, usage examples). */
const SIDE_TABLES = ['events', 'counts', 'usage_examples'] as const;
/**
 * Columns a later migration dropped (migration 6: v3's body terms, serving's copy of each
 * description): not copied from a source of an older schema.
 */
const DROPPED_COLUMNS: ReadonlySet<string> = new Set([
  'revisions.body_terms',
  'serving.description',
]);
/** meta keys that belong to the target's own schema, not to the catalog's content. */
const OWN_META = new Set(['format', 'user_version', 'data_version', 'side_version']);

/** What `copyCatalog` did. */
export interface CopyReport {
  readonly from: string;
  readonly to: string;
  /** Rows copied per table. */
  readonly rows: Readonly<Record<string, number>>;
  /** Every generation id of the target, oldest first (the same as the source's). */
  readonly generations: readonly string[];
  readonly published: string | null;
  readonly verified: true;
}

/**
 * Copies the catalog at `from` into `to`, which must hold no catalog yet (INVALID_ARGUMENT otherwise).
 * CATALOG_CORRUPT when the copy does not read back the same generations. Nothing is left at `to`
 * when the copy fails (see the file header).
 */
export function copyCatalog(from: string, to: string): CopyReport {
  if (from === to) {
    throw new SkilldexError('INVALID_ARGUMENT', `copy ${from} onto itself`, { from, to });
  }
  const src = openCatalogReadOnly(from);
  try {
    if (catalogExists(to) && !targetIsEmpty(to)) {
      throw new SkilldexError(
        'INVALID_ARGUMENT',
        `${to} already holds a catalog; copy into a new file or an empty database (or schema)`,
        { catalog: to },
      );
    }
    return isPgLocation(to) ? copyIntoDatabase(src, from, to) : copyIntoFile(src, from, to);
  } finally {
    src.close();
  }
}

// A SQLite target: written under a temporary name in the target's folder (so the rename stays on
// one file system), verified, then the telemetry file and the catalog renamed into place.
function copyIntoFile(src: Db, from: string, to: string): CopyReport {
  const dir = path.dirname(path.resolve(to));
  mkdirSync(dir, { recursive: true });
  const tmp = path.join(
    dir,
    `.${path.basename(to)}.copy-${process.pid}-${Date.now().toString(36)}`,
  );
  const tmpSide = telemetryPathFor(tmp);
  try {
    const rows: Record<string, number> = {};
    const dst = openCatalogForWrite(tmp);
    let report: CopyReport;
    try {
      dst.transaction(() => copyTables(src, dst, rows)).immediate();
      copySide(from, tmpSide, rows, undefined);
      report = verify(src, dst, from, to, rows);
    } finally {
      closeCatalog(dst);
    }
    if (existsSync(tmpSide)) renameSync(tmpSide, telemetryPathFor(to));
    renameSync(tmp, to);
    return report;
  } finally {
    for (const f of [tmp, tmpSide])
      for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(f + suffix, { force: true });
  }
}

// A PostgreSQL target: the catalog, its side tables and the check in one transaction.
function copyIntoDatabase(src: Db, from: string, to: string): CopyReport {
  const dst = openCatalogForWrite(to);
  try {
    migrateSideStore(dst);
    const rows: Record<string, number> = {};
    return dst
      .transaction(() => {
        copyTables(src, dst, rows);
        copySide(from, to, rows, dst);
        return verify(src, dst, from, to, rows);
      })
      .immediate();
  } finally {
    closeCatalog(dst);
  }
}

function copyTables(src: Db, dst: Db, rows: Record<string, number>): void {
  for (const t of CATALOG_TABLES)
    rows[t] = LATER_TABLES.has(t) && !hasTable(src, t) ? 0 : copyTable(src, dst, t);
  // Rows of a catalog older than migration 6 arrive as they were: that migration's data part makes
  // them what a migrated catalog keeps (store/layout.ts).
  if ((src.pragma('user_version', { simple: true }) as number) < LAYOUT_SCHEMA_VERSION)
    dst.exec(layoutDataSql(dialectOf(dst)));
  // SQLite's FTS5 index of policy v1 is derived from `serving`: rebuilt, not copied.
  if (dialectOf(dst) === 'sqlite')
    dst.exec(`INSERT INTO serving_fts (serving_fts) VALUES ('rebuild')`);
}

// True when the catalog at `to` has no revisions and no generations (a schema created, nothing in it).
function targetIsEmpty(to: string): boolean {
  const db = openCatalogReadOnly(to);
  try {
    const n = db
      .prepare(`SELECT (SELECT count(*) FROM revisions) + (SELECT count(*) FROM generations) AS n`)
      .get() as { n: number };
    return n.n === 0;
  } finally {
    db.close();
  }
}

function copyTable(src: Db, dst: Db, table: string): number {
  let insert: ReturnType<Db['prepare']> | undefined;
  let columns: string[] = [];
  let n = 0;
  if (table === 'meta') {
    for (const r of src.prepare(`SELECT key, value FROM meta ORDER BY key`).iterate() as Iterable<{
      key: string;
      value: string;
    }>) {
      if (OWN_META.has(r.key)) continue;
      dst
        .prepare(
          `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        )
        .run(r.key, r.value);
      n++;
    }
    return n;
  }
  for (const r of src.prepare(`SELECT * FROM ${table}`).iterate() as Iterable<
    Record<string, unknown>
  >) {
    if (!insert) {
      columns = Object.keys(r).filter((c) => !DROPPED_COLUMNS.has(`${table}.${c}`));
      insert = dst.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
    }
    insert.run(...columns.map((c) => r[c]));
    n++;
  }
  return n;
}

// Telemetry and usage examples: from the source's side store (a file that may not exist, or the
// PostgreSQL database itself) into `toSide`, or into `into` (the target's open connection, inside
// its transaction) when given.
function copySide(
  from: string,
  toSide: string,
  rows: Record<string, number>,
  into: Db | undefined,
): void {
  const fromSide = telemetryPathFor(from);
  if (!isPgLocation(fromSide) && !existsSync(fromSide)) return;
  const src = openSideStore(fromSide, { readonly: true });
  const dst = into ?? openSideStore(toSide);
  try {
    // The target's side tables in this code's shape; a source of an older shape fills fewer
    // columns. A PostgreSQL target was migrated before its transaction began (copyIntoDatabase).
    if (!into) migrateSideStore(dst);
    const copy = (): void => {
      for (const t of SIDE_TABLES) {
        if (!hasTable(src, t)) continue;
        rows[t] = copyTable(src, dst, t);
        if (dialectOf(dst) === 'pg' && t !== 'counts' && rows[t]! > 0) {
          // Ids were copied as they were: the identity continues after the largest.
          dst
            .prepare(
              `SELECT setval(pg_get_serial_sequence('${t}', 'id'), (SELECT max(id) FROM ${t}))`,
            )
            .get();
        }
      }
    };
    if (into) copy();
    else dst.transaction(copy)();
  } finally {
    src.close();
    if (!into) dst.close();
  }
}

function hasTable(db: Db, table: string): boolean {
  const sql =
    dialectOf(db) === 'pg'
      ? `SELECT 1 WHERE to_regclass(?) IS NOT NULL`
      : `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`;
  return db.prepare(sql).get(table) !== undefined;
}

function verify(
  src: Db,
  dst: Db,
  from: string,
  to: string,
  rows: Record<string, number>,
): CopyReport {
  const history = (db: Db): string[] =>
    (
      db.prepare(`SELECT generation_id FROM generations ORDER BY seq`).all() as {
        generation_id: string;
      }[]
    ).map((g) => g.generation_id);
  const published = (db: Db): { seq: number; generation_id: string; policy: string } | undefined =>
    db
      .prepare(
        `SELECT g.seq, g.generation_id, g.policy FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
      )
      .get() as { seq: number; generation_id: string; policy: string } | undefined;
  const a = history(src);
  const b = history(dst);
  const pa = published(src);
  const pb = published(dst);
  let recomputed: string | undefined;
  if (pb) {
    const members = dst
      .prepare(
        `SELECT skill_id, revision_id, state, manifest_id FROM generation_members WHERE seq = ? ORDER BY skill_id`,
      )
      .all(pb.seq) as Member[];
    recomputed = computeGeneration(members, pb.policy);
  }
  // Every listing still hashes to the id it is stored under.
  const badListing = (
    dst.prepare(`SELECT manifest_id, truncated, files FROM file_manifests`).all() as ManifestRow[]
  ).some((m) => manifestIdOf(listingOf(m)) !== m.manifest_id);
  if (
    a.join() !== b.join() ||
    pa?.generation_id !== pb?.generation_id ||
    (pb && recomputed !== pb.generation_id) ||
    badListing
  ) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `the copy in ${to} does not read back the generations of ${from}`,
      { from, to, source: a, copy: b },
    );
  }
  return { from, to, rows, generations: b, published: pb?.generation_id ?? null, verified: true };
}
