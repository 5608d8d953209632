/**
 * The consumer's view of a catalog: a read-only connection that answers every call from one
 * snapshot of the published generation. `read` runs a call in one read transaction (WAL keeps it
 * stable while an operator re-indexes; on PostgreSQL one REPEATABLE READ snapshot). `readChecked`
 * is the search path's cheaper twin: on PostgreSQL it opens no transaction — the generation comes
 * from one statement and every later statement (`checkedAll`) returns, beside its rows, the
 * snapshot key it saw, so a publish in between is noticed and the call runs again on the new
 * generation. Every generation carries that key (`snapshot`), which per-generation caches are
 * keyed on. The reader reopens a file replaced on disk, and refuses a catalog whose published
 * sequence went backwards (an older file restored over a newer one).
 */
import { SkilldexError } from '../../errors.js';
import { openCatalogReadOnly, type Db } from '../db.js';
import { locationIdentity } from '../store/location.js';
import { dialectOf, type CatalogStatement } from '../store/db-type.js';
import { LATEST_VERSION } from '../store/migrations.js';
import type { GenerationCounts } from '../write/publish.js';
import { USAGE_SIGNATURE_SQL } from '../side/usage.js';
import { storedJson } from '../store/stored.js';

/** What every read model says of a published generation: its id, policy, time and counts. */
export interface GenerationHead {
  readonly catalog_generation: string;
  readonly policy: string;
  readonly created_at: string;
  readonly counts: GenerationCounts;
}

/** The published generation a snapshot serves. */
export interface PublishedGeneration extends GenerationHead {
  readonly seq: number;
  /**
   * A key that changes whenever what the catalog serves may have changed: the published sequence,
   * the catalog's data version (bumped by every writer's commit: a publish that only moved files
   * rewrites serving rows under the same sequence) and the connection (a reopened file, a
   * recreated schema). Per-generation caches are keyed on it.
   */
  readonly snapshot: string;
  /**
   * PostgreSQL, `readChecked` only: the signature of the usage examples (usage.ts
   * `usageSignature`), read in the same statement, since there they are a table of the catalog's
   * schema. Absent on SQLite, whose examples live in the telemetry file.
   */
  readonly usage_signature?: string;
}

/** How many times `readChecked` runs a call again after a publish moved the snapshot under it. */
export const SNAPSHOT_RETRIES = 3;

/** Column of a checked statement's rows that holds the snapshot key (never a catalog column). */
const SNAPSHOT_COLUMN = 'skilldex_snapshot';

// PostgreSQL: the snapshot key as one expression, evaluated inside the statement that reads the
// data, so both come from the same (READ COMMITTED) statement snapshot.
const PG_SNAPSHOT_KEY = `((SELECT seq FROM published WHERE id = 1) || ':' || coalesce((SELECT value FROM meta WHERE key = 'data_version'), '0') || ':' || coalesce(to_regclass('serving')::oid::text, '-'))`;

const GENERATION_SQL = `SELECT g.seq, g.generation_id, g.policy, g.created_at, g.counts FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`;

const PG_GENERATION_SQL = `SELECT g.seq, g.generation_id, g.policy, g.created_at, g.counts, ${PG_SNAPSHOT_KEY} AS snapshot FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`;

// readChecked's one statement on PostgreSQL: the generation, its snapshot key and the usage
// signature under prefixed names, with the rows of the call's first read beside them.
function pgCheckedGenerationSql(first: string | undefined): string {
  const columns = `g.seq AS skilldex_seq, g.generation_id AS skilldex_generation_id, g.policy AS skilldex_policy, g.created_at AS skilldex_created_at, g.counts AS skilldex_counts, ${PG_SNAPSHOT_KEY} AS ${SNAPSHOT_COLUMN}, (${USAGE_SIGNATURE_SQL}) AS skilldex_usage_signature`;
  return first === undefined
    ? `SELECT ${columns} FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`
    : `SELECT ${columns}, q.* FROM published p JOIN generations g ON g.seq = p.seq LEFT JOIN (${first}) q ON true WHERE p.id = 1`;
}

const CHECKED_COLUMNS = [
  'skilldex_seq',
  'skilldex_generation_id',
  'skilldex_policy',
  'skilldex_created_at',
  'skilldex_counts',
  SNAPSHOT_COLUMN,
  'skilldex_usage_signature',
] as const;

/**
 * A statement `readChecked` runs with the generation read (on PostgreSQL in the same statement,
 * saving a round trip): one SELECT, its rows unordered; `marker` names a column never null in them.
 */
export interface FirstRead {
  readonly sql: string;
  readonly params: readonly unknown[];
  readonly marker: string;
}

