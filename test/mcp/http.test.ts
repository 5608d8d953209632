/**
 * The Streamable HTTP face (issue #4): `skilldex mcp --http 0` binds 127.0.0.1 by default, answers
 * JSON-RPC POSTed to /mcp (stateless, JSON responses), and refuses everything else plainly: GET is
 * 405, a body that is not JSON is a -32700 parse error, an oversized body is 413, another path is
 * 404, and a Host header that is not loopback is rejected (DNS-rebinding protection). One server
 * answers every request: concurrent clients that all use the same JSON-RPC id each get their own
 * answer under their own id; a batch gets an array; a POST of notifications only gets 202; a client
 * that does not accept JSON and event streams gets 406 and a body not declared JSON 415, as from the
 * SDK's own transport. The server stops cleanly on SIGTERM.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeAll,
  connectHttp,
  makeCatalog,
  search,
  startHttp,
  type HttpServer,
} from './support.js';

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request to the server (node:http, so the Host header can be set freely). */
function raw(
  url: URL,
  options: {
    method: string;
    path?: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
  },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: options.method,
        path: options.path ?? url.pathname,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(options.headers ?? {}),
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d.toString('utf8');
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    // The server may close the connection on an oversized body before reading it all.
    req.on('error', (err: NodeJS.ErrnoException) =>
      err.code === 'ECONNRESET' || err.code === 'EPIPE'
        ? resolve({ status: -1, headers: {}, body: '' })
        : reject(err),
    );
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });

let server: HttpServer;

beforeAll(async () => {
  const cat = await makeCatalog();
  server = await startHttp(['--catalog', cat.catalog, '--no-telemetry']);
});

afterAll(closeAll);

describe('skilldex mcp --http', () => {
  it('binds 127.0.0.1 on the port it prints, at /mcp', () => {
    expect(server.url.hostname).toBe('127.0.0.1');
    expect(Number(server.url.port)).toBeGreaterThan(0);
    expect(server.url.pathname).toBe('/mcp');
  });

  it('answers the SDK Client over Streamable HTTP', async () => {
    const conn = await connectHttp(server);
    expect((await search(conn.client, 'merge pdf files')).candidates[0]?.skill_id).toBe(
      'pdf-toolkit',
    );
  });

  it('answers a plain JSON-RPC POST with a JSON response', async () => {
    const r = await raw(server.url, { method: 'POST', body: LIST });
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toMatch(/application\/json/);
    const msg = JSON.parse(r.body) as {
      jsonrpc: string;
      id: number;
      result: { tools: { name: string }[] };
    };
    expect(msg).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(msg.result.tools.map((t) => t.name)).toEqual(['skill_search', 'skill_fetch']);
  });

  it('answers 30 concurrent POSTs that all use id 0, each with its own result', async () => {
    const queries = ['merge pdf files', 'clean a messy csv', 'write release notes'];
    const answers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const query = queries[i % queries.length]!;
        const r = await raw(server.url, {
          method: 'POST',
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 0,
            method: 'tools/call',
            params: { name: 'skill_search', arguments: { query, limit: 2 } },
          }),
        });
        return { query, r };
      }),
    );
    for (const { query, r } of answers) {
      expect(r.status).toBe(200);
      const msg = JSON.parse(r.body) as {
        id: number;
        result: { structuredContent: { query: string } };
      };
      expect(msg.id).toBe(0);
      expect(msg.result.structuredContent.query).toBe(query);
    }
  });

  it('answers a batch with an array in request order; notifications alone get 202', async () => {
    const r = await raw(server.url, {
      method: 'POST',
      body: JSON.stringify([
        { jsonrpc: '2.0', id: 'b', method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
      ]),
    });
    expect(r.status).toBe(200);
    const msgs = JSON.parse(r.body) as { id: string; result: Record<string, unknown> }[];
    expect(msgs.map((m) => m.id)).toEqual(['b', 'a']);
    expect(msgs[1]!.result).toHaveProperty('tools');
    const n = await raw(server.url, {
      method: 'POST',
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(n.status).toBe(202);
    expect(n.body).toBe('');
  });

  it('refuses a client that cannot take JSON and event streams (406), and a body not declared JSON (415)', async () => {
    const a = await raw(server.url, {
      method: 'POST',
      body: LIST,
      headers: { accept: 'application/json' },
    });
    expect(a.status).toBe(406);
    expect(JSON.parse(a.body)).toMatchObject({ error: { code: -32000 } });
    const c = await raw(server.url, {
      method: 'POST',
      body: LIST,
      headers: { 'content-type': 'text/plain' },
    });
    expect(c.status).toBe(415);
  });

  it('GET /healthz answers 200 with the published generation, for a load balancer', async () => {
    const r = await raw(server.url, { method: 'GET', path: '/healthz' });
    expect(r.status).toBe(200);
    const body = JSON.parse(r.body) as { status: string; catalog_generation: string };
    expect(body.status).toBe('ok');
    expect(body.catalog_generation).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect((await raw(server.url, { method: 'GET', path: '/healthz/x' })).status).toBe(404);
  });

  it('GET /mcp is 405 (stateless: no event stream to open)', async () => {
    const r = await raw(server.url, { method: 'GET' });
    expect(r.status).toBe(405);
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('DELETE /mcp is 405 too (no session to end)', async () => {
    expect((await raw(server.url, { method: 'DELETE' })).status).toBe(405);
  });

  it('a body that is not JSON is a -32700 parse error', async () => {
    const r = await raw(server.url, {
      method: 'POST',
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
  });

  it('JSON that is not JSON-RPC is refused, not answered', async () => {
    const r = await raw(server.url, { method: 'POST', body: '{"hello": "world"}' });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
  });

  it('a body over 1 MiB is refused', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'skill_search', arguments: { query: 'x'.repeat(1_100_000) } },
    });
    const r = await raw(server.url, { method: 'POST', body: big });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: -32600 } });
  });

  it('another path is 404', async () => {
    expect((await raw(server.url, { method: 'POST', path: '/other', body: LIST })).status).toBe(
      404,
    );
  });

  it('a Host header that is not loopback is rejected (DNS rebinding)', async () => {
    for (const host of [
      `evil.example:${server.url.port}`,
      'evil.example',
      `127.0.0.1.evil.example:${server.url.port}`,
    ]) {
      const r = await raw(server.url, { method: 'POST', body: LIST, headers: { host } });
      expect(r.status, host).toBe(403);
      expect(r.body).not.toContain('skill_search');
    }
    for (const host of [`127.0.0.1:${server.url.port}`, `localhost:${server.url.port}`]) {
      expect(
        (await raw(server.url, { method: 'POST', body: LIST, headers: { host } })).status,
        host,
      ).toBe(200);
    }
  });

  it('stops on SIGTERM with exit code 0', async () => {
    const cat = await makeCatalog();
    const other = await startHttp(['--catalog', cat.catalog]);
    expect(await other.stop()).toBe(0);
  });
});
