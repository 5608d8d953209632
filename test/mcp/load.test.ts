/**
 * The load test of issue #16 at a small scale: bench/load/harness.ts `runLoad` starts built
 * `skilldex mcp --http` servers on one catalog, drives 400+ skill_search calls from 10 clients
 * through a round-robin balancer while an operator publishes twice (changed skill files between),
 * `kill -9`s one server and fetches with stale pins. The invariants: no app-level error, every
 * answer from a generation the operator published, every stale pin answered
 * CATALOG_GENERATION_MISMATCH, the killed server's connections failed over, and afterwards every
 * surviving server serves the last publish (nothing published lost) and says so on /healthz. No
 * timing is asserted.
 *
 * It runs on SQLite (2 servers) and on PostgreSQL (3 servers, and the database restarted mid-run
 * with `pg_ctl restart -m fast`: CATALOG_UNAVAILABLE answers meanwhile are retried by the balancer
 * and every call must still be answered). PostgreSQL is a throwaway cluster of this file's own, so
 * the restart never reaches another test file; without PostgreSQL's server binaries the case is
 * skipped, except under CI, where that fails. With `SKILLDEX_TEST_PG_URL` set (an external server)
 * the case runs in a fresh schema there, restarted by the shell command `SKILLDEX_TEST_PG_RESTART`
 * when one is given.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionLost, LoadBalancer } from '../../bench/load/balancer.js';
import { killAll, maskLocation } from '../../bench/load/cluster.js';
import { STALE_PIN_CODE, runLoad, type LoadReport } from '../../bench/load/harness.js';
import { startLoadCluster } from '../../bench/load/postgres.js';
import { tmpDir } from '../support/cli.js';
import { findPgBin } from '../support/pg-cluster.js';
import { freshPgDatabase } from '../support/pg.js';

/** Where one case's catalog lives, and how to restart its database (PostgreSQL). */
interface Placed {
  readonly catalog: string;
  readonly restart?: () => Promise<void>;
  readonly teardown?: () => void;
}

interface Location {
  readonly backend: string;
  readonly servers: number;
  /** Skipped when false (no PostgreSQL here). */
  readonly available: boolean;
  place(dir: string): Promise<Placed>;
}

const externalPg = process.env['SKILLDEX_TEST_PG_URL'];
const externalRestart = process.env['SKILLDEX_TEST_PG_RESTART'];
const pgBin = findPgBin();
if (!pgBin && !externalPg && process.env['CI'])
  throw new Error('CI must run the PostgreSQL load test: PostgreSQL server binaries not found');

const LOCATIONS: Location[] = [
  {
    backend: 'sqlite',
    servers: 2,
    available: true,
    place: (dir) => Promise.resolve({ catalog: path.join(dir, 'catalog.sqlite') }),
  },
  {
    backend: 'postgresql',
    servers: 3,
    available: pgBin !== undefined || (externalPg !== undefined && externalPg !== ''),
    place: async () => {
      if (externalPg !== undefined && externalPg !== '') {
        return {
          catalog: freshPgDatabase('skilldex_load'),
          ...(externalRestart !== undefined && externalRestart !== ''
            ? {
                restart: async () => {
                  await promisify(execFile)('sh', ['-c', externalRestart]);
                },
              }
            : {}),
        };
      }
      const pg = await startLoadCluster();
      if (!pg) throw new Error('PostgreSQL server binaries not found');
      return { catalog: pg.url, restart: pg.restart, teardown: pg.stop };
    },
  },
];

afterAll(killAll);

