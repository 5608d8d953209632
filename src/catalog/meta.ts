/** Catalog settings kept in the `meta` table (for example the ranking policy new generations use). */
import type { Db } from './db.js';

/** The value of `key`, or undefined. */
export function readMeta(db: Db, key: string): string | undefined {
  return (db.prepare(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined)?.value;
}

/** Sets `key` to `value`. */
export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare(`INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(key, value);
}
