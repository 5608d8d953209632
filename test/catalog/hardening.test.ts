/**
 * The catalog against operator mistakes and racing writers (issue 11): an index whose view went
 * stale while it read the files never publishes it over a newer generation; a scope folder that
 * does not exist is refused and changes nothing; a run that would retire more than half of the
 * active skills needs --allow-shrink; --dry-run writes nothing; rollback republishes an earlier
 * generation through the publish path; a long-lived Router follows a rebuilt catalog file and a
 * recreated telemetry file; telemetry keeps at most MAX_EVENT_ROWS events.
 */
import { existsSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  POLICY_ID,
  Router,
  getGenerations,
  indexCatalog,
  telemetryPathFor,
} from '../../src/internal.js';
import { TelemetryStore } from '../../src/catalog/index.js';
import { MAX_EVENT_ROWS } from '../../src/catalog/side/telemetry.js';
import { runCli, tmpDir, writeTree } from '../support/cli.js';
import { NOW, bytesOf, codeOf, indexTree, newCatalogPath, skillText } from './support.js';

const NAMES = ['alpha', 'bravo', 'charlie', 'delta'];

function library(version = 'one'): string {
  const root = tmpDir();
  writeTree(
    root,
    Object.fromEntries(
      NAMES.map((n) => [
        `${n}/SKILL.md`,
        skillText(n, { description: `The ${n} skill, edition ${version}.`, keywords: [n] }),
      ]),
    ),
  );
  return root;
}

function published(catalog: string): { seq: number; catalog_generation: string } {
  const g = getGenerations({ catalog }).find((x) => x.published)!;
  return { seq: g.seq, catalog_generation: g.catalog_generation };
}

function revisionOf(catalog: string, skillId: string): string {
  const router = new Router({ catalog, telemetry: false });
  try {
    return router
      .search({ query: skillId, limit: 1 })
      .candidates.find((c) => c.skill_id === skillId)!.revision_id;
  } finally {
    router.close();
  }
}

describe('two indexers', () => {
  it('the first, paused after reading the files while the second publishes newer content, reads again instead of publishing its older view', () => {
    const root = library('one');
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    let interleaved = false;
    let newer = '';
    const first = indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      policy: POLICY_ID,
      onProgress: (done, total) => {
        // The first indexer has read every file (edition one) and not yet written: the second
        // indexer sees edition two on disk and publishes it.
        if (interleaved || total === 0 || done !== total) return;
        interleaved = true;
        writeFileSync(
          path.join(root, 'alpha', 'SKILL.md'),
          skillText('alpha', { description: 'The alpha skill, edition two.', keywords: ['alpha'] }),
        );
        newer = indexTree(catalog, root).publish!.catalog_generation;
      },
    });
    expect(interleaved).toBe(true);
    expect(published(catalog).catalog_generation).toBe(newer);
    expect(first.publish?.catalog_generation).toBe(newer);
    const router = new Router({ catalog, telemetry: false });
    try {
      const hit = router.search({ query: 'alpha edition', limit: 1 }).candidates[0]!;
      expect(
        router.fetch({
          skill_id: 'alpha',
          expected_revision: hit.revision_id,
          catalog_generation: hit.catalog_generation,
          context: '',
        }).body,
      ).toBeDefined();
    } finally {
      router.close();
    }
  });
});

