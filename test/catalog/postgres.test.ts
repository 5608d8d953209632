/**
 * The PostgreSQL backend against SQLite and on its own (issue #16): the same library (with
 * supporting files), usage examples and telemetry give byte-identical `search --json`, the same
 * supporting-file listings and the same generation ids on both;
 * concurrent publishes from two processes serialise; a lost server answers CATALOG_UNAVAILABLE and
 * the connection comes back; passwords never reach a message; a schema of foreign tables is
 * refused. Skipped (loudly, by test/support/pg-global.ts) only when the run has no PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  Router,
  changeLifecycle,
  catalogLocation,
  getCatalogStatus,
  indexCatalog,
  learnExamples,
  publishCatalog,
  type SearchRequest,
} from '../../src/internal.js';
import { PgDb } from '../../src/catalog/store/pg.js';
import { CatalogReader } from '../../src/catalog/index.js';
import { SNAPSHOT_RETRIES } from '../../src/catalog/read/reader.js';
import { SearchCache, searchCatalog } from '../../src/router/search/dispatch.js';
import type { HistoryFn } from '../../src/router/search/types.js';
import { UsageIndex } from '../../src/router/search/bm25f.js';
import { REPO, runCli, tmpDir, writeTree } from '../support/cli.js';
import { freshPgDatabase, hasPg, pgCluster } from '../support/pg.js';
import { startServer, stopServer } from '../support/pg-cluster.js';
import { NOW, codeOf, propertyRuns, skillText } from './support.js';
import {
  VOCAB,
  applyLifecycle,
  idOf,
  libraryArb,
  queryArb,
  textOf,
  writeHistories,
  type GenSkill,
} from '../router/support.js';

const PG = hasPg();
const V4 = 'tf.skillrouter.bm25f.v4';

function sqlitePath(): string {
  return path.join(tmpDir('skilldex-xb-'), 'catalog.sqlite');
}

// One library, indexed, with the same lifecycle, telemetry and usage examples, into `catalog`.
function build(
  catalog: string,
  root: string,
  skills: readonly GenSkill[],
  examples: readonly { query: string; skill_id: string }[],
): void {
  indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW, policy: V4 });
  applyLifecycle(catalog, skills);
  writeHistories(catalog, skills);
  if (examples.length > 0) {
    const text = examples.map((e) => JSON.stringify(e)).join('\n');
    learnExamples({ catalog, text, file: 'gen.jsonl', now: NOW });
  }
}

describe.skipIf(!PG)('the same catalog on SQLite and PostgreSQL', () => {
  it('gives the same generation ids, supporting-file listings and byte-identical search results (property)', () => {
    fc.assert(
      fc.property(
        libraryArb(3, 30).chain((skills) =>
          fc.tuple(
            fc.constant(skills),
            fc.array(
              fc.tuple(
                fc.nat(skills.length - 1),
                fc.array(fc.constantFrom(...VOCAB), { minLength: 1, maxLength: 4 }),
              ),
              { maxLength: 8 },
            ),
            // Supporting files beside some skills' SKILL.md (names sort differently by case and depth).
            fc.array(
              fc.tuple(
                fc.nat(skills.length - 1),
                fc.constantFrom('run.sh', 'Z.txt', 'scripts/a.py', 'scripts/é.md', 'a/b/c.json'),
                fc.string({ maxLength: 40 }),
              ),
              { maxLength: 12 },
            ),
          ),
        ),
        fc.array(queryArb, { minLength: 1, maxLength: 4 }),
        ([skills, ex, supporting], queries) => {
          const root = tmpDir('skilldex-xb-lib-');
          skills.forEach((s, i) =>
            writeTree(root, { [path.join(idOf(s, i), 'SKILL.md')]: textOf(s, i) }),
          );
          for (const [i, file, text] of supporting)
            writeTree(root, { [path.join(idOf(skills[i]!, i), file)]: text });
          const examples = ex.map(([i, ws]) => ({
            query: ws.join(' '),
            skill_id: idOf(skills[i]!, i),
          }));
          const lite = sqlitePath();
          const pg = freshPgDatabase();
          build(lite, root, skills, examples);
          build(pg, root, skills, examples);
          const a = new Router({ catalog: lite, now: NOW, telemetry: true, record: false });
          const b = new Router({ catalog: pg, now: NOW, telemetry: true, record: false });
          try {
            expect(b.currentGeneration()).toBe(a.currentGeneration());
            expect(JSON.stringify(b.listSkillsWithFiles({ limit: 1000 }))).toBe(
              JSON.stringify(a.listSkillsWithFiles({ limit: 1000 })),
            );
            for (const q of queries) {
              for (const limit of [1, 5, 20]) {
                const request: SearchRequest = {
                  query: q.query,
                  limit,
                  include_deprecated: q.include_deprecated,
                };
                const x = attempt(() => JSON.stringify(a.search(request)));
                const y = attempt(() => JSON.stringify(b.search(request)));
                expect(y).toBe(x);
              }
            }
          } finally {
            a.close();
            b.close();
          }
        },
      ),
      { numRuns: propertyRuns(24) },
    );
  }, 300_000);

  it('prints the same bytes for `search --json` through the CLI', async () => {
    const lite = sqlitePath();
    const pg = freshPgDatabase();
    const scope = path.join(REPO, 'examples', 'skills');
    for (const c of [lite, pg]) {
      const r = await runCli(['index', '--catalog', c, '--scope', scope, '--quiet']);
      expect(r.code, r.stderr).toBe(0);
    }
    for (const q of ['extract tables from a pdf', 'deploy to kubernetes with helm', 'kuberntes']) {
      const x = await runCli(['search', q, '--catalog', lite, '--json', '--no-telemetry']);
      const y = await runCli(['search', q, '--catalog', pg, '--json', '--no-telemetry']);
      expect(x.code).toBe(0);
      expect(y.stdout).toBe(x.stdout);
    }
  });
});

const NO_HISTORY: HistoryFn = () => ({ suggestions: 0, fetches: 0 });

function attempt(fn: () => string): string {
  try {
    return fn();
  } catch (err) {
    return `error ${(err as { code?: string }).code ?? String(err)}`;
  }
}

describe.skipIf(!PG)(
  'a PostgreSQL search reads without a transaction, never from two generations',
  () => {
    const request: SearchRequest = { query: 'extract tables from pdf', limit: 5 };
    // A catalog whose top skill is deprecated and restored in turn: two generations, two answers.
    function catalogWithTwoAnswers(): {
      catalog: string;
      toggle: () => void;
      answerOf: Map<string, string>;
    } {
      const root = tmpDir('skilldex-pg-snap-');
      for (const [id, description] of [
        ['pdf-tables', 'Extract tables from PDF files.'],
        ['pdf-text', 'Extract text from PDF files.'],
        ['sheet-tables', 'Edit tables in spreadsheets.'],
        ['slides', 'Build slide decks.'],
      ] as const)
        writeTree(root, { [`${id}/SKILL.md`]: skillText(id, { description }) });
      const catalog = freshPgDatabase();
      indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
      let deprecated = false;
      const toggle = (): void => {
        deprecated = !deprecated;
        changeLifecycle({
          catalog,
          skill_id: 'pdf-tables',
          to: deprecated ? 'deprecated' : 'active',
          now: NOW,
        });
      };
      const answerOf = new Map<string, string>();
      for (let i = 0; i < 2; i++) {
        const r = new Router({ catalog, telemetry: false });
        try {
          const a = r.search(request);
          answerOf.set(a.catalog_generation, JSON.stringify(a));
        } finally {
          r.close();
        }
        toggle();
      }
      expect(answerOf.size).toBe(2);
      expect(new Set(answerOf.values()).size).toBe(2);
      return { catalog, toggle, answerOf };
    }

    it('runs again on the new generation when a publish lands between its statements', () => {
      const { catalog, toggle, answerOf } = catalogWithTwoAnswers();
      const reader = new CatalogReader(catalog);
      const generations: string[] = [];
      try {
        // The usage callback runs after the search read its generation and before its first
        // catalog read: a publish here moves the snapshot under the search.
        const result = searchCatalog(reader, new SearchCache(), request, {
          history: NO_HISTORY,
          telemetryMax: 1,
          usage: (gen) => {
            generations.push(gen.catalog_generation);
            if (generations.length === 1) toggle();
            return UsageIndex.EMPTY;
          },
        });
        expect(generations).toHaveLength(2);
        expect(generations[1]).not.toBe(generations[0]);
        expect(result.catalog_generation).toBe(generations[1]);
        expect(JSON.stringify(result)).toBe(answerOf.get(result.catalog_generation));
      } finally {
        reader.close();
      }
    });

    it(`after ${SNAPSHOT_RETRIES} moves answers from one REPEATABLE READ snapshot`, () => {
      const { catalog, toggle, answerOf } = catalogWithTwoAnswers();
      const reader = new CatalogReader(catalog);
      let calls = 0;
      try {
        const result = searchCatalog(reader, new SearchCache(), request, {
          history: NO_HISTORY,
          telemetryMax: 1,
          usage: () => {
            calls++;
            toggle();
            return UsageIndex.EMPTY;
          },
        });
        expect(calls).toBe(SNAPSHOT_RETRIES + 1);
        expect(JSON.stringify(result)).toBe(answerOf.get(result.catalog_generation));
      } finally {
        reader.close();
      }
    });

    it('sees examples learned by another process at the next search, through the generation read', () => {
      const { catalog } = catalogWithTwoAnswers();
      const r = new Router({ catalog, telemetry: false });
      try {
        const before = r.search({ query: 'presentation handout', limit: 2 });
        expect(before.candidates).toHaveLength(0);
        learnExamples({
          catalog,
          text: JSON.stringify({ query: 'presentation handout', skill_id: 'slides' }),
          file: 'x.jsonl',
          now: NOW,
        });
        expect(r.search({ query: 'presentation handout', limit: 2 }).candidates[0]?.skill_id).toBe(
          'slides',
        );
      } finally {
        r.close();
      }
    });
  },
);

describe.skipIf(!PG)('PostgreSQL catalog behaviour', () => {
  it('refuses policies v1 and v2 with a coded error, and a schema of foreign tables', () => {
    const root = tmpDir('skilldex-pg-lib-');
    writeTree(root, { 'a/SKILL.md': skillText('a', { description: 'Alpha tables.' }) });
    const pg = freshPgDatabase();
    expect(
      codeOf(() =>
        indexCatalog({
          catalog: pg,
          scopes: [root],
          home: root,
          project: root,
          now: NOW,
          policy: 'tf.skillrouter.hybrid-lexical.v1',
        }),
      ),
    ).toBe('INVALID_ARGUMENT');
    indexCatalog({ catalog: pg, scopes: [root], home: root, project: root, now: NOW });
    const r = new Router({ catalog: pg, telemetry: false });
    try {
      expect(
        codeOf(() => r.search({ query: 'alpha', policy: 'tf.skillrouter.hybrid-lexical.v1' })),
      ).toBe('INVALID_ARGUMENT');
      expect(r.search({ query: 'alpha' }).candidates[0]!.skill_id).toBe('a');
    } finally {
      r.close();
    }
    const foreign = freshPgDatabase();
    const db = new PgDb(foreign);
    db.exec('CREATE TABLE someone_elses (x int)');
    db.close();
    expect(
      codeOf(() => indexCatalog({ catalog: foreign, scopes: [root], home: root, project: root })),
    ).toBe('CATALOG_CORRUPT');
    expect(codeOf(() => new Router({ catalog: freshPgDatabase() }))).toBe('CATALOG_MISSING');
  });

  it('serialises two processes publishing at once: both succeed or one is CATALOG_BUSY, never a mix', async () => {
    const pg = freshPgDatabase();
    const a = tmpDir('skilldex-pg-a-');
    const b = tmpDir('skilldex-pg-b-');
    for (let i = 0; i < 60; i++) {
      writeTree(a, {
        [`a${i}/SKILL.md`]: skillText(`a${i}`, { description: `Alpha ${i} tables.` }),
      });
      writeTree(b, {
        [`b${i}/SKILL.md`]: skillText(`b${i}`, { description: `Beta ${i} charts.` }),
      });
    }
    const run = (scope: string): Promise<{ code: number; stderr: string; stdout: string }> =>
      new Promise((resolve) => {
        const p = spawn(
          process.execPath,
          [
            path.join(REPO, 'bin', 'skilldex.js'),
            'index',
            '--catalog',
            pg,
            '--scope',
            scope,
            '--json',
          ],
          {
            stdio: ['ignore', 'pipe', 'pipe'],
          },
        );
        let stderr = '';
        let stdout = '';
        p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
        p.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
        p.on('close', (code) => resolve({ code: code ?? -1, stderr, stdout }));
      });
    const [x, y] = await Promise.all([run(a), run(b)]);
    for (const r of [x, y]) {
      // Under --json a refusal is the error object on stdout.
      if (r.code !== 0) expect(r.stdout + r.stderr).toMatch(/CATALOG_BUSY|CATALOG_SHRINK/);
    }
    expect([x.code, y.code]).toContain(0);
    // Whatever won, the published generation is whole: its counts match its members.
    const status = getCatalogStatus({ catalog: pg });
    const gen = status.published!;
    expect(gen.counts.total).toBe(gen.counts.active + gen.counts.deprecated + gen.counts.archived);
    const r = new Router({ catalog: pg, telemetry: false });
    try {
      const served = r.listSkills({ limit: 500 });
      expect(served.skills.length).toBe(gen.counts.total - gen.counts.archived);
    } finally {
      r.close();
    }
  }, 120_000);

  it('masks the password of a URL in every message and reads --password-file', async () => {
    const pg = freshPgDatabase();
    const withPassword = pg.replace('postgres://skilldex@', 'postgres://skilldex:s3cret-pw@');
    const masked = catalogLocation(withPassword);
    expect(masked).not.toContain('s3cret-pw');
    expect(masked).toContain('***');
    // trust authentication accepts any password, so the command runs; nothing may echo it.
    const scope = path.join(REPO, 'examples', 'skills');
    const r = await runCli(['index', '--catalog', withPassword, '--scope', scope]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).not.toContain('s3cret-pw');
    const bad = await runCli([
      'status',
      '--catalog',
      withPassword.replace(/\/[^/?]*\?/, '/no_such_db?'),
      '--json',
    ]);
    expect(bad.code).toBe(3);
    expect(JSON.parse(bad.stdout).error.code).toBe('CATALOG_UNAVAILABLE');
    expect(bad.stdout + bad.stderr).not.toContain('s3cret-pw');
    const cfg = await runCli(['config', '--json'], {
      env: { HOME: '/nonexistent-home', SKILLDEX_CATALOG: withPassword },
    });
    expect(cfg.stdout).not.toContain('s3cret-pw');
    const pwFile = path.join(tmpDir('skilldex-pw-'), 'pw');
    writeTree(path.dirname(pwFile), { pw: 'from-a-file\n' });
    const f = await runCli(['status', '--catalog', pg, '--password-file', pwFile, '--json']);
    expect(f.code, f.stderr).toBe(0);
    expect(f.stdout).not.toContain('from-a-file');
  });
});

describe.skipIf(!PG)('refusals with their codes', () => {
  it('a URL that does not parse, a password file that cannot be read, a copy onto itself: INVALID_ARGUMENT', async () => {
    expect(codeOf(() => catalogLocation('postgres://[::1'))).toBe('INVALID_ARGUMENT');
    expect(
      codeOf(() => catalogLocation('postgres://u@h/db', path.join(tmpDir('skilldex-pw-'), 'none'))),
    ).toBe('INVALID_ARGUMENT');
    const pg = freshPgDatabase();
    const r = await runCli(['catalog', 'copy', pg, pg, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error.code).toBe('INVALID_ARGUMENT');
  });

  it('a publish while another host holds the write lock past 5 s: CATALOG_BUSY, nothing written', () => {
    const root = tmpDir('skilldex-pg-busy-');
    writeTree(root, { 'a/SKILL.md': skillText('a', { description: 'Alpha tables.' }) });
    const pg = freshPgDatabase();
    indexCatalog({ catalog: pg, scopes: [root], home: root, project: root, now: NOW });
    writeTree(root, { 'b/SKILL.md': skillText('b', { description: 'Beta charts.' }) });
    // Another connection holds the catalog writers' advisory lock in an open transaction.
    const holder = new PgDb(pg);
    try {
      holder.exec('BEGIN');
      holder.prepare('SELECT pg_advisory_xact_lock(8317145158497625464)').get();
      expect(
        codeOf(() =>
          indexCatalog({ catalog: pg, scopes: [root], home: root, project: root, now: NOW }),
        ),
      ).toBe('CATALOG_BUSY');
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    expect(getCatalogStatus({ catalog: pg }).published!.counts.total).toBe(1);
  }, 60_000);
});

describe.skipIf(!PG)('skilldex catalog copy', () => {
  it('copies SQLite → PostgreSQL → SQLite with usage examples, telemetry and supporting files, verified, and refuses a used target', async () => {
    const scope = path.join(tmpDir('skilldex-copy-lib-'), 'skills');
    cpSync(path.join(REPO, 'examples', 'skills'), scope, { recursive: true });
    writeTree(scope, { 'pdf-toolkit/scripts/extract.py': 'print("tables")\n' });
    const lite = sqlitePath();
    expect((await runCli(['index', '--catalog', lite, '--scope', scope, '--quiet'])).code).toBe(0);
    learnExamples({
      catalog: lite,
      text: JSON.stringify({ query: 'read a pdf table', skill_id: 'pdf-toolkit' }),
      file: 'ex.jsonl',
      now: NOW,
    });
    // One recorded fetch, so telemetry events and counts exist.
    const seed = new Router({ catalog: lite, now: NOW });
    const c = seed.search({ query: 'pdf' }).candidates[0]!;
    const gen = seed.currentGeneration();
    seed.fetch({
      skill_id: c.skill_id,
      expected_revision: c.revision_id,
      catalog_generation: gen,
      context: 'pdf work',
    });
    seed.close();
    const pg = freshPgDatabase();
    const there = await runCli(['catalog', 'copy', lite, pg, '--json']);
    expect(there.code, there.stderr).toBe(0);
    const report = JSON.parse(there.stdout) as {
      rows: Record<string, number>;
      verified: boolean;
      published: string;
    };
    expect(report.verified).toBe(true);
    expect(report.published).toBe(gen);
    // A learned and a fetch example, and the 44 author examples of the example library's evals/.
    expect(report.rows['usage_examples']).toBe(46);
    expect(report.rows['events']).toBeGreaterThan(0);
    const back = sqlitePath();
    expect((await runCli(['catalog', 'copy', pg, back])).code).toBe(0);
    const outs: string[] = [];
    for (const cat of [lite, pg, back]) {
      const r = await runCli([
        'search',
        'read a pdf table',
        '--catalog',
        cat,
        '--json',
        '--no-telemetry',
      ]);
      expect(r.code, r.stderr).toBe(0);
      outs.push(r.stdout);
    }
    expect(outs[1]).toBe(outs[0]);
    expect(outs[2]).toBe(outs[0]);
    const listings = [lite, pg, back].map((cat) => {
      const r = new Router({ catalog: cat, telemetry: false });
      try {
        return JSON.stringify(r.listSkillFiles('pdf-toolkit'));
      } finally {
        r.close();
      }
    });
    expect(
      (JSON.parse(listings[0]!) as { files: { path: string }[] }).files.map((f) => f.path),
    ).toContain('scripts/extract.py');
    expect(listings[1]).toBe(listings[0]);
    expect(listings[2]).toBe(listings[0]);
    // A bm25f catalog keeps no lexical data (catalog/store/layout.ts), copied or not: policy v1
    // answers REINDEX_REQUIRED on the SQLite copy, never an empty ranking.
    const onBack = new Router({ catalog: back, telemetry: false });
    try {
      expect(() =>
        onBack.search({ query: 'pdf', policy: 'tf.skillrouter.hybrid-lexical.v1' }),
      ).toThrow(expect.objectContaining({ code: 'REINDEX_REQUIRED' }));
    } finally {
      onBack.close();
    }
    const again = await runCli(['catalog', 'copy', lite, pg, '--json']);
    expect(again.code).toBe(2);
    expect(JSON.parse(again.stdout).error.code).toBe('INVALID_ARGUMENT');
  }, 120_000);
});

describe.skipIf(!PG || pgCluster() === undefined)('a lost database', () => {
  const cluster = pgCluster();
  afterAll(() => {
    // Leave the server up for the other files whatever happened here.
    try {
      if (cluster) startServer(cluster);
    } catch {
      // Already running.
    }
  });

  it('answers CATALOG_UNAVAILABLE while the server is down and serves again once it is back', async () => {
    const pg = freshPgDatabase();
    const root = tmpDir('skilldex-pg-lost-');
    writeTree(root, { 'a/SKILL.md': skillText('a', { description: 'Alpha tables.' }) });
    indexCatalog({ catalog: pg, scopes: [root], home: root, project: root, now: NOW });
    const r = new Router({ catalog: pg, telemetry: true });
    try {
      expect(r.search({ query: 'alpha' }).candidates[0]!.skill_id).toBe('a');
      stopServer(cluster!);
      expect(codeOf(() => r.search({ query: 'alpha' }))).toBe('CATALOG_UNAVAILABLE');
      // Within the backoff the router answers at once, without trying.
      expect(codeOf(() => r.search({ query: 'alpha' }))).toBe('CATALOG_UNAVAILABLE');
      startServer(cluster!);
      let answered = false;
      for (let i = 0; i < 100 && !answered; i++) {
        try {
          answered = r.search({ query: 'alpha' }).candidates[0]!.skill_id === 'a';
        } catch (err) {
          expect((err as { code?: string }).code).toBe('CATALOG_UNAVAILABLE');
          await new Promise((res) => setTimeout(res, 100));
        }
      }
      expect(answered).toBe(true);
      // Nothing published was lost.
      expect(publishCatalog({ catalog: pg, now: NOW }).changed).toBe(false);
    } finally {
      r.close();
    }
  }, 120_000);
});
