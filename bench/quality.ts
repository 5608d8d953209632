/**
 * Quality benchmark (issue #10): top-1, recall@5, MRR and nDCG@10 on the dev split in
 * ../shared/bench of policies v1, v2 and bm25f.v3 (the default), beside the plain FTS5 BM25
 * baselines of ../shared/bench/README.md computed in the same run — `bm25-nd` (name + description),
 * `bm25-nd+stop` and `bm25-ndb+stop` (+ body; English stop-words out of the query). Learning from
 * use is measured honestly: each dataset's queries are split in two by a fixed hash of the query
 * id; the first half is imported with `learnExamples` (what `skilldex learn` does), and v3 "cold"
 * (no examples) and "warm" are both scored on the second half only. `--extra` adds corpus-real as
 * distractors to every catalog. Run files go to bench/.work/runs/<method>/<dataset>.jsonl.
 *
 *   npm run bench:quality [-- --extra]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  POLICY_ID,
  POLICY_V2_ID,
  POLICY_V3_ID,
  Router,
  discoverSkills,
  indexCatalog,
  learnExamples,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  scoreRanking,
  MRR_DEPTH,
  type LabelledQuery,
  type Metrics,
} from '../src/index.js';
import { STOP_WORDS } from '../src/text/index.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';

const SPLIT = path.resolve(REPO, '..', 'shared', 'bench');
const DATASETS = ['metatool', 'apibench-torchhub', 'bfcl-curated'];
const extra = process.argv.includes('--extra');

/** The half a query falls in: first byte of sha256(id) mod 2 (0 = learned from, 1 = evaluated). */
function half(id: string): number {
  return createHash('sha256').update(id).digest()[0]! % 2;
}

function baselineRankings(
  catalogDirs: string[],
  queries: readonly LabelledQuery[],
  body: boolean,
  stop: boolean,
): Map<string, string[]> {
  const db = new Database(':memory:');
  db.exec(
    `CREATE VIRTUAL TABLE t USING fts5(name, description, body, tokenize='porter unicode61')`,
  );
  const ins = db.prepare(`INSERT INTO t (name, description, body) VALUES (?, ?, ?)`);
  const report = discoverSkills({ scopes: catalogDirs });
  for (const s of report.skills) {
    const text = body
      ? readFileSync(s.real_path, 'utf8')
          .replace(/^\ufeff/, '')
          .slice(s.body_offset)
      : '';
    ins.run(
      s.real_path.includes('corpus-real') ? `extra:${s.real_path}` : s.name,
      s.description,
      text,
    );
  }
  const cols = body ? '' : '{name description} : ';
  const q = db.prepare(
    `SELECT name FROM t WHERE t MATCH ? ORDER BY bm25(t), name LIMIT ${MRR_DEPTH}`,
  );
  const out = new Map<string, string[]>();
  for (const query of queries) {
    let toks = [
      ...new Set((query.query.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => t.toLowerCase())),
    ];
    if (stop) toks = toks.filter((t) => !STOP_WORDS.has(t));
    const expr = toks.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    out.set(
      query.id,
      expr ? (q.all(cols + '(' + expr + ')') as { name: string }[]).map((r) => r.name) : [],
    );
  }
  db.close();
  return out;
}

function rankAll(router: Router, queries: readonly LabelledQuery[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const q of queries) {
    try {
      out.set(
        q.id,
        router
          .search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH)
          .candidates.map((c) => c.skill_id),
      );
    } catch {
      // A query with no searchable word ranks nothing, as the scorer counts an empty ranking.
      out.set(q.id, []);
    }
  }
  return out;
}

// A new, empty catalog path: the catalog, its WAL files and its telemetry file (where usage examples
// live) from an earlier run are removed, so a "cold" run never ranks with examples learned before.
function freshCatalog(name: string): string {
  const catalog = path.join(WORK, name);
  const stem = name.replace(/\.sqlite$/, '');
  for (const f of readdirSync(WORK).filter(
    (n) =>
      n === stem + '.sqlite' ||
      n.startsWith(stem + '.sqlite-') ||
      n.startsWith(stem + '.telemetry.'),
  )) {
    rmSync(path.join(WORK, f));
  }
  return catalog;
}

