/**
 * A fault inside a route (a bug, not a bad request) is answered 500 INTERNAL with the error object,
 * logged, and the app goes on answering (issue 15). Uses the app directly with a router whose
 * calls throw; HEAD is answered like GET without a body.
 */
import { describe, expect, it } from 'vitest';
import { createExplorerApp } from '../../src/explorer/app.js';
import type { ExplorerContext } from '../../src/explorer/api.js';
import { pageAssets } from './support.js';

describe('an internal fault', () => {
  it('becomes 500 INTERNAL, is logged, and the next request is answered', async () => {
    const logged: string[] = [];
    const broken = {
      router: {
        getSkill: () => {
          throw new TypeError('boom');
        },
      },
    } as unknown as ExplorerContext;
    const app = createExplorerApp(broken, () => ({ bindHost: '127.0.0.1', port: 80 }), {
      assetsDir: pageAssets(),
      log: (l) => logged.push(l),
    });
    const headers = { host: 'localhost' };
    const r = await app.request('http://localhost/api/skills/x', { headers });
    expect(r.status).toBe(500);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('INTERNAL');
    expect(logged.join('\n')).toContain('boom');
    const page = await app.request('http://localhost/', { headers });
    expect(page.status).toBe(200);
    const head = await app.request('http://localhost/', { method: 'HEAD', headers });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('a damaged catalog found inside a route', () => {
  it('answers 503 CATALOG_CORRUPT (the SQLite code mapped as the CLI and MCP map it), not 500', async () => {
    const logged: string[] = [];
    const damaged = {
      router: {
        getSkill: () => {
          throw Object.assign(new Error('database disk image is malformed'), {
            code: 'SQLITE_CORRUPT',
          });
        },
      },
    } as unknown as ExplorerContext;
    const app = createExplorerApp(damaged, () => ({ bindHost: '127.0.0.1', port: 80 }), {
      assetsDir: pageAssets(),
      log: (l) => logged.push(l),
    });
    const r = await app.request('http://localhost/api/skills/x', {
      headers: { host: 'localhost' },
    });
    expect(r.status).toBe(503);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('CATALOG_CORRUPT');
    expect(logged).toEqual([]);
  });
});
