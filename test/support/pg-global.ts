/**
 * Vitest global setup of the projects that test the PostgreSQL backend: a throwaway cluster
 * (pg-cluster.ts) for the run, or the server named by $SKILLDEX_TEST_PG_URL (an admin URL whose
 * user may CREATE DATABASE). Its URL reaches the tests as `inject('pgUrl')`. Without PostgreSQL's
 * server binaries the PostgreSQL tests are skipped with a loud message, except under CI (`CI` set),
 * where that is a failure: CI must test both backends.
 */
import type { TestProject } from 'vitest/node';
import { findPgBin, startCluster, stopCluster, type Cluster } from './pg-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Admin URL of the test PostgreSQL server, '' when there is none. */
    pgUrl: string;
    /** The throwaway cluster as JSON (for restart tests), '' when the server is external. */
    pgCluster: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  const external = process.env['SKILLDEX_TEST_PG_URL'];
  if (external) {
    project.provide('pgUrl', external);
    project.provide('pgCluster', '');
    return undefined;
  }
  const bin = findPgBin();
  if (!bin) {
    const message =
      'PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL backend tests are SKIPPED. ' +
      'Install the `postgresql` package (Debian) or set SKILLDEX_TEST_PG_URL.';
    if (process.env['CI']) throw new Error(`${message} CI must test both backends.`);
    process.stderr.write(`\n${'!'.repeat(100)}\n!!! ${message}\n${'!'.repeat(100)}\n\n`);
    project.provide('pgUrl', '');
    project.provide('pgCluster', '');
    return undefined;
  }
  const cluster: Cluster = await startCluster(bin);
  project.provide('pgUrl', cluster.adminUrl);
  project.provide('pgCluster', JSON.stringify(cluster));
  return () => stopCluster(cluster);
}
