/**
 * Router speed benchmark (issues #3, #10): on generated libraries of 10,000 and 100,000 skills with
 * Zipf-distributed real words and bodies, measure in one process
 *   - indexing from files on disk under the default policy bm25f.v4 (skills/s, database size)
 *     beside the same index under v1 (the previous default) and a bare transaction of inserts of
 *     the same rows into an FTS5 table over name, keywords and description;
 *   - an unchanged re-index beside the full index;
 *   - where a full index spends its time (issue #26): discovery alone, then an index without
 *     publish (ingest and revision texts) and a publish alone into a second catalog;
 *   - skill_search latency p50/p95/p99 over 1,000 queries of 1–8 words, v4 beside a raw FTS5
 *     bm25() top-10 OR query over the same four fields (name, keywords, description, body capped as
 *     v4 caps it) in a table built for the purpose, and v1 beside the raw query over its three;
 *   - the same library indexed into PostgreSQL (issue #16; a throwaway cluster the bench starts with
 *     test/support/pg-cluster.ts and stops at the end, also on failure): index throughput, size of
 *     the schema's tables, unchanged re-index, and v4 skill_search p50/p95/p99 beside the SQLite v4
 *     catalog of the same run, interleaved; both backends' answers (ids and scores) are compared on
 *     every query, and where the PostgreSQL index and searches spend their time is summed per
 *     statement (each statement one round trip; the searches profiled again in a new Router).
 *     Skipped with a message when PostgreSQL's server binaries are not installed. A PostgreSQL
 *     index longer than the budget (default 900 s) is stopped and reported with its profile.
 *
 * --search-only: only the search latency, of the default policy's catalog and of a catalog of the
 * frozen v4 beside the raw FTS5 query (no v1 index, no phases, no bare insert, no PostgreSQL).
 *
 *   npm run bench:router [-- --sizes 10000,100000] [--pg-only] [--search-only] [--pg-index-budget SECONDS]
 */
import { mkdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import {
  DEFAULT_POLICY_ID,
  POLICY_ID,
  POLICY_V4_ID,
  Router,
  discoverSkills,
  indexCatalog,
  publishCatalog,
} from '../src/internal.js';
import type { SearchResult } from '../src/internal.js';
import { BODY_INDEX_CHARS } from '../src/catalog/index.js';
import { PgDb } from '../src/catalog/store/pg.js';
import { findPgBin, startCluster, stopCluster, type Cluster } from '../test/support/pg-cluster.js';
import {
  WORK,
  fmt,
  generateSkillLibrary,
  machineLine,
  percentile,
  zipfQueries,
  time,
  writeResult,
} from './lib.js';

const sizesArg = process.argv.indexOf('--sizes');
const SIZES = sizesArg > 0 ? process.argv[sizesArg + 1]!.split(',').map(Number) : [10_000, 100_000];
const QUERIES = 1_000;
// --pg-only: of the SQLite catalogs, only the v4 one the PostgreSQL comparison needs.
const PG_ONLY = process.argv.includes('--pg-only');
const SEARCH_ONLY = process.argv.includes('--search-only');
// The short name of a policy id in the tables (tf.skillrouter.bm25f.v5 → bm25f.v5).
const short = (id: string): string => id.replace(/^tf\.skillrouter\./, '');
// A PostgreSQL full index still running after this many seconds is stopped (rolled back) and
// reported with its statement profile instead of its time: a bench never runs forever.
const budgetArg = process.argv.indexOf('--pg-index-budget');
const PG_INDEX_BUDGET_S = budgetArg > 0 ? Number(process.argv[budgetArg + 1]) : 900;

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

// A plain FTS5 table over the four fields v4 scores (bodies capped as v4 caps them): the raw baseline.
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

// --- PostgreSQL (issue #16) ---------------------------------------------------------------------

/** One size's PostgreSQL figures, beside the SQLite v4 catalog of the same run. */
interface PgFigures {
  n: number;
  indexMs: number;
  againMs: number;
  sqliteIndexMs: number;
  sqliteAgainMs: number;
  bytes: number;
  sqliteBytes: number;
  pgSearch: number[];
  sqliteSearch: number[];
  compared: number;
  mismatches: number;
  profile: string[];
  /** True when the full index ran past the budget and was stopped (no search figures then). */
  stopped: boolean;
  /** The same for the queries run again in a new Router (cold caches). */
  searchProfile: string[];
  /** Load average (1, 5, 15 min) when this size's PostgreSQL part started: the machine is shared. */
  load: string;
}

/** The URL of a new, empty schema `name` in the cluster's `bench` database (created on first use). */
function pgSchema(cluster: Cluster, name: string): string {
  const base = new URL(cluster.adminUrl);
  base.pathname = '/bench';
  const admin = new PgDb(cluster.adminUrl);
  try {
    const has = admin.prepare(`SELECT 1 AS one FROM pg_database WHERE datname = 'bench'`).get();
    if (has === undefined) admin.exec('CREATE DATABASE bench');
  } finally {
    admin.close();
  }
  const db = new PgDb(base.toString());
  try {
    db.exec(`DROP SCHEMA IF EXISTS ${name} CASCADE; CREATE SCHEMA ${name}`);
  } finally {
    db.close();
  }
  const url = new URL(base.toString());
  url.searchParams.set('options', `-csearch_path=${name}`);
  return url.toString();
}

/** Bytes of the schema's tables with their indexes and TOAST (pg_total_relation_size). */
function pgSchemaBytes(cluster: Cluster, name: string): number {
  const url = new URL(cluster.adminUrl);
  url.pathname = '/bench';
  const db = new PgDb(url.toString());
  try {
    const row = db
      .prepare(
        `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = ? AND c.relkind IN ('r', 'm')`,
      )
      .get(name) as { bytes: number };
    return Number(row.bytes);
  } finally {
    db.close();
  }
}

/**
 * Runs `fn` with every PostgreSQL statement timed: the statements (first line, 70 characters) by
 * total time, with their call counts, as table rows. Wraps `PgDb.prototype.run`, which every
 * catalog statement goes through (transactions and DDL go through `exec`, not counted here).
 */
class OverBudget extends Error {}

function profiled<T>(
  fn: () => T,
  deadline = Infinity,
): {
  value: T | undefined;
  rows: string[];
  calls: number;
  ms: number;
  callsOf: (prefix: string) => number;
} {
  const proto = PgDb.prototype as unknown as { run: PgDb['run'] };
  const original = proto.run;
  const stats = new Map<string, { calls: number; ms: number }>();
  proto.run = function (this: PgDb, source: string, params: readonly unknown[]) {
    if (Date.now() > deadline) throw new OverBudget('over the budget');
    const t = time(() => original.call(this, source, params));
    const key = source.replace(/\s+/g, ' ').trim().slice(0, 70);
    const s = stats.get(key) ?? { calls: 0, ms: 0 };
    s.calls++;
    s.ms += t.ms;
    stats.set(key, s);
    return t.value;
  };
  try {
    let value: T | undefined;
    try {
      value = fn();
    } catch (err) {
      if (!(err instanceof OverBudget)) throw err;
    }
    const all = [...stats.entries()].sort((a, b) => b[1].ms - a[1].ms);
    const calls = all.reduce((a, [, s]) => a + s.calls, 0);
    const ms = all.reduce((a, [, s]) => a + s.ms, 0);
    const rows = all
      .slice(0, 6)
      .map(
        ([k, s]) =>
          `| \`${k.replace(/\|/g, '\\|')}\` | ${s.calls} | ${fmt(s.ms / 1000)} s | ${fmt((s.ms * 1000) / s.calls, 0)} µs |`,
      );
    const callsOf = (prefix: string): number =>
      all.filter(([k]) => k.startsWith(prefix)).reduce((a, [, s]) => a + s.calls, 0);
    return { value, rows, calls, ms, callsOf };
  } finally {
    proto.run = original;
  }
}

/** True when both answers name the same candidates (skill and revision) in the same order with the same scores. */
function sameAnswer(a: SearchResult, b: SearchResult): boolean {
  return (
    a.candidates.length === b.candidates.length &&
    a.candidates.every((c, i) => {
      const d = b.candidates[i]!;
      return c.skill_id === d.skill_id && c.revision_id === d.revision_id && c.score === d.score;
    })
  );
}

function pgSize(
  cluster: Cluster,
  n: number,
  dir: string,
  sqliteCatalog: string,
  sqlite: { indexMs: number; againMs: number; bytes: number },
  qs: readonly string[],
): PgFigures {
  const load = os
    .loadavg()
    .map((x) => fmt(x))
    .join(', ');
  const schema = `router_${n}`;
  const url = pgSchema(cluster, schema);
  process.stderr.write(`indexing ${n} into PostgreSQL…\n`);
  const started = Date.now();
  const full = profiled(
    () => time(() => indexCatalog({ catalog: url, scopes: [dir] })),
    started + PG_INDEX_BUDGET_S * 1000,
  );
  const profile = [
    `| ${n} | all statements | ${full.calls} | ${fmt(full.ms / 1000)} s of ${fmt((Date.now() - started) / 1000)} s | ${fmt((full.ms * 1000) / Math.max(1, full.calls), 0)} µs |`,
    ...full.rows.map((r) => `| ${n} ${r}`),
  ];
  if (!full.value) {
    // How far it got: revisions are written by ingest, serving rows by publish.
    profile.push(
      `| ${n} | progress when stopped: INSERT statements into revisions / serving (up to 256 rows each) | ${full.callsOf('INSERT INTO revisions')} / ${full.callsOf('INSERT INTO serving ')} for ${n} skills | | |`,
    );
    process.stderr.write(`PostgreSQL index of ${n} stopped after ${PG_INDEX_BUDGET_S} s\n`);
    return {
      n,
      indexMs: Date.now() - started,
      againMs: NaN,
      sqliteIndexMs: sqlite.indexMs,
      sqliteAgainMs: sqlite.againMs,
      bytes: NaN,
      sqliteBytes: sqlite.bytes,
      pgSearch: [],
      sqliteSearch: [],
      compared: 0,
      mismatches: 0,
      load,
      profile,
      stopped: true,
      searchProfile: [],
    };
  }
  const indexMs = full.value.ms;
  const again = time(() => indexCatalog({ catalog: url, scopes: [dir] }));
  const bytes = pgSchemaBytes(cluster, schema);
  process.stderr.write(`searching ${n} on PostgreSQL…\n`);
  const pg = new Router({ catalog: url, telemetry: false });
  const lite = new Router({ catalog: sqliteCatalog, telemetry: false });
  try {
    for (let i = 0; i < 50; i++) {
      pg.search({ query: qs[i]!, limit: 10 });
      lite.search({ query: qs[i]!, limit: 10 });
    }
    const pgSearch: number[] = [];
    const sqliteSearch: number[] = [];
    let mismatches = 0;
    // Interleaved, so drift on the machine hits both alike; every answer pair is compared.
    for (const q of qs) {
      const a = time(() => pg.search({ query: q, limit: 10 }));
      const b = time(() => lite.search({ query: q, limit: 10 }));
      pgSearch.push(a.ms);
      sqliteSearch.push(b.ms);
      if (!sameAnswer(a.value, b.value)) mismatches++;
    }
    // Untimed above: where a PostgreSQL search spends its time, over the same queries again in a
    // new Router, so its caches start as cold as the timed run's did.
    const sample = qs;
    const cold = new Router({ catalog: url, telemetry: false });
    const searchProfile = (() => {
      try {
        return profiled(() =>
          time(() => sample.forEach((q) => cold.search({ query: q, limit: 10 }))),
        );
      } finally {
        cold.close();
      }
    })();
    return {
      n,
      indexMs,
      againMs: again.ms,
      sqliteIndexMs: sqlite.indexMs,
      sqliteAgainMs: sqlite.againMs,
      bytes,
      sqliteBytes: sqlite.bytes,
      pgSearch,
      sqliteSearch,
      compared: qs.length,
      mismatches,
      load,
      profile,
      stopped: false,
      searchProfile: [
        `| ${n} | all statements, per query | ${fmt(searchProfile.calls / sample.length, 1)} | ${fmt(searchProfile.ms / sample.length)} ms of ${fmt((searchProfile.value?.ms ?? NaN) / sample.length)} ms | ${fmt((searchProfile.ms * 1000) / Math.max(1, searchProfile.calls), 0)} µs |`,
        ...searchProfile.rows.map((r) => `| ${n} ${r}`),
      ],
    };
  } finally {
    pg.close();
    lite.close();
  }
}

function pgLines(figures: readonly PgFigures[]): string[] {
  const p = (xs: number[]): string => [50, 95, 99].map((q) => fmt(percentile(xs, q))).join(' / ');
  const lines = [
    '## PostgreSQL beside SQLite (bm25f.v4)',
    '',
    '| skills | index PostgreSQL | index SQLite | throughput ratio (SQLite / PostgreSQL) | unchanged re-index PostgreSQL / SQLite | size PostgreSQL / SQLite | load average (1, 5, 15 min) |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const f of figures) {
    if (f.stopped) {
      lines.push(
        `| ${f.n} | stopped after ${fmt(f.indexMs / 1000)} s (budget ${PG_INDEX_BUDGET_S} s; see the profile below) | ${fmt(f.sqliteIndexMs / 1000)} s (${Math.round(f.n / (f.sqliteIndexMs / 1000))}/s) | – | – | – | ${f.load} |`,
      );
      continue;
    }
    const pgRate = f.n / (f.indexMs / 1000);
    const liteRate = f.n / (f.sqliteIndexMs / 1000);
    lines.push(
      `| ${f.n} | ${fmt(f.indexMs / 1000)} s (${Math.round(pgRate)}/s) | ${fmt(f.sqliteIndexMs / 1000)} s (${Math.round(liteRate)}/s) | ${fmt(liteRate / pgRate)} | ${fmt(f.againMs / 1000)} s / ${fmt(f.sqliteAgainMs / 1000)} s | ${fmt(f.bytes / 1e6, 1)} / ${fmt(f.sqliteBytes / 1e6, 1)} MB | ${f.load} |`,
    );
  }
  const searched = figures.filter((x) => !x.stopped);
  if (searched.length > 0)
    lines.push(
      '',
      '| skills | PostgreSQL skill_search p50 / p95 / p99 (ms) | SQLite p50 / p95 / p99 (ms) | p50 ratio (target ≤ 2) | p95 ratio | p99 ratio | answers compared | mismatches |',
      '|---|---|---|---|---|---|---|---|',
    );
  for (const f of searched) {
    const r = (q: number): string => fmt(percentile(f.pgSearch, q) / percentile(f.sqliteSearch, q));
    lines.push(
      `| ${f.n} | ${p(f.pgSearch)} | ${p(f.sqliteSearch)} | ${r(50)} | ${r(95)} | ${r(99)} | ${f.compared} | ${f.mismatches} |`,
    );
  }
  lines.push(
    '',
    'Where the PostgreSQL full index spends its time, per catalog statement (client-side wall time of each synchronous libpq round trip; BEGIN/COMMIT and DDL not counted):',
    '',
    '| skills / statement | calls | total | per call |',
    '|---|---|---|---|',
    ...figures.flatMap((f) => f.profile),
  );
  if (searched.length > 0)
    lines.push(
      '',
      "Where a PostgreSQL skill_search spends its time, per catalog statement (each one round trip), over the same 1,000 queries run again after the timed ones in a new Router, whose caches start cold as the timed run's did (calls and time of the first row are per query, the others over the 1,000):",
      '',
      '| skills / statement | calls | total | per call |',
      '|---|---|---|---|',
      ...figures.flatMap((f) => f.searchProfile),
    );
  lines.push(
    '',
    "PostgreSQL: a throwaway local cluster (fsync off, loopback TCP), the catalog in a fresh schema of one database, pg-native (libpq) synchronous calls. Size = pg_total_relation_size of the schema's tables (with indexes and TOAST); SQLite size = the catalog file. Search: the same 1,000 queries, limit 10, telemetry off, PostgreSQL and SQLite v4 interleaved after 50 warm-up queries each; an answer mismatches when the candidate ids, revisions, order or scores differ.",
  );
  return lines;
}

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  const bin = SEARCH_ONLY ? undefined : findPgBin();
  if (!bin && !SEARCH_ONLY)
    process.stderr.write(
      'PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL part is SKIPPED.\n',
    );
  const cluster = bin ? await startCluster(bin) : undefined;
  let stopped = false;
  const stop = (): void => {
    if (cluster && !stopped) {
      stopped = true;
      stopCluster(cluster);
    }
  };
  // The cluster goes with the process, however it ends (a signal waits for a running index).
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      stop();
      process.exit(130);
    });
  try {
    await measure(cluster);
  } finally {
    stop();
  }
}

