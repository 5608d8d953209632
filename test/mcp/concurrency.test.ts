/**
 * 50 concurrent tool calls (issue #4): one Promise.all of mixed skill_search and skill_fetch calls
 * against the built server, over stdio (one connection, interleaved requests) and over Streamable
 * HTTP (one request each, on a stateless server). Every answer must equal what the library returns
 * for the same call in process, and pinning errors must stay errors under load.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router, type SearchResult } from '../../src/internal.js';
import {
  call,
  closeAll,
  connectHttp,
  connectStdio,
  makeCatalog,
  pins,
  startHttp,
  toolError,
  type Connection,
  type TestCatalog,
  EXAMPLE_QUERIES,
} from './support.js';

let cat: TestCatalog;
let lib: Router;
let expected: Map<string, SearchResult>;

beforeAll(async () => {
  cat = await makeCatalog();
  lib = new Router({ catalog: cat.catalog, telemetry: false });
  expected = new Map(
    EXAMPLE_QUERIES.map((q) => [
      q,
      JSON.parse(JSON.stringify(lib.search({ query: q, limit: 5 }))) as SearchResult,
    ]),
  );
});

afterAll(async () => {
  await closeAll();
  lib.close();
});

const transports: [string, () => Promise<Connection>][] = [
  ['stdio', () => connectStdio(['--catalog', cat.catalog, '--no-telemetry'])],
  ['http', async () => connectHttp(await startHttp(['--catalog', cat.catalog, '--no-telemetry']))],
];

describe.each(transports)('50 concurrent calls over %s', (_name, connect) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connect();
  });

  it('all answer, each exactly as the library answers it', async () => {
    const targets = [...expected.values()].flatMap((r) => r.candidates.slice(0, 2));
    type Job = () => Promise<void>;
    const jobs: Job[] = [];
    for (let i = 0; jobs.length < 50; i++) {
      if (i % 5 === 4) {
        // Every fifth call is a fetch that must fail: a wrong revision under load stays an error.
        const c = targets[i % targets.length]!;
        jobs.push(async () => {
          const r = await call(conn.client, 'skill_fetch', {
            ...pins(c),
            expected_revision: `sha256:${'f'.repeat(64)}`,
          });
          expect(toolError(r).code).toBe('REVISION_MISMATCH');
        });
      } else if (i % 2 === 0) {
        const q = EXAMPLE_QUERIES[i % EXAMPLE_QUERIES.length]!;
        jobs.push(async () => {
          const r = await call(conn.client, 'skill_search', { query: q, limit: 5 });
          expect(r.isError).toBeFalsy();
          expect(r.structuredContent).toEqual(expected.get(q));
        });
      } else {
        const c = targets[i % targets.length]!;
        jobs.push(async () => {
          const r = await call(conn.client, 'skill_fetch', pins(c, `concurrent ${i}`));
          expect(r.isError).toBeFalsy();
          expect(r.structuredContent).toEqual(
            JSON.parse(JSON.stringify(lib.fetch({ ...pins(c), context: '' } as never))),
          );
        });
      }
    }
    const settled = await Promise.allSettled(jobs.map((j) => j()));
    const failures = settled
      .filter((s): s is PromiseRejectedResult => s.status === 'rejected')
      .map((s) => String(s.reason));
    expect(failures).toEqual([]);
    expect(settled).toHaveLength(50);
  });

  it('still answers after the burst', async () => {
    const r = await call(conn.client, 'skill_search', { query: 'merge pdf files', limit: 5 });
    expect(r.structuredContent).toEqual(expected.get('merge pdf files'));
  });
});
