/**
 * Batched catalog statements (issue #16): one `IN (…)` list for many keys and one multi-row INSERT
 * for many rows, instead of a statement each. On PostgreSQL every statement is a network round
 * trip (pg.ts), so a statement per skill or per term is what made indexing and searching slow
 * there; SQLite runs the same SQL in process. Only `?` placeholders are generated here, never
 * values. Lists are padded and rows split to powers of two (a few rows go as they are), so
 * whatever the sizes, a connection prepares a few dozen texts per statement at most (pg.ts keeps
 * one server-side statement per text).
 */
import { dialectOf, type CatalogStatement, type Db } from './db-type.js';

/** Most keys in one `IN (…)` list (PostgreSQL accepts 65,535 parameters, SQLite 32,766). */
export const MAX_IN_LIST = 512;

/** Most parameters of one multi-row INSERT (rows × columns; under both engines' limits). */
export const MAX_INSERT_PARAMS = 8_192;

/** Most rows of one multi-row INSERT, whatever its width. */
export const MAX_INSERT_ROWS = 256;

/**
 * Up to this many rows go in one INSERT of exactly that size (a search's telemetry, a small
 * re-index: one statement); larger counts are split into powers of two.
 */
export const EXACT_ROWS = 16;

/**
 * `keys` in chunks for `IN (…)` lists: at most MAX_IN_LIST each, every chunk padded to a power of
 * two by repeating its last key (an IN list ignores repeats). Empty for no keys.
 */
export function inChunks<K>(keys: readonly K[]): K[][] {
  const out: K[][] = [];
  for (let i = 0; i < keys.length; i += MAX_IN_LIST) {
    const chunk = keys.slice(i, i + MAX_IN_LIST);
    const size = 2 ** Math.ceil(Math.log2(chunk.length));
    while (chunk.length < size) chunk.push(chunk[chunk.length - 1]!);
    out.push(chunk);
  }
  return out;
}

/** The placeholders of an `IN` list of `n` keys: `?, ?, …`, or `(?, ?), …` for keys of `width` columns. */
export function placeholders(n: number, width = 1): string {
  const one = width === 1 ? '?' : `(${Array.from({ length: width }, () => '?').join(', ')})`;
  return Array.from({ length: n }, () => one).join(', ');
}

/**
 * Every row of `sql` (a SELECT whose one `IN (?…)` of the keys is written `IN (%s)`) for `keys`,
 * one statement per chunk. `bind` turns a key into its parameters (default: the key itself);
 * `width` is the number of parameters per key. Rows come chunk by chunk, unordered.
 */
export function selectIn<K>(
  db: Db,
  sql: string,
  keys: readonly K[],
  width = 1,
  bind: (key: K) => readonly unknown[] = (k) => [k],
): unknown[] {
  const out: unknown[] = [];
  for (const chunk of inChunks(keys)) {
    const rows = prepared(db, sql.replace('%s', placeholders(chunk.length, width))).all(
      ...chunk.flatMap(bind),
    );
    for (const r of rows) out.push(r);
  }
  return out;
}

/** Runs `sql` (a DELETE or UPDATE whose `IN` list is written `IN (%s)`) for `keys`, after `before` parameters. */
export function runIn<K>(
  db: Db,
  sql: string,
  keys: readonly K[],
  before: readonly unknown[] = [],
): number {
  let changes = 0;
  for (const chunk of inChunks(keys)) {
    changes += prepared(db, sql.replace('%s', placeholders(chunk.length))).run(
      ...before,
      ...chunk,
    ).changes;
  }
  return changes;
}

/**
 * Inserts `rows` (objects keyed by column name) into `table` with multi-row INSERTs, followed by
 * `tail` (an ON CONFLICT clause, or nothing). Rows are sent in chunks whose sizes are powers of
 * two, or at most EXACT_ROWS. A chunk must not hold two rows for one conflict key (PostgreSQL refuses to update a row
 * twice in one statement): callers pass distinct keys.
 */
export function insertRows(
  db: Db,
  table: string,
  columns: readonly string[],
  rows: readonly Readonly<Record<string, unknown>>[],
  tail = '',
): void {
  const most = chunkRows(columns.length);
  const head = `INSERT INTO ${table} (${columns.join(', ')}) VALUES `;
  let i = 0;
  while (i < rows.length) {
    const left = rows.length - i;
    const size = left >= most ? most : left <= EXACT_ROWS ? left : 2 ** Math.floor(Math.log2(left));
    const params: unknown[] = [];
    for (let j = i; j < i + size; j++) {
      const row = rows[j]!;
      for (const c of columns) {
        if (!(c in row)) throw new RangeError(`a row for ${table} has no ${c}`);
        params.push(row[c]);
      }
    }
    prepared(db, `${head}${placeholders(size, columns.length)}${tail ? ` ${tail}` : ''}`).run(
      ...params,
    );
    i += size;
  }
}

// The statements this module prepared on each SQLite connection, by text. SQLite parses a text
// every time it is prepared, and a full index prepares the same few multi-row INSERTs (a full chunk
// of 256 rows of 25 columns is 6,400 placeholders) hundreds of times. PostgreSQL statements are
// kept by the driver (pg.ts). Cleared whole past STATEMENTS_KEPT texts; each is only ever run
// through `all` or `run`, which leave no state on it.
const STATEMENTS = new WeakMap<Db, Map<string, CatalogStatement>>();
const STATEMENTS_KEPT = 256;

function prepared(db: Db, sql: string): CatalogStatement {
  if (dialectOf(db) === 'pg') return db.prepare(sql);
  let kept = STATEMENTS.get(db);
  if (!kept) STATEMENTS.set(db, (kept = new Map()));
  let statement = kept.get(sql);
  if (!statement) {
    if (kept.size >= STATEMENTS_KEPT) kept.clear();
    kept.set(sql, (statement = db.prepare(sql)));
  }
  return statement;
}

// Rows of a full INSERT chunk for rows of `width` columns: a power of two, within both limits.
function chunkRows(width: number): number {
  return Math.min(
    MAX_INSERT_ROWS,
    2 ** Math.floor(Math.log2(Math.max(1, Math.floor(MAX_INSERT_PARAMS / width)))),
  );
}

/**
 * A multi-row INSERT fed one row at a time (`insertRows` underneath): a full chunk is written as
 * soon as it is collected, so a long ingest holds one chunk of wide rows in memory, not all of
 * them; `flush` writes the rest. Rows go in the order added.
 */
export class RowWriter {
  private rows: Record<string, unknown>[] = [];
  private readonly most: number;

  constructor(
    private readonly db: Db,
    private readonly table: string,
    private readonly columns: readonly string[],
    private readonly tail = '',
  ) {
    this.most = chunkRows(columns.length);
  }

  /** Adds one row (objects keyed by column name), writing a chunk when one is full. */
  add(row: Readonly<Record<string, unknown>>): void {
    this.rows.push(row);
    if (this.rows.length >= this.most) this.flush();
  }

  /** Writes the rows collected so far. */
  flush(): void {
    insertRows(this.db, this.table, this.columns, this.rows, this.tail);
    this.rows = [];
  }
}
