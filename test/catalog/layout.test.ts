/**
 * Each catalog keeps only what its policy's family reads (src/catalog/store/layout.ts, migration 6;
 * issue 33 items 2 and 4): a bm25f.v4 catalog has postings and no FTS5 entries, vocabulary or token
 * strings; a v1 catalog its FTS5 entries, vocabulary and token strings and no postings or bodies;
 * neither keeps v3's body terms or a second copy of each description. A catalog asked for the
 * other family's policy answers REINDEX_REQUIRED. Catalogs written by the code before (fixtures/
 * schema-v5, made by make.mjs beside them with main at 9b7260a): a bm25f.v3 catalog with lifecycle
 * states, usage examples and telemetry is upgraded by `index --policy` of the default policy
 * (bm25f.v5, the command its REINDEX_REQUIRED names) and keeps all three; a v4 catalog migrated in place answers as a fresh v4 index of the same library.
 */
import { copyFileSync, cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY_ID,
  POLICY_ID,
  POLICY_V4_ID,
  Router,
  copyCatalog,
  getGenerations,
  indexCatalog,
  rollbackCatalog,
} from '../../src/internal.js';
import {
  LATEST_VERSION,
  closeCatalog,
  openCatalogForWrite,
  openCatalogReadOnly,
  revisionFields,
} from '../../src/catalog/index.js';
import { REPO, tmpDir } from '../support/cli.js';
import { NOW, ON_PG, newCatalogPath } from './support.js';

const FIXTURE = path.join(REPO, 'test', 'catalog', 'fixtures', 'schema-v5');
const EXAMPLES = path.join(REPO, 'examples', 'skills');

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function router(catalog: string): Router {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(r);
  return r;
}

// A copy of a fixture catalog (with its telemetry file, if any) and the library in a fresh folder.
function fixture(name: 'v3' | 'v4'): { catalog: string; skills: string; dir: string } {
  const dir = tmpDir(`skilldex-layout-${name}-`);
  const catalog = path.join(dir, 'catalog.sqlite');
  copyFileSync(path.join(FIXTURE, `${name}.sqlite`), catalog);
  const telemetry = path.join(FIXTURE, `${name}.telemetry.sqlite`);
  if (existsSync(telemetry)) copyFileSync(telemetry, path.join(dir, 'catalog.telemetry.sqlite'));
  const skills = path.join(dir, 'skills');
  cpSync(path.join(FIXTURE, 'skills'), skills, { recursive: true });
  return { catalog, skills, dir };
}

function query<T>(file: string, sql: string): T[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
const count = (file: string, sql: string): number =>
  query<{ n: number }>(
    file,
    sql.replace(/^SELECT /, 'SELECT count(*) AS n FROM (SELECT ') + ')',
  )[0]!.n;
const columns = (file: string, table: string): string[] =>
  query<{ name: string }>(file, `PRAGMA table_info(${table})`).map((c) => c.name);

// What a catalog stores of each family's data.
function stored(catalog: string): Record<string, number> {
  return {
    fts: count(
      catalog,
      `SELECT rowid FROM serving_fts WHERE serving_fts MATCH 'pdf OR word OR count'`,
    ),
    vocab: count(catalog, `SELECT term FROM vocab`),
    tokens: count(catalog, `SELECT rowid FROM serving WHERE name_tok != '' OR desc_st != ''`),
    postings: count(catalog, `SELECT term FROM postings`),
    docs: count(catalog, `SELECT id FROM serving_docs`),
    bodies: count(catalog, `SELECT revision_id FROM revisions WHERE body_lines IS NOT NULL`),
  };
}

const QUERIES = [
  'count words',
  'extract tables from a pdf',
  'kuberntes',
  'plain text',
  'tally a file',
];

describe.skipIf(ON_PG)('a catalog stores only what its policy reads', () => {
  it('bm25f.v4: postings and body lines; no FTS5 entries, vocabulary or token strings', () => {
    const catalog = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    const s = stored(catalog);
    expect(s).toMatchObject({ fts: 0, vocab: 0, tokens: 0, docs: 1 });
    expect(s['postings']).toBeGreaterThan(100);
    expect(s['bodies']).toBeGreaterThan(5);
    expect(columns(catalog, 'revisions')).not.toContain('body_terms');
    expect(columns(catalog, 'serving')).not.toContain('description');
    // The description served is the revision's (stored once).
    const hit = router(catalog).search({ query: 'extract tables from a pdf', limit: 1 });
    const row = query<{ description: string }>(
      catalog,
      `SELECT description FROM revisions WHERE revision_id = '${hit.candidates[0]!.revision_id}'`,
    )[0]!;
    expect(hit.candidates[0]!.description).toBe(row.description);
    // The lexical policy has nothing to rank with here: REINDEX_REQUIRED, not an empty answer.
    expect(() => router(catalog).search({ query: 'pdf', policy: POLICY_ID })).toThrow(
      expect.objectContaining({ code: 'REINDEX_REQUIRED' }),
    );
  });

  it('v1: FTS5 entries, vocabulary and token strings; no postings, row statistics or bodies', () => {
    const catalog = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_ID, now: NOW });
    const s = stored(catalog);
    expect(s).toMatchObject({ postings: 0, docs: 0, bodies: 0 });
    expect(s['fts']).toBeGreaterThan(0);
    expect(s['vocab']).toBeGreaterThan(100);
    expect(s['tokens']).toBeGreaterThan(5);
    expect(
      count(catalog, `SELECT rowid FROM serving WHERE fwd != '{}' OR body_tf IS NOT NULL`),
    ).toBe(0);
    expect(
      router(catalog).search({ query: 'extract tables from a pdf' }).candidates[0]!.skill_id,
    ).toBe('pdf-toolkit');
    expect(() => router(catalog).search({ query: 'pdf', policy: POLICY_V4_ID })).toThrow(
      expect.objectContaining({ code: 'REINDEX_REQUIRED' }),
    );
  });

  it('moving a catalog between the families rebuilds it with only the new family data', () => {
    const catalog = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_ID, now: NOW });
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    expect(stored(catalog)).toMatchObject({ fts: 0, vocab: 0, tokens: 0, docs: 1 });
    const fresh = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({ catalog: fresh, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    for (const q of QUERIES)
      expect(JSON.stringify(router(catalog).search({ query: q }).candidates)).toBe(
        JSON.stringify(router(fresh).search({ query: q }).candidates),
      );
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_ID, now: NOW });
    expect(stored(catalog)).toMatchObject({ postings: 0, docs: 0 });
    expect(stored(catalog)['fts']).toBeGreaterThan(0);
  });
});

