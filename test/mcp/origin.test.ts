/**
 * Who an MCP fetch is recorded as (src/mcp/origin.ts, issue 23 §3): on stdio, `mcp:` + the client's
 * `initialize` name and one session per connection, so repeating a fetch on one connection stores
 * one example row; over HTTP, `http:` + a fingerprint of the bearer token for client and session,
 * so any number of HTTP requests with one token count as one session; searches record their
 * suggestions with the same origin and the source `search`.
 */
import Database from 'better-sqlite3';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { Router, listExamples, telemetryPathFor } from '../../src/internal.js';
import { serveHttp } from '../../src/mcp/start.js';
import {
  call,
  closeAll,
  connectInProcess,
  makeCatalog,
  pins,
  search,
  type TestCatalog,
} from './support.js';

afterAll(closeAll);

const CONTEXT = 'merge two pdf files into one handout';

async function fetchOnce(client: Client, context = CONTEXT): Promise<void> {
  const top = (await search(client, 'merge pdf files')).candidates[0]!;
  const r = await call(client, 'skill_fetch', pins(top, context));
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
}

function clientsOfEvents(cat: TestCatalog): { kind: string; source: string; client: string }[] {
  const db = new Database(telemetryPathFor(cat.catalog), { readonly: true });
  try {
    return db
      .prepare(`SELECT DISTINCT kind, source, client FROM events ORDER BY kind, client`)
      .all() as { kind: string; source: string; client: string }[];
  } finally {
    db.close();
  }
}

describe('MCP requests are recorded with their client and session', () => {
  it('stdio: one connection is one session; a second connection agrees as a second session', async () => {
    const cat = await makeCatalog();
    const a = await connectInProcess({ catalog: cat.catalog, telemetry: true });
    for (let i = 0; i < 10; i++) await fetchOnce(a.client);
    let [e] = listExamples({ catalog: cat.catalog, source: 'fetch' }).examples;
    expect(e).toMatchObject({
      source: 'fetch',
      rows: 1,
      sessions: 1,
      weight: 0.25,
      client_names: ['mcp:skilldex-test'],
    });
    const b = await connectInProcess({ catalog: cat.catalog, telemetry: true });
    await fetchOnce(b.client);
    [e] = listExamples({ catalog: cat.catalog, source: 'fetch' }).examples;
    expect(e).toMatchObject({ rows: 2, sessions: 2, weight: 0.5 });
    expect(clientsOfEvents(cat)).toEqual([
      { kind: 'fetch', source: 'fetch', client: 'mcp:skilldex-test' },
      { kind: 'suggestion', source: 'search', client: 'mcp:skilldex-test' },
    ]);
  });

  it('HTTP: every request of one bearer token is one client and one session', async () => {
    const cat = await makeCatalog();
    const router = new Router({ catalog: cat.catalog });
    const token = 'a-test-token-of-enough-length';
    const handle = await serveHttp(
      { router, cascadeRoots: [], log: () => undefined },
      0,
      '127.0.0.1',
      { token },
    );
    try {
      for (let i = 0; i < 3; i++) {
        const client = new Client({ name: `http-client-${i}`, version: '1.0.0' });
        await client.connect(
          new StreamableHTTPClientTransport(new URL(handle.url), {
            requestInit: { headers: { Authorization: `Bearer ${token}` } },
          }),
        );
        await fetchOnce(client);
        await client.close();
      }
    } finally {
      await handle.close();
      router.close();
    }
    const [e] = listExamples({ catalog: cat.catalog, source: 'fetch' }).examples;
    expect(e!.sessions).toBe(1);
    expect(e!.rows).toBe(1);
    expect(e!.client_names).toHaveLength(1);
    expect(e!.client_names[0]).toMatch(/^http:[0-9a-f]{12}$/);
    expect(e!.client_names[0]).not.toContain(token);
  });
});