describe('index refusals', () => {
  it('a --scope folder that does not exist is a usage error (exit 2) and changes nothing', async () => {
    const root = library();
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const before = bytesOf(catalog);
    const r = await runCli([
      'index',
      '--catalog',
      catalog,
      '--scope',
      path.join(root, 'skilz'),
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({
      error: { code: 'INVALID_ARGUMENT', details: { option: '--scope' } },
    });
    expect(bytesOf(catalog).equals(before)).toBe(true);
  });

  it('retiring more than half of the active skills is CATALOG_SHRINK without --allow-shrink, and writes nothing', async () => {
    const root = library();
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const gen = published(catalog);
    const subset = path.join(root, 'alpha');
    const refused = await runCli(['index', '--catalog', catalog, '--scope', subset, '--json']);
    expect(refused.code).toBe(2);
    expect(JSON.parse(refused.stdout)).toMatchObject({
      error: { code: 'CATALOG_SHRINK', details: { retired: 3, active: 4 } },
    });
    expect(published(catalog)).toEqual(gen);
    // Half exactly is allowed; more needs the flag.
    rmSync(path.join(root, 'alpha'), { recursive: true });
    rmSync(path.join(root, 'bravo'), { recursive: true });
    expect((await runCli(['index', '--catalog', catalog, '--scope', root, '--json'])).code).toBe(0);
    rmSync(path.join(root, 'charlie'), { recursive: true });
    rmSync(path.join(root, 'delta'), { recursive: true });
    expect((await runCli(['index', '--catalog', catalog, '--scope', root, '--json'])).code).toBe(2);
    const allowed = await runCli([
      'index',
      '--catalog',
      catalog,
      '--scope',
      root,
      '--allow-shrink',
      '--json',
    ]);
    expect(allowed.code).toBe(0);
    expect((JSON.parse(allowed.stdout) as { removed: string[] }).removed.sort()).toEqual([
      'charlie',
      'delta',
    ]);
  });
});

describe('index --dry-run', () => {
  it('reports what would be added, changed and retired, and writes nothing', async () => {
    const root = library();
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    writeFileSync(
      path.join(root, 'alpha', 'SKILL.md'),
      skillText('alpha', { description: 'Changed.', keywords: ['alpha'] }),
    );
    rmSync(path.join(root, 'bravo'), { recursive: true });
    writeTree(root, { 'echo/SKILL.md': skillText('echo', { description: 'New.' }) });
    const before = bytesOf(catalog);
    const dry = await runCli([
      'index',
      '--catalog',
      catalog,
      '--scope',
      root,
      '--dry-run',
      '--json',
    ]);
    expect(dry.code).toBe(0);
    const report = JSON.parse(dry.stdout) as {
      added: string[];
      changed: string[];
      removed: string[];
      publish: unknown;
      dry_run: boolean;
    };
    expect(report).toMatchObject({
      added: ['echo'],
      changed: ['alpha'],
      removed: ['bravo'],
      publish: null,
      dry_run: true,
    });
    expect(bytesOf(catalog).equals(before)).toBe(true);
    const real = JSON.parse(
      (await runCli(['index', '--catalog', catalog, '--scope', root, '--json'])).stdout,
    ) as typeof report;
    expect([real.added, real.changed, real.removed]).toEqual([
      report.added,
      report.changed,
      report.removed,
    ]);
    const fresh = path.join(tmpDir(), 'never.sqlite');
    const none = await runCli([
      'index',
      '--catalog',
      fresh,
      '--scope',
      root,
      '--dry-run',
      '--json',
    ]);
    expect(none.code).toBe(0);
    expect((JSON.parse(none.stdout) as typeof report).added).toHaveLength(4);
    expect(existsSync(fresh)).toBe(false);
  });
});

describe('skilldex rollback', () => {
  it('republishes the generation before the current one, through the publish path, as a new sequence', async () => {
    const root = library();
    const catalog = newCatalogPath();
    const g1 = indexTree(catalog, root).publish!;
    // The typo case: a subset published with --allow-shrink retires three skills.
    const r2 = await runCli([
      'index',
      '--catalog',
      catalog,
      '--scope',
      path.join(root, 'alpha'),
      '--allow-shrink',
      '--policy',
      POLICY_ID,
      '--json',
    ]);
    expect(r2.code).toBe(0);
    expect(published(catalog).seq).toBe(2);
    const back = await runCli(['rollback', '--catalog', catalog, '--json']);
    expect(back.code).toBe(0);
    const report = JSON.parse(back.stdout) as {
      from: { seq: number };
      to: { seq: number };
      publish: { seq: number; changed: boolean; catalog_generation: string };
    };
    expect(report).toMatchObject({
      from: { seq: 2 },
      to: { seq: 1 },
      publish: { seq: 3, changed: true, catalog_generation: g1.catalog_generation },
    });
    const router = new Router({ catalog, telemetry: false });
    try {
      for (const name of NAMES) {
        const hit = router
          .search({ query: name, limit: 4 })
          .candidates.find((c) => c.skill_id === name)!;
        expect(
          router.fetch({
            skill_id: name,
            expected_revision: hit.revision_id,
            catalog_generation: hit.catalog_generation,
            context: '',
          }).skill_id,
        ).toBe(name);
      }
    } finally {
      router.close();
    }
    // By sequence number and by id prefix; unknown ones are GENERATION_NOT_FOUND (exit 2).
    expect((await runCli(['rollback', '2', '--catalog', catalog, '--json'])).code).toBe(0);
    expect(published(catalog)).toEqual({
      seq: 4,
      catalog_generation: (JSON.parse(r2.stdout) as { publish: { catalog_generation: string } })
        .publish.catalog_generation,
    });
    expect(revisionOf(catalog, 'alpha')).toMatch(/^sha256:/);
    const prefix = g1.catalog_generation.slice(0, 7 + 12);
    expect(
      JSON.parse((await runCli(['rollback', prefix, '--catalog', catalog, '--json'])).stdout),
    ).toMatchObject({
      publish: { catalog_generation: g1.catalog_generation },
    });
    for (const bad of ['99', 'sha256:00000000']) {
      const r = await runCli(['rollback', bad, '--catalog', catalog, '--json']);
      expect(r.code).toBe(2);
      expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'GENERATION_NOT_FOUND' } });
    }
    expect(
      JSON.parse((await runCli(['rollback', 'latest', '--catalog', catalog, '--json'])).stdout),
    ).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });
});