// Both backends (the postgres project runs this file with SKILLDEX_TEST_BACKEND=pg).
describe('a bm25f.v4 catalog on either backend', () => {
  it('keeps postings and row statistics, and no vocabulary or token strings', () => {
    const catalog = newCatalogPath('skilldex-layout-');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    const db = openCatalogReadOnly(catalog);
    try {
      const n = (sql: string): number => Number((db.prepare(sql).get() as { n: number }).n);
      expect(n(`SELECT count(*) AS n FROM vocab`)).toBe(0);
      expect(
        n(
          `SELECT count(*) AS n FROM serving WHERE name_tok != '' OR kw_st != '' OR desc_tok != ''`,
        ),
      ).toBe(0);
      expect(n(`SELECT count(*) AS n FROM postings`)).toBeGreaterThan(100);
      expect(n(`SELECT count(*) AS n FROM serving_docs`)).toBe(1);
      expect(
        n(`SELECT count(*) AS n FROM meta WHERE key = 'index_layout' AND value = 'bm25f'`),
      ).toBe(1);
    } finally {
      db.close();
    }
    const r = router(catalog).search({ query: 'extract tables from a pdf', limit: 1 });
    expect(r.candidates[0]!.skill_id).toBe('pdf-toolkit');
    expect(r.candidates[0]!.description.length).toBeGreaterThan(0);
  });
});

describe('each description is stored once (issue 33 item 4)', () => {
  it("a revision's frontmatter keeps no copy of its description; every reader gets it back in its place", () => {
    const catalog = newCatalogPath('skilldex-layout-');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    const db = openCatalogReadOnly(catalog);
    let rows: { skill_id: string; revision_id: string; description: string; frontmatter: string }[];
    try {
      rows = db
        .prepare(`SELECT skill_id, revision_id, description, frontmatter FROM revisions`)
        .all() as typeof rows;
      expect(rows.length).toBeGreaterThan(3);
      for (const r of rows) {
        expect(r.frontmatter.startsWith('~')).toBe(true);
        expect(r.frontmatter).not.toContain(JSON.stringify(r.description));
        // history (diff) reads the frontmatter as the file had it, description in its place.
        const src = {
          prepare: (sql: string) => db.prepare(sql),
          schemaVersion: () => LATEST_VERSION,
        };
        const fm = revisionFields(src, r.skill_id, r.revision_id)!.frontmatter;
        expect(fm['description']).toBe(r.description);
        expect(Object.keys(fm).indexOf('description')).toBe(
          // After `~` and the letters of the keys stored once (since issue 33 also `n`, `k`).
          Object.keys(JSON.parse(r.frontmatter.replace(/^~[dnk]*/, '')) as object).indexOf(
            'description',
          ),
        );
      }
    } finally {
      db.close();
    }
    // The served skill (skill_fetch, skills list) too.
    const rt = router(catalog);
    for (const r of rows) {
      const skill = rt.getSkill(r.skill_id);
      expect(skill.frontmatter['description']).toBe(r.description);
      expect(skill.frontmatter['name']).toBe(skill.name);
    }
    expect(
      rt
        .listSkills({ limit: 50 })
        .skills.every((s) => s.frontmatter['description'] === s.description),
    ).toBe(true);
  });
});

