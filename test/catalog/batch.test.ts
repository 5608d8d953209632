/**
 * Batched catalog statements (src/catalog/store/batch.ts, issue #16) and the batched index that uses
 * them: IN lists padded to powers of two, multi-row INSERTs split into power-of-two chunks, on
 * SQLite and on PostgreSQL; and an incremental index that changes, moves, removes and adds more
 * skills than one statement holds ends in the same catalog as a fresh index of the final tree
 * (generation id, search answers, revision numbers).
 */
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Router, indexCatalog } from '../../src/internal.js';
import {
  MAX_INSERT_ROWS,
  MAX_IN_LIST,
  inChunks,
  insertRows,
  placeholders,
  runIn,
  selectIn,
} from '../../src/catalog/store/batch.js';
import type { Db } from '../../src/catalog/store/db-type.js';
import { CatalogReader, revisionsOf } from '../../src/catalog/index.js';
import { PgDb } from '../../src/catalog/store/pg.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';
import { NOW, skillText } from './support.js';

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

describe('IN lists', () => {
  it('pads each chunk to a power of two with its last key and keeps every key', () => {
    expect(inChunks([])).toEqual([]);
    expect(inChunks(['a'])).toEqual([['a']]);
    expect(inChunks(['a', 'b', 'c'])).toEqual([['a', 'b', 'c', 'c']]);
    for (const n of [1, 2, 5, MAX_IN_LIST, MAX_IN_LIST + 1, 3 * MAX_IN_LIST - 7]) {
      const keys = Array.from({ length: n }, (_, i) => i);
      const chunks = inChunks(keys);
      expect(chunks.every((c) => isPowerOfTwo(c.length) && c.length <= MAX_IN_LIST)).toBe(true);
      expect([...new Set(chunks.flat())]).toEqual(keys);
    }
  });

  it('writes one placeholder per key, or a parenthesised group per key of several columns', () => {
    expect(placeholders(3)).toBe('?, ?, ?');
    expect(placeholders(2, 2)).toBe('(?, ?), (?, ?)');
  });
});

// A fresh table `t (k TEXT PRIMARY KEY, n INTEGER, b BLOB)` on each backend of this run.
function backends(): { name: string; db: () => Db }[] {
  const schema = `CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER NOT NULL, b BLOB)`;
  const out = [
    {
      name: 'SQLite',
      db: (): Db => {
        const db = new Database(':memory:');
        db.exec(schema);
        return db as unknown as Db;
      },
    },
  ];
  if (hasPg())
    out.push({
      name: 'PostgreSQL',
      db: (): Db => {
        const db = new PgDb(freshPgDatabase());
        db.exec(schema.replace('INTEGER', 'BIGINT').replace('BLOB', 'BYTEA'));
        return db;
      },
    });
  return out;
}

describe.each(backends())('multi-row statements on $name', ({ db: open }) => {
  it('inserts any number of rows (chunked in powers of two), upserts, selects and deletes by list', () => {
    const db = open();
    try {
      const n = 2 * MAX_INSERT_ROWS + 37;
      const rows = Array.from({ length: n }, (_, i) => ({
        k: `key-${String(i).padStart(4, '0')}`,
        n: i,
        b: Buffer.from([i & 255, 7]),
      }));
      insertRows(db, 't', ['k', 'n', 'b'], rows);
      const all = db.prepare(`SELECT k, n, b FROM t ORDER BY k`).all() as typeof rows;
      expect(all.map((r) => [r.k, Number(r.n), [...r.b]])).toEqual(
        rows.map((r) => [r.k, r.n, [...r.b]]),
      );
      // The same keys again, through the conflict clause.
      insertRows(
        db,
        't',
        ['k', 'n', 'b'],
        rows.map((r) => ({ ...r, n: r.n + 1000 })),
        `ON CONFLICT (k) DO UPDATE SET n = excluded.n`,
      );
      const keys = rows.filter((r) => r.n % 3 === 0).map((r) => r.k);
      const picked = selectIn(db, `SELECT k, n FROM t WHERE k IN (%s)`, keys) as {
        k: string;
        n: number;
      }[];
      expect(picked.map((r) => [r.k, Number(r.n)]).sort()).toEqual(
        rows.filter((r) => r.n % 3 === 0).map((r) => [r.k, r.n + 1000]),
      );
      expect(runIn(db, `DELETE FROM t WHERE k IN (%s)`, keys)).toBe(keys.length);
      expect(runIn(db, `UPDATE t SET n = ? WHERE k IN (%s)`, [rows[1]!.k], [-1])).toBe(1);
      expect(Number(db.prepare(`SELECT count(*) AS c FROM t`).pluck().get())).toBe(n - keys.length);
      expect(Number(db.prepare(`SELECT n FROM t WHERE k = ?`).pluck().get(rows[1]!.k))).toBe(-1);
    } finally {
      db.close();
    }
  });

  it('refuses a row without one of the columns, naming the table and column', () => {
    const db = open();
    try {
      expect(() => insertRows(db, 't', ['k', 'n'], [{ k: 'x' }])).toThrow(/t has no n/);
    } finally {
      db.close();
    }
  });
});

