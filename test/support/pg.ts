/**
 * PostgreSQL for tests: the run's server (pg-global.ts) and a fresh, empty database per catalog, so
 * tests never share state. `hasPg()` is false only when the run has no PostgreSQL (see pg-global.ts).
 */
import { inject } from 'vitest';
import { PgDb } from '../../src/catalog/store/pg.js';
import type { Cluster } from './pg-cluster.js';

let made = 0;

/** True when this run has a PostgreSQL server to test against. */
export function hasPg(): boolean {
  // A project without the PostgreSQL global setup (the `unit` project) provides nothing.
  const url = inject('pgUrl') as string | undefined;
  return url !== undefined && url !== '';
}

/** The run's throwaway cluster, or undefined when the server is external (restart tests skip). */
export function pgCluster(): Cluster | undefined {
  const c = inject('pgCluster');
  return c === '' ? undefined : (JSON.parse(c) as Cluster);
}

// One database per test process; each catalog gets its own schema in it (CREATE SCHEMA takes a
// millisecond where CREATE DATABASE takes half a second).
let database: string | undefined;

/**
 * The URL of a new, empty catalog location on the run's server: a fresh schema (the URL's
 * `options=-csearch_path=NAME`) in a database of this test process.
 */
export function freshPgDatabase(prefix = 'skilldex_t'): string {
  const admin = inject('pgUrl');
  if (admin === '')
    throw new Error('this run has no PostgreSQL server (see test/support/pg-global.ts)');
  const base = new URL(admin);
  if (database === undefined) {
    const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
    const db = new PgDb(admin);
    try {
      db.exec(`CREATE DATABASE ${name}`);
    } finally {
      db.close();
    }
    base.pathname = `/${name}`;
    database = base.toString();
  }
  const schema = `c${++made}`;
  const db = new PgDb(database);
  try {
    db.exec(`CREATE SCHEMA ${schema}`);
  } finally {
    db.close();
  }
  const url = new URL(database);
  url.searchParams.set('options', `-csearch_path=${schema}`);
  return url.toString();
}
