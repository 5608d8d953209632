/**
 * The one place that opens catalog connections. Writers get WAL, a busy timeout and
 * foreign keys; consumers open read-only and must find an existing file. A file that is not a
 * skilldex catalog is CATALOG_CORRUPT, never silently overwritten.
 */
import { existsSync, mkdirSync, statSync, type Stats } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { SkilldexError } from '../errors.js';
import { xdgBaseDir } from '../fsx/index.js';
import { foreignMessage, tableCount, type Db } from './store/db-type.js';
import { isPgLocation, resolveCatalogLocation } from './store/location.js';
import { CATALOG_FORMAT, LATEST_VERSION, migrate } from './store/migrations.js';
import { PgDb } from './store/pg.js';

export type { Db } from './store/db-type.js';

/** How long a connection waits for a lock before SQLITE_BUSY, in ms. */
export const BUSY_TIMEOUT_MS = 5_000;

/**
 * Where the catalog lives: `--catalog FILE`, else `SKILLDEX_CATALOG`, else the per-user data
 * directory (`$XDG_DATA_HOME/skilldex/catalog.sqlite`, default `~/.local/share/...`).
 */
export function resolveCatalogPath(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  const given = flag || env['SKILLDEX_CATALOG'];
  if (given) return resolveCatalogLocation(given, cwd);
  return path.join(
    xdgBaseDir('XDG_DATA_HOME', env, env['HOME'] ?? cwd),
    'skilldex',
    'catalog.sqlite',
  );
}

// Where better-sqlite3's compiled addon is, found once: node_modules/better-sqlite3/build/Release
// (what its install builds or downloads). Naming it skips the `bindings` package's search of some
// 15 places per process, and is what lets the bundled CLI (scripts/build-cli.mjs), whose copy of
// better-sqlite3's JavaScript lives in dist/cli, load the addon. Undefined: let better-sqlite3 look.
let addonPath: string | undefined | null = null;
function sqliteOptions(options: Database.Options): Database.Options {
  if (addonPath === null) {
    // The package's own node_modules (two folders up from src/catalog, dist/catalog and dist/cli;
    // why this file stays at the top of src/catalog rather than in store/)
    // is where resolution would look first; only elsewhere (a hoisted install) is it resolved,
    // which walks the tree (~0.4 ms of a one-shot command).
    const own = path.join(
      fileURLToPath(new URL('../../node_modules/better-sqlite3/', import.meta.url)),
      'package.json',
    );
    const pkg = existsSync(own)
      ? own
      : createRequire(import.meta.url).resolve('better-sqlite3/package.json');
    const built = path.join(path.dirname(pkg), 'build', 'Release', 'better_sqlite3.node');
    addonPath = existsSync(built) ? built : undefined;
  }
  return addonPath === undefined ? options : { ...options, nativeBinding: addonPath };
}

/**
 * Points the SQLite addon at `file` (null: find it again as usual). For tests only: a file that is
 * not an addon simulates a broken install without touching the real module.
 */
export function setSqliteAddonForTesting(file: string | null): void {
  addonPath = file;
}

/**
 * A better-sqlite3 connection. A failure to load its native addon (missing after an unfinished
 * install, built for another Node.js, damaged) is NATIVE_MODULE_UNAVAILABLE naming the package and
 * `npm ci`, never CATALOG_CORRUPT, whose hint would have the user rebuild a good catalog (issue 36
 * R3). Other failures are rethrown as they are.
 */
function newSqlite(file: string, options: Database.Options): Database.Database {
  try {
    return new Database(file, sqliteOptions(options));
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    const message = typeof e.message === 'string' ? e.message : '';
    const addonFailed =
      e.code === 'ERR_DLOPEN_FAILED' ||
      e.code === 'MODULE_NOT_FOUND' ||
      /Could not locate the bindings file|NODE_MODULE_VERSION|better_sqlite3\.node/.test(message);
    if (!addonFailed) throw err;
    throw new SkilldexError(
      'NATIVE_MODULE_UNAVAILABLE',
      `the SQLite module better-sqlite3 cannot load its native addon (${message.split('\n')[0]}); run npm ci where skilldex is installed. ${file} was not opened and is not damaged`,
      { package: 'better-sqlite3', catalog: file },
      { cause: err },
    );
  }
}

/**
 * Page size of a new SQLite catalog: 16 KiB. Serving and revision rows run to a few kilobytes each;
 * in SQLite's default 4 KiB pages most held one row and a third of a page unused, so a catalog of
 * 10,000 generated skills took 93.9 MB at 4 KiB and 81 MB at 16 KiB (bench/router.ts).
 */