describe.each(LOCATIONS)(
  'load on $backend: $servers servers, 10 clients, 2 publishes, kill -9',
  (loc) => {
    let report: LoadReport;
    let placed: Placed | undefined;
    const dir = tmpDir('skilldex-load-');

    afterAll(() => {
      placed?.teardown?.();
      rmSync(dir, { recursive: true, force: true });
    });

    // Alone the SQLite case takes 7-45 s here and the PostgreSQL one 17-50 s (the machine is
    // shared); the limits are for a full suite on two cores other work shares, where a call may
    // wait its turn for long: the per-call timeout only guards against a hang.
    beforeAll(async () => {
      if (!loc.available) return;
      placed = await loc.place(dir);
      report = await runLoad({
        catalog: placed.catalog,
        workDir: dir,
        skills: 200,
        servers: loc.servers,
        calls: 400,
        clients: 10,
        staleEvery: 50,
        edits: { edit: 6, add: 2, remove: 2 },
        callTimeoutMs: 120_000,
        ...(placed.restart !== undefined ? { restart: placed.restart } : {}),
      });
    }, 300_000);

    it.runIf(loc.available)('answers every call without an app-level error', () => {
      expect(report.error_samples).toEqual([]);
      expect(report.app_errors).toBe(0);
      expect(report.calls).toBeGreaterThanOrEqual(400);
    });

    it.runIf(loc.available)(
      'answers only from generations the operator published, all listed by skilldex generations',
      () => {
        expect(report.published).toHaveLength(3);
        expect(new Set(report.published).size).toBe(3);
        expect(report.published_listed).toBe(true);
        expect(report.unknown_generations).toEqual([]);
        expect(report.answered_generations[report.published[0]!]).toBeGreaterThan(0);
      },
    );

    it.runIf(loc.available)(`answers every fetch with a stale pin ${STALE_PIN_CODE}`, () => {
      // One after each publish at least, more from the clients.
      expect(report.stale_pin.calls).toBeGreaterThanOrEqual(2);
      expect(report.stale_pin.mismatch).toBe(report.stale_pin.calls);
    });

    it.runIf(loc.available)('fails over from the killed server; no other server dies', () => {
      expect(report.killed).toBe(loc.servers - 1);
      expect(report.failovers).toBeGreaterThanOrEqual(1);
      expect(report.crashed).toEqual([]);
    });

    it.runIf(loc.available)(
      'loses nothing published: every survivor serves every publish from the last generation',
      () => {
        const last = report.published[report.published.length - 1];
        // Two edited skills and one added skill per publish, asked of each surviving server.
        expect(report.final).toHaveLength(6 * (loc.servers - 1));
        for (const f of report.final) {
          expect(f.server).not.toBe(report.killed);
          expect(f.generation).toBe(last);
          expect(f.top).toBe(f.expected);
          expect(f.fetch).toBe('ok');
        }
        expect(report.health).toHaveLength(loc.servers - 1);
        for (const h of report.health)
          expect(h).toMatchObject({ status: 200, catalog_generation: last });
      },
    );

    it.runIf(
      loc.available && loc.backend === 'postgresql' && (pgBin !== undefined || externalRestart),
    )('recovers from the database restart: every live server answers again, no call lost', () => {
      expect(report.restart.ran).toBe(true);
      expect(report.restart.recovered_ms).not.toBeNull();
      expect(report.events.map((e) => e.what)).toContain('restart hook ended');
      // Calls during the restart were answered CATALOG_UNAVAILABLE, tried again and answered.
      expect(report.unavailable_calls).toBeLessThanOrEqual(report.unavailable);
    });
  },
);

describe('maskLocation', () => {
  it('hides the password of a URL and leaves a file path alone', () => {
    expect(maskLocation('postgres://skilldex:s3cret@127.0.0.1:5433/cat')).toBe(
      'postgres://skilldex:***@127.0.0.1:5433/cat',
    );
    expect(maskLocation('postgres://skilldex@host/cat')).toBe('postgres://skilldex@host/cat');
    expect(maskLocation('/tmp/a:b@c/catalog.sqlite')).toBe('/tmp/a:b@c/catalog.sqlite');
  });
});

// A stand-in MCP endpoint: answers every POST with `status` and a skill_search-shaped result.
async function fakeServer(status: number): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          result: { structuredContent: { catalog_generation: 'sha256:g', candidates: [] } },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

// A stand-in that answers its first `unavailable` POSTs with a CATALOG_UNAVAILABLE tool error
// (as skilldex shapes one: src/mcp/context.ts), then with a result.
async function flakyServer(unavailable: number): Promise<{ url: string; server: Server }> {
  let n = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const error = { code: 'CATALOG_UNAVAILABLE', message: 'the database is restarting' };
      const result =
        n++ < unavailable
          ? {
              isError: true,
              content: [{ type: 'text', text: JSON.stringify(error) }],
              _meta: { 'dev.skilldex/error': error },
            }
          : { structuredContent: { catalog_generation: 'sha256:g', candidates: [] } };
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: 1, result }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, server };
}

