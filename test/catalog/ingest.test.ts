/**
 * Incremental ingest and publishing (src/catalog/write/ingest.ts, publish.ts through indexCatalog):
 * unchanged files are not re-read and publish nothing new; a changed file makes a new revision and
 * `r<N>` version; deleted files retire their skill; new files are added; `publish: false` stages a
 * working set that consumers see only after publishCatalog; a moved file keeps its revision.
 */
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Router, getGenerations, publishCatalog, type Candidate } from '../../src/internal.js';
import { tmpTree, writeTree } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath, skillText } from './support.js';

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function open(catalog: string): Router {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(r);
  return r;
}

function revisionOf(text: string): string {
  return 'sha256:' + createHash('sha256').update(text).digest('hex');
}

function find(router: Router, query: string, id: string): Candidate | undefined {
  return router.search({ query, limit: 50 }).candidates.find((c) => c.skill_id === id);
}

const FILES = {
  'alpha/SKILL.md': skillText('alpha', {
    description: 'Convert alpha documents into beta reports.',
    keywords: ['alpha'],
  }),
  'bravo/SKILL.md': skillText('bravo', {
    description: 'Render bravo charts from tables.',
    keywords: ['bravo'],
    version: '2.0.0',
  }),
  'charlie/SKILL.md': skillText('charlie', {
    description: 'Summarise charlie meeting notes.',
    keywords: ['charlie'],
  }),
};

function setup(): { root: string; catalog: string } {
  const root = tmpTree(FILES);
  const catalog = newCatalogPath();
  return { root, catalog };
}

describe('index: first run', () => {
  it('reads every file, adds every skill and publishes generation 1', () => {
    const { root, catalog } = setup();
    const r = indexTree(catalog, root);
    expect(r.enumerated).toBe(3);
    expect(r.read).toBe(3);
    expect([...r.added].sort()).toEqual(['alpha', 'bravo', 'charlie']);
    expect(r.changed).toEqual([]);
    expect(r.removed).toEqual([]);
    expect(r.unchanged).toBe(0);
    expect(r.publish).toMatchObject({
      changed: true,
      seq: 1,
      counts: { total: 3, active: 3, deprecated: 0, archived: 0 },
    });
    const c = find(open(catalog), 'alpha', 'alpha')!;
    expect(c.revision_id).toBe(revisionOf(FILES['alpha/SKILL.md']));
    expect(c.skill_version).toBe('r1');
    expect(c.catalog_generation).toBe(r.publish!.catalog_generation);
    expect(find(open(catalog), 'bravo', 'bravo')!.skill_version).toBe('2.0.0');
  });
});

describe('index: incremental runs', () => {
  it('an unchanged tree is read from no file and publishes nothing new', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    const second = indexTree(catalog, root);
    expect(second.read).toBe(0);
    expect(second.added).toEqual([]);
    expect(second.changed).toEqual([]);
    expect(second.removed).toEqual([]);
    expect(second.unchanged).toBe(3);
    expect(second.publish).toMatchObject({
      changed: false,
      seq: 1,
      catalog_generation: first.publish!.catalog_generation,
    });
    expect(getGenerations({ catalog })).toHaveLength(1);
  });

  it('an unchanged tree commits nothing to the catalog (another connection sees no new data_version)', () => {
    const { root, catalog } = setup();
    indexTree(catalog, root);
    // data_version changes on a connection only when another connection commits a change to the file.
    const watcher = new Database(catalog, { readonly: true });
    try {
      const version = (): number => watcher.pragma('data_version', { simple: true }) as number;
      const before = version();
      const second = indexTree(catalog, root);
      expect(second.unchanged).toBe(3);
      expect(version()).toBe(before);
      // A change is still committed (the watcher sees it).
      writeFileSync(
        path.join(root, 'alpha/SKILL.md'),
        skillText('alpha', { description: 'Convert alpha documents into gamma reports.' }),
      );
      expect(indexTree(catalog, root).changed).toEqual(['alpha']);
      expect(version()).not.toBe(before);
    } finally {
      watcher.close();
    }
  });

  it('a modified file is the only one read: a new revision, version r2, a new generation', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    const text = skillText('alpha', {
      description: 'Convert alpha documents into gamma reports, now with tables.',
      keywords: ['alpha'],
    });
    writeFileSync(path.join(root, 'alpha/SKILL.md'), text);
    const second = indexTree(catalog, root);
    expect(second.read).toBe(1);
    expect(second.changed).toEqual(['alpha']);
    expect(second.added).toEqual([]);
    expect(second.removed).toEqual([]);
    expect(second.unchanged).toBe(2);
    expect(second.publish).toMatchObject({ changed: true, seq: 2 });
    expect(second.publish!.catalog_generation).not.toBe(first.publish!.catalog_generation);
    const c = find(open(catalog), 'gamma', 'alpha')!;
    expect(c.revision_id).toBe(revisionOf(text));
    expect(c.skill_version).toBe('r2');
    expect(c.catalog_generation).toBe(second.publish!.catalog_generation);
  });

  it('a skill with a frontmatter version keeps that version across revisions', () => {
    const { root, catalog } = setup();
    indexTree(catalog, root);
    writeFileSync(
      path.join(root, 'bravo/SKILL.md'),
      skillText('bravo', {
        description: 'Render bravo charts and graphs.',
        keywords: ['bravo'],
        version: '2.1.0',
      }),
    );
    expect(indexTree(catalog, root).changed).toEqual(['bravo']);
    expect(find(open(catalog), 'bravo', 'bravo')!.skill_version).toBe('2.1.0');
  });

  it('reverting a file to earlier bytes serves the earlier revision and its version again', () => {
    const { root, catalog } = setup();
    indexTree(catalog, root);
    writeFileSync(
      path.join(root, 'alpha/SKILL.md'),
      skillText('alpha', {
        description: 'Convert alpha documents into delta slides.',
        keywords: ['alpha'],
      }),
    );
    indexTree(catalog, root);
    writeFileSync(path.join(root, 'alpha/SKILL.md'), FILES['alpha/SKILL.md']);
    const third = indexTree(catalog, root);
    expect(third.changed).toEqual(['alpha']);
    const c = find(open(catalog), 'alpha', 'alpha')!;
    expect(c.revision_id).toBe(revisionOf(FILES['alpha/SKILL.md']));
    expect(c.skill_version).toBe('r1');
  });

  it('a deleted file retires its skill: removed, no longer a candidate, fetch SKILL_NOT_FOUND', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    const pin = find(open(catalog), 'charlie', 'charlie')!;
    rmSync(path.join(root, 'charlie'), { recursive: true });
    const second = indexTree(catalog, root);
    expect(second.removed).toEqual(['charlie']);
    expect(second.read).toBe(0);
    expect(second.publish).toMatchObject({ changed: true, seq: 2, counts: { total: 2 } });
    const router = open(catalog);
    expect(find(router, 'charlie', 'charlie')).toBeUndefined();
    expect(
      codeOf(() =>
        router.fetch({
          skill_id: 'charlie',
          expected_revision: pin.revision_id,
          catalog_generation: second.publish!.catalog_generation,
          context: '',
        }),
      ),
    ).toBe('SKILL_NOT_FOUND');
    expect(second.publish!.catalog_generation).not.toBe(first.publish!.catalog_generation);
  });

  it('a deleted then restored file comes back as added, with its old revision and version', () => {
    const { root, catalog } = setup();
    indexTree(catalog, root);
    rmSync(path.join(root, 'charlie'), { recursive: true });
    indexTree(catalog, root);
    writeTree(root, { 'charlie/SKILL.md': FILES['charlie/SKILL.md'] });
    const third = indexTree(catalog, root);
    expect(third.added).toEqual(['charlie']);
    expect(third.read).toBe(1);
    const c = find(open(catalog), 'charlie', 'charlie')!;
    expect(c.revision_id).toBe(revisionOf(FILES['charlie/SKILL.md']));
    expect(c.skill_version).toBe('r1');
  });

  it('a new file is added and is the only one read', () => {
    const { root, catalog } = setup();
    indexTree(catalog, root);
    writeTree(root, {
      'delta/SKILL.md': skillText('delta', {
        description: 'Plan delta migrations.',
        keywords: ['delta'],
      }),
    });
    const second = indexTree(catalog, root);
    expect(second.added).toEqual(['delta']);
    expect(second.read).toBe(1);
    expect(second.unchanged).toBe(3);
    expect(second.publish).toMatchObject({ changed: true, seq: 2, counts: { total: 4 } });
    expect(find(open(catalog), 'delta', 'delta')).toBeDefined();
  });
});