describe.skipIf(ON_PG)('the policy a bare index publishes under', () => {
  it('must still be known: a remembered unknown (or retired) policy is refused, --policy moves on', () => {
    const catalog = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    const db = openCatalogForWrite(catalog);
    db.prepare(`UPDATE meta SET value = 'tf.skillrouter.bm25f.v9' WHERE key = 'policy'`).run();
    closeCatalog(db);
    expect(() => indexCatalog({ catalog, scopes: [EXAMPLES], now: NOW })).toThrow(
      expect.objectContaining({
        code: 'INVALID_ARGUMENT',
        details: { policy: 'tf.skillrouter.bm25f.v9' },
      }),
    );
    expect(getGenerations({ catalog })).toHaveLength(1);
    indexCatalog({ catalog, scopes: [EXAMPLES], policy: POLICY_V4_ID, now: NOW });
    indexCatalog({ catalog, scopes: [EXAMPLES], now: NOW });
    expect(getGenerations({ catalog })[0]!.policy).toBe(POLICY_V4_ID);
  });
});

describe.skipIf(ON_PG)('catalogs written before migration 6', () => {
  it('a bm25f.v3 catalog: migration drops the v3 data; index --policy of the default (the command its REINDEX_REQUIRED names) upgrades it keeping lifecycle, usage and telemetry', () => {
    const { catalog, skills, dir } = fixture('v3');
    const telemetry = path.join(dir, 'catalog.telemetry.sqlite');
    const examples = query(
      telemetry,
      `SELECT skill_id, source, query FROM usage_examples ORDER BY 1, 2, 3`,
    );
    const events = query(telemetry, `SELECT * FROM events ORDER BY 1`);
    expect(examples).toHaveLength(2);
    expect(events.length).toBeGreaterThan(0);
    expect(count(catalog, `SELECT term FROM postings`)).toBeGreaterThan(0);
    expect(columns(catalog, 'revisions')).toContain('body_terms');

    const db = openCatalogForWrite(catalog);
    closeCatalog(db);
    expect(
      query<{ v: number }>(catalog, `SELECT user_version AS v FROM pragma_user_version`)[0]!.v,
    ).toBe(LATEST_VERSION);
    // Only what a live policy reads is left: v3's postings, row statistics and body terms are gone.
    expect(stored(catalog)).toMatchObject({ postings: 0, docs: 0, bodies: 0 });
    expect(columns(catalog, 'revisions')).not.toContain('body_terms');
    expect(columns(catalog, 'serving')).not.toContain('description');
    expect(query(catalog, `SELECT value FROM meta WHERE key = 'index_layout'`)).toEqual([
      { value: 'lexical' },
    ]);
    // Served as it is, it answers REINDEX_REQUIRED with the command that upgrades it, to the
    // default policy.
    expect(() => router(catalog).search({ query: 'count words' })).toThrow(
      expect.objectContaining({
        code: 'REINDEX_REQUIRED',
        details: expect.objectContaining({
          command: expect.stringMatching(/ --policy (\S+)$/) as unknown,
          replaced_by: DEFAULT_POLICY_ID,
        }) as unknown,
      }),
    );
    let command = '';
    try {
      router(catalog).search({ query: 'count words' });
    } catch (err) {
      command = (err as { details: { command: string } }).details.command;
    }
    const upgradeTo = / --policy (\S+)$/.exec(command)![1]!;
    expect(upgradeTo).toBe(DEFAULT_POLICY_ID);

    const r = indexCatalog({
      catalog,
      scopes: [skills],
      home: skills,
      project: skills,
      policy: upgradeTo,
      now: NOW,
    });
    expect(r.publish!.changed).toBe(true);
    expect(stored(catalog)).toMatchObject({ fts: 0, vocab: 0, tokens: 0, docs: 1, bodies: 3 });
    expect(getGenerations({ catalog })[0]!.policy).toBe(DEFAULT_POLICY_ID);
    const states = query(catalog, `SELECT skill_id, state, reason FROM skills ORDER BY skill_id`);
    expect(states).toEqual([
      { skill_id: 'other', state: 'deprecated', reason: 'kept for the upgrade test' },
      { skill_id: 'plain', state: 'archived', reason: 'archived for the upgrade test' },
      { skill_id: 'tool', state: 'active', reason: null },
    ]);
    expect(
      query(telemetry, `SELECT skill_id, source, query FROM usage_examples ORDER BY 1, 2, 3`),
    ).toEqual(examples);
    expect(query(telemetry, `SELECT * FROM events ORDER BY 1`)).toEqual(events);
    const hit = router(catalog).search({ query: 'count words' });
    expect(hit.policy).toBe(DEFAULT_POLICY_ID);
    expect(hit.candidates[0]!.skill_id).toBe('tool');
    // The archived skill stays out of the answers; the deprecated one is still served as such.
    expect(hit.candidates.map((c) => c.skill_id)).not.toContain('plain');
  });

  it('a rollback of a bm25f.v3 catalog is POLICY_RETIRED, names no replaced policy, and changes nothing', () => {
    const { catalog } = fixture('v3');
    const before = getGenerations({ catalog });
    let thrown: { code?: string; message?: string } = {};
    try {
      rollbackCatalog({ catalog, now: NOW });
    } catch (err) {
      thrown = err as typeof thrown;
    }
    expect(thrown.code).toBe('POLICY_RETIRED');
    // The catalog layer names no successor (the router's RETIRED_POLICIES, the default, does).
    expect(thrown.message).toContain('index under a live policy');
    expect(thrown.message).not.toContain(POLICY_V4_ID);
    expect(getGenerations({ catalog })).toEqual(before);
  });

  it('catalog copy of a bm25f.v3 catalog: the copy keeps what a migrated catalog keeps', () => {
    const { catalog, skills, dir } = fixture('v3');
    const to = path.join(dir, 'copy.sqlite');
    const report = copyCatalog(catalog, to);
    expect(report.rows['revisions']).toBe(3);
    expect(stored(to)).toMatchObject({ postings: 0, docs: 0, bodies: 0 });
    expect(stored(to)['fts']).toBeGreaterThan(0);
    expect(columns(to, 'revisions')).not.toContain('body_terms');
    expect(
      query(to, `SELECT key, value FROM meta WHERE key LIKE '%_kind' OR key LIKE '%_layout'`),
    ).toEqual([{ key: 'index_layout', value: 'lexical' }]);
    // The source is read, never migrated.
    expect(columns(catalog, 'revisions')).toContain('body_terms');
    indexCatalog({
      catalog: to,
      scopes: [skills],
      home: skills,
      project: skills,
      policy: POLICY_V4_ID,
      now: NOW,
    });
    expect(stored(to)).toMatchObject({ fts: 0, vocab: 0, tokens: 0, docs: 1, bodies: 3 });
    expect(router(to).search({ query: 'count words' }).candidates[0]!.skill_id).toBe('tool');
  });

  it('a bm25f.v4 catalog: migration drops the lexical data; it answers as a fresh index does', () => {
    const { catalog, skills } = fixture('v4');
    expect(stored(catalog)['fts']).toBeGreaterThan(0);
    closeCatalog(openCatalogForWrite(catalog));
    expect(stored(catalog)).toMatchObject({ fts: 0, vocab: 0, tokens: 0, docs: 1, bodies: 3 });
    expect(stored(catalog)['postings']).toBeGreaterThan(0);
    const fresh = path.join(tmpDir('skilldex-layout-'), 'catalog.sqlite');
    indexCatalog({
      catalog: fresh,
      scopes: [skills],
      home: skills,
      project: skills,
      policy: POLICY_V4_ID,
      now: NOW,
    });
    for (const q of QUERIES) {
      const a = router(catalog).search({ query: q });
      const b = router(fresh).search({ query: q });
      expect(a.catalog_generation).toBe(b.catalog_generation);
      // Paths differ (the fixture was written elsewhere); everything ranked must not.
      const strip = (c: object): string =>
        JSON.stringify(c, (k, v: unknown) => (k === 'path' || k === 'real_path' ? undefined : v));
      expect(a.candidates.map(strip)).toEqual(b.candidates.map(strip));
    }
    // An unchanged re-index after the migration publishes nothing new.
    const again = indexCatalog({
      catalog,
      scopes: [skills],
      home: skills,
      project: skills,
      now: NOW,
    });
    expect(again.publish!.catalog_generation).toBe(router(fresh).currentGeneration());
  });
});
