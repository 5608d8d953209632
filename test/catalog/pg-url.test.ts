/**
 * PostgreSQL catalog URLs (issue 25): only the documented libpq parameters are accepted (`options`
 * only as `-c search_path=NAME`); every secret a URL can carry is masked in the location skilldex
 * carries and put back, as written, only for libpq; the user's percent-encoding is kept byte for
 * byte (never re-encoded with `+`); keepalive and timeout defaults are added unless the URL sets
 * them; and every connection pins its schema, so neither a URL nor a database or role default can
 * put another schema's functions in front of the catalog's SQL.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  PG_CONNECTION_DEFAULTS,
  catalogLocation,
  connectionString,
  pgSessionOf,
} from '../../src/catalog/store/location.js';
import { PgDb } from '../../src/catalog/store/pg.js';
import { indexCatalog } from '../../src/internal.js';
import { maskSecrets } from '../../src/secrets.js';
import { REPO } from '../support/cli.js';
import { hasPg } from '../support/pg.js';
import { inject } from 'vitest';

const invalid = expect.objectContaining({ code: 'INVALID_ARGUMENT' });

describe('the parameters a catalog URL may carry', () => {
  it.each([
    'postgres://h/db?service=evil',
    'postgres://h/db?client_encoding=SQL_ASCII',
    'postgres://h/db?replication=database',
    'postgres://h/db?Serv%69ce=evil',
    'postgres://h/db?options=-c%20work_mem%3D1GB',
    'postgres://h/db?options=-c%20statement_timeout%3D-1',
    'postgres://h/db?options=-csearch_path%3Devil,pg_catalog',
    'postgres://h/db?options=-csearch_path%3Devil%20-crole%3Dadmin',
    'postgres://h/db?options=--search_path%3Devil',
  ])('refuses %s', (url) => {
    expect(() => catalogLocation(url)).toThrow(invalid);
  });

  it.each([
    ['postgres://h/db', 'public'],
    ['postgres://h/db?options=-csearch_path%3Dskills', 'skills'],
    ['postgres://h/db?options=-c%20search_path%3DSkills', 'skills'],
    ['postgres://h/db?options=-c%20search_path%3D%22My%20Schema%22', '"My Schema"'],
    ['postgres://h/db?sslmode=verify-full&connect_timeout=2&application_name=x', 'public'],
  ])('accepts %s (schema %s)', (url, schema) => {
    expect(pgSessionOf(catalogLocation(url)).schema).toBe(schema);
  });
});

describe('the session a catalog URL sets', () => {
  it('reads the schema and the statement timeout from options', () => {
    expect(pgSessionOf(catalogLocation('postgres://h/db'))).toEqual({ schema: 'public' });
    expect(
      pgSessionOf(
        catalogLocation(
          'postgres://h/db?options=-csearch_path%3DSkills%20-cstatement_timeout%3D5s',
        ),
      ),
    ).toEqual({ schema: 'skills', statementTimeoutMs: 5000 });
    expect(
      pgSessionOf(catalogLocation('postgres://h/db?options=-c%20statement_timeout%3D250')),
    ).toEqual({ schema: 'public', statementTimeoutMs: 250 });
  });
});

describe('secrets in a catalog URL', () => {
  it('masks the user-info password and the password and sslpassword parameters, and puts them back for libpq only', () => {
    const raw =
      'postgres://u:p%40ss-one-x@db.example/skills?PassWord=second-secret&sslpassword=third%20secret&sslmode=require';
    const loc = catalogLocation(raw);
    expect(loc).toBe(
      'postgres://u:***@db.example/skills?PassWord=***&sslpassword=***&sslmode=require',
    );
    expect(catalogLocation(loc)).toBe(loc);
    const conn = connectionString(loc);
    expect(conn).toContain('u:p%40ss-one-x@db.example');
    expect(conn).toContain('PassWord=second-secret');
    expect(conn).toContain('sslpassword=third%20secret');
    // The secrets registered: found anywhere in text later, they are masked.
    expect(maskSecrets('libpq said: p@ss-one-x / second-secret')).toBe('libpq said: *** / ***');
  });

  it('masks every form of secret in free text', () => {
    for (const [text, out] of [
      ['postgres://u:pw@h/db', 'postgres://u:***@h/db'],
      ['postgres:/u:pw@h/db', 'postgres:/u:***@h/db'],
      ['x postgresql://u:p@w@h:5/db?x=1 y', 'x postgresql://u:***@h:5/db?x=1 y'],
      ['postgres://h/db?password=pw&a=1', 'postgres://h/db?password=***&a=1'],
      ['postgres://h/db?a=1&pass%77ord=pw', 'postgres://h/db?a=1&pass%77ord=***'],
      ['postgres://h/db?SSLPASSWORD=pw#f', 'postgres://h/db?SSLPASSWORD=***#f'],
      ["host=h password='a b' user=u", 'host=h password=*** user=u'],
      ['host=h sslpassword=pw', 'host=h sslpassword=***'],
      ['no secret here: --password-file f', 'no secret here: --password-file f'],
    ] as const) {
      expect(maskSecrets(text), text).toBe(out);
    }
  });
});

describe('the connection string', () => {
  it("keeps the user's encoding byte for byte and adds the defaults the URL does not set", () => {
    const raw =
      'postgres://u@h/db?application_name=my%20app&options=-c%20search_path%3Dskills&keepalives_idle=99';
    const conn = connectionString(catalogLocation(raw));
    expect(conn.startsWith('postgres://u@h/db?application_name=my%20app&keepalives_idle=99')).toBe(
      true,
    );
    expect(conn).not.toContain('+');
    // options is not passed on: the schema is pinned with SET search_path on each connection.
    expect(conn).not.toContain('options=');
    for (const [k, v] of Object.entries(PG_CONNECTION_DEFAULTS)) {
      if (k === 'application_name' || k === 'keepalives_idle') continue;
      expect(conn).toContain(`&${k}=${v}`);
    }
    expect(conn).not.toContain('keepalives_idle=10');
    expect(conn).not.toContain('application_name=skilldex');
  });
});

describe.skipIf(!hasPg())('a schema pinned on every connection (PostgreSQL)', () => {
  it('ignores a database default search_path that puts a foreign schema first', () => {
    const admin = inject('pgUrl');
    const name = `skilldex_sp_${process.pid}_${Date.now().toString(36)}`;
    const root = new PgDb(admin);
    try {
      root.exec(`CREATE DATABASE ${name}`);
      root.exec(`ALTER DATABASE ${name} SET search_path = evil, pg_catalog, public`);
    } finally {
      root.close();
    }
    const url = new URL(admin);
    url.pathname = `/${name}`;
    const db = new PgDb(url.toString());
    try {
      // A planted schema whose to_regclass and tables would answer first under that default.
      db.exec(`CREATE SCHEMA evil`);
      db.exec(
        `CREATE FUNCTION evil.to_regclass(text) RETURNS regclass LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'planted function ran'; END $$`,
      );
      db.exec(`CREATE TABLE evil.meta (key text, value text)`);
    } finally {
      db.close();
    }
    const r = indexCatalog({
      catalog: url.toString(),
      scopes: [path.join(REPO, 'examples', 'skills')],
    });
    expect(r.publish).not.toBeNull();
    const check = new PgDb(url.toString());
    try {
      expect(
        check.prepare(`SELECT count(*) AS n FROM public.meta`).get() as { n: number },
      ).toMatchObject({ n: expect.any(Number) });
      expect((check.prepare(`SELECT count(*) AS n FROM evil.meta`).get() as { n: number }).n).toBe(
        0,
      );
    } finally {
      check.close();
    }
  });
});