describe('index --no-publish, then publish', () => {
  it('stages changes that consumers see only after publishCatalog', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    writeTree(root, {
      'delta/SKILL.md': skillText('delta', {
        description: 'Plan delta migrations.',
        keywords: ['delta'],
      }),
    });
    const staged = indexTree(catalog, root, { publish: false });
    expect(staged.publish).toBeNull();
    expect(staged.added).toEqual(['delta']);
    const router = open(catalog);
    const before = router.search({ query: 'delta migrations' });
    expect(before.catalog_generation).toBe(first.publish!.catalog_generation);
    expect(before.candidates.map((c) => c.skill_id)).not.toContain('delta');
    expect(getGenerations({ catalog })).toHaveLength(1);

    const pub = publishCatalog({ catalog, now: NOW });
    expect(pub).toMatchObject({ changed: true, seq: 2, counts: { total: 4 } });
    const after = router.search({ query: 'delta migrations' });
    expect(after.catalog_generation).toBe(pub.catalog_generation);
    expect(after.candidates[0]?.skill_id).toBe('delta');
    // Publishing again with nothing staged changes nothing.
    expect(publishCatalog({ catalog, now: NOW })).toMatchObject({
      changed: false,
      seq: 2,
      catalog_generation: pub.catalog_generation,
    });
  });

  it('a staged re-index of an unchanged tree publishes the same generation as before', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    indexTree(catalog, root, { publish: false });
    expect(publishCatalog({ catalog, now: NOW })).toMatchObject({
      changed: false,
      seq: 1,
      catalog_generation: first.publish!.catalog_generation,
    });
  });
});

describe('a moved file', () => {
  it('keeps its revision and generation, and fetch reads it from its new place', () => {
    const { root, catalog } = setup();
    const first = indexTree(catalog, root);
    const router = open(catalog);
    const pin = find(router, 'alpha', 'alpha')!;
    renameSync(path.join(root, 'alpha'), path.join(root, 'moved-alpha'));
    const second = indexTree(catalog, root);
    expect(second.added).toEqual([]);
    expect(second.changed).toEqual([]);
    expect(second.removed).toEqual([]);
    expect(second.publish).toMatchObject({
      changed: false,
      catalog_generation: first.publish!.catalog_generation,
    });
    const again = find(router, 'alpha', 'alpha')!;
    expect(again.revision_id).toBe(pin.revision_id);
    expect(again.skill_version).toBe('r1');
    const got = router.fetch({
      skill_id: 'alpha',
      expected_revision: pin.revision_id,
      catalog_generation: pin.catalog_generation,
      context: 'test',
    });
    expect(got.path).toContain('moved-alpha');
    expect(got.body).toContain('Body of alpha.');
    // The next run skips the moved file by size and mtime.
    expect(indexTree(catalog, root).read).toBe(0);
  });
});
