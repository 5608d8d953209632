/**
 * The catalog connection type, on its own so that db.ts (which opens connections and runs the
 * migrations) and migrations.ts (which takes a connection) both import it without importing each
 * other.
 *
 * `Db` is the storage interface every catalog module speaks: the part of better-sqlite3's API the
 * catalog uses (prepared statements with `get`/`all`/`run`/`iterate`/`pluck`, `exec`, transactions
 * with `immediate`, `pragma`, `close`). A better-sqlite3 connection is one as it is; a PostgreSQL
 * connection (pg.ts) implements the same calls over libpq, so the router and the other
 * capabilities never see which backend answers.
 */

/** What `run` reports: rows changed, and the rowid of the last insert (SQLite only). */
export interface RunResult {
  changes: number;
  lastInsertRowid: number | bigint;
}

/** A prepared statement. Parameters are positional (`?`) or one object of named ones (`@name`). */
export interface CatalogStatement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): RunResult;
  iterate(...params: unknown[]): IterableIterator<unknown>;
  pluck(toggle?: boolean): CatalogStatement;
}

// The same shape as better-sqlite3's own declarations, so that its connections are `Db`s.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunction = (...params: any[]) => unknown;
type ArgumentTypes<F extends AnyFunction> = F extends (...args: infer A) => unknown ? A : never;

/** A function wrapped in a transaction; `immediate` takes the write lock before it runs. */
export interface CatalogTransaction<F extends AnyFunction> {
  (...params: ArgumentTypes<F>): ReturnType<F>;
  deferred(...params: ArgumentTypes<F>): ReturnType<F>;
  immediate(...params: ArgumentTypes<F>): ReturnType<F>;
  exclusive(...params: ArgumentTypes<F>): ReturnType<F>;
}

/** A catalog connection: SQLite (better-sqlite3) or PostgreSQL (pg.ts). */
export interface Db {
  prepare(source: string): CatalogStatement;
  exec(source: string): unknown;
  transaction<F extends AnyFunction>(fn: F): CatalogTransaction<F>;
  pragma(source: string, options?: { simple?: boolean }): unknown;
  close(): unknown;
}

/** Which engine answers `db`. */
export function dialectOf(db: Db): 'sqlite' | 'pg' {
  return (db as { dialect?: string }).dialect === 'pg' ? 'pg' : 'sqlite';
}

/** Number of tables in the catalog's schema (SQLite file or PostgreSQL search_path schema). */
export function tableCount(db: Db): number {
  const sql =
    dialectOf(db) === 'pg'
      ? `SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()`
      : `SELECT count(*) AS n FROM sqlite_master`;
  return (db.prepare(sql).get() as { n: number }).n;
}

/** The refusal for a non-empty store that is not a skilldex catalog. */
export function foreignMessage(db: Db, file: string): string {
  return dialectOf(db) === 'pg'
    ? `${file}: the schema already holds tables that are not a skilldex catalog; refusing to write into it (use an empty database, or another schema with ?options=-csearch_path%3DNAME)`
    : `${file} is a SQLite file but not a skilldex catalog; refusing to write into it`;
}