describe('LoadBalancer', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((s) => s.close()));

  it('retries a refused connection once on the next server, counts a failover, drops the dead one', async () => {
    const gone = await fakeServer(200);
    await new Promise((r) => gone.server.close(r));
    const live = await fakeServer(200);
    servers.push(live.server);
    const lb = new LoadBalancer(
      [
        { index: 0, url: gone.url },
        { index: 1, url: live.url },
      ],
      { timeoutMs: 5_000 },
    );
    const first = await lb.call('skill_search', { query: 'x' });
    expect(first).toMatchObject({ server: 1, failedOver: true, answer: { ok: true } });
    expect(lb.failovers).toBe(1);
    expect(lb.live()).toEqual([1]);
    const second = await lb.call('skill_search', { query: 'x' });
    expect(second).toMatchObject({ server: 1, failedOver: false });
    expect(lb.failovers).toBe(1);
  });

  it('tries a failed server again once its retry period is over', async () => {
    const gone = await fakeServer(200);
    await new Promise((r) => gone.server.close(r));
    const live = await fakeServer(200);
    servers.push(live.server);
    // Period 0: the dead server is back in the rotation at once, and fails over again each turn.
    const lb = new LoadBalancer(
      [
        { index: 0, url: gone.url },
        { index: 1, url: live.url },
      ],
      { timeoutMs: 5_000, retryAfterMs: 0 },
    );
    for (let k = 0; k < 2; k++) await lb.call('skill_search', { query: 'x' });
    expect(lb.failovers).toBe(2);
  });

  it('does not fail over on an HTTP error: the caller counts it as an error', async () => {
    const broken = await fakeServer(500);
    const live = await fakeServer(200);
    servers.push(broken.server, live.server);
    const lb = new LoadBalancer(
      [
        { index: 0, url: broken.url },
        { index: 1, url: live.url },
      ],
      { timeoutMs: 5_000 },
    );
    await expect(lb.call('skill_search', { query: 'x' })).rejects.toThrow(/HTTP 500/);
    expect(lb.failovers).toBe(0);
    expect(lb.live()).toEqual([0, 1]);
  });

  it('gives up with ConnectionLost when no server answers, yet never takes its only server out', async () => {
    const only = await fakeServer(200);
    await new Promise((r) => only.server.close(r));
    const lb = new LoadBalancer([{ index: 0, url: only.url }], { timeoutMs: 5_000 });
    await expect(lb.call('skill_search', { query: 'x' })).rejects.toBeInstanceOf(ConnectionLost);
    expect(lb.live()).toEqual([]);
    // The server comes back on its port: the next call reaches it, inside the retry period.
    await new Promise<void>((r) =>
      only.server.listen(Number(new URL(only.url).port), '127.0.0.1', r),
    );
    servers.push(only.server);
    expect(await lb.call('skill_search', { query: 'x' })).toMatchObject({
      server: 0,
      answer: { ok: true },
    });
  });

  it('tries a CATALOG_UNAVAILABLE answer again after a pause until it is answered, and says so', async () => {
    const flaky = await flakyServer(2);
    servers.push(flaky.server);
    const seen: string[] = [];
    const lb = new LoadBalancer([{ index: 0, url: flaky.url }], {
      timeoutMs: 5_000,
      retryCodes: ['CATALOG_UNAVAILABLE'],
      onRetry: (server, code) => seen.push(`${server}:${code}`),
    });
    expect(await lb.call('skill_search', { query: 'x' })).toMatchObject({
      answer: { ok: true },
      retries: 2,
    });
    expect(seen).toEqual(['0:CATALOG_UNAVAILABLE', '0:CATALOG_UNAVAILABLE']);
    expect(lb.retried).toBe(2);
  });

  it('returns the retryable answer once retryForMs is spent, and never retries other codes', async () => {
    const flaky = await flakyServer(1_000);
    servers.push(flaky.server);
    const lb = new LoadBalancer([{ index: 0, url: flaky.url }], {
      timeoutMs: 5_000,
      retryCodes: ['CATALOG_UNAVAILABLE'],
      retryForMs: 250,
    });
    const r = await lb.call('skill_search', { query: 'x' });
    expect(r.answer).toMatchObject({ ok: false, code: 'CATALOG_UNAVAILABLE' });
    // A pause of 100 ms fits in 250 ms; pauses of 100 + 200 do not.
    expect(r.retries).toBeGreaterThanOrEqual(1);
    expect(r.retries).toBeLessThanOrEqual(2);
    const strict = new LoadBalancer([{ index: 0, url: flaky.url }], { timeoutMs: 5_000 });
    expect(await strict.call('skill_search', { query: 'x' })).toMatchObject({
      answer: { ok: false, code: 'CATALOG_UNAVAILABLE' },
      retries: 0,
    });
  });
});