// skill_search latency of each [label, catalog, raw FTS5 file, raw SQL] over `qs`, interleaved
// with the raw query so drift on the machine hits both alike: one table row each.
function searchRows(
  n: number,
  qs: readonly string[],
  setups: readonly (readonly [string, string, string, string])[],
): string[] {
  const ors = qs.map((q) => [...new Set(q.split(' '))].map((w) => `"${w}"`).join(' OR '));
  const p = (xs: number[]): string => [50, 95, 99].map((q) => fmt(percentile(xs, q))).join(' / ');
  const rows: string[] = [];
  for (const [label, cat, rawFile, rawSql] of setups) {
    const router = new Router({ catalog: cat, telemetry: false });
    const raw = new Database(rawFile, { readonly: true });
    const rawStmt = raw.prepare(rawSql);
    // Warm-up, then interleave the two.
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
    rows.push(
      `| ${n} | ${label} | ${p(ours)} | ${p(base)} | ${fmt(percentile(ours, 50) / percentile(base, 50))} | ${fmt(percentile(ours, 99) / percentile(base, 99))} |`,
    );
  }
  return rows;
}

async function measure(cluster: Cluster | undefined): Promise<void> {
  const lines = ['# Router speed', '', machineLine(), ''];
  lines.push(
    '| skills | index from disk (v4) | index from disk (v1) | v4 / v1 throughput | bare FTS5 insert (3 fields) | unchanged re-index (v4) | ratio to full | db size v4 / v1 |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  const phaseLines = [
    '| skills | discovery alone (walk, read, parse, hash) | index without publish (discovery, ingest, revision texts) | publish alone (body lines read back) | full index (one run) |',
    '|---|---|---|---|---|',
  ];
  const searchLines = [
    '| skills | policy | skill_search p50 / p95 / p99 (ms) | raw FTS5 top-10 p50 / p95 / p99 (ms) | p50 ratio | p99 ratio |',
    '|---|---|---|---|---|---|',
  ];
  const pgFigures: PgFigures[] = [];
  const render = (): void => {
    if (SEARCH_ONLY) {
      writeResult(
        'router-search',
        [
          '# Search latency of the live BM25F policies',
          '',
          machineLine(),
          '',
          ...searchLines,
          '',
          'Queries: 1,000 of 1–8 Zipf words, limit 10, telemetry off, each catalog in its own Router, interleaved with the raw FTS5 query `MATCH "w1" OR "w2"… ORDER BY bm25() LIMIT 10` over a table of the same four fields (bodies capped at 8,192 characters). `npm run bench:router -- --search-only --sizes N`.',
        ].join('\n'),
      );
      return;
    }
    const out = PG_ONLY
      ? [
          '# Router speed',
          '',
          machineLine(),
          '',
          '(Run with --pg-only: of the SQLite measurements, only the v4 catalog the PostgreSQL comparison needs.)',
        ]
      : [...lines, '', ...phaseLines, '', ...searchLines];
    if (!PG_ONLY)
      out.push(
        '',
        'Index from disk = discover + read + parse + hash + ingest + publish (FTS5, vocabulary and, from v3, postings), then the revision texts. Bare insert = the same rows, pre-parsed, in one FTS5 insert transaction over name, keywords and description.',
        'Queries: 1,000 of 1–8 Zipf words, limit 10, telemetry off; raw FTS5 = `MATCH "w1" OR "w2"… ORDER BY bm25() LIMIT 10`: for v4 over a table of the same four fields (bodies capped at 8,192 characters), for v1 over the catalog\'s own three-field index.',
      );
    if (pgFigures.length > 0) out.push('', ...pgLines(pgFigures));
    writeResult('router', out.join('\n'));
  };
  for (const n of SIZES) {
    process.stderr.write(`generating ${n} skills…\n`);
    const dir = generateSkillLibrary(n);
    const catalog = path.join(WORK, `router-${n}.sqlite`);
    for (const f of [catalog, `${catalog}-wal`, `${catalog}-shm`]) rmSync(f, { force: true });
    // Warm the page cache so both index runs read the same warm files.
    discoverSkills({ scopes: [dir] });
    const discovery = time(() => discoverSkills({ scopes: [dir] }));
    process.stderr.write(`indexing ${n}…\n`);
    const full = time(() => indexCatalog({ catalog, scopes: [dir] }));
    const again = time(() => indexCatalog({ catalog, scopes: [dir] }));
    const size = statSync(catalog).size;
    const qs = zipfQueries(QUERIES, n + 1);
    if (SEARCH_ONLY) {
      const v4Catalog = path.join(WORK, `router-${n}-v4.sqlite`);
      for (const f of [v4Catalog, `${v4Catalog}-wal`, `${v4Catalog}-shm`])
        rmSync(f, { force: true });
      indexCatalog({ catalog: v4Catalog, scopes: [dir], policy: POLICY_V4_ID });
      const four = path.join(WORK, `four-${n}.sqlite`);
      fourFieldTable(dir, four);
      const raw = `SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10`;
      process.stderr.write(`searching ${n}…\n`);
      searchLines.push(
        ...searchRows(n, qs, [
          [short(DEFAULT_POLICY_ID), catalog, four, raw],
          [short(POLICY_V4_ID), v4Catalog, four, raw],
        ]),
      );
      render();
      continue;
    }
    if (!PG_ONLY) {
      const v1Catalog = path.join(WORK, `router-${n}-v1.sqlite`);
      for (const f of [v1Catalog, `${v1Catalog}-wal`, `${v1Catalog}-shm`])
        rmSync(f, { force: true });
      const v1 = time(() => indexCatalog({ catalog: v1Catalog, scopes: [dir], policy: POLICY_ID }));
      const staged = path.join(WORK, `router-${n}-staged.sqlite`);
      for (const f of [staged, `${staged}-wal`, `${staged}-shm`]) rmSync(f, { force: true });
      const ingest = time(() => indexCatalog({ catalog: staged, scopes: [dir], publish: false }));
      const publish = time(() => publishCatalog({ catalog: staged }));
      phaseLines.push(
        `| ${n} | ${fmt(discovery.ms / 1000)} s | ${fmt(ingest.ms / 1000)} s | ${fmt(publish.ms / 1000)} s | ${fmt(full.ms / 1000)} s |`,
      );
      const bare = bareInsert(dir, path.join(WORK, `bare-${n}.sqlite`));
      const four = path.join(WORK, `four-${n}.sqlite`);
      fourFieldTable(dir, four);
      const v1Size = statSync(v1Catalog).size;
      const indexRate = n / (full.ms / 1000);
      const v1Rate = n / (v1.ms / 1000);
      const bareRate = bare.rows / (bare.ms / 1000);
      lines.push(
        `| ${n} | ${fmt(full.ms / 1000)} s (${Math.round(indexRate)}/s) | ${fmt(v1.ms / 1000)} s (${Math.round(v1Rate)}/s) | ${fmt(indexRate / v1Rate)} | ${fmt(bare.ms / 1000)} s (${Math.round(bareRate)}/s) | ${fmt(again.ms / 1000)} s | ${fmt(again.ms / full.ms, 3)} | ${fmt(size / 1e6, 1)} / ${fmt(v1Size / 1e6, 1)} MB |`,
      );
      process.stderr.write(`searching ${n}…\n`);
      searchLines.push(
        ...searchRows(n, qs, [
          [
            short(DEFAULT_POLICY_ID),
            catalog,
            four,
            `SELECT rowid FROM t WHERE t MATCH ? ORDER BY bm25(t) LIMIT 10`,
          ],
          [
            'hybrid-lexical.v1',
            v1Catalog,
            v1Catalog,
            `SELECT rowid FROM serving_fts WHERE serving_fts MATCH ? ORDER BY bm25(serving_fts) LIMIT 10`,
          ],
        ]),
      );
    }
    if (cluster) {
      render(); // The SQLite figures first: the PostgreSQL part of a size can take long.
      pgFigures.push(
        pgSize(cluster, n, dir, catalog, { indexMs: full.ms, againMs: again.ms, bytes: size }, qs),
      );
    }
    // Written after every size, so a long run that is stopped keeps what it measured.
    render();
  }
}

void main();
