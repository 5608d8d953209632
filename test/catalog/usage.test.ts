/**
 * Usage examples you can trust (issue 23 §3, issue 25 "learning can be steered"): each example keeps
 * its source, client and session; each source has its own per-skill cap, so no number of fetches
 * evicts an imported or host example; one client holds at most a few of a skill's fetch examples;
 * a session repeating a fetch counts once, and a fetch example's weight grows with the distinct
 * sessions that agree on it; host examples import once per activation; forgetting one example
 * removes each of its rows. The telemetry file of the first shape is read as it is and migrated
 * by its first writer (SQLite and PostgreSQL).
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TelemetryStore,
  addUsageExamples,
  forgetUsage,
  listUsage,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
  usageCounts,
  type NewUsageExample,
} from '../../src/catalog/index.js';
import { FETCH_FULL_WEIGHT_SESSIONS, exampleWeight } from '../../src/catalog/side/usage.js';
import {
  MAX_EXAMPLES_PER_SKILL,
  MAX_FETCH_EXAMPLES_PER_CLIENT,
  MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL,
  MAX_FETCH_EXAMPLES_PER_SKILL,
  UNKNOWN_CLIENT,
} from '../../src/catalog/side/usage-write.js';
import {
  SIDE_VERSION,
  TELEMETRY_SCHEMA,
  USAGE_SCHEMA,
} from '../../src/catalog/side/side-schema.js';
import { indexCatalog } from '../../src/internal.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';
import { NOW, skillText } from './support.js';

const AT = '2025-01-02T03:04:05.000Z';

function sideFile(): string {
  return path.join(tmpDir('skilldex-usage-'), 'catalog.telemetry.sqlite');
}

function withStore<T>(file: string, fn: (db: ReturnType<typeof openUsageForWrite>) => T): T {
  const db = openUsageForWrite(file);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const ex = (
  skill_id: string,
  query: string,
  extra: Partial<NewUsageExample> = {},
): NewUsageExample => ({
  skill_id,
  query,
  ...extra,
});

describe('usage examples: sources, sessions and weights', () => {
  it('a session repeating a fetch counts once; sessions that agree raise its weight to 1', () => {
    const file = sideFile();
    withStore(file, (db) => {
      for (let i = 0; i < 10; i++)
        addUsageExamples(db, [ex('pdf', 'Make a PDF  handout')], 'fetch', AT, {
          client: 'mcp:agent',
          session: 's1',
        });
    });
    let [e] = readUsage(file).examples;
    expect(e).toMatchObject({ source: 'fetch', sessions: 1, clients: 1, weight: 0.25 });
    withStore(file, (db) => {
      for (const s of ['s2', 's3', 's4', 's5'])
        addUsageExamples(db, [ex('pdf', 'make a pdf handout')], 'fetch', AT, {
          client: 'mcp:agent',
          session: s,
        });
    });
    const examples = readUsage(file).examples;
    expect(examples).toHaveLength(1);
    [e] = examples;
    expect(e).toMatchObject({ query: 'Make a PDF  handout', sessions: 5, weight: 1 });
    expect(listUsage(file)[0]).toMatchObject({ rows: 5, client_names: ['mcp:agent'] });
  });

  it('two clients that use one session label each keep their fetch row; a session label never cuts the key', () => {
    const file = sideFile();
    const long = 's'.repeat(500);
    withStore(file, (db) => {
      for (const client of ['mcp:a', 'mcp:b', 'mcp:a'])
        addUsageExamples(db, [ex('pdf', 'make a pdf handout')], 'fetch', AT, {
          client,
          session: 'shared',
        });
      for (const q of ['merge two pdfs', 'split a pdf'])
        addUsageExamples(db, [ex('pdf', q)], 'fetch', AT, { client: 'mcp:a', session: long });
    });
    const [handout] = listUsage(file).filter((r) => r.query === 'make a pdf handout');
    expect(handout).toMatchObject({ rows: 2, client_names: ['mcp:a', 'mcp:b'] });
    expect(readUsage(file).examples.find((e) => e.query === 'make a pdf handout')).toMatchObject({
      sessions: 1,
      clients: 2,
    });
    expect(
      listUsage(file)
        .map((r) => r.query)
        .sort(),
    ).toEqual(['make a pdf handout', 'merge two pdfs', 'split a pdf']);
  });

  it('weights: import and host 1, fetch sessions / FETCH_FULL_WEIGHT_SESSIONS capped at 1', () => {
    expect(exampleWeight('import', 1)).toBe(1);
    expect(exampleWeight('host', 1)).toBe(1);
    for (let s = 1; s <= FETCH_FULL_WEIGHT_SESSIONS + 2; s++)
      expect(exampleWeight('fetch', s)).toBe(Math.min(1, s / FETCH_FULL_WEIGHT_SESSIONS));
  });

  it('200 junk fetches from one client evict no imported example and keep only its newest few', () => {
    const file = sideFile();
    withStore(file, (db) => {
      addUsageExamples(
        db,
        Array.from({ length: 5 }, (_, i) => ex('pdf', `imported request ${i}`)),
        'import',
        AT,
      );
      for (let i = 0; i < 200; i++)
        addUsageExamples(db, [ex('pdf', `junk ${i}`)], 'fetch', AT, {
          client: 'mcp:evil',
          session: 'e1',
        });
    });
    const kept = readUsage(file).examples;
    expect(kept.filter((e) => e.source === 'import')).toHaveLength(5);
    const junk = kept.filter((e) => e.source === 'fetch').map((e) => e.query);
    expect(junk).toHaveLength(MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL);
    expect(junk).toContain('junk 199');
    expect(junk).not.toContain('junk 0');
  });

  it('per skill: each source keeps its own newest; fetch rows per skill are capped over clients', () => {
    const file = sideFile();
    withStore(file, (db) => {
      addUsageExamples(
        db,
        Array.from({ length: MAX_EXAMPLES_PER_SKILL + 3 }, (_, i) => ex('pdf', `import ${i}`)),
        'import',
        AT,
      );
      addUsageExamples(db, [ex('pdf', 'a host prompt', { key: 'u1', session: 'h' })], 'host', AT, {
        client: 'claude-code',
      });
      const clients =
        Math.ceil(MAX_FETCH_EXAMPLES_PER_SKILL / MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL) + 2;
      for (let c = 0; c < clients; c++)
        for (let i = 0; i < MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL; i++)
          addUsageExamples(db, [ex('pdf', `c${c} q${i}`)], 'fetch', AT, {
            client: `c${c}`,
            session: `c${c}`,
          });
      expect(usageCounts(db, 'import').get('pdf')).toBe(MAX_EXAMPLES_PER_SKILL);
      expect(usageCounts(db, 'host').get('pdf')).toBe(1);
      expect(usageCounts(db, 'fetch').get('pdf')).toBe(MAX_FETCH_EXAMPLES_PER_SKILL);
    });
    const queries = readUsage(file).examples.map((e) => e.query);
    expect(queries).toContain(`import ${MAX_EXAMPLES_PER_SKILL + 2}`);
    expect(queries).not.toContain('import 0');
    expect(queries).toContain('a host prompt');
  });

  it('one client holds at most MAX_FETCH_EXAMPLES_PER_CLIENT fetch rows over all skills', () => {
    const file = sideFile();
    withStore(file, (db) => {
      addUsageExamples(db, [ex('other', 'someone else')], 'fetch', AT, {
        client: 'good',
        session: 'g',
      });
      for (let i = 0; i < MAX_FETCH_EXAMPLES_PER_CLIENT + 20; i++)
        addUsageExamples(db, [ex(`skill-${i}`, 'junk')], 'fetch', AT, {
          client: 'evil',
          session: 'e',
        });
      const n = db
        .prepare(`SELECT count(*) AS n FROM usage_examples WHERE client = 'evil'`)
        .get() as { n: number };
      expect(n.n).toBe(MAX_FETCH_EXAMPLES_PER_CLIENT);
    });
    expect(listUsage(file, { skill_id: 'other' })).toHaveLength(1);
  });

  it('a fetch without a client is recorded as the unknown client; blank queries are skipped', () => {
    const file = sideFile();
    withStore(file, (db) => {
      expect(addUsageExamples(db, [ex('pdf', '   '), ex('pdf', 'x y')], 'fetch', AT)).toBe(1);
    });
    expect(listUsage(file)[0]).toMatchObject({ client_names: [UNKNOWN_CLIENT] });
  });

  it('host examples import once per activation key; imports of the same request once', () => {
    const file = sideFile();
    const host = [
      ex('pdf', 'turn the slides into a handout', { key: 'claude-code:u1', session: 'S' }),
      ex('pdf', 'turn the slides into a handout', { key: 'claude-code:u2', session: 'T' }),
    ];
    withStore(file, (db) => {
      expect(addUsageExamples(db, host, 'host', AT, { client: 'claude-code' })).toBe(2);
      expect(addUsageExamples(db, host, 'host', AT, { client: 'claude-code' })).toBe(0);
      expect(addUsageExamples(db, [ex('pdf', 'A b'), ex('pdf', 'a  B')], 'import', AT)).toBe(1);
    });
    const e = listUsage(file, { source: 'host' });
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ rows: 2, sessions: 2, weight: 1 });
  });

  it('forgetting one example removes each of its rows and nothing else', () => {
    const file = sideFile();
    withStore(file, (db) => {
      for (const s of ['s1', 's2', 's3'])
        addUsageExamples(db, [ex('pdf', 'steer me')], 'fetch', AT, { client: 'c', session: s });
      addUsageExamples(db, [ex('pdf', 'keep me')], 'import', AT);
    });
    const target = listUsage(file).find((e) => e.query === 'steer me')!;
    withStore(file, (db) => {
      expect(forgetUsage(db, { example: target.id })).toBe(3);
      expect(forgetUsage(db, { example: target.id })).toBe(0);
      expect(forgetUsage(db, { skill_id: 'pdf', source: 'fetch' })).toBe(0);
    });
    expect(readUsage(file).examples.map((e) => e.query)).toEqual(['keep me']);
  });

  it('telemetry events keep their source, client and session', () => {
    const file = sideFile();
    const store = new TelemetryStore(file, () => new Date(AT));
    store.recordSuggestions('h1', 'g', ['a', 'b'], {
      source: 'hook',
      client: 'claude-code',
      session: 'S',
    });
    store.recordFetch('a', 'r', 'g', 'ctx', { client: 'mcp:x', session: 'T' });
    store.close();
    expect(store.failures).toBe(0);
    const db = new Database(file, { readonly: true });
    try {
      expect(
        db.prepare(`SELECT kind, source, client, session FROM events ORDER BY id`).all(),
      ).toEqual([
        { kind: 'suggestion', source: 'hook', client: 'claude-code', session: 'S' },
        { kind: 'suggestion', source: 'hook', client: 'claude-code', session: 'S' },
        { kind: 'fetch', source: 'fetch', client: 'mcp:x', session: 'T' },
      ]);
    } finally {
      db.close();
    }
  });
});

describe('the telemetry file of the first shape', () => {
  function firstShape(): string {
    const file = sideFile();
    const db = new Database(file);
    db.exec(TELEMETRY_SCHEMA + USAGE_SCHEMA);
    const ins = db.prepare(
      `INSERT INTO usage_examples (skill_id, query, source, at) VALUES (?, ?, ?, ?)`,
    );
    ins.run('pdf', 'old import', 'import', AT);
    ins.run('pdf', 'old fetch', 'fetch', AT);
    ins.run('pdf', 'Old fetch', 'fetch', AT);
    db.prepare(
      `INSERT INTO events (kind, at, skill_id, generation) VALUES ('suggestion', ?, 'pdf', 'g')`,
    ).run(AT);
    db.close();
    return file;
  }

  it('is read as it is (no session: its fetch rows count as one), without being migrated', () => {
    const file = firstShape();
    const examples = readUsage(file).examples;
    expect(examples.map((e) => [e.id, e.query, e.source, e.sessions])).toEqual([
      [1, 'old import', 'import', 1],
      [2, 'old fetch', 'fetch', 1],
    ]);
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    db.close();
  });

  it('is migrated by its first writer: rows and ids kept, host examples and origins accepted', () => {
    const file = firstShape();
    withStore(file, (db) => {
      expect(db.pragma('user_version', { simple: true })).toBe(SIDE_VERSION);
      addUsageExamples(db, [ex('pdf', 'from the host', { key: 'k' })], 'host', AT, {
        client: 'codex',
      });
    });
    // A second writer finds it migrated.
    withStore(file, () => undefined);
    expect(readUsage(file).examples.map((e) => [e.id, e.source])).toEqual([
      [1, 'import'],
      [2, 'fetch'],
      [4, 'host'],
    ]);
    const store = new TelemetryStore(file, () => new Date(AT));
    store.recordSuggestions('h', 'g', ['pdf']);
    store.close();
    expect(store.failures).toBe(0);
    const again = new TelemetryStore(file, () => new Date(AT));
    expect(again.history('pdf')).toEqual({ suggestions: 1, fetches: 0 });
    again.close();
  });
});

describe.skipIf(!hasPg())('usage examples on PostgreSQL', () => {
  it('migrates the side tables of a catalog made before them and keeps sources, sessions and caps', () => {
    const root = tmpDir('skilldex-usage-pg-');
    writeTree(root, { 'pdf/SKILL.md': skillText('pdf', { description: 'PDF documents' }) });
    const catalog = freshPgDatabase();
    indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
    const file = telemetryPathFor(catalog);
    withStore(file, (db) => {
      for (let i = 0; i < 30; i++)
        addUsageExamples(db, [ex('pdf', `junk ${i}`)], 'fetch', AT, {
          client: 'evil',
          session: 'e',
        });
      addUsageExamples(db, [ex('pdf', 'imported')], 'import', AT);
      for (const s of ['a', 'b'])
        addUsageExamples(db, [ex('pdf', 'agreed')], 'fetch', AT, { client: 'ok', session: s });
      addUsageExamples(db, [ex('pdf', 'host one', { key: 'k1', session: 'S' })], 'host', AT, {
        client: 'claude-code',
      });
    });
    const examples = readUsage(file).examples;
    expect(examples.filter((e) => e.query.startsWith('junk'))).toHaveLength(
      MAX_FETCH_EXAMPLES_PER_CLIENT_SKILL,
    );
    expect(examples.find((e) => e.query === 'agreed')).toMatchObject({ sessions: 2, weight: 0.5 });
    expect(examples.find((e) => e.query === 'host one')).toMatchObject({ source: 'host' });
    expect(examples.find((e) => e.query === 'imported')).toMatchObject({ source: 'import' });
  });
});
