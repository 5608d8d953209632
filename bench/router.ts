/**
 * Router speed benchmark (issues #3, #10): on generated libraries of 10,000 and 100,000 skills with
 * Zipf-distributed real words and bodies, measure in one process
 *   - indexing from files on disk under the default policy bm25f.v3 (skills/s, database size)
 *     beside the same index under v1 (the previous default) and a bare transaction of inserts of
 *     the same rows into an FTS5 table over name, keywords and description;
 *   - an unchanged re-index beside the full index;
 *   - skill_search latency p50/p95/p99 over 1,000 queries of 1–8 words, v3 beside a raw FTS5
 *     bm25() top-10 OR query over the same four fields (name, keywords, description, body capped as
 *     v3 caps it) in a table built for the purpose, and v1 beside the raw query over its three.
 *
 *   npm run bench:router [-- --sizes 10000,100000]
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { POLICY_ID, Router, discoverSkills, indexCatalog } from '../src/index.js';
import { BODY_INDEX_CHARS } from '../src/catalog/index.js';
import {
  WORK,
  fmt,
  generateSkillLibrary,
  largeVocabulary,
  machineLine,
  percentile,
  rng,
  time,
  writeResult,
  zipfFrom,
} from './lib.js';

const VOCAB = largeVocabulary(40_000);
const zipfWords = (rand: () => number, n: number): string[] => zipfFrom(VOCAB, rand, n);

const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(',').map(Number) : [10_000, 100_000];
const QUERIES = 1_000;

function bareInsert(dir: string, file: string): { ms: number; rows: number } {
  // The same rows the catalog stores, parsed beforehand: only the insert transaction is timed.
  const skills = discoverSkills({ scopes: [dir] }).skills;
  rmSync(file, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(
    `CREATE VIRTUAL TABLE t USING fts5(name, keywords, description, tokenize='porter unicode61', prefix='3')`,
  );
  const ins = db.prepare(`INSERT INTO t (name, keywords, description) VALUES (?, ?, ?)`);
  const t = time(() =>
    db.transaction(() =>
      skills.forEach((s) => ins.run(s.name, s.keywords.join(' '), s.description)),
    )(),
  );
  db.close();
  return { ms: t.ms, rows: skills.length };
}

// A plain FTS5 table over the four fields v3 scores (bodies capped as v3 caps them): the raw baseline.
function fourFieldTable(dir: string, file: string): { ms: number } {
  const skills = discoverSkills({ scopes: [dir] }).skills;
  rmSync(file, { force: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec(
    `CREATE VIRTUAL TABLE t USING fts5(name, keywords, description, body, tokenize='porter unicode61')`,
  );
  const ins = db.prepare(`INSERT INTO t (name, keywords, description, body) VALUES (?, ?, ?, ?)`);
  const rows = skills.map((s) => [
    s.name,
    s.keywords.join(' '),
    s.description,
    readFileSync(s.real_path, 'utf8').slice(s.body_offset, s.body_offset + BODY_INDEX_CHARS),
  ]);
  const t = time(() => db.transaction(() => rows.forEach((r) => ins.run(...r)))());
  db.close();
  return { ms: t.ms };
}

function queries(n: number, seed: number): string[] {
  const rand = rng(seed);
  return Array.from({ length: n }, () => zipfWords(rand, 1 + Math.floor(rand() * 8)).join(' '));
}

function main(): void {
  mkdirSync(WORK, { recursive: true });
  const lines = ['# Router speed', '', machineLine(), ''];
  lines.push(
    '| skills | index from disk (v3) | index from disk (v1) | v3 / v1 throughput | bare FTS5 insert (3 fields) | unchanged re-index (v3) | ratio to full | db size v3 / v1 |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  const searchLines = [
    '| skills | policy | skill_search p50 / p95 / p99 (ms) | raw FTS5 top-10 p50 / p95 / p99 (ms) | p50 ratio | p99 ratio |',
    '|---|---|---|---|---|---|',
  ];
  for (const n of SIZES) {
    process.stderr.write(`generating ${n} skills…\n`);
    const dir = generateSkillLibrary(n);
    const catalog = path.join(WORK, `router-${n}.sqlite`);
    for (const f of [catalog, `${catalog}-wal`, `${catalog}-shm`]) rmSync(f, { force: true });
    // Warm the page cache so both index runs read the same warm files.
    discoverSkills({ scopes: [dir] });
    process.stderr.write(`indexing ${n}…\n`);
    const full = time(() => indexCatalog({ catalog, scopes: [dir] }));
    const again = time(() => indexCatalog({ catalog, scopes: [dir] }));
    const v1Catalog = path.join(WORK, `router-${n}-v1.sqlite`);
    for (const f of [v1Catalog, `${v1Catalog}-wal`, `${v1Catalog}-shm`]) rmSync(f, { force: true });
    const v1 = time(() => indexCatalog({ catalog: v1Catalog, scopes: [dir], policy: POLICY_ID }));
    const bare = bareInsert(dir, path.join(WORK, `bare-${n}.sqlite`));
    const four = path.join(WORK, `four-${n}.sqlite`);
    fourFieldTable(dir, four);
    const size = statSync(catalog).size;
    const v1Size = statSync(v1Catalog).size;
    const indexRate = n / (full.ms / 1000);
    const v1Rate = n / (v1.ms / 1000);
    const bareRate = bare.rows / (bare.ms / 1000);
    lines.push(
      `| ${n} | ${fmt(full.ms / 1000)} s (${Math.round(indexRate)}/s) | ${fmt(v1.ms / 1000)} s (${Math.round(v1Rate)}/s) | ${fmt(indexRate / v1Rate)} | ${fmt(bare.ms / 1000)} s (${Math.round(bareRate)}/s) | ${fmt(again.ms / 1000)} s | ${fmt(again.ms / full.ms, 3)} | ${fmt(size / 1e6, 1)} / ${fmt(v1Size / 1e6, 1)} MB |`,
    );
    process.stderr.write(`searching ${n}…\n`);
    const qs = queries(QUERIES, n + 1);
    const ors = qs.map((q) => [...new Set(q.split(' '))].map((w) => `"${w}"`).join(' OR '));
    const p = (xs: number[]): string => [50, 95, 99].map((q) => fmt(percentile(xs, q))).join(' / ');
    for (const [label, cat, rawFile, rawSql] of [
      ['bm25f.v3', catalog, four, `SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10`],
      [
        'hybrid-lexical.v1',
        v1Catalog,
        v1Catalog,
        `SELECT rowid FROM serving_fts WHERE serving_fts MATCH ? ORDER BY bm25(serving_fts) LIMIT 10`,
      ],
    ] as const) {
      const router = new Router({ catalog: cat, telemetry: false });
      const raw = new Database(rawFile, { readonly: true });
      const rawStmt = raw.prepare(rawSql);
      // Warm-up, then interleave the two so drift on the machine hits both alike.
      for (let i = 0; i < 50; i++) {
        router.search({ query: qs[i]!, limit: 10 });
        rawStmt.all(ors[i]!);
      }
      const ours: number[] = [];
      const base: number[] = [];
      for (let i = 0; i < qs.length; i++) {
        ours.push(time(() => router.search({ query: qs[i]!, limit: 10 })).ms);
        base.push(time(() => rawStmt.all(ors[i]!)).ms);
      }
      router.close();
      raw.close();
      searchLines.push(
        `| ${n} | ${label} | ${p(ours)} | ${p(base)} | ${fmt(percentile(ours, 50) / percentile(base, 50))} | ${fmt(percentile(ours, 99) / percentile(base, 99))} |`,
      );
    }
  }
  lines.push('', ...searchLines);
  lines.push(
    '',
    'Index from disk = discover + read + parse + hash + ingest + publish (FTS5, vocabulary and, from v3, postings). Bare insert = the same rows, pre-parsed, in one FTS5 insert transaction over name, keywords and description.',
    'Queries: 1,000 of 1–8 Zipf words, limit 10, telemetry off; raw FTS5 = `MATCH "w1" OR "w2"… ORDER BY bm25() LIMIT 10`: for v3 over a table of the same four fields (bodies capped at 8,192 characters), for v1 over the catalog\'s own three-field index.',
  );
  writeResult('router', lines.join('\n'));
}

main();