// A library of `n` skills with explicit versions (so revision numbers do not show in answers).
function write(root: string, ids: readonly number[], variant: (i: number) => string): void {
  for (const i of ids) {
    const id = `skill-${String(i).padStart(4, '0')}`;
    writeTree(root, {
      [path.join(id, 'SKILL.md')]: skillText(id, {
        description: `${variant(i)} tables from pdf files, charts, reports number ${i % 17}.`,
        keywords: [`k${i % 11}`, 'pdf'],
        version: '1.0.0',
        body: `# ${id}\n\nBody ${variant(i)} words ${i % 5} extract convert render.\n`,
      }),
      // Supporting files for every third skill, the same bytes in many folders (one listing).
      ...(i % 3 === 0 ? { [path.join(id, 'scripts', 'run.sh')]: `echo ${i % 2}\n` } : {}),
    });
  }
}

function answers(catalog: string): string[] {
  const r = new Router({ catalog, telemetry: false });
  try {
    const searches = [
      'extract tables',
      'render charts k3',
      'convert pdf reports',
      'variant updated k7',
    ].map((query) => JSON.stringify(r.search({ query, limit: 20 })));
    // Every served skill's supporting files, as the index recorded them.
    const files: string[] = [];
    for (let cursor: string | undefined; ;) {
      const page = r.listSkills({ limit: 50, ...(cursor !== undefined ? { cursor } : {}) });
      for (const s of page.skills) {
        const { files: f, truncated } = r.listSkillFiles(s.skill_id);
        files.push(JSON.stringify([s.skill_id, f, truncated]));
      }
      if (page.next_cursor === undefined) break;
      cursor = page.next_cursor;
    }
    return [...searches, ...files];
  } finally {
    r.close();
  }
}

const catalogs = (): { name: string; make: () => string }[] => [
  { name: 'SQLite', make: () => path.join(tmpDir('skilldex-batch-'), 'catalog.sqlite') },
  ...(hasPg() ? [{ name: 'PostgreSQL', make: () => freshPgDatabase() }] : []),
];

describe.each(catalogs())('a batched incremental index on $name', ({ make }) => {
  it('changes, moves, removes and adds more skills than one statement holds, and ends as a fresh index would', () => {
    const n = MAX_IN_LIST + 88;
    const root = tmpDir('skilldex-batch-lib-');
    const all = Array.from({ length: n }, (_, i) => i);
    write(root, all, () => 'Extract');
    const catalog = make();
    const opts = { scopes: [root], home: root, project: root, now: NOW };
    indexCatalog({ catalog, ...opts });
    // 300 changed, 100 moved, 100 removed (under the shrink limit), 50 added.
    const changed = all.filter((i) => i % 2 === 0).slice(0, 300);
    write(root, changed, () => 'Variant updated');
    const moved = all.filter((i) => i % 2 === 1).slice(0, 100);
    for (const i of moved) {
      const id = `skill-${String(i).padStart(4, '0')}`;
      renameSync(path.join(root, id), path.join(root, `${id}-moved`));
    }
    const removed = all.filter((i) => i % 2 === 1).slice(100, 200);
    for (const i of removed)
      rmSync(path.join(root, `skill-${String(i).padStart(4, '0')}`), { recursive: true });
    write(
      root,
      Array.from({ length: 50 }, (_, i) => n + i),
      () => 'Added',
    );
    const report = indexCatalog({ catalog, ...opts });
    expect(report.changed).toHaveLength(changed.length);
    expect(report.removed).toHaveLength(removed.length);
    expect(report.added).toHaveLength(50);

    const fresh = make();
    indexCatalog({ catalog: fresh, ...opts });
    const a = new Router({ catalog, telemetry: false });
    const b = new Router({ catalog: fresh, telemetry: false });
    try {
      expect(a.currentGeneration()).toBe(b.currentGeneration());
    } finally {
      a.close();
      b.close();
    }
    const got = answers(catalog);
    expect(got.filter((a) => a.includes('scripts/run.sh')).length).toBeGreaterThan(100);
    expect(got).toEqual(answers(fresh));
    // A changed skill's revision is its second (seq 2), a moved one keeps its first.
    const seqs = (cat: string, id: number): number[] => {
      const reader = new CatalogReader(cat);
      try {
        const name = `skill-${String(id).padStart(4, '0')}`;
        return reader.read(() => revisionsOf(reader, name, 10).recent.map((r) => r.seq));
      } finally {
        reader.close();
      }
    };
    expect(seqs(catalog, changed[0]!)).toEqual([2, 1]);
    expect(seqs(catalog, changed[changed.length - 1]!)).toEqual([2, 1]);
    expect(seqs(catalog, moved[0]!)).toEqual([1]);
    expect(seqs(fresh, changed[0]!)).toEqual([1]);
  });
});
