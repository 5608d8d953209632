/**
 * Revision texts (issue #28; src/catalog/write/revision-texts.ts, migration 4): an index stores each new
 * working-set revision's SKILL.md compressed, once per revision_id (byte-identical files of two
 * skills share it); keeps per skill the `keep` most recent texts plus the served ones; never stores
 * bytes that no longer hash to the revision; a catalog of schema 3 gets its texts on the next index;
 * a damaged row is CATALOG_CORRUPT; `catalog copy` carries the texts. Runs on both backends.
 */
import { copyFileSync, cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { POLICY_V4_ID, copyCatalog, indexCatalog } from '../../src/internal.js';
import {
  TEXTS_SCHEMA_VERSION,
  closeCatalog,
  openCatalogForWrite,
  openCatalogReadOnly,
  readRevisionText,
  storeRevisionTexts,
  type Db,
} from '../../src/catalog/index.js';
import { DEFAULT_KEEP_REVISIONS } from '../../src/catalog/write/revision-texts.js';
import { REPO, skillMd, tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { NOW, ON_PG, codeOf, indexTree, newCatalogPath, skillText } from './support.js';

function withDb<T>(catalog: string, fn: (db: Db) => T): T {
  const db = openCatalogReadOnly(catalog);
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const texts = (catalog: string): { revision_id: string; size: number }[] =>
  withDb(
    catalog,
    (db) =>
      db.prepare(`SELECT revision_id, size FROM revision_texts ORDER BY revision_id`).all() as {
        revision_id: string;
        size: number;
      }[],
  );

function revisionOf(catalog: string, id: string): string {
  return withDb(
    catalog,
    (db) =>
      (
        db.prepare(`SELECT revision_id FROM skills WHERE skill_id = ?`).get(id) as {
          revision_id: string;
        }
      ).revision_id,
  );
}

function textOf(
  catalog: string,
  revision: string,
  version = TEXTS_SCHEMA_VERSION,
): ReturnType<typeof readRevisionText> {
  return withDb(catalog, (db) => readRevisionText(db, revision, version));
}

describe('revision texts', () => {
  it('stores every working-set revision once, compressed, and reads it back exactly', () => {
    const body = '# Tool\n\n' + 'A line of the body that repeats.\n'.repeat(40);
    const text = skillText('tool', { description: 'A tool skill', body });
    const root = tmpTree({
      'tool/SKILL.md': text,
      'other/SKILL.md': skillMd('other', 'Another skill'),
    });
    const catalog = newCatalogPath();
    const r = indexTree(catalog, root);
    expect(r.revision_texts).toMatchObject({ stored: 2, pruned: 0, keep: DEFAULT_KEEP_REVISIONS });
    expect(r.revision_texts!.compressed_bytes).toBeLessThan(r.revision_texts!.bytes);
    const rev = revisionOf(catalog, 'tool');
    const t = textOf(catalog, rev);
    expect(t).toEqual({ ok: true, text, size: Buffer.byteLength(text) });
    // A re-index with nothing changed stores nothing.
    expect(indexTree(catalog, root).revision_texts).toMatchObject({ stored: 0, pruned: 0 });
  });

  it('keeps the keep most recent texts per skill and always the served ones', () => {
    const root = tmpTree({ 'tool/SKILL.md': skillMd('tool', 'version zero') });
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const seen = [revisionOf(catalog, 'tool')];
    for (let i = 1; i <= 4; i++) {
      writeFileSync(path.join(root, 'tool/SKILL.md'), skillMd('tool', `version ${'x'.repeat(i)}`));
      indexTree(catalog, root);
      seen.push(revisionOf(catalog, 'tool'));
    }
    expect(texts(catalog)).toHaveLength(5);
    const r = indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      keepRevisions: 2,
    });
    expect(r.revision_texts).toMatchObject({ pruned: 3, keep: 2 });
    expect(
      texts(catalog)
        .map((t) => t.revision_id)
        .sort(),
    ).toEqual([seen[3], seen[4]].sort());
    // keep 0 still keeps what the working set and the published generation serve; it is remembered.
    indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      keepRevisions: 0,
    });
    expect(texts(catalog).map((t) => t.revision_id)).toEqual([seen[4]]);
    writeFileSync(path.join(root, 'tool/SKILL.md'), skillMd('tool', 'version six'));
    const next = indexTree(catalog, root);
    expect(next.revision_texts).toMatchObject({ stored: 1, pruned: 1, keep: 0 });
  });

  it('stores byte-identical files of two skills once (by revision_id)', () => {
    const text = skillMd('same', 'Identical bytes in two scopes');
    const a = tmpTree({ 'same/SKILL.md': text });
    const b = tmpTree({ 'copy/same/SKILL.md': text });
    const catalog = newCatalogPath();
    indexCatalog({ catalog, scopes: [a, b], home: a, project: a, now: NOW });
    expect(texts(catalog)).toHaveLength(1);
  });

  it('never stores bytes that no longer hash to the revision', () => {
    const root = tmpTree({ 'tool/SKILL.md': skillMd('tool', 'first text') });
    const catalog = newCatalogPath();
    indexTree(catalog, root, { publish: false });
    const db = openCatalogForWrite(catalog);
    try {
      db.prepare(`DELETE FROM revision_texts`).run();
      writeFileSync(path.join(root, 'tool/SKILL.md'), skillMd('tool', 'edited after the index'));
      const r = storeRevisionTexts(db, { keep: 10, prune: true });
      expect(r.stored).toBe(0);
      expect(r.not_stored).toEqual([
        {
          skill_id: 'tool',
          revision_id: expect.stringMatching(/^sha256:/),
          reason: 'changed since indexed',
        },
      ]);
    } finally {
      closeCatalog(db);
    }
  });

  it('refuses a stored text that does not decompress to its revision (CATALOG_CORRUPT)', () => {
    const root = tmpTree({ 'tool/SKILL.md': skillMd('tool', 'a text to damage') });
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    const rev = revisionOf(catalog, 'tool');
    const db = openCatalogForWrite(catalog);
    try {
      db.prepare(`UPDATE revision_texts SET data = ? WHERE revision_id = ?`).run(
        Buffer.from('not deflate'),
        rev,
      );
    } finally {
      closeCatalog(db);
    }
    expect(codeOf(() => textOf(catalog, rev))).toBe('CATALOG_CORRUPT');
    expect(textOf(catalog, 'sha256:' + '0'.repeat(64))).toEqual({
      ok: false,
      reason: 'not stored',
    });
  });

  it.skipIf(ON_PG)('gives an older catalog its texts on the next index', () => {
    // fixtures/schema-v2 was written before migration 4 (see migration.test.ts): copied, never opened.
    const dir = tmpDir('skilldex-v2-texts-');
    const catalog = path.join(dir, 'catalog.sqlite');
    copyFileSync(path.join(REPO, 'test/catalog/fixtures/schema-v2/catalog.sqlite'), catalog);
    const skills = path.join(dir, 'skills');
    cpSync(path.join(REPO, 'test/catalog/fixtures/schema-v2/skills'), skills, { recursive: true });
    expect(withDb(catalog, (d) => d.pragma('user_version', { simple: true }))).toBe(2);
    expect(textOf(catalog, 'sha256:' + '0'.repeat(64), 2)).toEqual({
      ok: false,
      reason: 'no texts in this catalog',
    });
    // Its policy, bm25f.v3, is retired: the index that upgrades it names bm25f.v4.
    const r = indexCatalog({
      catalog,
      scopes: [skills],
      home: dir,
      project: dir,
      now: NOW,
      policy: POLICY_V4_ID,
    });
    expect(r.revision_texts?.stored).toBe(3);
    expect(texts(catalog)).toHaveLength(3);
  });

  it.skipIf(ON_PG)('is carried by catalog copy', () => {
    const root = tmpTree({ 'tool/SKILL.md': skillMd('tool', 'copied text') });
    const catalog = newCatalogPath();
    indexTree(catalog, root);
    writeTree(root, { 'tool/SKILL.md': skillMd('tool', 'copied text, second revision') });
    indexTree(catalog, root);
    const to = path.join(path.dirname(catalog), 'copy.sqlite');
    const report = copyCatalog(catalog, to);
    expect(report.rows['revision_texts']).toBe(2);
    expect(texts(to)).toEqual(texts(catalog));
  });
});
