/**
 * A PostgreSQL database that falls silent without closing the connection (issue 25): every
 * command is bounded by the connection's statement timeout plus DEADLINE_MARGIN_MS, so a query
 * through a proxy that stops forwarding answers CATALOG_UNAVAILABLE instead of holding the process
 * forever, and once the proxy forwards again the next call after the backoff connects anew and
 * answers. The proxy runs in its own process: this one blocks while it waits.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { PgDb } from '../../src/catalog/store/pg.js';
import { Router, indexCatalog } from '../../src/internal.js';
import { REPO } from '../support/cli.js';
import { freshPgDatabase, hasPg } from '../support/pg.js';
import { startSilentProxy, type SilentProxy } from '../support/proxy.js';

const proxies: SilentProxy[] = [];
afterAll(() => {
  for (const p of proxies) p.stop();
});

describe.skipIf(!hasPg())('a database that falls silent', () => {
  it('answers CATALOG_UNAVAILABLE within the deadline, then recovers', async () => {
    const direct = freshPgDatabase();
    indexCatalog({ catalog: direct, scopes: [path.join(REPO, 'examples', 'skills')] });
    const admin = new URL(inject('pgUrl'));
    const proxy = await startSilentProxy(Number(admin.port));
    proxies.push(proxy);
    const through = new URL(direct);
    through.port = String(proxy.port);
    // A short statement timeout keeps the test short: the deadline is 300 + 1000 ms.
    const options = `${through.searchParams.get('options')} -cstatement_timeout=300`;
    const catalog = `postgres://${through.username}@${through.host}${through.pathname}?options=${encodeURIComponent(options)}`;
    const router = new Router({ catalog, telemetry: false });
    try {
      expect(router.search({ query: 'merge pdf files' }).candidates.length).toBeGreaterThan(0);
      await proxy.silence();
      const t0 = Date.now();
      expect(() => router.search({ query: 'extract tables' })).toThrow(
        expect.objectContaining({ code: 'CATALOG_UNAVAILABLE' }),
      );
      // Bounded: nowhere near a hang (the deadline is 1.3 s; generous for two busy cores).
      expect(Date.now() - t0).toBeLessThan(30_000);
      await proxy.resume();
      let answered = false;
      for (let i = 0; i < 100 && !answered; i++) {
        try {
          answered = router.search({ query: 'merge pdf files' }).candidates.length > 0;
        } catch (err) {
          expect(err).toMatchObject({ code: 'CATALOG_UNAVAILABLE' });
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(answered).toBe(true);
    } finally {
      router.close();
    }
  });

  it('bounds a connection that goes silent at its start too', async () => {
    const admin = new URL(inject('pgUrl'));
    const proxy = await startSilentProxy(Number(admin.port));
    proxies.push(proxy);
    await proxy.silence();
    const url = new URL(admin.toString());
    url.port = String(proxy.port);
    url.search = '?connect_timeout=2';
    expect(() => new PgDb(url.toString())).toThrow(
      expect.objectContaining({ code: 'CATALOG_UNAVAILABLE' }),
    );
  });
});
