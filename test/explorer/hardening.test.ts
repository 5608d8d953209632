/**
 * Hardening round 3 of the explorer (issue 25): a malformed token cookie is 401, never 500; a path
 * such as `//evil.example/x?token=T` never redirects off the origin (nothing redirects at all); a
 * damaged catalog answers 503 CATALOG_CORRUPT as the CLI and MCP do; a busy port is PORT_IN_USE and
 * `[::1]` binds the IPv6 loopback.
 */
import { copyFileSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import Database from 'better-sqlite3';
import { runCli } from '../support/cli.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, makeLibrary, raw, startOver, type Library, type Running } from './support.js';

const TOKEN = 'explorer-token-0123456789';

let lib: Library;
let guarded: Running;
beforeAll(async () => {
  lib = makeLibrary();
  guarded = await startOver(lib, { token: TOKEN });
});
afterAll(async () => {
  await guarded.close();
});

describe('the token', () => {
  it('in a malformed cookie is 401 UNAUTHORIZED, never 500', async () => {
    for (const cookie of [
      'skilldex_token=%E0%A4%A',
      'skilldex_token=%',
      `skilldex_token=${TOKEN}%`,
    ]) {
      for (const p of ['/', '/api/policies']) {
        const r = await raw(guarded.base, p, { headers: { cookie } });
        expect(r.status, `${p} ${cookie}`).not.toBe(500);
        if (p.startsWith('/api/')) expect(errorOf(r).code).toBe('UNAUTHORIZED');
      }
    }
  });

  it('in the query of a protocol-relative path never redirects off the origin', async () => {
    for (const p of [
      `//evil.example/x?token=${TOKEN}`,
      `/\\evil.example/x?token=${TOKEN}`,
      `//evil.example/%2e%2e?token=${TOKEN}`,
    ]) {
      const r = await raw(guarded.base, p);
      expect(r.status >= 300 && r.status < 400, `${p}: ${r.status}`).toBe(false);
      expect(r.headers['location'], p).toBeUndefined();
    }
  });
});

describe('a damaged catalog under a running explorer', () => {
  it('answers 503 CATALOG_CORRUPT, and the server keeps answering', async () => {
    const own = makeLibrary();
    const srv = await startOver(own);
    try {
      expect((await raw(srv.base, '/api/search?q=pdf')).status).toBe(200);
      const bad = `${own.catalog}.bad`;
      copyFileSync(own.catalog, bad);
      const bytes = readFileSync(bad);
      // The page size is the header's (1 means 65536). Every page after the first is damaged: the
      // schema (page 1) still opens, every table read meets the damage, whatever the page size.
      const size = bytes.readUInt16BE(16);
      const page = size === 1 ? 65536 : size;
      for (let o = page; o < bytes.length; o += page) bytes.fill(0xa5, o + 8, o + page - 8);
      writeFileSync(bad, bytes);
      renameSync(bad, own.catalog);
      for (const p of ['/api/search?q=pdf', '/api/skills', '/api/overview']) {
        const r = await raw(srv.base, p);
        expect(r.status, p).toBe(503);
        expect(errorOf(r).code, p).toBe('CATALOG_CORRUPT');
      }
      expect((await raw(srv.base, '/')).status).toBe(200);
    } finally {
      await srv.close();
    }
  });
});

describe('catalog data that skilldex did not write', () => {
  it.each([
    [
      `UPDATE generations SET counts = '{'`,
      ['/api/search?q=pdf', '/api/overview', '/api/generations'],
    ],
    [`UPDATE serving_docs SET sums = '{'`, ['/api/search?q=pdf']],
    [`UPDATE serving_docs SET data = x'000000'`, ['/api/search?q=pdf']],
    [`UPDATE revisions SET frontmatter = '{'`, ['/api/skills/pdf-toolkit']],
  ])('%s answers 503 CATALOG_CORRUPT, never 500; the CLI exits 3, never 70', async (sql, paths) => {
    const own = makeLibrary();
    const db = new Database(own.catalog);
    db.exec(sql);
    db.close();
    const srv = await startOver(own);
    try {
      for (const p of paths) {
        const r = await raw(srv.base, p);
        expect(r.status, p).toBe(503);
        expect(errorOf(r).code, p).toBe('CATALOG_CORRUPT');
      }
    } finally {
      await srv.close();
    }
    const cli = await runCli(['search', 'pdf', '--catalog', own.catalog, '--json'], {
      env: { HOME: own.dir },
    });
    if (sql.includes('revisions')) return;
    expect(cli.code, cli.stdout).toBe(3);
    expect(JSON.parse(cli.stdout)).toMatchObject({ error: { code: 'CATALOG_CORRUPT' } });
  });
});

describe('binding', () => {
  it('a busy port is PORT_IN_USE, not an internal fault', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      await expect(startOver(lib, { port })).rejects.toMatchObject({ code: 'PORT_IN_USE' });
    } finally {
      blocker.close();
    }
  });

  it('binds [::1] and answers on it', async () => {
    const v6 = await startOver(lib, { host: '[::1]' });
    try {
      expect(v6.handle.url).toMatch(/^http:\/\/\[::1\]:\d+\/$/);
      const r = await raw(new URL(v6.handle.url), '/api/policies', {
        headers: { host: `[::1]:${v6.handle.port}` },
      });
      expect(r.status).toBe(200);
    } finally {
      await v6.close();
    }
  });
});
