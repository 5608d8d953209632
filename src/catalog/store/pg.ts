/**
 * The PostgreSQL backend: a `Db` (db-type.ts) over libpq through `pg-native`'s synchronous calls,
 * so every catalog module runs unchanged on either engine and the router never waits on a promise
 * it did not have with SQLite. The catalog SQL is written once: `?` and `@name` parameters become
 * `$n` here, and the few statements the two dialects spell differently branch on `dialectOf`.
 *
 * Transactions: a writer's plain transaction is READ COMMITTED; `immediate` also takes the
 * catalog's advisory lock (waiting at most BUSY_TIMEOUT_MS, then CATALOG_BUSY), so publishes from
 * two hosts run one after the other; a read-only connection's transaction is one REPEATABLE READ
 * snapshot, so a reader never sees half of a publish (a search opens none: it checks each
 * statement's snapshot instead, reader.ts `readChecked`). SQLite's `user_version` and
 * `data_version` pragmas are rows of `meta`; the other pragmas mean nothing here and are ignored.
 *
 * A lost connection answers CATALOG_UNAVAILABLE and is retried on the next call, no sooner than a
 * backoff that doubles from 100 ms to 5 s; a server therefore never crashes on a database restart.
 */
import { createRequire } from 'node:module';
import { SkilldexError } from '../../errors.js';
import type { CatalogStatement, CatalogTransaction, Db, RunResult } from './db-type.js';
import { catalogLocation, connectionString, pgSessionOf } from './location.js';
import {
  DeadlineError,
  ServerError,
  runBounded,
  type Answer,
  type Libpq,
  type TypeParsers,
} from './pg-wait.js';

/** How long a writer waits for the catalog lock before CATALOG_BUSY, in ms (as SQLite's busy timeout). */
const LOCK_TIMEOUT_MS = 5_000;
/**
 * Longest a statement of a catalog writer (`index`, `publish`, `catalog copy`) may run before the
 * server cancels it, in ms: publishing a large catalog takes seconds. Overridable in the URL
 * (`options=-c statement_timeout=…`, location.ts).
 */
export const WRITER_STATEMENT_TIMEOUT_MS = 60_000;
/**
 * Longest a statement of any other connection (a server's snapshot reads, telemetry and usage
 * writes) may run, in ms: a search's statements take milliseconds, and a server that waits longer
 * answers nobody meanwhile. Overridable like the writers'.
 */
export const READER_STATEMENT_TIMEOUT_MS = 15_000;
/**
 * How much longer than its statement timeout skilldex waits for any answer before it gives the
 * connection up (CATALOG_UNAVAILABLE), in ms: the server's own cancel comes first when it can.
 */
export const DEADLINE_MARGIN_MS = 1_000;
/** The advisory lock key of catalog writers ("skilldex" as a 64-bit integer). */
const CATALOG_LOCK_KEY = '8317145158497625464';
const BACKOFF_MIN_MS = 100;
const BACKOFF_MAX_MS = 5_000;

interface PgClient {
  pq: Libpq;
  connectSync(conninfo: string): void;
  end(cb?: () => void): void;
}
type PgClientClass = new (config?: { types?: unknown }) => PgClient;

let driver: PgClientClass | undefined;
let types: TypeParsers;

// pg-native is an optional dependency (it compiles libpq bindings): loaded on first use only.
function loadDriver(location: string): PgClientClass {
  if (driver) return driver;
  const require = createRequire(import.meta.url);
  try {
    driver = require('pg-native') as PgClientClass;
    const base = createRequire(require.resolve('pg-native'))('pg-types') as {
      getTypeParser(oid: number, format?: string): (v: string) => unknown;
    };
    // bigint (count(*), sum) and numeric come back as text; every value skilldex stores fits a double.
    types = {
      getTypeParser(oid: number, format?: string) {
        if (oid === 20 || oid === 1700) return Number;
        return base.getTypeParser(oid, format);
      },
    };
  } catch (err) {
    throw new SkilldexError(
      'CATALOG_UNAVAILABLE',
      `${location}: PostgreSQL catalogs need the optional package pg-native, which is not installed or did not build (${(err as Error).message})`,
      { catalog: location, reason: 'driver' },
      { cause: err },
    );
  }
  return driver;
}

// libpq's binding closes its socket watcher asynchronously (uv_close) when a connection ends, but
// frees it with the JS object: collected before the event loop runs the close, the process aborts
// (a libuv assertion). Ended clients stay referenced here until the loop has turned.
const ending = new Set<PgClient>();

function retire(client: PgClient | undefined): void {
  if (!client) return;
  try {
    client.end();
  } catch {
    // Already gone.
  }
  ending.add(client);
  setTimeout(() => ending.delete(client), 1_000).unref();
}

