/**
 * Hostile clients of the MCP server (issue 11), over real HTTP on an ephemeral loopback port and
 * over stdio: a foreign Origin is 403, loopback Hosts pass in any case and by address range, a
 * bearer token (from --token-file or SKILLDEX_MCP_TOKEN) is required when set (401 without it), a
 * non-loopback bind without a token is refused (exit 2, coded), and a catalog with damaged pages
 * answers CATALOG_CORRUPT as a coded tool error.
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../support/cli.js';
import {
  call,
  closeAll,
  connectStdio,
  makeCatalog,
  operator,
  search,
  startHttp,
  toolError,
  type HttpServer,
  type TestCatalog,
} from './support.js';

const LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
const TOKEN = 'k7Qw9xZp2LmN4vB8rT6y';

/** One raw POST of tools/list with the given headers (node:http, so Host can be set freely). */
function post(
  url: URL,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port,
        method,
        path: url.pathname,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? LIST : undefined);
  });
}

let cat: TestCatalog;

beforeAll(async () => {
  cat = await makeCatalog();
});

afterAll(closeAll);

describe('skilldex mcp --http: Host and Origin', () => {
  let server: HttpServer;
  beforeAll(async () => {
    server = await startHttp(['--catalog', cat.catalog, '--no-telemetry']);
  });

  it('a foreign Origin is 403 and learns nothing; a loopback Origin is served', async () => {
    const host = `127.0.0.1:${server.url.port}`;
    for (const origin of [
      'http://evil.com',
      'https://evil.com',
      'null',
      'file://',
      `http://127.0.0.1.evil.com:${server.url.port}`,
    ]) {
      const r = await post(server.url, { host, origin });
      expect(r.status, origin).toBe(403);
      expect(r.body).not.toContain('skill_search');
    }
    for (const origin of [
      `http://localhost:${server.url.port}`,
      `http://127.0.0.1:${server.url.port}`,
      'http://LOCALHOST:3000',
    ]) {
      expect((await post(server.url, { host, origin })).status, origin).toBe(200);
    }
  });

  it('Host names are compared without case; a loopback Host on another port is refused', async () => {
    const port = server.url.port;
    for (const host of [
      `LOCALHOST:${port}`,
      `LocalHost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
    ]) {
      expect((await post(server.url, { host })).status, host).toBe(200);
    }
    for (const host of [
      `localhost:${Number(port) + 1}`,
      `evil.example:${port}`,
      `LOCALHOST.evil.example:${port}`,
    ]) {
      expect((await post(server.url, { host })).status, host).toBe(403);
    }
  });

  it('--host 127.0.0.2 is loopback: DNS-rebinding protection stays on', async () => {
    const other = await startHttp([
      '--catalog',
      cat.catalog,
      '--no-telemetry',
      '--host',
      '127.0.0.2',
    ]);
    expect(other.url.hostname).toBe('127.0.0.2');
    expect((await post(other.url, { host: `evil.example:${other.url.port}` })).status).toBe(403);
    expect((await post(other.url, { host: `127.0.0.2:${other.url.port}` })).status).toBe(200);
  });
});

describe('skilldex mcp --http: bearer token', () => {
  it('with SKILLDEX_MCP_TOKEN every request needs the token (401 without, with WWW-Authenticate)', async () => {
    const server = await startHttp(['--catalog', cat.catalog, '--no-telemetry'], {
      env: { SKILLDEX_MCP_TOKEN: TOKEN },
    });
    const host = `127.0.0.1:${server.url.port}`;
    const none = await post(server.url, { host });
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.body).not.toContain('skill_search');
    expect(
      (await post(server.url, { host, authorization: 'Bearer wrong-token-of-some-length' })).status,
    ).toBe(401);
    expect((await post(server.url, { host, authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    // The SDK client with the header set searches as usual.
    const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(server.url, {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      }),
    );
    const found = await search(client, 'merge pdf files');
    expect(found.candidates[0]?.skill_id).toBe('pdf-toolkit');
    await client.close();
  });

  it('--token-file lets a non-loopback bind start; without a token it is refused with exit 2', async () => {
    const file = path.join(tmpDir(), 'token');
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    const open = await startHttp([
      '--catalog',
      cat.catalog,
      '--no-telemetry',
      '--host',
      '0.0.0.0',
      '--token-file',
      file,
    ]);
    expect(
      (
        await post(new URL(`http://127.0.0.1:${open.url.port}/mcp`), {
          host: `127.0.0.1:${open.url.port}`,
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await post(new URL(`http://127.0.0.1:${open.url.port}/mcp`), {
          authorization: `Bearer ${TOKEN}`,
        })
      ).status,
    ).toBe(200);
    await open.stop();

    const refused = await runCli([
      'mcp',
      '--catalog',
      cat.catalog,
      '--http',
      '0',
      '--host',
      '0.0.0.0',
      '--json',
    ]);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: { option: '--host' } },
    });
    const short = path.join(tmpDir(), 'short');
    writeFileSync(short, 'abc\n', { mode: 0o600 });
    const weak = await runCli([
      'mcp',
      '--catalog',
      cat.catalog,
      '--http',
      '0',
      '--token-file',
      short,
      '--json',
    ]);
    expect(weak.code).toBe(2);
    expect(JSON.parse(weak.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('skilldex mcp --http: round 3', () => {
  it('/healthz answers loopback Hosts only: a rebinding page cannot read the generation', async () => {
    const server = await startHttp(['--catalog', cat.catalog, '--no-telemetry'], {
      env: { SKILLDEX_MCP_TOKEN: TOKEN },
    });
    const port = server.url.port;
    const health = new URL(`http://127.0.0.1:${port}/healthz`);
    const ok = await post(health, { host: `localhost:${port}` }, 'GET');
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('catalog_generation');
    for (const headers of [
      { host: `evil.example:${port}` } as Record<string, string>,
      { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
    ]) {
      const r = await post(health, headers, 'GET');
      expect(r.status, JSON.stringify(headers)).toBe(403);
      expect(r.body).not.toContain('sha256:');
    }
  });

  it('a busy port is PORT_IN_USE (exit 2), never an internal fault', async () => {
    const blocker = createNetServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = await runCli([
        'mcp',
        '--catalog',
        cat.catalog,
        '--http',
        String(port),
        '--no-telemetry',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({
        error: { code: 'PORT_IN_USE', details: { port } },
      });
      expect(r.stderr).not.toMatch(/INTERNAL|\n\s+at /);
    } finally {
      blocker.close();
    }
  });

  it('--host [::1] binds the IPv6 loopback and answers on it', async () => {
    const server = await startHttp(['--catalog', cat.catalog, '--no-telemetry', '--host', '[::1]']);
    expect(server.url.hostname).toBe('[::1]');
    expect((await post(server.url, { host: `[::1]:${server.url.port}` })).status).toBe(200);
    expect((await post(server.url, { host: `evil.example:${server.url.port}` })).status).toBe(403);
  });
});

describe('a catalog with damaged pages under a running server', () => {
  it('skill_search answers CATALOG_CORRUPT as a coded tool error, and the server keeps answering', async () => {
    const own = await makeCatalog();
    const conn = await connectStdio(['--catalog', own.catalog, '--no-telemetry']);
    expect((await search(conn.client, 'merge pdf files')).candidates.length).toBeGreaterThan(0);
    // A damaged copy renamed over the catalog: the header and schema pages are intact (it opens),
    // the serving tables are junk.
    const bad = `${own.catalog}.bad`;
    copyFileSync(own.catalog, bad);
    const bytes = readFileSync(bad);
    const size = bytes.readUInt16BE(16);
    const page = size === 1 ? 65536 : size;
    for (let o = page; o < bytes.length; o += page) bytes.fill(0xa5, o + 8, o + page - 8);
    writeFileSync(bad, bytes);
    renameSync(bad, own.catalog);
    const r = await call(conn.client, 'skill_search', { query: 'merge pdf files' });
    expect(toolError(r).code).toBe('CATALOG_CORRUPT');
    expect(toolError(await call(conn.client, 'skill_search', { query: 'pdf' })).code).toBe(
      'CATALOG_CORRUPT',
    );
  });
});

describe('a catalog rebuilt under a running server', () => {
  it('is served from its new identity, after the server saw the old file go to sequence 2', async () => {
    const own = await makeCatalog();
    await operator(own, 'deprecate', 'pdf-toolkit');
    const conn = await connectStdio(['--catalog', own.catalog, '--no-telemetry']);
    const before = await search(conn.client, 'merge pdf files');
    // The operator rebuilds the catalog from scratch in a new file (sequence 1) and renames it over.
    const rebuilt = path.join(tmpDir(), 'catalog.sqlite');
    expect(
      (await runCli(['index', '--catalog', rebuilt, '--scope', own.skills, '--json'])).code,
    ).toBe(0);
    renameSync(rebuilt, own.catalog);
    const after = await search(conn.client, 'merge pdf files');
    expect(after.catalog_generation).not.toBe(before.catalog_generation);
    expect(after.candidates[0]?.skill_id).toBe('pdf-toolkit');
  });
});
