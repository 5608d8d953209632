/**
 * The side tables' own migrations (side-schema.ts): a telemetry file (SQLite, `PRAGMA user_version`)
 * or a PostgreSQL catalog's side tables (the `meta` row `side_version`) is brought to SIDE_VERSION by
 * the first writer that opens it, in one write transaction that re-reads the version inside it, so
 * two processes opening the same file never migrate it twice. Readers never migrate: they ask
 * `sideVersionOf` and read the columns that version has. Also here: the example key helpers both
 * the migration and usage.ts use (a normalised query and its digest), so neither imports the other.
 */
import { sha256Hex } from '../../fsx/index.js';
import { fold } from '../../text/index.js';
import { dialectOf, type Db } from '../store/db-type.js';
import {
  SIDE_STEP_2_PG,
  SIDE_STEP_2_SQLITE,
  SIDE_STEP_3_PG,
  SIDE_STEP_3_SQLITE,
  SIDE_VERSION,
  TELEMETRY_SCHEMA,
  USAGE_SCHEMA,
} from './side-schema.js';

/**
 * A query as examples are compared: NFKC, case-folded, whitespace runs as one space, trimmed. Two
 * requests that differ only in case or spacing are one example.
 */
export function normalizeExampleQuery(query: string): string {
  return fold(query).replace(/\s+/gu, ' ').trim();
}

/** A digest of an example (skill and normalised query): 32 hex of sha256(skill_id NUL query). */
export function exampleHash(skillId: string, query: string): string {
  return sha256Hex(`${skillId}\u0000${normalizeExampleQuery(query)}`).slice(0, 32);
}

/**
 * The side-table version of `db`: 0 or 1 for the first shape (a file written before versions, or
 * a PostgreSQL catalog whose side tables were never migrated), else the number written.
 */
export function sideVersionOf(db: Db): number {
  if (dialectOf(db) === 'sqlite') return db.pragma('user_version', { simple: true }) as number;
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'side_version'`).get() as
    { value: string } | undefined;
  return row === undefined ? 1 : Number(row.value);
}

/**
 * Brings the side tables of `db` to SIDE_VERSION (creating them on a new SQLite file). A store of
 * a newer version is left as it is: its columns are a superset of these, as every step only adds.
 */
export function migrateSideStore(db: Db): void {
  if (sideVersionOf(db) >= SIDE_VERSION) return;
  const pg = dialectOf(db) === 'pg';
  db.transaction(() => {
    const current = sideVersionOf(db);
    if (current >= SIDE_VERSION) return;
    if (!pg && current < 1) db.exec(TELEMETRY_SCHEMA + USAGE_SCHEMA);
    if (current < 2) db.exec(pg ? SIDE_STEP_2_PG : SIDE_STEP_2_SQLITE);
    db.exec(pg ? SIDE_STEP_3_PG : SIDE_STEP_3_SQLITE);
    if (pg) {
      db.prepare(
        `INSERT INTO meta (key, value) VALUES ('side_version', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      ).run(String(SIDE_VERSION));
    } else db.pragma(`user_version = ${SIDE_VERSION}`);
  }).immediate();
}