/** What a PostgreSQL error is, by SQLSTATE class. */
function classify(sqlState: string | undefined, message: string): 'unavailable' | 'busy' | 'other' {
  if (sqlState === undefined) {
    return /server closed the connection|no connection to the server|could not connect|connection to server|terminating connection|could not send data|could not receive data|SSL SYSCALL/i.test(
      message,
    )
      ? 'unavailable'
      : 'other';
  }
  if (
    sqlState.startsWith('08') ||
    sqlState.startsWith('57P') ||
    sqlState.startsWith('28') ||
    sqlState === '3D000'
  )
    return 'unavailable';
  if (sqlState === '55P03' || sqlState === '40001' || sqlState === '40P01') return 'busy';
  return 'other';
}

/** A PostgreSQL catalog connection with better-sqlite3's calling conventions. */
export class PgDb implements Db {
  readonly dialect = 'pg';
  private client: PgClient | undefined;
  private prepared = new Map<
    string,
    { name: string; text: string; names: string[] | null; count: number }
  >();
  private preparedOn = new Set<string>();
  private depth = 0;
  private failures = 0;
  private retryAt = 0;
  private closed = false;
  /** True once `close` ran. */
  get open(): boolean {
    return !this.closed;
  }

  /**
   * Connects to `location` (a masked URL from `catalogLocation`). `readonly` connections run every
   * transaction as one read-only snapshot; `catalog` ones keep `data_version` for ingest.
   */
  readonly location: string;
  /** The statement timeout set on this connection, ms. */
  private readonly statementTimeoutMs: number;
  /** The schema this connection pins. */
  private readonly schema: string;

  constructor(
    location: string,
    private readonly options: { readonly?: boolean; catalog?: boolean } = {},
  ) {
    // A URL handed in by a library caller as typed: its secrets masked here, once, so no message
    // of this connection can carry them; unaccepted parameters refused (location.ts).
    this.location = catalogLocation(location);
    const session = pgSessionOf(this.location);
    this.schema = session.schema;
    this.statementTimeoutMs =
      session.statementTimeoutMs ??
      (options.catalog === true && options.readonly !== true
        ? WRITER_STATEMENT_TIMEOUT_MS
        : READER_STATEMENT_TIMEOUT_MS);
    this.connect();
  }

  // One command, bounded by the statement timeout and the margin (pg-wait.ts).
  private bounded(client: PgClient, send: (pq: Libpq) => boolean): Answer {
    return runBounded(
      client.pq,
      () => send(client.pq),
      this.statementTimeoutMs + DEADLINE_MARGIN_MS,
      types,
    );
  }

  prepare(source: string): CatalogStatement {
    return new PgStatement(this, source, false);
  }

  exec(source: string): this {
    this.query(source, undefined);
    return this;
  }

  transaction<F extends (...params: never[]) => unknown>(fn: F): CatalogTransaction<F> {
    type T = CatalogTransaction<F>;
    const wrap =
      (mode: 'deferred' | 'immediate') =>
      (...params: unknown[]): ReturnType<F> =>
        this.inTransaction(mode, () =>
          (fn as unknown as (...p: unknown[]) => ReturnType<F>)(...params),
        );
    const t = wrap('deferred') as unknown as T;
    t.deferred = t as T['deferred'];
    t.immediate = wrap('immediate') as T['immediate'];
    t.exclusive = t.immediate;
    return t;
  }

