/**
 * Retired policies (issue 33 item 2, docs/ranking.md "Retired policies"): hybrid-lexical.v2 and
 * bm25f.v3 are gone. `index --policy` and `publish --policy` of either are refused with
 * POLICY_RETIRED (exit 2) naming the live policies, before the catalog is created or touched; a
 * catalog whose published generation an older skilldex wrote under either answers
 * REINDEX_REQUIRED (exit 2) from search, status and MCP's skill_search, the message naming the
 * catalog and the hint the command that upgrades it, and that command works.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY_ID,
  POLICIES,
  POLICY_ID,
  POLICY_V4_ID,
  POLICY_V5_ID,
  RETIRED_POLICIES,
  Router,
  indexCatalog,
  publishCatalog,
} from '../../src/internal.js';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { NOW, ON_PG, codeOf } from '../catalog/support.js';
import { call, closeAll, connectInProcess, toolError } from '../mcp/support.js';
import { reindexCommand } from '../../src/router/search/policies/index.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
const V2 = 'tf.skillrouter.hybrid-lexical.v2';
const V3 = 'tf.skillrouter.bm25f.v3';

afterAll(closeAll);

describe('retired policies', () => {
  it('the live policies are v1, v4 and v5 (the default); v2 and v3 are retired, each upgraded to the default', () => {
    expect([...POLICIES.keys()].sort()).toEqual([POLICY_ID, POLICY_V4_ID, POLICY_V5_ID].sort());
    expect(DEFAULT_POLICY_ID).toBe(POLICY_V5_ID);
    expect(Object.fromEntries(RETIRED_POLICIES)).toEqual({
      [V2]: DEFAULT_POLICY_ID,
      [V3]: DEFAULT_POLICY_ID,
    });
  });

  it.each([V2, V3])(
    'index --policy %s is POLICY_RETIRED (exit 2) naming the live policies; no catalog is made',
    async (retired) => {
      const catalog = path.join(tmpDir('skilldex-retired-'), 'catalog.sqlite');
      const r = await runCli([
        'index',
        '--catalog',
        catalog,
        '--scope',
        EXAMPLES,
        '--policy',
        retired,
        '--json',
      ]);
      expect(r.code).toBe(2);
      const e = (JSON.parse(r.stdout) as { error: { code: string; message: string } }).error;
      expect(e.code).toBe('POLICY_RETIRED');
      expect(e.message).toContain(retired);
      expect(e.message).toContain(POLICY_V4_ID);
      expect(e.message).toContain(POLICY_ID);
      expect(existsSync(catalog)).toBe(false);
    },
  );

  it('the upgrade command quotes a catalog path that is not one plain shell word, invisible characters escaped', () => {
    expect(reindexCommand('/tmp/cat.sqlite', V3)).toBe(
      `skilldex index --catalog /tmp/cat.sqlite --policy ${DEFAULT_POLICY_ID}`,
    );
    expect(reindexCommand("/tmp/my cat's/c.sqlite", V2)).toBe(
      `skilldex index --catalog '/tmp/my cat'\\''s/c.sqlite' --policy ${DEFAULT_POLICY_ID}`,
    );
    expect(reindexCommand('/tmp/a\u202eb.sqlite', V3)).not.toContain('\u202e');
  });

  it('every doc that quotes the upgrade command names the default policy, as the hint does', () => {
    const files = [
      path.join(REPO, 'README.md'),
      ...readdirSync(path.join(REPO, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => path.join(REPO, 'docs', f)),
    ];
    // The command as the docs write it (`--catalog FILE` / `<catalog>`), and the shorter
    // "until `… index --policy ID`" of the migration notes.
    const quoted =
      /index --catalog (?:FILE|<catalog>) --policy ([\w.-]+)|until `(?:skilldex )?index --policy ([\w.-]+)`/g;
    const found: string[] = [];
    for (const file of files) {
      for (const m of readFileSync(file, 'utf8').matchAll(quoted)) {
        found.push(`${path.basename(file)}: ${m[1] ?? m[2]!}`);
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(5);
    expect(found).toEqual(found.map((f) => f.replace(/: \S+$/, `: ${DEFAULT_POLICY_ID}`)));
  });

  it('publish --policy of a retired policy is POLICY_RETIRED and leaves the catalog as it was', () => {
    const catalog = path.join(tmpDir('skilldex-retired-pub-'), 'catalog.sqlite');
    indexCatalog({ catalog, scopes: [EXAMPLES], now: NOW, policy: POLICY_V4_ID });
    const router = new Router({ catalog, telemetry: false, now: NOW });
    const before = router.search({ query: 'extract tables from a pdf' });
    expect(codeOf(() => publishCatalog({ catalog, now: NOW, policy: V3 }))).toBe('POLICY_RETIRED');
    expect(router.search({ query: 'extract tables from a pdf' })).toEqual(before);
    router.close();
  });
});

// A catalog as an older skilldex left it: published under `retired`. The catalog is indexed under
// v1, whose data (FTS5, and bodies and postings read as v3 read them) is what a v2 or v3 catalog
// held, and its generation row and remembered policy are then written as the old code wrote them
// (the policy is a column of the generation row and the `policy` meta row).
function oldCatalog(retired: string): string {
  const catalog = path.join(tmpDir('skilldex-retired-old-'), 'catalog.sqlite');
  indexCatalog({ catalog, scopes: [EXAMPLES], now: NOW, policy: POLICY_ID });
  const db = new Database(catalog);
  try {
    db.prepare('UPDATE generations SET policy = ?').run(retired);
    db.prepare(`UPDATE meta SET value = ? WHERE key = 'policy'`).run(retired);
  } finally {
    db.close();
  }
  return catalog;
}

describe.skipIf(ON_PG)('a catalog published under a retired policy', () => {
  it.each([V2, V3])(
    '%s: search is REINDEX_REQUIRED naming the catalog, with the command',
    (retired) => {
      const catalog = oldCatalog(retired);
      const router = new Router({ catalog, telemetry: false, now: NOW });
      let thrown: unknown;
      try {
        router.search({ query: 'extract tables from a pdf' });
      } catch (err) {
        thrown = err;
      }
      router.close();
      const e = thrown as { code: string; message: string; hint: string; details: object };
      expect(e.code).toBe('REINDEX_REQUIRED');
      expect(e.message).toContain(catalog);
      expect(e.message).toContain(retired);
      expect(e.hint).toBe(`run skilldex index --catalog ${catalog} --policy ${DEFAULT_POLICY_ID}`);
      expect(e.details).toMatchObject({ catalog, policy: retired, replaced_by: DEFAULT_POLICY_ID });
    },
  );

  it('search and status exit 2 with REINDEX_REQUIRED; the command in the hint upgrades the catalog', async () => {
    const catalog = oldCatalog(V3);
    const s = await runCli(['search', 'extract tables', '--catalog', catalog, '--json']);
    expect(s.code).toBe(2);
    const se = (JSON.parse(s.stdout) as { error: { code: string; hint: string } }).error;
    expect(se.code).toBe('REINDEX_REQUIRED');
    const st = await runCli(['status', '--catalog', catalog, '--json']);
    expect(st.code).toBe(2);
    const ste = (JSON.parse(st.stdout) as { error: { code: string; hint: string } }).error;
    expect(ste.code).toBe('REINDEX_REQUIRED');
    // The hint's command, as given (its scopes are the ones the catalog remembers).
    const command = ste.hint.replace(/^run skilldex /, '').split(' ');
    expect(command).toEqual(['index', '--catalog', catalog, '--policy', DEFAULT_POLICY_ID]);
    const up = await runCli([...command, '--json']);
    expect(up.code).toBe(0);
    const after = await runCli(['search', 'extract tables', '--catalog', catalog, '--json']);
    expect(after.code).toBe(0);
    expect((JSON.parse(after.stdout) as { policy: string }).policy).toBe(DEFAULT_POLICY_ID);
  });

  it("MCP's skill_search answers REINDEX_REQUIRED with the command in its hint", async () => {
    const catalog = oldCatalog(V2);
    const conn = await connectInProcess({ catalog });
    const e = toolError(await call(conn.client, 'skill_search', { query: 'extract tables' }));
    expect(e.code).toBe('REINDEX_REQUIRED');
    expect(e.hint).toContain(`skilldex index --catalog ${catalog} --policy ${DEFAULT_POLICY_ID}`);
  });
});