export const CATALOG_PAGE_SIZE = 16_384;

/**
 * Opens (creating if needed) a catalog for writing and brings its schema up to date. `file` is a
 * path or a PostgreSQL URL (location.ts).
 */
export function openCatalogForWrite(file: string): Db {
  if (isPgLocation(file)) return openPgForWrite(file);
  assertRegularCatalogFile(file);
  mkdirSync(path.dirname(file), { recursive: true });
  // SQLite takes a zero-byte file for an empty database and would build a fresh catalog in it. A
  // catalog truncated to nothing (a failed copy, a full disk) must be noticed, not silently replaced.
  if (file !== ':memory:' && existsSync(file) && statSync(file).size === 0) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `${file} is an empty (zero-byte) file, not a catalog; delete it to start a new catalog there`,
      {
        catalog: file,
      },
    );
  }
  const db = openRaw(file, false);
  try {
    // Look before writing anything: even `journal_mode = WAL` rewrites the header of a file that
    // turns out not to be ours, and a refused file must be left byte for byte as it was.
    refuseForeign(db, file);
    // A new catalog gets CATALOG_PAGE_SIZE pages (an existing one keeps its own); set before WAL,
    // which fixes the page size once the file has pages.
    if ((db.pragma('page_count', { simple: true }) as number) === 0)
      db.pragma(`page_size = ${CATALOG_PAGE_SIZE}`);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    migrate(db, file);
  } catch (err) {
    db.close();
    if (err instanceof SkilldexError) throw err;
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `${file} could not be used as a catalog: ${(err as Error).message}`,
      { catalog: file },
      {
        cause: err,
      },
    );
  }
  return db;
}

/**
 * Closes a writer's connection after folding the WAL back into the catalog file (a TRUNCATE
 * checkpoint), so the file alone holds the published generation: a copy of it replicates the
 * catalog read-only on another host, and an older copy renamed over it reads as older instead of being
 * overlaid by the newer catalog's stale WAL. A reader still inside the WAL past the busy timeout
 * only leaves the WAL in place; the data is committed either way.
 */