  pragma(source: string, options?: { simple?: boolean }): unknown {
    const m = /^\s*(\w+)\s*(?:=\s*(\S+))?\s*$/.exec(source);
    const name = m?.[1]?.toLowerCase();
    if (name === 'user_version' || name === 'data_version') {
      if (m?.[2] !== undefined) {
        this.query(
          `INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [name, String(Number(m[2]))],
        );
        return [];
      }
      const value = this.metaNumber(name);
      return options?.simple ? value : [{ [name]: value }];
    }
    // journal_mode, synchronous, foreign_keys, busy_timeout, wal_checkpoint: SQLite's own business.
    return options?.simple ? undefined : [];
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    retire(this.client);
    this.client = undefined;
  }

  /** Runs one statement (translated from `?`/`@name` form) and returns its rows and change count. */
  run(
    source: string,
    params: readonly unknown[],
  ): { rows: Record<string, unknown>[]; changes: number } {
    let p = this.prepared.get(source);
    if (!p) {
      const t = translate(source);
      p = { name: `s${this.prepared.size + 1}`, ...t };
      this.prepared.set(source, p);
    }
    const values = bind(p, params, source);
    const client = this.connected();
    try {
      if (!this.preparedOn.has(p.name)) {
        const { name, text, count } = p;
        this.bounded(client, (pq) => pq.sendPrepare(name, text, count));
        this.preparedOn.add(p.name);
      }
      const name = p.name;
      const answer = this.bounded(client, (pq) => pq.sendQueryPrepared(name, values));
      this.failures = 0;
      return answer;
    } catch (err) {
      throw this.coded(err, client);
    }
  }

  private query(text: string, values: unknown[] | undefined): Record<string, unknown>[] {
    const client = this.connected();
    try {
      const { rows } = this.bounded(client, (pq) =>
        values === undefined ? pq.sendQuery(text) : pq.sendQueryParams(text, values),
      );
      this.failures = 0;
      return rows;
    } catch (err) {
      throw this.coded(err, client);
    }
  }

  private metaNumber(key: string): number {
    if (this.query(`SELECT to_regclass('meta') IS NOT NULL AS has`, undefined)[0]?.['has'] !== true)
      return 0;
    const v = this.query(`SELECT value FROM meta WHERE key = $1`, [key])[0]?.['value'];
    return v === undefined || v === null ? 0 : Number(v);
  }

  private inTransaction<T>(mode: 'deferred' | 'immediate', fn: () => T): T {
    if (this.depth > 0) {
      const name = `sp${this.depth}`;
      this.query(`SAVEPOINT ${name}`, undefined);
      this.depth++;
      try {
        const r = fn();
        this.query(`RELEASE SAVEPOINT ${name}`, undefined);
        return r;
      } catch (err) {
        this.rollbackQuietly(`ROLLBACK TO SAVEPOINT ${name}`);
        throw err;
      } finally {
        this.depth--;
      }
    }
    if (this.options.readonly)
      this.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY', undefined);
    else this.query('BEGIN', undefined);
    this.depth = 1;
    try {
      if (mode === 'immediate' && !this.options.readonly) {
        this.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'`, undefined);
        this.query(`SELECT pg_advisory_xact_lock(${CATALOG_LOCK_KEY})`, undefined);
      }
      const r = fn();
      if (mode === 'immediate' && this.options.catalog && !this.options.readonly) {
        // What SQLite's data_version tells another connection: a writer committed since you looked.
        this.query(
          `INSERT INTO meta (key, value) VALUES ('data_version', '1') ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text`,
          undefined,
        );
      }
      this.query('COMMIT', undefined);
      return r;
    } catch (err) {
      this.rollbackQuietly('ROLLBACK');
      throw err;
    } finally {
      this.depth = 0;
    }
  }

  private rollbackQuietly(sql: string): void {
    if (!this.client) return;
    try {
      this.bounded(this.client, (pq) => pq.sendQuery(sql));
    } catch {
      // The connection is gone (the server rolls back for us) or already aborted.
    }
  }

  // The live connection, reconnecting after a loss once the backoff has passed.
  private connected(): PgClient {
    if (this.closed) {
      throw new SkilldexError('CATALOG_UNAVAILABLE', `${this.location}: the connection is closed`, {
        catalog: this.location,
      });
    }
    if (this.client) return this.client;
    if (Date.now() < this.retryAt) {
      throw new SkilldexError(
        'CATALOG_UNAVAILABLE',
        `${this.location}: the database connection was lost; retrying in ${this.retryAt - Date.now()} ms`,
        { catalog: this.location, retry_in_ms: this.retryAt - Date.now() },
      );
    }
    this.connect();
    return this.client as unknown as PgClient;
  }

  private connect(): void {
    const Client = loadDriver(this.location);
    const client = new Client({ types });
    try {
      client.connectSync(connectionString(this.location));
      // The schema is pinned here, never left to the server's, the database's or the role's
      // default: the catalog's one schema, then this session's temporary tables (pg_catalog is
      // always searched first when not named), so no other schema's functions or tables can stand
      // in for the ones the catalog SQL names.
      const session = `SET search_path = ${this.schema}, pg_temp; SET statement_timeout = ${this.statementTimeoutMs}; SET client_min_messages = warning; SET TIME ZONE 'UTC'`;
      this.bounded(client, (pq) => pq.sendQuery(session));
    } catch (err) {
      retire(client);
      this.lost();
      throw new SkilldexError(
        'CATALOG_UNAVAILABLE',
        `${this.location}: cannot connect to PostgreSQL: ${firstLine((err as Error).message)}`,
        { catalog: this.location },
        { cause: err },
      );
    }
    this.client = client;
    this.preparedOn.clear();
    this.failures = 0;
    this.retryAt = 0;
  }

