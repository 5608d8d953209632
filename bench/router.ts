/**
 * Router speed benchmark (issue #3): on generated libraries of 10,000 and 100,000 skills with
 * Zipf-distributed real words, measure in one process
 *   - indexing from files on disk (skills/s, database size) beside a bare transaction of inserts of
 *     the same rows into an FTS5 table with the same columns;
 *   - an unchanged re-index beside the full index;
 *   - skill_search latency p50/p95/p99 over 1,000 queries of 1–8 words beside the raw FTS5 bm25()
 *     top-10 OR query over the same columns of the same catalog.
 *
 *   npm run bench:router [-- --sizes 10000,100000]
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Router, discoverSkills, indexCatalog } from '../src/index.js';
import { WORK, fmt, generateSkillLibrary, largeVocabulary, machineLine, percentile, rng, time, writeResult, zipfFrom } from './lib.js';

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
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(name, keywords, description, tokenize='porter unicode61', prefix='3')`);
  const ins = db.prepare(`INSERT INTO t (name, keywords, description) VALUES (?, ?, ?)`);
  const t = time(() => db.transaction(() => skills.forEach((s) => ins.run(s.name, s.keywords.join(' '), s.description)))());
  db.close();
  return { ms: t.ms, rows: skills.length };
}

function queries(n: number, seed: number): string[] {
  const rand = rng(seed);
  return Array.from({ length: n }, () => zipfWords(rand, 1 + Math.floor(rand() * 8)).join(' '));
}

function main(): void {
  mkdirSync(WORK, { recursive: true });
  const lines = ['# Router speed', '', machineLine(), ''];
  lines.push('| skills | index from disk | bare FTS5 insert | ratio | unchanged re-index | ratio to full | db size |');
  lines.push('|---|---|---|---|---|---|---|');
  const searchLines = [
    '| skills | skill_search p50 / p95 / p99 (ms) | raw FTS5 top-10 p50 / p95 / p99 (ms) | p50 ratio | p99 ratio |',
    '|---|---|---|---|---|',
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
    const bare = bareInsert(dir, path.join(WORK, `bare-${n}.sqlite`));
    const size = statSync(catalog).size;
    const indexRate = n / (full.ms / 1000);
    const bareRate = bare.rows / (bare.ms / 1000);
    lines.push(
      `| ${n} | ${fmt(full.ms / 1000)} s (${Math.round(indexRate)}/s) | ${fmt(bare.ms / 1000)} s (${Math.round(bareRate)}/s) | ${fmt(indexRate / bareRate)} | ${fmt(again.ms / 1000)} s | ${fmt(again.ms / full.ms, 3)} | ${fmt(size / 1e6, 1)} MB |`,
    );
    process.stderr.write(`searching ${n}…\n`);
    const qs = queries(QUERIES, n + 1);
    const router = new Router({ catalog, telemetry: false });
    const raw = new Database(catalog, { readonly: true });
    const rawStmt = raw.prepare(`SELECT rowid FROM serving_fts WHERE serving_fts MATCH ? ORDER BY bm25(serving_fts) LIMIT 10`);
    const ors = qs.map((q) => [...new Set(q.split(' '))].map((w) => `"${w}"`).join(' OR '));
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
    const p = (xs: number[]): string => [50, 95, 99].map((q) => fmt(percentile(xs, q))).join(' / ');
    searchLines.push(
      `| ${n} | ${p(ours)} | ${p(base)} | ${fmt(percentile(ours, 50) / percentile(base, 50))} | ${fmt(percentile(ours, 99) / percentile(base, 99))} |`,
    );
  }
  lines.push('', ...searchLines);
  lines.push(
    '',
    'Index from disk = discover + read + parse + hash + ingest + publish (FTS5 and vocabulary). Bare insert = the same rows, pre-parsed, in one FTS5 insert transaction.',
    'Queries: 1,000 of 1–8 Zipf words, limit 10, telemetry off; raw FTS5 = `MATCH "w1" OR "w2"… ORDER BY bm25() LIMIT 10` on the same catalog.',
  );
  writeResult('router', lines.join('\n'));
}

main();