export function closeCatalog(db: Db): void {
  try {
    if (walHasFrames(db)) db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

// False when the catalog's WAL is empty or absent: nothing was written since the last checkpoint
// (an unchanged re-index), so there is nothing to fold back, and a checkpoint would still restart the
// WAL, which every other connection sees as a change (its `data_version` moves). True when unsure.
function walHasFrames(db: Db): boolean {
  if (db instanceof PgDb) return true;
  const file = (db as { name?: unknown }).name;
  if (typeof file !== 'string' || file === '' || file === ':memory:') return true;
  try {
    return statSync(`${file}-wal`).size > 0;
  } catch {
    return false;
  }
}

/** Opens an existing catalog read-only (the consumer path). CATALOG_MISSING when there is none. */
export function openCatalogReadOnly(file: string): Db {
  if (isPgLocation(file)) {
    const db = new PgDb(file, { readonly: true, catalog: true });
    try {
      if (db.pragma('user_version', { simple: true }) === 0 && tableCount(db) === 0) {
        throw new SkilldexError(
          'CATALOG_MISSING',
          `no catalog in ${file} (the database is empty)`,
          { catalog: file },
        );
      }
      checkFormat(db, file);
    } catch (err) {
      db.close();
      throw err;
    }
    return db;
  }
  if (!existsSync(file)) {
    throw new SkilldexError('CATALOG_MISSING', `no catalog at ${file}`, {
      catalog: file,
    });
  }
  const db = openRaw(file, true);
  try {
    checkFormat(db, file);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

/**
 * NOT_A_FILE unless `file` and the SQLite files beside it (`-wal`, `-shm`, `-journal`) are regular
 * files or absent (issue 36 L2). SQLite opens what it is given: a FIFO blocks the open or the first
 * read with no timeout (a catalog named by a project config could stall the prompt hook past its
 * deadline, which is checked only between steps), a device reads forever. `stat` follows links,
 * so a link to a regular file is fine and a link to a FIFO is refused; nothing is opened here.
 * _Limit:_ a file swapped for a FIFO between this check and SQLite's open is not caught.
 */
export function assertRegularCatalogFile(file: string): void {
  if (file === ':memory:' || file === '') return;
  for (const f of [file, `${file}-wal`, `${file}-shm`, `${file}-journal`]) {
    let st: Stats;
    try {
      st = statSync(f);
    } catch {
      continue; // absent (or a dangling link): SQLite creates a regular file, or finds none
    }
    if (st.isFile()) continue;
    const kind = st.isFIFO()
      ? 'a FIFO'
      : st.isDirectory()
        ? 'a folder'
        : st.isSocket()
          ? 'a socket'
          : st.isCharacterDevice() || st.isBlockDevice()
            ? 'a device'
            : 'not a regular file';
    throw new SkilldexError(
      'NOT_A_FILE',
      `${f === file ? 'catalog' : "catalog's SQLite file"} ${f} is ${kind}, not a regular file; skilldex opens only regular files as a catalog`,
      { catalog: file, file: f, kind },
    );
  }
}

function openRaw(file: string, readonly: boolean): Db {
  assertRegularCatalogFile(file);
  try {
    const db = newSqlite(file, readonly ? { readonly: true, fileMustExist: true } : {});
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    return db;
  } catch (err) {
    if (err instanceof SkilldexError) throw err;
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `${file} could not be opened as a SQLite catalog: ${(err as Error).message}`,
      { catalog: file },
      {
        cause: err,
      },
    );
  }
}

// A PostgreSQL catalog: the schema (the URL's search_path, `public` by default) holds a catalog
// or nothing. The migrations run under the writers' lock, so two first publishes cannot both create it.
function openPgForWrite(location: string): Db {
  const db = new PgDb(location, { catalog: true });
  try {
    db.transaction(() => {
      refuseForeign(db, location);
      migrate(db, location);
    }).immediate();
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

// A new catalog is an empty file; anything else must already carry the skilldex format mark.
function refuseForeign(db: Db, file: string): void {
  if ((db.pragma('user_version', { simple: true }) as number) > 0) {
    checkFormat(db, file);
    return;
  }
  if (tableCount(db) > 0) {
    throw new SkilldexError('CATALOG_CORRUPT', foreignMessage(db, file), { catalog: file });
  }
}

/** Checks that `db` is a skilldex catalog of a version this code reads. */
export function checkFormat(db: Db, file: string): void {
  let version: number;
  let format: string | undefined;
  try {
    version = db.pragma('user_version', { simple: true }) as number;
    const row =
      version > 0
        ? (db.prepare(`SELECT value FROM meta WHERE key = 'format'`).get() as
            { value: string } | undefined)
        : undefined;
    format = row?.value;
  } catch (err) {
    throw new SkilldexError(
      'CATALOG_CORRUPT',
      `${file} is not a readable skilldex catalog: ${(err as Error).message}`,
      { catalog: file },
      { cause: err },
    );
  }
  if (version === 0 || format !== CATALOG_FORMAT) {
    throw new SkilldexError('CATALOG_CORRUPT', `${file} is not a skilldex catalog`, {
      catalog: file,
    });
  }
  if (version > LATEST_VERSION) {
    throw new SkilldexError(
      'CATALOG_TOO_NEW',
      `${file} has schema version ${version}; this skilldex reads up to ${LATEST_VERSION}`,
      {
        catalog: file,
        version,
      },
    );
  }
}

// One connection per PostgreSQL location for the telemetry and usage tables, shared by every
// reader and writer of this process (a search reads the usage signature each time: a connection
// per call would cost a connect per search).
const shared = new Map<string, PgDb>();

/**
 * A connection to the side tables (telemetry events and counts, usage examples) of the catalog at
 * `location`: a new better-sqlite3 connection to its telemetry file, or, for PostgreSQL, this
 * process's shared connection to the catalog's database, whose `close` leaves it open.
 */
export function openSideStore(file: string, options: { readonly?: boolean } = {}): Db {
  if (!isPgLocation(file)) {
    assertRegularCatalogFile(file);
    return newSqlite(file, options.readonly ? { readonly: true, fileMustExist: true } : {});
  }
  let db = shared.get(file);
  if (!db || !db.open) {
    db = new PgDb(file);
    shared.set(file, db);
  }
  return borrowed(db);
}

function borrowed(db: PgDb): Db {
  return {
    dialect: 'pg',
    prepare: (source: string) => db.prepare(source),
    exec: (source: string) => db.exec(source),
    transaction: (fn) => db.transaction(fn),
    pragma: (source: string, options?: { simple?: boolean }) => db.pragma(source, options),
    close: () => undefined,
  } as Db;
}

/**
 * True when a catalog exists at `location`: the file exists, or the PostgreSQL database holds a
 * skilldex schema (CATALOG_UNAVAILABLE when the database cannot be reached).
 */
export function catalogExists(location: string): boolean {
  if (!isPgLocation(location)) return existsSync(location);
  const db = new PgDb(location, { readonly: true });
  try {
    return (db.pragma('user_version', { simple: true }) as number) > 0;
  } finally {
    db.close();
  }
}
