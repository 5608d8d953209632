/**
 * The fast path of an unchanged re-index (src/catalog/write/reindex-digest.ts, used by indexCatalog
 * in src/router/operator/operator.ts): after an index that published, a run whose walk, settings and
 * published generation are the same answers the unchanged report without the per-table passes. Each
 * case below re-indexes correctly after a fast run existed: an edit, a staged (`publish: false`)
 * working set, lifecycle changes, a policy change, a scope change, a supporting-file edit, an entry
 * made in a folder within RACY_MS of its listing, and an author-example file edited. The fast path
 * is asserted by a counter, never by timing. Runs on SQLite and PostgreSQL (vitest POSTGRES_SUITES).
 */
import {
  appendFileSync,
  mkdirSync,
  realpathSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  closeCatalog,
  openCatalogForWrite,
  readWalkListings,
  telemetryPathFor,
} from '../../src/catalog/index.js';
import {
  REINDEX_META_KEY,
  clearReindexRecord,
  reindexFastPathCount,
} from '../../src/catalog/write/reindex-digest.js';
import {
  POLICY_ID,
  POLICY_V4_ID,
  changeLifecycle,
  getGenerations,
  indexCatalog,
  forgetExamples,
  learnExamples,
  listExamples,
  publishCatalog,
  rollbackCatalog,
  type IndexReport,
} from '../../src/internal.js';
import { RACY_MS } from '../../src/fsx/index.js';
import { tmpDir, tmpTree, writeTree } from '../support/cli.js';
import { NOW, ON_PG, indexTree, newCatalogPath, skillText } from './support.js';

const FILES = {
  'alpha/SKILL.md': skillText('alpha', {
    description: 'Convert alpha documents into beta reports.',
  }),
  'bravo/SKILL.md': skillText('bravo', { description: 'Render bravo charts from tables.' }),
  'charlie/SKILL.md': skillText('charlie', { description: 'Summarise charlie meeting notes.' }),
};

function setup(files: Record<string, string> = FILES): { root: string; catalog: string } {
  return { root: tmpTree(files), catalog: newCatalogPath('skilldex-reindex-') };
}

/** Indexes and says whether the run took the fast path (the counter moved by one). */
function indexCounted(
  catalog: string,
  root: string,
  options: Parameters<typeof indexTree>[2] = {},
): { report: IndexReport; fast: boolean } {
  const before = reindexFastPathCount();
  const report = indexTree(catalog, root, options);
  return { report, fast: reindexFastPathCount() === before + 1 };
}

/**
 * Indexes until a run takes the fast path (at most three runs): on SQLite the first index records
 * and the second is fast; on PostgreSQL a run that stored revision texts does not record, so the
 * second records and the third is fast.
 */
function untilFast(catalog: string, root: string): IndexReport {
  for (let i = 0; i < 3; i++) {
    const r = indexCounted(catalog, root);
    if (r.fast) return r.report;
  }
  throw new Error('no run took the fast path');
}

function dropRecord(catalog: string): void {
  const db = openCatalogForWrite(catalog);
  try {
    clearReindexRecord(db);
  } finally {
    closeCatalog(db);
  }
}

/** Sets a folder's mtime well past RACY_MS, so its listing is trusted on mtime alone next time. */
function age(dir: string, seconds = 60): void {
  const t = new Date(Date.now() - seconds * 1000);
  utimesSync(dir, t, t);
}

/** Waits until what the test made or touched so far is RACY_MS old. */
const pastRacy = (): Promise<void> => new Promise((done) => setTimeout(done, RACY_MS + 100));

