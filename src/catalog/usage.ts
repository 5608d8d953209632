/**
 * Usage examples (docs/ranking.md §9): `(query, skill_id)` pairs — the capability query of a consumer
 * fetch (its `context`), or examples imported with `skilldex learn` — kept in the telemetry file
 * beside the catalog (on PostgreSQL, a table of the catalog's schema; never in skill files), at
 * most MAX_EXAMPLES_PER_SKILL per skill (the most recent), read by policy bm25f.v3 as the "usage" field. Reads open the file read-only and never
 * create it; writes are the operator's (`learn`, `forget`) or the router's (a fetch with a context).
 */
import { existsSync } from 'node:fs';
import { SkilldexError } from '../errors.js';
import { openSideStore, type Db } from './db.js';
import { dialectOf } from './db-type.js';
import { isPgLocation, locationIdentity } from './location.js';
import { USAGE_SCHEMA } from './side-schema.js';

/** Most examples kept per skill (older ones are dropped first). */
export const MAX_EXAMPLES_PER_SKILL = 200;
/** Longest example query kept, in characters (longer text is cut). */
export const MAX_EXAMPLE_CHARS = 1_000;

/** One usage example. */
export interface UsageExample {
  readonly skill_id: string;
  readonly query: string;
}

/** The examples of a telemetry file, in (skill_id, id) order, and a signature that changes with them. */
export interface UsageSnapshot {
  readonly signature: string;
  readonly examples: readonly UsageExample[];
}

/**
 * The signature of the examples as one SQL expression: `count:newest id` (`0:0` for none). Any
 * learned, imported, trimmed or forgotten example changes it. On PostgreSQL the catalog reader
 * reads it in the statement that reads the published generation (reader.ts), saving a round trip.
 */
export const USAGE_SIGNATURE_SQL = `SELECT count(*) || ':' || coalesce(max(id), 0) FROM usage_examples`;

/** Every example, in the order the usage index reads them. */
const USAGE_EXAMPLES_SQL = `SELECT skill_id, query FROM usage_examples ORDER BY skill_id, id`;

/** Reads the usage examples of `file`; none when the file or its table does not exist. */
export function readUsage(file: string): UsageSnapshot {
  if (!isPgLocation(file) && !existsSync(file)) return { signature: 'none', examples: [] };
  let db: Db | undefined;
  try {
    db = openSideStore(file, { readonly: true });
    db.pragma('busy_timeout = 200');
    if (!hasUsageTable(db, file)) return { signature: 'none', examples: [] };
    const sig = db.prepare(USAGE_SIGNATURE_SQL).pluck().get() as string;
    const examples = db.prepare(USAGE_EXAMPLES_SQL).all() as UsageExample[];
    return { signature: String(sig), examples };
  } catch {
    pgTables.delete(file);
    // Usage is advisory like telemetry: an unreadable file ranks as if no example had been learned.
    return { signature: 'unreadable', examples: [] };
  } finally {
    db?.close();
  }
}

/** Signature of the examples in `file` (cheap: a count and the largest id; USAGE_SIGNATURE_SQL). */
export function usageSignature(file: string): string {
  if (!isPgLocation(file) && !existsSync(file)) return 'none';
  let db: Db | undefined;
  try {
    db = openSideStore(file, { readonly: true });
    if (!hasUsageTable(db, file)) return 'none';
    return String(db.prepare(USAGE_SIGNATURE_SQL).pluck().get());
  } catch {
    pgTables.delete(file);
    return 'unreadable';
  } finally {
    db?.close();
  }
}

/**
 * `usageSignature` for a long-lived reader (a Router): one read-only connection to the telemetry
 * file kept open, and the signature recomputed only when `PRAGMA data_version` says another
 * connection committed since the last look, or the file was replaced. Opening the file and
 * counting the examples for every search was a fifth of a search's time on 2,000 skills. On
 * PostgreSQL the reader reads the signature with the generation (reader.ts), so this answers as
 * `usageSignature` does.
 */
export class UsageWatch {
  private db: Db | undefined;
  private identity: string | undefined;
  private version: number | undefined;
  private signature = 'none';
  constructor(private readonly file: string) {}

  /** The signature of the examples now (see USAGE_SIGNATURE_SQL). */
  current(): string {
    if (isPgLocation(this.file)) return usageSignature(this.file);
    const identity = locationIdentity(this.file);
    if (identity !== this.identity) {
      this.close();
      this.identity = identity;
    }
    if (identity === undefined) return 'none';
    try {
      this.db ??= openSideStore(this.file, { readonly: true });
      const version = this.db.pragma('data_version', { simple: true }) as number;
      if (version !== this.version) {
        this.signature = hasUsageTable(this.db, this.file)
          ? String(this.db.prepare(USAGE_SIGNATURE_SQL).pluck().get())
          : 'none';
        this.version = version;
      }
      return this.signature;
    } catch {
      // Advisory like all usage: an unreadable file ranks as if no example had been learned.
      this.close();
      return 'unreadable';
    }
  }

