/**
 * Author examples (issue 34 item 1): a skill's own trigger evaluations — its should-trigger and
 * should-not requests — stored as usage examples of the source `author` with their polarity.
 * `index` reads them from each served skill's folder (router/learning/author-sync.ts) and calls
 * `syncAuthorExamples`, which keeps the stored set in step with the files: an example no longer in
 * a file goes, a new one comes, one still there keeps its row (and its id, which `forget` takes). An
 * author example an operator forgot (usage_forgotten) is not read back. Caps per skill and
 * polarity (MAX_AUTHOR_EXAMPLES_PER_SKILL, MAX_AUTHOR_EXAMPLE_CHARS) bound what a hostile skill can
 * store.
 */
import type { Db } from '../db.js';
import { exampleHash, normalizeExampleQuery } from './side-migrate.js';
import type { ExamplePolarity } from './usage.js';
import {
  MAX_AUTHOR_EXAMPLE_CHARS,
  MAX_AUTHOR_EXAMPLES_PER_SKILL,
  addUsageExamples,
} from './usage-write.js';

/** One request a skill's author wrote beside it. */
export interface AuthorExample {
  readonly query: string;
  readonly polarity: ExamplePolarity;
}

/** What a sync changed. */
export interface AuthorSyncReport {
  /** Rows added. */
  readonly added: number;
  /** Rows removed (their request left the files, or their skill is no longer given). */
  readonly removed: number;
  /** Author examples stored after the sync. */
  readonly total: number;
}

// The key a row of `skillId` with this text and polarity is stored under (usage-write.ts keyOf).
function authorKey(skillId: string, query: string, polarity: ExamplePolarity): string {
  const q = query.trim().slice(0, MAX_AUTHOR_EXAMPLE_CHARS);
  return `author:${polarity === 'negative' ? 'neg' : 'pos'}:${exampleHash(skillId, q)}`;
}

/**
 * Makes the author examples of `db` those of `bySkill` (each skill's requests in file order, the
 * first MAX_AUTHOR_EXAMPLES_PER_SKILL of each polarity kept): rows of skills not in the map, and rows
 * whose request is no longer given, are removed; forgotten keys are skipped. One transaction.
 */
export function syncAuthorExamples(
  db: Db,
  bySkill: ReadonlyMap<string, readonly AuthorExample[]>,
  at: string,
): AuthorSyncReport {
  return db.transaction(() => {
    const forgotten = new Set(
      db.prepare(`SELECT key FROM usage_forgotten`).pluck().all() as string[],
    );
    const wanted = new Map<
      string,
      { skill_id: string; query: string; polarity: ExamplePolarity }
    >();
    for (const [skill_id, list] of bySkill) {
      const per = { positive: 0, negative: 0 };
      for (const e of list) {
        if (e.query.trim() === '' || per[e.polarity] >= MAX_AUTHOR_EXAMPLES_PER_SKILL) continue;
        const key = authorKey(skill_id, e.query, e.polarity);
        if (wanted.has(key) || forgotten.has(key)) continue;
        per[e.polarity]++;
        wanted.set(key, { skill_id, query: e.query, polarity: e.polarity });
      }
    }
    const stored = db
      .prepare(`SELECT id, key FROM usage_examples WHERE source = 'author'`)
      .all() as { id: number; key: string | null }[];
    const del = db.prepare(`DELETE FROM usage_examples WHERE id = ?`);
    let removed = 0;
    const have = new Set<string>();
    for (const r of stored) {
      if (r.key !== null && wanted.has(r.key) && !have.has(r.key)) have.add(r.key);
      else removed += del.run(r.id).changes;
    }
    const fresh = [...wanted].filter(([k]) => !have.has(k)).map(([, e]) => e);
    // No retention pass: index does not know the user's retention (author rows never expire).
    const added = fresh.length > 0 ? addUsageExamples(db, fresh, 'author', at, {}, null) : 0;
    const total = Number(
      db.prepare(`SELECT count(*) FROM usage_examples WHERE source = 'author'`).pluck().get(),
    );
    return { added, removed, total };
  })();
}

/** The folders of the skills a catalog serves unarchived: `skill_id` and its SKILL.md path. */
export function servedSkillFiles(catalog: Db): { skill_id: string; path: string }[] {
  return catalog
    .prepare(`SELECT skill_id, path FROM serving WHERE state != 'archived' ORDER BY skill_id`)
    .all() as { skill_id: string; path: string }[];
}

/**
 * Removes the author examples whose normalised request `keep` refuses (`eval --triggers` keeps only
 * the train part of its split in a temporary catalog); returns how many rows went.
 */
export function trimAuthorExamples(db: Db, keep: (normalizedQuery: string) => boolean): number {
  return db.transaction(() => {
    const rows = db
      .prepare(`SELECT id, query FROM usage_examples WHERE source = 'author'`)
      .all() as { id: number; query: string }[];
    const del = db.prepare(`DELETE FROM usage_examples WHERE id = ?`);
    let n = 0;
    for (const r of rows) if (!keep(normalizeExampleQuery(r.query))) n += del.run(r.id).changes;
    return n;
  })();
}