interface GenerationRow {
  seq: number;
  generation_id: string;
  policy: string;
  created_at: string;
  counts: string;
  snapshot?: string;
  usage_signature?: string;
}

// Thrown by checkedAll when a statement saw another snapshot than the call's generation.
class SnapshotMoved extends Error {}

/** A read-only catalog handle for search and fetch. */
export class CatalogReader {
  private db: Db;
  private identity: string;
  private highestSeq = 0;
  private statements = new Map<string, CatalogStatement>();
  // Plucked statements (checkedColumn), kept apart: plucking changes what a statement returns.
  private plucked = new Map<string, CatalogStatement>();
  private schema = 0;
  // Bumped whenever the connection is replaced, so snapshot keys never repeat across connections.
  private epoch = 0;
  // The snapshot key of the readChecked call in progress on PostgreSQL outside a transaction.
  private checking: string | undefined;

  constructor(readonly file: string) {
    this.db = openCatalogReadOnly(file);
    this.identity = fileIdentity(file);
  }

  /**
   * Runs `fn` inside one read transaction against the published generation. CATALOG_EMPTY when
   * nothing is published, CATALOG_ROLLBACK when the published sequence went backwards.
   */
  read<T>(fn: (generation: PublishedGeneration) => T): T {
    this.reopenIfReplaced();
    const pg = this.dialect === 'pg';
    return this.db.transaction(() => {
      const row = this.prepare(pg ? PG_GENERATION_SQL : GENERATION_SQL).get() as
        GenerationRow | undefined;
      // SQLite's data_version changes when another connection commits (read inside the snapshot).
      const key = pg
        ? row?.snapshot
        : `${row?.seq}:${this.db.pragma('data_version', { simple: true }) as number}`;
      return fn(this.generationOf(row, `${this.epoch}:${key}`));
    })();
  }

  /**
   * `read` for a call whose every catalog statement is `checkedAll` (the BM25F search path); `first`,
   * when given, is read with the generation and its rows handed to `fn`. On SQLite it is `read`.
   * On PostgreSQL it opens no transaction (a BEGIN and a COMMIT would be two of the few round
   * trips a search needs): the generation, its snapshot key, the usage signature and the first
   * read come from one statement, and each `checkedAll` compares the key its statement saw; when
   * a publish moved it, `fn` runs again on the new generation, at most SNAPSHOT_RETRIES times,
   * then once inside a read transaction, where the key cannot move.
   */
  readChecked<T>(
    fn: (generation: PublishedGeneration, first: readonly unknown[]) => T,
    first?: FirstRead,
  ): T {
    const inTransaction = (): T =>
      this.read((gen) =>
        fn(gen, first ? this.checkedAll(first.sql, first.params, first.marker) : []),
      );
    if (this.dialect !== 'pg') return inTransaction();
    this.reopenIfReplaced();
    for (let attempt = 0; attempt < SNAPSHOT_RETRIES; attempt++) {
      const rows = this.prepare(pgCheckedGenerationSql(first?.sql)).all(
        ...(first?.params ?? []),
      ) as Record<string, unknown>[];
      const r = rows[0];
      const snapshot = r?.[SNAPSHOT_COLUMN] as string | undefined;
      const gen = this.generationOf(
        r && {
          seq: r['skilldex_seq'] as number,
          generation_id: r['skilldex_generation_id'] as string,
          policy: r['skilldex_policy'] as string,
          created_at: r['skilldex_created_at'] as string,
          counts: r['skilldex_counts'] as string,
          usage_signature: r['skilldex_usage_signature'] as string,
        },
        `${this.epoch}:${snapshot}`,
      );
      const firstRows = first
        ? rows.filter((row) => row[first.marker] !== null && row[first.marker] !== undefined)
        : [];
      for (const row of firstRows) for (const c of CHECKED_COLUMNS) delete row[c];
      this.checking = snapshot ?? '';
      try {
        return fn(gen, firstRows);
      } catch (err) {
        if (!(err instanceof SnapshotMoved)) throw err;
      } finally {
        this.checking = undefined;
      }
    }
    return inTransaction();
  }

  /**
   * Every row of `sql` (one SELECT, its rows unordered) with `params`, inside `read` or
   * `readChecked`. On PostgreSQL under `readChecked` the statement also returns the snapshot key,
   * and a key other than the call's generation's restarts the call (see readChecked). `marker`
   * names a column that is never null in a row of `sql`.
   */
  checkedAll(sql: string, params: readonly unknown[], marker: string): unknown[] {
    if (this.checking === undefined) return this.prepare(sql).all(...params);
    const rows = this.prepare(
      `SELECT ${PG_SNAPSHOT_KEY} AS ${SNAPSHOT_COLUMN}, q.* FROM (SELECT 1 AS one) o LEFT JOIN (${sql}) q ON true`,
    ).all(...params) as Record<string, unknown>[];
    if (rows[0]?.[SNAPSHOT_COLUMN] !== this.checking) throw new SnapshotMoved();
    // No row of `sql`: the outer join's one row of nulls.
    if (rows.length === 1 && (rows[0]![marker] === null || rows[0]![marker] === undefined))
      return [];
    for (const r of rows) delete r[SNAPSHOT_COLUMN];
    return rows;
  }

