/**
 * Watch mode (issue #12): real file edits in a temporary scope; a watchCatalog re-indexes and
 * publishes, and a Router on the same catalog answers from the new generation without a restart.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Router,
  SkilldexError,
  indexCatalog,
  watchCatalog,
  type CatalogWatch,
  type IndexReport,
} from '../../src/internal.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { newCatalogPath, skillText } from '../catalog/support.js';

/** Polls `check` every 20 ms until it returns a value other than undefined; fails after `ms`. */
async function waitFor<T>(check: () => T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const open: { watch?: CatalogWatch; router?: Router }[] = [];

afterEach(async () => {
  for (const o of open.splice(0)) {
    o.router?.close();
    await o.watch?.close();
  }
});

/** A scope with three skills, indexed and published, a Router and a watch over it. */
async function setup(): Promise<{
  scope: string;
  catalog: string;
  router: Router;
  watch: CatalogWatch;
  reports: IndexReport[];
  errors: unknown[];
}> {
  const scope = tmpDir('skilldex-watch-');
  writeTree(scope, {
    'pdf-tables/SKILL.md': skillText('pdf-tables', {
      description: 'Extract tables from PDF documents',
    }),
    'kube-deploy/SKILL.md': skillText('kube-deploy', {
      description: 'Deploy services to a Kubernetes cluster',
    }),
    'csv-clean/SKILL.md': skillText('csv-clean', { description: 'Clean messy CSV spreadsheets' }),
  });
  const catalog = newCatalogPath();
  indexCatalog({ catalog, scopes: [scope] });
  const router = new Router({ catalog, telemetry: false });
  const reports: IndexReport[] = [];
  const errors: unknown[] = [];
  const watch = await watchCatalog({
    catalog,
    scopes: [scope],
    debounceMs: 50,
    onIndex: (r) => reports.push(r),
    onError: (e) => errors.push(e),
  });
  open.push({ watch, router });
  return { scope, catalog, router, watch, reports, errors };
}

const ids = (router: Router, query: string): string[] =>
  router.search({ query }).candidates.map((c) => c.skill_id);

describe('watchCatalog', () => {
  it('watches the scope folders it was given', async () => {
    const { scope, watch } = await setup();
    expect(watch.paths).toEqual([path.resolve(scope)]);
  });

  it('makes a new skill searchable without reopening the Router', async () => {
    const { scope, router, errors } = await setup();
    const before = router.currentGeneration();
    expect(ids(router, 'invoice ledger reconciliation')).not.toContain('invoice-ledger');
    writeTree(scope, {
      'invoice-ledger/SKILL.md': skillText('invoice-ledger', {
        description: 'Reconcile invoice ledger entries',
      }),
    });
    await waitFor(() =>
      ids(router, 'invoice ledger reconciliation').includes('invoice-ledger') ? true : undefined,
    );
    expect(router.currentGeneration()).not.toBe(before);
    expect(errors).toEqual([]);
  });

  it('gives an edited skill a new revision, and the old pin gets CATALOG_GENERATION_MISMATCH', async () => {
    const { scope, router, reports } = await setup();
    const old = router
      .search({ query: 'pdf tables' })
      .candidates.find((c) => c.skill_id === 'pdf-tables');
    expect(old).toBeDefined();
    writeFileSync(
      path.join(scope, 'pdf-tables/SKILL.md'),
      skillText('pdf-tables', {
        description: 'Extract tables and figures from PDF documents',
        body: '# pdf-tables\n\nNow with figures.\n',
      }),
    );
    const fresh = await waitFor(() => {
      const c = router
        .search({ query: 'pdf tables' })
        .candidates.find((x) => x.skill_id === 'pdf-tables');
      return c !== undefined && c.revision_id !== old!.revision_id ? c : undefined;
    });
    expect(reports.some((r) => r.changed.includes('pdf-tables'))).toBe(true);
    let code: string | undefined;
    try {
      router.fetch({
        skill_id: 'pdf-tables',
        expected_revision: old!.revision_id,
        catalog_generation: old!.catalog_generation,
        context: 'watch test',
      });
    } catch (err) {
      code = err instanceof SkilldexError ? err.code : String(err);
    }
    expect(code).toBe('CATALOG_GENERATION_MISMATCH');
    const body = router.fetch({
      skill_id: 'pdf-tables',
      expected_revision: fresh.revision_id,
      catalog_generation: fresh.catalog_generation,
      context: 'watch test',
    }).body;
    expect(body).toContain('Now with figures.');
  });

  it('retires a deleted skill', async () => {
    const { scope, router, reports } = await setup();
    expect(ids(router, 'kubernetes deploy')).toContain('kube-deploy');
    rmSync(path.join(scope, 'kube-deploy'), { recursive: true });
    await waitFor(() =>
      ids(router, 'kubernetes deploy').includes('kube-deploy') ? undefined : true,
    );
    expect(reports.some((r) => r.removed.includes('kube-deploy'))).toBe(true);
  });

  it('reports a failing re-index through onError and keeps watching', async () => {
    const { scope, router, errors } = await setup();
    // Deleting two of three skills would retire more than half: CATALOG_SHRINK, reported, not thrown.
    rmSync(path.join(scope, 'kube-deploy'), { recursive: true });
    rmSync(path.join(scope, 'csv-clean'), { recursive: true });
    const err = await waitFor(() => errors[0]);
    expect(err instanceof SkilldexError ? err.code : err).toBe('CATALOG_SHRINK');
    writeTree(scope, {
      'kube-deploy/SKILL.md': skillText('kube-deploy', {
        description: 'Deploy services to a Kubernetes cluster',
      }),
    });
    writeTree(scope, {
      'csv-clean/SKILL.md': skillText('csv-clean', {
        description: 'Clean messy CSV spreadsheets and tables',
      }),
    });
    writeTree(scope, {
      'invoice-ledger/SKILL.md': skillText('invoice-ledger', {
        description: 'Reconcile invoice ledger entries',
      }),
    });
    await waitFor(() =>
      ids(router, 'invoice ledger reconciliation').includes('invoice-ledger') ? true : undefined,
    );
  });

  it('refuses an unknown option with INVALID_ARGUMENT', async () => {
    const catalog = newCatalogPath();
    await expect(watchCatalog({ catalog, debounce: 5 } as never)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