describe('index: the fast path of an unchanged re-index', () => {
  it('an unchanged re-index takes the fast path and answers what the ordinary path answers', () => {
    const { root, catalog } = setup();
    const first = indexCounted(catalog, root);
    expect(first.fast).toBe(false);
    const fast = untilFast(catalog, root);
    // The ordinary path over the same tree (the record dropped) gives the same report.
    dropRecord(catalog);
    const slow = indexCounted(catalog, root);
    expect(slow.fast).toBe(false);
    expect(fast).toEqual(slow.report);
    expect(JSON.stringify(Object.keys(fast))).toBe(JSON.stringify(Object.keys(slow.report)));
    expect(fast).toMatchObject({ read: 0, added: [], changed: [], removed: [], unchanged: 3 });
    expect(fast.publish).toMatchObject({ changed: false, seq: 1 });
    expect(getGenerations({ catalog })).toHaveLength(1);
  });

  it('an edited file after a fast run is read, changed and published', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    writeFileSync(
      path.join(root, 'alpha/SKILL.md'),
      skillText('alpha', { description: 'Convert alpha documents into gamma reports, edited.' }),
    );
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report.changed).toEqual(['alpha']);
    expect(r.report.publish).toMatchObject({ changed: true, seq: 2 });
    expect(indexCounted(catalog, root).report.changed).toEqual([]);
  });

  it('a staged (publish: false) working set is published by the next index', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    writeTree(root, {
      'delta/SKILL.md': skillText('delta', { description: 'Plan delta migrations.' }),
    });
    const staged = indexCounted(catalog, root, { publish: false });
    expect(staged.fast).toBe(false);
    expect(staged.report.added).toEqual(['delta']);
    expect(staged.report.publish).toBeNull();
    // The files are as the staged run saw them; the working set is not the published one.
    const next = indexCounted(catalog, root);
    expect(next.fast).toBe(false);
    expect(next.report.publish).toMatchObject({ changed: true, seq: 2 });
    expect(next.report.publish!.counts).toMatchObject({ active: 4 });
  });

  it('a staged run that found nothing new keeps the fast path', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    const staged = indexCounted(catalog, root, { publish: false });
    // A staged run never takes the fast path (it publishes nothing) and changes nothing.
    expect(staged.fast).toBe(false);
    expect(indexCounted(catalog, root).fast).toBe(true);
  });

  it('a lifecycle change between runs, staged or published, is published by the next index', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    changeLifecycle({ catalog, skill_id: 'bravo', to: 'deprecated', publish: false, now: NOW });
    const afterStaged = indexCounted(catalog, root);
    expect(afterStaged.fast).toBe(false);
    expect(afterStaged.report.publish).toMatchObject({ changed: true, seq: 2 });
    expect(afterStaged.report.publish!.counts).toMatchObject({ deprecated: 1 });
    changeLifecycle({ catalog, skill_id: 'charlie', to: 'archived', now: NOW });
    const afterPublished = indexCounted(catalog, root);
    expect(afterPublished.fast).toBe(false);
    expect(afterPublished.report.publish).toMatchObject({ changed: false, seq: 3 });
    expect(afterPublished.report.publish!.counts).toMatchObject({ deprecated: 1, archived: 1 });
    const fast = untilFast(catalog, root);
    expect(fast.publish!.counts).toMatchObject({ deprecated: 1, archived: 1 });
    changeLifecycle({ catalog, skill_id: 'charlie', to: 'active', publish: false, now: NOW });
    const restored = indexCounted(catalog, root);
    expect(restored.fast).toBe(false);
    expect(restored.report.publish!.counts).toMatchObject({ archived: 0 });
  });

  it.skipIf(ON_PG)('a policy change publishes under the new policy', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    const r = indexCounted(catalog, root, { policy: POLICY_V4_ID });
    expect(r.fast).toBe(false);
    expect(r.report.publish).toMatchObject({ changed: true, seq: 2 });
    expect(getGenerations({ catalog })[0]!.policy).toBe(POLICY_V4_ID);
    // Back to the first policy: not the record written under v4.
    const back = indexCounted(catalog, root, { policy: POLICY_ID });
    expect(back.fast).toBe(false);
    expect(getGenerations({ catalog })[0]!.policy).toBe(POLICY_ID);
  });

  it('a scope change is indexed: a second scope adds its skills, dropping it retires them', () => {
    const { root, catalog } = setup();
    const other = tmpTree({
      'echo/SKILL.md': skillText('echo', { description: 'Echo server checks.' }),
    });
    untilFast(catalog, root);
    const both = (): IndexReport =>
      indexCatalog({
        catalog,
        scopes: [root, other],
        home: root,
        project: root,
        now: NOW,
        policy: ON_PG ? POLICY_V4_ID : POLICY_ID,
      });
    expect(both().added).toEqual(['echo']);
    const back = indexCounted(catalog, root);
    expect(back.fast).toBe(false);
    expect(back.report.removed).toEqual(['echo']);
  });

  it('a staged run over other scopes is undone by the next index over the usual ones', () => {
    const { root, catalog } = setup();
    const other = tmpTree({
      'echo/SKILL.md': skillText('echo', { description: 'Echo server checks.' }),
    });
    untilFast(catalog, root);
    const staged = indexCatalog({
      catalog,
      scopes: [other],
      home: other,
      project: other,
      now: NOW,
      publish: false,
      allowShrink: true,
      policy: ON_PG ? POLICY_V4_ID : POLICY_ID,
    });
    expect(staged.removed).toHaveLength(3);
    // The walk is the recorded one, but the working set is not: the ordinary path restores it.
    const back = indexCounted(catalog, root);
    expect(back.fast).toBe(false);
    expect(back.report.added.length + back.report.changed.length).toBe(3);
    expect(publishCatalog({ catalog, now: NOW })).toMatchObject({ changed: false, seq: 1 });
  });

  it('a supporting file edited in an unchanged folder makes its skill changed', () => {
    const { root, catalog } = setup({
      ...FILES,
      'alpha/scripts/run.sh': 'echo one\n',
    });
    age(path.join(root, 'alpha/scripts'));
    age(path.join(root, 'alpha'));
    const fast = untilFast(catalog, root);
    expect(fast.supporting_files).toMatchObject({ listed: 1, reused: 1, hashed: 0 });
    writeFileSync(path.join(root, 'alpha/scripts/run.sh'), 'echo two, longer\n');
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report.changed).toEqual(['alpha']);
    expect(r.report.supporting_files.hashed).toBe(1);
  });

  it('a file made in a folder listed within RACY_MS of its mtime is seen (the folder is walked)', () => {
    const { root, catalog } = setup({ ...FILES, 'alpha/notes.md': 'one\n' });
    // The folder's mtime is fresh: its listing is not trusted on mtime alone.
    const dir = path.join(root, 'alpha');
    const mtime = statSync(dir).mtime;
    indexCounted(catalog, root);
    indexCounted(catalog, root);
    expect(indexCounted(catalog, root).fast).toBe(false);
    // A new entry that leaves the folder's mtime as it was (a coarse clock would).
    writeFileSync(path.join(dir, 'extra.md'), 'two\n');
    utimesSync(dir, mtime, mtime);
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report.changed).toEqual(['alpha']);
    expect(r.report.supporting_files.listed).toBe(2);
  });

  it('a folder that gains a sub-folder after a fast run is listed again', () => {
    const { root, catalog } = setup({ ...FILES, 'alpha/notes.md': 'one\n' });
    age(path.join(root, 'alpha'));
    untilFast(catalog, root);
    mkdirSync(path.join(root, 'alpha/refs'));
    writeFileSync(path.join(root, 'alpha/refs/a.md'), 'ref\n');
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report.changed).toEqual(['alpha']);
  });

  it('folders unchanged since the last run are not listed again, and every change is still indexed', async () => {
    const { root, catalog } = setup({ ...FILES, 'alpha/notes.md': 'one\n' });
    for (const d of ['alpha', 'bravo', 'charlie', '.']) age(path.join(root, d));
    // A folder's listing is kept once its mtime and ctime are RACY_MS old; a ctime cannot be set
    // back (utimes moves it to now), so the test waits.
    await pastRacy();
    untilFast(catalog, root);
    // The catalog keeps the listing of every aged folder: the scope and its three skill folders.
    const kept = (): Map<string, unknown> => {
      const db = openCatalogForWrite(catalog);
      try {
        return new Map(readWalkListings(db).previous);
      } finally {
        closeCatalog(db);
      }
    };
    const real = realpathSync(root);
    expect([...kept().keys()].sort()).toEqual(
      [real, ...['alpha', 'bravo', 'charlie'].map((d) => path.join(real, d))].sort(),
    );
    const before = kept();
    // A skill made, one removed, a supporting file made in a reused folder: each is indexed.
    mkdirSync(path.join(root, 'delta'));
    writeFileSync(
      path.join(root, 'delta/SKILL.md'),
      skillText('delta', { description: 'Plot delta.' }),
    );
    rmSync(path.join(root, 'bravo'), { recursive: true });
    writeFileSync(path.join(root, 'charlie/extra.md'), 'more\n');
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report).toMatchObject({ added: ['delta'], removed: ['bravo'], changed: ['charlie'] });
    // alpha's listing is kept as it was; the folders that moved were listed again (and are not
    // kept while their times are racy: test/fsx/walk-listings.test.ts); the removed one is gone.
    const alpha = path.join(real, 'alpha');
    expect(kept().get(alpha)).toEqual(before.get(alpha));
    expect([...kept().keys()]).toEqual([alpha]);
    expect(indexCounted(catalog, root).report).toMatchObject({ unchanged: 3, read: 0 });
  });

  it('an author example file edited after a fast run updates the author examples', () => {
    const jsonl = (qs: readonly string[]): string =>
      qs.map((query) => JSON.stringify({ query, should_trigger: true })).join('\n');
    const { root, catalog } = setup({
      ...FILES,
      'alpha/evals/trigger-evals.jsonl': jsonl(['turn alpha docs into beta reports']),
    });
    age(path.join(root, 'alpha/evals'));
    age(path.join(root, 'alpha'));
    untilFast(catalog, root);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(1);
    appendFileSync(
      path.join(root, 'alpha/evals/trigger-evals.jsonl'),
      '\n' + jsonl(['make a beta report from this alpha document']),
    );
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(2);
  });

  it('learn and forget between runs: the fast path is taken and keeps the usage store as it is', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    learnExamples({
      catalog,
      file: 'x.jsonl',
      text: JSON.stringify({ query: 'turn this alpha doc into a report', skill_id: 'alpha' }),
      now: NOW,
    });
    const learned = listExamples({ catalog }).examples;
    expect(learned).toHaveLength(1);
    // index does not read usage to decide what changed: the fast path holds.
    expect(indexCounted(catalog, root).fast).toBe(true);
    expect(listExamples({ catalog }).examples).toEqual(learned);
    expect(forgetExamples({ catalog, example: learned[0]!.id }).removed).toBe(1);
    expect(indexCounted(catalog, root).fast).toBe(true);
    expect(listExamples({ catalog }).total).toBe(0);
  });

  it.skipIf(ON_PG)('a usage store removed after a fast run gets the author examples back', () => {
    const { root, catalog } = setup({
      ...FILES,
      'alpha/evals/trigger-evals.jsonl': JSON.stringify({
        query: 'turn alpha docs into beta reports',
        should_trigger: true,
      }),
    });
    age(path.join(root, 'alpha/evals'));
    age(path.join(root, 'alpha'));
    untilFast(catalog, root);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(1);
    const usage = telemetryPathFor(catalog);
    for (const f of [usage, `${usage}-wal`, `${usage}-shm`]) rmSync(f, { force: true });
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(true);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(1);
    // The record names the new store: the next fast run does not sync again, and still sees it.
    expect(indexCounted(catalog, root).fast).toBe(true);
    expect(listExamples({ catalog, source: 'author' }).total).toBe(1);
  });

  it('a rollback between runs is followed by a publish of the files as they are', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    writeFileSync(
      path.join(root, 'alpha/SKILL.md'),
      skillText('alpha', { description: 'Convert alpha documents into gamma reports, edited.' }),
    );
    expect(indexCounted(catalog, root).report.publish).toMatchObject({ changed: true, seq: 2 });
    untilFast(catalog, root);
    expect(rollbackCatalog({ catalog, now: NOW }).publish).toMatchObject({ changed: true, seq: 3 });
    const r = indexCounted(catalog, root);
    expect(r.fast).toBe(false);
    expect(r.report.publish).toMatchObject({ changed: true, seq: 4 });
  });

  it('a damaged record is no record: the ordinary path answers and rewrites it', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    for (const bad of ['null', '[1,2]', '{"digest":', '7']) {
      const db = openCatalogForWrite(catalog);
      try {
        db.prepare(`UPDATE meta SET value = ? WHERE key = ?`).run(bad, REINDEX_META_KEY);
      } finally {
        closeCatalog(db);
      }
      const r = indexCounted(catalog, root);
      expect(r.fast).toBe(false);
      expect(r.report.unchanged).toBe(3);
    }
    expect(indexCounted(catalog, root).fast).toBe(true);
  });

  it('a dry run never takes the fast path and writes nothing', () => {
    const { root, catalog } = setup();
    untilFast(catalog, root);
    const before = reindexFastPathCount();
    const dry = indexCatalog({
      catalog,
      scopes: [root],
      home: root,
      project: root,
      now: NOW,
      dryRun: true,
    });
    expect(dry.dry_run).toBe(true);
    expect(reindexFastPathCount()).toBe(before);
    expect(indexCounted(catalog, root).fast).toBe(true);
  });

  it('a skill that cannot be read is tried again on every run (no fast path)', () => {
    const root = tmpDir('skilldex-reindex-bad-');
    writeTree(root, { ...FILES, 'broken/SKILL.md': '---\nname: [unclosed\n---\nbody\n' });
    const catalog = newCatalogPath('skilldex-reindex-');
    indexCounted(catalog, root);
    const second = indexCounted(catalog, root);
    const third = indexCounted(catalog, root);
    expect(second.fast || third.fast).toBe(false);
    expect(third.report.skipped.map((s) => s.path)).toEqual([path.join(root, 'broken/SKILL.md')]);
  });
});