describe('a long-lived Router', () => {
  it('serves a catalog rebuilt from scratch under it (new file identity), where it answered CATALOG_ROLLBACK before', () => {
    const root = library();
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    writeFileSync(
      path.join(root, 'alpha', 'SKILL.md'),
      skillText('alpha', { description: 'Edition two.', keywords: ['alpha'] }),
    );
    indexTree(catalog, root);
    const router = new Router({ catalog, telemetry: false });
    try {
      expect(router.search({ query: 'alpha' }).candidates.length).toBeGreaterThan(0);
      // The operator rebuilds the catalog in a new file (sequence 1 again) and renames it over.
      const rebuilt = newCatalogPath();
      indexCatalog({
        catalog: rebuilt,
        scopes: [root],
        home: root,
        project: root,
        now: () => new Date('2026-01-01T00:00:00.000Z'),
        policy: POLICY_ID,
      });
      renameSync(rebuilt, catalog);
      const r = router.search({ query: 'alpha' });
      expect(r.catalog_generation).toBe(published(catalog).catalog_generation);
    } finally {
      router.close();
    }
  });

  it('writes telemetry into a new file when the old one was deleted under it', () => {
    const root = library();
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const telemetry = telemetryPathFor(catalog);
    const router = new Router({ catalog, now: NOW });
    try {
      router.search({ query: 'alpha' });
      expect(existsSync(telemetry)).toBe(true);
      for (const suffix of ['', '-wal', '-shm']) rmSync(telemetry + suffix, { force: true });
      router.search({ query: 'bravo' });
      router.search({ query: 'charlie' });
      expect(existsSync(telemetry)).toBe(true);
      const db = new Database(telemetry, { readonly: true });
      try {
        const n = (db.prepare(`SELECT count(*) AS n FROM events`).get() as { n: number }).n;
        expect(n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
    } finally {
      router.close();
    }
  });
});

describe('telemetry size', () => {
  it(`keeps at most ${MAX_EVENT_ROWS} event rows; the per-skill counts keep every event`, () => {
    const file = path.join(tmpDir(), 'catalog.telemetry.sqlite');
    const store = new TelemetryStore(file, NOW);
    const ids = Array.from({ length: 50 }, (_, i) => `skill-${i}`);
    const rounds = Math.ceil(MAX_EVENT_ROWS / ids.length) + 40;
    for (let i = 0; i < rounds; i++) store.recordSuggestions(`q${i}`, 'sha256:g', ids);
    store.recordFetch('skill-0', 'sha256:r', 'sha256:g', 'ctx');
    expect(store.failures).toBe(0);
    const counted = ids.map((id) => store.history(id));
    expect(counted.reduce((n, h) => n + h.suggestions, 0)).toBe(rounds * ids.length);
    expect(counted.reduce((n, h) => n + h.fetches, 0)).toBe(1);
    expect(store.history('skill-7')).toEqual({ suggestions: rounds, fetches: 0 });
    store.close();
    const db = new Database(file, { readonly: true });
    try {
      expect(
        (db.prepare(`SELECT count(*) AS n FROM events`).get() as { n: number }).n,
      ).toBeLessThanOrEqual(MAX_EVENT_ROWS);
    } finally {
      db.close();
    }
    expect(statSync(file).size).toBeGreaterThan(0);
    expect(
      codeOf(() =>
        indexCatalog({ catalog: newCatalogPath(), scopes: [path.join(tmpDir(), 'none')] }),
      ),
    ).toBe('INVALID_ARGUMENT');
  });
});
