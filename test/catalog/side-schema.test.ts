/**
 * The side tables' SQLite steps (src/catalog/side/side-schema.ts): steps 2 and 3 each rebuild
 * usage_examples and create its indexes again from one shared text (issue 33). A table rebuilt by
 * step 3 has exactly the indexes step 2 gave it, each statement once per step.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  SIDE_STEP_2_SQLITE,
  SIDE_STEP_3_SQLITE,
  TELEMETRY_SCHEMA,
  USAGE_SCHEMA,
} from '../../src/catalog/side/side-schema.js';

const INDEXES = [
  'usage_examples_client',
  'usage_examples_key',
  'usage_examples_skill',
  'usage_examples_skill_client',
  'usage_examples_source',
];

function indexes(db: Database.Database): { name: string; sql: string }[] {
  return db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'usage_examples' AND sql IS NOT NULL ORDER BY name",
    )
    .all() as { name: string; sql: string }[];
}

describe('the side steps that rebuild usage_examples', () => {
  it('step 3 gives the rebuilt table exactly the indexes step 2 gave it', () => {
    const db = new Database(':memory:');
    try {
      db.exec(TELEMETRY_SCHEMA + USAGE_SCHEMA + SIDE_STEP_2_SQLITE);
      const afterTwo = indexes(db);
      expect(afterTwo.map((i) => i.name)).toEqual(INDEXES);
      db.exec(SIDE_STEP_3_SQLITE);
      expect(indexes(db)).toEqual(afterTwo);
      // The unique key still holds on the rebuilt table.
      const add = db.prepare(
        "INSERT INTO usage_examples (skill_id, query, source, at, key) VALUES ('a', 'q', 'host', 't', 'k')",
      );
      add.run();
      expect(() => add.run()).toThrow(/UNIQUE/);
    } finally {
      db.close();
    }
  });

  it('each step creates each index once', () => {
    for (const step of [SIDE_STEP_2_SQLITE, SIDE_STEP_3_SQLITE])
      for (const name of INDEXES)
        expect(step.match(new RegExp(`INDEX ${name} ON`, 'g')), name).toHaveLength(1);
  });
});
