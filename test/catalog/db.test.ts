/**
 * Opening catalogs (src/catalog/db.ts, store/migrations.ts): the real migrations on a new file, refusal of
 * files that are not skilldex catalogs (garbage bytes, a foreign SQLite database) without touching
 * them, and CATALOG_MISSING for a consumer (library and CLI) when no catalog exists.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  LATEST_VERSION,
  openCatalogForWrite,
  openCatalogReadOnly,
  resolveCatalogPath,
} from '../../src/catalog/index.js';
import { CATALOG_FORMAT } from '../../src/catalog/store/migrations.js';
import { Router } from '../../src/internal.js';
import { runCli, tmpDir } from '../support/cli.js';
import { bytesOf, codeOf, newCatalogPath } from './support.js';

describe('migrations', () => {
  it('create every table on a new file, mark it as a skilldex catalog and use WAL', () => {
    const file = newCatalogPath();
    const db = openCatalogForWrite(file);
    try {
      expect(db.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.prepare(`SELECT value FROM meta WHERE key = 'format'`).get()).toEqual({
        value: CATALOG_FORMAT,
      });
      const names = (
        db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as {
          name: string;
        }[]
      ).map((r) => r.name);
      expect(names).toEqual(
        expect.arrayContaining([
          'meta',
          'revisions',
          'files',
          'skills',
          'generations',
          'generation_members',
          'published',
          'serving',
          'serving_fts',
          'vocab',
        ]),
      );
    } finally {
      db.close();
    }
  });

  it('are idempotent: reopening a current catalog applies nothing and keeps its data', () => {
    const file = newCatalogPath();
    const db = openCatalogForWrite(file);
    db.prepare(`INSERT INTO meta (key, value) VALUES ('probe', 'kept')`).run();
    db.close();
    const again = openCatalogForWrite(file);
    try {
      expect(again.pragma('user_version', { simple: true })).toBe(LATEST_VERSION);
      expect(again.prepare(`SELECT value FROM meta WHERE key = 'probe'`).get()).toEqual({
        value: 'kept',
      });
    } finally {
      again.close();
    }
  });

  it('creates the catalog folder when it does not exist', () => {
    const file = path.join(tmpDir(), 'deep', 'er', 'catalog.sqlite');
    openCatalogForWrite(file).close();
    expect(existsSync(file)).toBe(true);
  });
});

describe('files that are not catalogs', () => {
  it('garbage bytes are CATALOG_CORRUPT for writers and readers, and the file is not modified', () => {
    const file = newCatalogPath();
    writeFileSync(file, Buffer.from('this is not a database at all, just some text\n'.repeat(200)));
    const before = bytesOf(file);
    expect(codeOf(() => openCatalogForWrite(file))).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => new Router({ catalog: file, telemetry: false }))).toBe('CATALOG_CORRUPT');
    expect(bytesOf(file).equals(before)).toBe(true);
    expect(existsSync(file + '-wal')).toBe(false);
  });

  it('a foreign SQLite database is CATALOG_CORRUPT for writers and readers, and the file is not modified', () => {
    const file = newCatalogPath();
    const foreign = new Database(file);
    foreign.exec(
      `CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); INSERT INTO notes (text) VALUES ('mine');`,
    );
    foreign.close();
    const before = bytesOf(file);
    expect(codeOf(() => openCatalogForWrite(file))).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_CORRUPT');
    expect(bytesOf(file).equals(before)).toBe(true);
    expect(existsSync(file + '-wal')).toBe(false);
  });

  it('a foreign SQLite database with its own user_version is CATALOG_CORRUPT, and the file is not modified', () => {
    const file = newCatalogPath();
    const foreign = new Database(file);
    foreign.exec(
      `CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT); PRAGMA user_version = 1;`,
    );
    foreign.close();
    const before = bytesOf(file);
    expect(codeOf(() => openCatalogForWrite(file))).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_CORRUPT');
    expect(bytesOf(file).equals(before)).toBe(true);
  });

  it('a zero-byte file is CATALOG_CORRUPT for writers and readers, and stays zero bytes (issue 11)', () => {
    const file = newCatalogPath();
    writeFileSync(file, '');
    expect(codeOf(() => openCatalogForWrite(file))).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_CORRUPT');
    expect(bytesOf(file).length).toBe(0);
  });

  it('a catalog of a newer schema is CATALOG_TOO_NEW', () => {
    const file = newCatalogPath();
    const db = openCatalogForWrite(file);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.close();
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_TOO_NEW');
    expect(codeOf(() => openCatalogForWrite(file))).toBe('CATALOG_TOO_NEW');
  });
});

describe('a missing catalog', () => {
  it('is CATALOG_MISSING for a consumer, and nothing is created', () => {
    const file = newCatalogPath();
    expect(codeOf(() => openCatalogReadOnly(file))).toBe('CATALOG_MISSING');
    expect(codeOf(() => new Router({ catalog: file }))).toBe('CATALOG_MISSING');
    expect(existsSync(file)).toBe(false);
  });

  it('makes `search` exit 2 with CATALOG_MISSING in its --json output', async () => {
    const file = newCatalogPath();
    const r = await runCli(['search', 'pdf', '--catalog', file, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CATALOG_MISSING' } });
    expect(existsSync(file)).toBe(false);
  });

  it('makes `fetch`, `generations`, `publish` and `deprecate` exit 2 without creating it', async () => {
    const file = newCatalogPath();
    const g = `sha256:${'0'.repeat(64)}`;
    for (const argv of [
      ['fetch', 'x', '--revision', g, '--generation', g],
      ['generations'],
      ['publish'],
      ['deprecate', 'x'],
    ]) {
      const r = await runCli([...argv, '--catalog', file, '--json']);
      expect(r.code, argv[0]).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'CATALOG_MISSING' } });
    }
    expect(existsSync(file)).toBe(false);
  });

  it('makes `status` answer (exit 1, catalog_missing) without creating it: not set up is no refusal', async () => {
    const file = newCatalogPath();
    const r = await runCli(['status', '--catalog', file, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ catalog: file, catalog_missing: true });
    expect(existsSync(file)).toBe(false);
  });
});

describe('resolveCatalogPath', () => {
  it('prefers --catalog, then SKILLDEX_CATALOG, then the per-user data folder', () => {
    const env = { SKILLDEX_CATALOG: 'env.sqlite', HOME: '/home/u', XDG_DATA_HOME: '/data' };
    expect(resolveCatalogPath('flag.sqlite', env, '/work')).toBe(
      path.resolve('/work', 'flag.sqlite'),
    );
    expect(resolveCatalogPath(undefined, env, '/work')).toBe(path.resolve('/work', 'env.sqlite'));
    expect(
      resolveCatalogPath(undefined, { HOME: '/home/u', XDG_DATA_HOME: '/data' }, '/work'),
    ).toBe('/data/skilldex/catalog.sqlite');
    expect(resolveCatalogPath(undefined, { HOME: '/home/u' }, '/work')).toBe(
      '/home/u/.local/share/skilldex/catalog.sqlite',
    );
  });
});
