/**
 * The consumer's view of a catalog: a read-only connection that answers every call from one
 * snapshot of the published generation (one read transaction per call, WAL keeps it stable while
 * an operator re-indexes). It reopens the file when it was replaced on disk, and refuses a catalog
 * whose published sequence went backwards (an older file restored over a newer one).
 */
import { statSync } from 'node:fs';
import { SkilldexError } from '../errors.js';
import { openCatalogReadOnly, type Db } from './db.js';
import { isPgLocation } from './location.js';
import { dialectOf, type CatalogStatement } from './db-type.js';
import { LATEST_VERSION } from './migrations.js';
import type { GenerationCounts } from './publish.js';

/** The published generation a snapshot serves. */
export interface PublishedGeneration {
  readonly seq: number;
  readonly catalog_generation: string;
  readonly policy: string;
  readonly created_at: string;
  readonly counts: GenerationCounts;
}

/** A read-only catalog handle for search and fetch. */
export class CatalogReader {
  private db: Db;
  private identity: string;
  private highestSeq = 0;
  private statements = new Map<string, CatalogStatement>();
  private schema = 0;

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
    return this.db.transaction(() => {
      const row = this.prepare(
        `SELECT g.seq, g.generation_id, g.policy, g.created_at, g.counts FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`,
      ).get() as
        | { seq: number; generation_id: string; policy: string; created_at: string; counts: string }
        | undefined;
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
      return fn({
        seq: row.seq,
        catalog_generation: row.generation_id,
        policy: row.policy,
        created_at: row.created_at,
        counts: JSON.parse(row.counts) as GenerationCounts,
      });
    })();
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
    this.db.close();
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
    this.db.close();
    this.db = db;
    this.identity = id;
    this.schema = 0;
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
  // A database is not replaced under its URL the way a file is renamed over another.
  if (isPgLocation(file)) return 'pg';
  try {
    const st = statSync(file);
    return `${st.dev}:${st.ino}`;
  } catch (err) {
    throw new SkilldexError(
      'CATALOG_MISSING',
      `the catalog ${file} is gone`,
      { catalog: file },
      { cause: err },
    );
  }
}