function main(): void {
  const rows: { dataset: string; method: string; m: Metrics }[] = [];
  const runDir = path.join(WORK, 'runs');
  const push = (
    ds: string,
    method: string,
    rankings: Map<string, string[]>,
    qs: readonly LabelledQuery[],
  ): void => {
    rows.push({
      dataset: ds,
      method,
      m: meanMetrics(qs.map((q) => scoreRanking(rankings.get(q.id) ?? [], q))),
    });
    mkdirSync(path.join(runDir, method.split(' ')[0]!), { recursive: true });
    writeFileSync(
      path.join(runDir, method.split(' ')[0]!, `${ds}.jsonl`),
      qs.map((q) => JSON.stringify({ id: q.id, ranking: rankings.get(q.id) ?? [] })).join('\n') +
        '\n',
    );
  };
  for (const ds of DATASETS) {
    const dir = path.join(SPLIT, ds);
    const queries = parseQueryLines(
      readFileSync(path.join(dir, 'queries.jsonl'), 'utf8'),
      `${ds}/queries.jsonl`,
      true,
    );
    const scopes = [path.join(dir, 'catalog'), ...(extra ? [path.join(SPLIT, 'corpus-real')] : [])];
    const suffix = extra ? '-extra' : '';
    push(ds, 'bm25-nd', baselineRankings(scopes, queries, false, false), queries);
    push(ds, 'bm25-nd+stop', baselineRankings(scopes, queries, false, true), queries);
    push(ds, 'bm25-ndb+stop', baselineRankings(scopes, queries, true, true), queries);
    for (const policy of [POLICY_ID, POLICY_V2_ID, POLICY_V3_ID]) {
      const catalog = freshCatalog(`quality-${ds}${suffix}-${policy.split('.').pop()}.sqlite`);
      indexCatalog({ catalog, scopes, now: () => new Date(0), policy });
      const router = new Router({ catalog, telemetry: false });
      push(ds, policy.split('.').slice(-2).join('.'), rankAll(router, queries), queries);
      router.close();
    }
    // Learning from use: learn from the first half, evaluate cold and warm on the second.
    const second = queries.filter((q) => half(q.id) === 1);
    const catalog = freshCatalog(`quality-${ds}${suffix}-warm.sqlite`);
    indexCatalog({ catalog, scopes, now: () => new Date(0), policy: POLICY_V3_ID });
    const cold = new Router({ catalog, telemetry: false });
    push(ds, 'bm25f.v3-cold (second half)', rankAll(cold, second), second);
    cold.close();
    const lines = queries
      .filter((q) => half(q.id) === 0)
      .map((q) => JSON.stringify({ id: q.id, query: q.query, relevant: q.relevant }));
    learnExamples({
      catalog,
      text: lines.join('\n'),
      file: `${ds}/queries.jsonl (first half)`,
      now: () => new Date(0),
    });
    const warm = new Router({ catalog, telemetry: false });
    push(ds, 'bm25f.v3-warm (second half)', rankAll(warm, second), second);
    warm.close();
  }
  const methods = [...new Set(rows.map((r) => r.method))];
  for (const method of methods) {
    rows.push({
      dataset: '**macro avg**',
      method,
      m: macroAverage(rows.filter((r) => r.method === method).map((r) => r.m)),
    });
  }
  const lines = [
    `# Routing quality on the dev split${extra ? ' (+ corpus-real distractors)' : ''}`,
    '',
    machineLine(),
    '',
    'Baselines are plain FTS5 `bm25()` computed in the same run (../shared/bench/README.md). `cold`/`warm` rows are scored on the',
    'second half of each dataset (split by sha256 of the query id); `warm` first imports the first half as usage examples.',
    '',
    '| dataset | method | queries | top1 | R@5 | MRR | nDCG@10 |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.dataset} | ${r.method} | ${r.m.queries} | ${fmt(r.m.top1, 3)} | ${fmt(r.m.recall_at_5, 3)} | ${fmt(r.m.mrr, 3)} | ${fmt(r.m.ndcg_at_10, 3)} |`,
    ),
  ];
  writeResult(extra ? 'quality-extra' : 'quality', lines.join('\n'));
}

mkdirSync(WORK, { recursive: true });
main();