  private lost(): void {
    retire(this.client);
    this.client = undefined;
    this.preparedOn.clear();
    this.failures++;
    this.retryAt = Date.now() + Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** (this.failures - 1));
  }

  // A PostgreSQL failure as a coded error; a lost connection is dropped for the next call to redo.
  private coded(err: unknown, client: PgClient): Error {
    if (err instanceof SkilldexError) return err;
    const message = firstLine(err instanceof Error ? err.message : String(err));
    let sqlState: string | undefined;
    if (err instanceof ServerError) sqlState = err.sqlState;
    else if (!(err instanceof DeadlineError)) {
      try {
        sqlState = client.pq.resultErrorFields()?.['sqlState'];
      } catch {
        sqlState = undefined;
      }
    }
    // No answer within the deadline: the connection is given up like a lost one.
    const kind = err instanceof DeadlineError ? 'unavailable' : classify(sqlState, message);
    if (kind === 'unavailable') {
      this.lost();
      return new SkilldexError(
        'CATALOG_UNAVAILABLE',
        `${this.location}: the database connection failed: ${message}`,
        { catalog: this.location, ...(sqlState ? { sqlstate: sqlState } : {}) },
        { cause: err },
      );
    }
    if (kind === 'busy') {
      return new SkilldexError(
        'CATALOG_BUSY',
        `${this.location}: another skilldex process holds the catalog's write lock (${message})`,
        { catalog: this.location, sqlstate: sqlState },
        { cause: err },
      );
    }
    const e = new Error(message, { cause: err }) as Error & { code: string; sqlState?: string };
    e.code = `PG_${sqlState ?? 'ERROR'}`;
    if (sqlState) e.sqlState = sqlState;
    return e;
  }
}

class PgStatement implements CatalogStatement {
  constructor(
    private readonly db: PgDb,
    private readonly source: string,
    private readonly plucked: boolean,
  ) {}

  get(...params: unknown[]): unknown {
    return this.rows(params)[0];
  }

  all(...params: unknown[]): unknown[] {
    return this.rows(params);
  }

  iterate(...params: unknown[]): IterableIterator<unknown> {
    return this.rows(params)[Symbol.iterator]();
  }

  run(...params: unknown[]): RunResult {
    return { changes: this.db.run(this.source, params).changes, lastInsertRowid: 0 };
  }

  pluck(toggle = true): CatalogStatement {
    return new PgStatement(this.db, this.source, toggle);
  }

  private rows(params: unknown[]): unknown[] {
    const rows = this.db.run(this.source, params).rows;
    if (!this.plucked) return rows;
    return rows.map((r) => Object.values(r)[0]);
  }
}

/**
 * `source` with its `?` and `@name` parameters as `$1…$n` (string literals and quoted names left
 * alone). `names` lists the named parameters in `$` order, or null for positional ones.
 */
export function translate(source: string): { text: string; names: string[] | null; count: number } {
  let out = '';
  const names: string[] = [];
  let positional = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === "'" || c === '"') {
      const end = source.indexOf(c, i + 1);
      const stop = end < 0 ? source.length : end + 1;
      out += source.slice(i, stop);
      i = stop;
      continue;
    }
    if (c === '?') {
      out += `$${++positional}`;
      i++;
      continue;
    }
    if (c === '@') {
      const m = /^@([A-Za-z_][A-Za-z0-9_]*)/.exec(source.slice(i));
      if (m) {
        let k = names.indexOf(m[1]!);
        if (k < 0) k = names.push(m[1]!) - 1;
        out += `$${k + 1}`;
        i += m[0].length;
        continue;
      }
    }
    out += c;
    i++;
  }
  if (positional > 0 && names.length > 0)
    throw new Error('a statement mixes ? and @name parameters');
  return { text: out, names: names.length > 0 ? names : null, count: positional || names.length };
}

function bind(
  p: { names: string[] | null; count: number },
  params: readonly unknown[],
  source: string,
): unknown[] {
  let values: unknown[];
  if (p.names) {
    const obj = (params[0] ?? {}) as Record<string, unknown>;
    values = p.names.map((n) => {
      if (!(n in obj))
        throw new RangeError(`missing named parameter @${n} in: ${source.slice(0, 80)}`);
      return obj[n];
    });
  } else {
    values = params.flat();
    if (values.length !== p.count)
      throw new RangeError(
        `expected ${p.count} parameters, got ${values.length}: ${source.slice(0, 80)}`,
      );
  }
  return values.map(value);
}

function value(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'boolean') return v ? 1 : 0;
  // libpq sends text: bytea's text form is \x and hex.
  if (v instanceof Uint8Array)
    return `\\x${Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex')}`;
  return v;
}

function firstLine(message: string): string {
  return message
    .replace(/^ERROR:\s+/, '')
    .split('\n')[0]!
    .trim();
}