  /**
   * The examples now, as `readUsage` reads them, through the kept connection (opening the file a
   * second time was a third of what a one-shot search spent on usage).
   */
  examples(): readonly UsageExample[] {
    if (isPgLocation(this.file)) return readUsage(this.file).examples;
    const sig = this.current();
    if (this.db === undefined || sig === 'none' || sig === 'unreadable') return [];
    try {
      return this.db.prepare(USAGE_EXAMPLES_SQL).all() as UsageExample[];
    } catch {
      this.close();
      return [];
    }
  }

  /** Closes the connection (a later `current()` opens it again). */
  close(): void {
    this.db?.close();
    this.db = undefined;
    this.version = undefined;
  }
}

/** Opens (creating if needed) the usage table of a telemetry file for writing. */
export function openUsageForWrite(file: string): Db {
  try {
    const db = openSideStore(file);
    // On PostgreSQL the table is part of the catalog's schema (migrations.ts).
    if (dialectOf(db) === 'pg') return db;
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.exec(USAGE_SCHEMA);
    return db;
  } catch (err) {
    throw new SkilldexError(
      'WRITE_FAILED',
      `cannot write usage examples to ${file}: ${(err as Error).message}`,
      { file },
      { cause: err },
    );
  }
}

/**
 * Adds examples (each cut to MAX_EXAMPLE_CHARS; blank ones skipped), then keeps only the most recent
 * MAX_EXAMPLES_PER_SKILL of every skill touched. Returns how many were added.
 */
export function addUsageExamples(
  db: Db,
  examples: readonly UsageExample[],
  source: 'fetch' | 'import',
  at: string,
): number {
  const ins = db.prepare(
    `INSERT INTO usage_examples (skill_id, query, source, at) VALUES (?, ?, ?, ?)`,
  );
  const trim = db.prepare(
    `DELETE FROM usage_examples WHERE skill_id = ? AND id NOT IN (SELECT id FROM usage_examples WHERE skill_id = ? ORDER BY id DESC LIMIT ${MAX_EXAMPLES_PER_SKILL})`,
  );
  return db.transaction(() => {
    const touched = new Set<string>();
    let n = 0;
    for (const e of examples) {
      const q = e.query.trim().slice(0, MAX_EXAMPLE_CHARS);
      if (q === '') continue;
      ins.run(e.skill_id, q, source, at);
      touched.add(e.skill_id);
      n++;
    }
    for (const id of touched) trim.run(id, id);
    return n;
  })();
}

/** Removes the examples of `skillId`, or all of them; returns how many were removed. */
export function forgetUsage(db: Db, target: { skill_id: string } | { all: true }): number {
  if ('all' in target) return db.prepare(`DELETE FROM usage_examples`).run().changes;
  return db.prepare(`DELETE FROM usage_examples WHERE skill_id = ?`).run(target.skill_id).changes;
}

/** Removes the examples of every skill not in `keep` (retired or archived skills keep none). */
export function pruneUsage(db: Db, keep: ReadonlySet<string>): number {
  const ids = (
    db.prepare(`SELECT DISTINCT skill_id FROM usage_examples`).pluck().all() as string[]
  ).filter((id) => !keep.has(id));
  const del = db.prepare(`DELETE FROM usage_examples WHERE skill_id = ?`);
  return db.transaction(() => ids.reduce((n, id) => n + del.run(id).changes, 0))();
}

/** Example counts per skill. */
export function usageCounts(db: Db): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of db
    .prepare(
      `SELECT skill_id, count(*) AS n FROM usage_examples GROUP BY skill_id ORDER BY skill_id`,
    )
    .iterate() as Iterable<{
    skill_id: string;
    n: number;
  }>) {
    out.set(r.skill_id, r.n);
  }
  return out;
}

// PostgreSQL locations whose usage table was seen: it is part of the catalog's schema from the
// first migration on, so this process asks once per location, not once per search (a read that
// fails forgets the answer).
const pgTables = new Set<string>();

function hasUsageTable(db: Db, file: string): boolean {
  const pg = dialectOf(db) === 'pg';
  if (pg && pgTables.has(file)) return true;
  const sql = pg
    ? `SELECT 1 WHERE to_regclass('usage_examples') IS NOT NULL`
    : `SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_examples'`;
  const has = db.prepare(sql).get() !== undefined;
  if (pg && has) pgTables.add(file);
  return has;
}
