/**
 * A catalog made before migration 3 (fixtures/schema-v2: written by skilldex at schema version 2,
 * which recorded no supporting files) opened by this code: a read-only consumer serves it as it is
 * (no supporting files listed, no error); a writer migrates it, keeping every generation; the next
 * index records the supporting files, so only the skill that has some changes its generation line,
 * and the same library without them gives exactly the ids the old code published. `catalog copy`
 * reads it unmigrated. On PostgreSQL, a schema built by the real migrations 1–2 migrates too.
 */
import { copyFileSync, cpSync, rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Router,
  copyCatalog,
  changeLifecycle,
  getCatalogStatus,
  getGenerations,
  indexCatalog,
  POLICY_V4_ID,
} from '../../src/internal.js';
import {
  CatalogExplorer,
  LATEST_VERSION,
  closeCatalog,
  openCatalogForWrite,
} from '../../src/catalog/index.js';
import { migrate } from '../../src/catalog/store/migrations.js';
import { PgDb } from '../../src/catalog/store/pg.js';
import { REPO, tmpDir } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';
import { NOW, codeOf } from './support.js';

const FIXTURE = path.join(REPO, 'test', 'catalog', 'fixtures', 'schema-v2');
/** The generations the schema-2 code published (fixtures/schema-v2/README.md), newest first. */
const OLD_GENERATIONS = [
  'sha256:4dfd05535332654fcafd5882c394e745ae481f3c5cba1071271f23dd291ff963',
  'sha256:9a7e9ea9ee619b18f44a2015385f7b040b58f362061de71ce86a64b59bac267d',
];

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

// A copy of the fixture catalog and its library in a fresh folder (the fixture is never opened).
function oldCatalog(): { catalog: string; skills: string } {
  const dir = tmpDir('skilldex-v2-');
  const catalog = path.join(dir, 'catalog.sqlite');
  copyFileSync(path.join(FIXTURE, 'catalog.sqlite'), catalog);
  const skills = path.join(dir, 'skills');
  cpSync(path.join(FIXTURE, 'skills'), skills, { recursive: true });
  return { catalog, skills };
}

function versionOf(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('user_version', { simple: true }) as number;
  } finally {
    db.close();
  }
}

// An index under bm25f.v4: the fixture's policy, bm25f.v3, is retired (its documents are no longer
// stored, migration 6), so the catalog moves to v4.
function index(catalog: string, skills: string): ReturnType<typeof indexCatalog> {
  return indexCatalog({
    catalog,
    scopes: [skills],
    home: skills,
    project: skills,
    now: NOW,
    policy: POLICY_V4_ID,
  });
}

