/** Catalog settings kept in the `meta` table (for example the ranking policy new generations use). */
import type { Db } from '../db.js';

/** The value of `key`, or undefined. */
export function readMeta(db: Db, key: string): string | undefined {
  return (
    db.prepare(`SELECT value FROM meta WHERE key = ?`).get(key) as { value: string } | undefined
  )?.value;
}

/** Sets `key` to `value`. */
export function writeMeta(db: Db, key: string, value: string): void {
  db.prepare(
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  ).run(key, value);
}

/** The policy of the published generation, or undefined when nothing is published. */
export function publishedPolicy(db: Db): string | undefined {
  return db
    .prepare(`SELECT g.policy FROM published p JOIN generations g ON g.seq = p.seq WHERE p.id = 1`)
    .pluck()
    .get() as string | undefined;
}

/** The skill ids the published generation serves as active or deprecated. */
export function unarchivedServedIds(db: Db): string[] {
  return db
    .prepare(`SELECT skill_id FROM serving WHERE state != 'archived' ORDER BY skill_id`)
    .pluck()
    .all() as string[];
}
