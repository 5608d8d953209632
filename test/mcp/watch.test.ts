/**
 * `skilldex mcp --watch` (issue #12): the built server on stdio, a real edit in its library; the
 * server re-indexes, serves the new revision without a restart, and the old pin gets the mismatch.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, skillMd } from '../support/cli.js';
import { call, closeAll, connectStdio, makeCatalog, pins, search, toolError } from './support.js';

afterAll(closeAll);

/** Polls `check` every 25 ms until it returns a value other than undefined; fails after `ms`. */
async function waitFor<T>(check: () => Promise<T | undefined>, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('skilldex mcp --watch', () => {
  it('serves added, edited and deleted skills without a restart', async () => {
    const cat = await makeCatalog();
    const { client, stderr } = await connectStdio([
      '--catalog',
      cat.catalog,
      '--watch',
      '--no-telemetry',
    ]);
    await waitFor(async () => (stderr().includes('watching') ? true : undefined));

    const query = 'reconcile zebra ledger quarterly';
    expect((await search(client, query)).candidates.map((c) => c.skill_id)).not.toContain(
      'zebra-ledger',
    );
    const dir = path.join(cat.skills, 'zebra-ledger');
    mkdirSync(dir);
    writeFileSync(
      path.join(dir, 'SKILL.md'),
      skillMd('zebra-ledger', 'Reconcile the zebra ledger every quarter'),
    );
    const first = await waitFor(async () =>
      (await search(client, query)).candidates.find((c) => c.skill_id === 'zebra-ledger'),
    );

    writeFileSync(
      path.join(dir, 'SKILL.md'),
      skillMd('zebra-ledger', 'Reconcile the zebra ledger every quarter, with audit notes'),
    );
    const second = await waitFor(async () => {
      const c = (await search(client, query)).candidates.find((x) => x.skill_id === 'zebra-ledger');
      return c !== undefined && c.revision_id !== first.revision_id ? c : undefined;
    });
    expect(second.catalog_generation).not.toBe(first.catalog_generation);
    const stale = await call(client, 'skill_fetch', pins(first));
    expect(toolError(stale).code).toBe('CATALOG_GENERATION_MISMATCH');
    const fresh = await call(client, 'skill_fetch', pins(second));
    expect(fresh.isError, JSON.stringify(fresh.content)).toBeFalsy();

    rmSync(dir, { recursive: true });
    await waitFor(async () =>
      (await search(client, query)).candidates.some((c) => c.skill_id === 'zebra-ledger')
        ? undefined
        : true,
    );
    expect(stderr()).toMatch(/re-indexed: added 1/);
  });

  it('refuses --watch on a catalog that remembers no scopes', async () => {
    const cat = await makeCatalog();
    const other = path.join(cat.dir, 'other.sqlite');
    const r = await runCli(['mcp', '--catalog', other, '--watch', '--json'], {
      env: { HOME: cat.dir },
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('INVALID_ARGUMENT');
  });
});