describe('a catalog of schema version 2', () => {
  it('is served read-only as it is: its skills, no supporting files, no error', () => {
    const { catalog } = oldCatalog();
    expect(versionOf(catalog)).toBe(2);
    const r = new Router({ catalog, telemetry: false });
    routers.push(r);
    expect(r.currentGeneration()).toBe(OLD_GENERATIONS[0]);
    expect(r.listSkillFiles('tool')).toMatchObject({ files: [], truncated: false });
    const page = r.listSkillsWithFiles();
    expect(page.skills.map((s) => [s.skill_id, s.supporting.files.length])).toEqual([
      ['other', 0],
      ['plain', 0],
      ['tool', 0],
    ]);
    // Its policy, bm25f.v3, is retired: a search names the command that upgrades the catalog.
    expect(() => r.search({ query: 'count words' })).toThrow(
      expect.objectContaining({ code: 'REINDEX_REQUIRED' }),
    );
    const explorer = new CatalogExplorer(catalog);
    try {
      expect(explorer.generationChanges().map((g) => g.examples.changed)).toEqual([['other'], []]);
    } finally {
      explorer.close();
    }
    expect(versionOf(catalog)).toBe(2);
  });

  it('migrates when a writer opens it, keeping every generation; the next index records supporting files', () => {
    const { catalog, skills } = oldCatalog();
    // A server opened before the migration sees the new schema once it is there.
    const r = new Router({ catalog, telemetry: false });
    routers.push(r);
    expect(r.listSkillFiles('tool').files).toEqual([]);
    expect(getGenerations({ catalog }).map((g) => g.catalog_generation)).toEqual(OLD_GENERATIONS);
    expect(versionOf(catalog)).toBe(LATEST_VERSION);
    expect(r.listSkillFiles('tool').files).toEqual([]);
    const first = index(catalog, skills);
    expect(first.changed).toEqual(['tool']);
    expect(first.supporting_files).toMatchObject({ listed: 1, hashed: 1 });
    expect(first.publish!.changed).toBe(true);
    expect(OLD_GENERATIONS).not.toContain(first.publish!.catalog_generation);
    expect(r.listSkillFiles('tool').files.map((f) => f.path)).toEqual(['scripts/count.sh']);
    expect(r.getSkill('other').state).toBe('deprecated');
    // Without the script the library is what the old code indexed: the id is the one a new catalog
    // of that library and state gets under the same policy (ids are content-derived).
    rmSync(path.join(skills, 'tool', 'scripts'), { recursive: true });
    const again = index(catalog, skills);
    const fresh = path.join(tmpDir('skilldex-v2-fresh-'), 'catalog.sqlite');
    index(fresh, skills);
    const deprecated = changeLifecycle({
      catalog: fresh,
      skill_id: 'other',
      to: 'deprecated',
      now: NOW,
    });
    expect(again.publish!.catalog_generation).toBe(deprecated.publish!.catalog_generation);
    expect(again.publish!.seq).toBe(4);
    expect(getCatalogStatus({ catalog }).drifted).toEqual([]);
  });

  it("and a new catalog cannot be indexed under the old code's default policy, bm25f.v3, which is retired", () => {
    const { skills } = oldCatalog();
    const catalog = path.join(tmpDir('skilldex-v3-'), 'catalog.sqlite');
    // The old code's default was bm25f.v3, which issue 33 retired: the id it gave is out of reach.
    expect(
      codeOf(() =>
        indexCatalog({
          catalog,
          scopes: [skills],
          home: skills,
          project: skills,
          now: NOW,
          policy: 'tf.skillrouter.bm25f.v3',
        }),
      ),
    ).toBe('POLICY_RETIRED');
  });

  it('and its policy, bm25f.v3, is retired: a bare index is refused naming bm25f.v4, nothing is written', () => {
    const { catalog, skills } = oldCatalog();
    expect(() =>
      indexCatalog({ catalog, scopes: [skills], home: skills, project: skills, now: NOW }),
    ).toThrow(
      expect.objectContaining({
        code: 'POLICY_RETIRED',
        message: expect.stringContaining(POLICY_V4_ID),
      }),
    );
    expect(getGenerations({ catalog }).map((g) => g.catalog_generation)).toEqual(OLD_GENERATIONS);
    expect(() =>
      indexCatalog({ catalog, scopes: [skills], now: NOW, policy: 'tf.skillrouter.bm25f.v3' }),
    ).toThrow(expect.objectContaining({ code: 'POLICY_RETIRED' }));
  });

  it('is copied as it is by catalog copy, and the copy reads as migrated', () => {
    const { catalog } = oldCatalog();
    const to = path.join(tmpDir('skilldex-v2-copy-'), 'catalog.sqlite');
    const report = copyCatalog(catalog, to);
    expect(report.generations).toEqual([...OLD_GENERATIONS].reverse());
    expect(report.rows['file_manifests']).toBe(0);
    expect(versionOf(to)).toBe(LATEST_VERSION);
    expect(versionOf(catalog)).toBe(2);
  });
});

describe.skipIf(!hasPg())('a PostgreSQL catalog of schema version 2', () => {
  it('migrates when a writer opens it, and indexes supporting files', () => {
    const url = freshPgDatabase();
    const old = new PgDb(url, { catalog: true });
    try {
      migrate(old, url, 2);
      expect(old.pragma('user_version', { simple: true })).toBe(2);
    } finally {
      old.close();
    }
    const db = openCatalogForWrite(url);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
    } finally {
      closeCatalog(db);
    }
    const { skills } = oldCatalog();
    const r = indexCatalog({ catalog: url, scopes: [skills], now: NOW, policy: POLICY_V4_ID });
    expect(r.supporting_files.listed).toBe(1);
    const router = new Router({ catalog: url, telemetry: false });
    routers.push(router);
    expect(router.readSkillFile('tool', 'scripts/count.sh').bytes.toString()).toBe(
      '#!/bin/sh\nwc -w "$@"\n',
    );
  });
});