  /**
   * The one column of every row of `sql` (a SELECT of one column that is never null), as
   * `checkedAll` checks it. Outside PostgreSQL's checked reads the values come straight from a
   * plucked statement, without an object per row: the fuzzy vocabulary's 13,000 terms took ~10 ms
   * as objects and ~5 ms plucked in a fresh process (bench:hook).
   */
  checkedColumn(sql: string, params: readonly unknown[], column: string): unknown[] {
    if (this.checking !== undefined)
      return (this.checkedAll(sql, params, column) as Record<string, unknown>[]).map(
        (r) => r[column],
      );
    let st = this.plucked.get(sql);
    if (!st) {
      st = this.db.prepare(sql).pluck(true);
      this.plucked.set(sql, st);
    }
    return st.all(...params);
  }

  /** A prepared statement, cached per SQL text for the life of the connection. */
  prepare(sql: string): CatalogStatement {
    let st = this.statements.get(sql);
    if (!st) {
      st = this.db.prepare(sql);
      this.statements.set(sql, st);
    }
    return st;
  }

  /**
   * The catalog's schema version (migrations.ts). Read again on each call while it is older than
   * this code's: a writer migrates the catalog under open read-only connections.
   */
  schemaVersion(): number {
    if (this.schema < LATEST_VERSION)
      this.schema = this.db.pragma('user_version', { simple: true }) as number;
    return this.schema;
  }

  /** Which engine answers: `sqlite` or `pg`. */
  get dialect(): 'sqlite' | 'pg' {
    return dialectOf(this.db);
  }

  /** Closes the connection. */
  close(): void {
    this.statements.clear();
    this.plucked.clear();
    this.db.close();
  }

  // The generation of a `published` row, after the empty and rollback checks.
  private generationOf(row: GenerationRow | undefined, snapshot: string): PublishedGeneration {
    if (!row) {
      throw new SkilldexError(
        'CATALOG_EMPTY',
        `${this.file} has no published generation yet; run skilldex index (or skilldex publish)`,
        {
          catalog: this.file,
        },
      );
    }
    if (row.seq < this.highestSeq) {
      throw new SkilldexError(
        'CATALOG_ROLLBACK',
        `${this.file} now publishes sequence ${row.seq}, older than sequence ${this.highestSeq} served before: an older catalog replaced a newer one`,
        { catalog: this.file, seq: row.seq, highest_seq: this.highestSeq },
      );
    }
    this.highestSeq = row.seq;
    return {
      seq: row.seq,
      catalog_generation: row.generation_id,
      policy: row.policy,
      created_at: row.created_at,
      counts: storedJson<GenerationCounts>(row.counts, 'generations.counts'),
      snapshot,
      ...(row.usage_signature !== undefined && row.usage_signature !== null
        ? { usage_signature: String(row.usage_signature) }
        : {}),
    };
  }

  // A catalog file renamed over the open one would otherwise never be seen by this connection. A
  // file of another lineage (rebuilt from scratch: its first generation differs) starts the
  // sequence check afresh; an older copy of the same lineage still answers CATALOG_ROLLBACK.
  private reopenIfReplaced(): void {
    const id = fileIdentity(this.file);
    if (id === this.identity) return;
    const db = openCatalogReadOnly(this.file);
    const before = lineageOf(this.db);
    this.statements.clear();
    this.plucked.clear();
    this.db.close();
    this.db = db;
    this.identity = id;
    this.schema = 0;
    this.epoch++;
    if (lineageOf(db) !== before) this.highestSeq = 0;
  }
}

// The first generation's id and timestamp: the same in every copy of one catalog, new in a rebuild.
function lineageOf(db: Db): string {
  const row = db
    .prepare(`SELECT generation_id, created_at FROM generations ORDER BY seq LIMIT 1`)
    .get() as { generation_id: string; created_at: string } | undefined;
  return row ? `${row.generation_id}@${row.created_at}` : '';
}

function fileIdentity(file: string): string {
  const id = locationIdentity(file);
  if (id === undefined)
    throw new SkilldexError('CATALOG_MISSING', `the catalog ${file} is gone`, { catalog: file });
  return id;
}
