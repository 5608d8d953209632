/**
 * Quality benchmark (issue #3): top-1, recall@5, MRR and nDCG@10 of policy hybrid-lexical.v1 on the
 * dev split in ../shared/bench, beside a plain FTS5 BM25 baseline (name + description, porter
 * unicode61, OR of the query's terms: `bm25-nd`) computed in the same run.
* (policy v1, the default, and v2). `--extra` adds corpus-real as distractors to every catalog. Run files for the bench scorer are
 * written to bench/.work/runs/<method>/<dataset>.jsonl.
 *
 *   npm run bench:quality [-- --extra]
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  POLICY_ID,
  POLICY_V2_ID,
  Router,
  discoverSkills,
  indexCatalog,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  scoreRanking,
  MRR_DEPTH,
  type LabelledQuery,
  type Metrics,
} from '../src/index.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';

const SPLIT = path.resolve(REPO, '..', 'shared', 'bench');
const DATASETS = ['metatool', 'apibench-torchhub', 'bfcl-curated'];
const extra = process.argv.includes('--extra');

function baselineRankings(catalogDirs: string[], queries: readonly LabelledQuery[]): Map<string, string[]> {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(name, description, tokenize='porter unicode61')`);
  const ins = db.prepare(`INSERT INTO t (name, description) VALUES (?, ?)`);
  const report = discoverSkills({ scopes: catalogDirs });
  for (const s of report.skills) ins.run(s.name, s.description);
  const q = db.prepare(`SELECT name FROM t WHERE t MATCH ? ORDER BY bm25(t), name LIMIT ${MRR_DEPTH}`);
  const out = new Map<string, string[]>();
  for (const query of queries) {
    const toks = [...new Set((query.query.match(/[\p{L}\p{N}]+/gu) ?? []).map((t) => t.toLowerCase()))];
    const expr = toks.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
    out.set(query.id, expr ? (q.all(expr) as { name: string }[]).map((r) => r.name) : []);
  }
  db.close();
  return out;
}

function main(): void {
  const rows: { dataset: string; method: string; m: Metrics }[] = [];
  const runDir = path.join(WORK, 'runs');
  for (const ds of DATASETS) {
    const dir = path.join(SPLIT, ds);
    const queries = parseQueryLines(readFileSync(path.join(dir, 'queries.jsonl'), 'utf8'), `${ds}/queries.jsonl`, true);
    const scopes = [path.join(dir, 'catalog'), ...(extra ? [path.join(SPLIT, 'corpus-real')] : [])];
    const perPolicy = new Map<string, ReturnType<typeof scoreRanking>[]>();
    const v2Runs: string[] = [];
    for (const policy of [POLICY_ID, POLICY_V2_ID]) {
      const catalog = path.join(WORK, `quality-${ds}${extra ? '-extra' : ''}-${policy.split('.').pop()}.sqlite`);
      for (const f of readdirSync(WORK).filter((n) => n.startsWith(path.basename(catalog)))) rmSync(path.join(WORK, f));
      indexCatalog({ catalog, scopes, now: () => new Date(0), policy });
      const router = new Router({ catalog, telemetry: false });
      perPolicy.set(
        policy,
        queries.map((q) => {
          let ranking: string[] = [];
          try {
            ranking = router.search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH).candidates.map((c) => c.skill_id);
          } catch {
            // A query with no searchable word ranks nothing, as the scorer counts an empty ranking.
            ranking = [];
          }
          if (policy === POLICY_V2_ID) v2Runs.push(JSON.stringify({ id: q.id, ranking }));
          return scoreRanking(ranking, q);
        }),
      );
      router.close();
    }
    const base = baselineRankings(scopes, queries);
    const baseScores = queries.map((q) => scoreRanking(base.get(q.id) ?? [], q));
    mkdirSync(path.join(runDir, 'v2'), { recursive: true });
    mkdirSync(path.join(runDir, 'bm25-nd'), { recursive: true });
    writeFileSync(path.join(runDir, 'v2', `${ds}.jsonl`), v2Runs.join('\n') + '\n');
    writeFileSync(path.join(runDir, 'bm25-nd', `${ds}.jsonl`), queries.map((q) => JSON.stringify({ id: q.id, ranking: base.get(q.id) })).join('\n') + '\n');
    rows.push({ dataset: ds, method: 'bm25-nd (baseline)', m: meanMetrics(baseScores) });
    rows.push({ dataset: ds, method: 'hybrid-lexical.v1 (default)', m: meanMetrics(perPolicy.get(POLICY_ID)!) });
    rows.push({ dataset: ds, method: 'hybrid-lexical.v2', m: meanMetrics(perPolicy.get(POLICY_V2_ID)!) });
  }
  for (const method of ['bm25-nd (baseline)', 'hybrid-lexical.v1 (default)', 'hybrid-lexical.v2']) {
    rows.push({ dataset: '**macro avg**', method, m: macroAverage(rows.filter((r) => r.method === method).map((r) => r.m)) });
  }
  const lines = [
    `# Routing quality on the dev split${extra ? ' (+ corpus-real distractors)' : ''}`,
    '',
    machineLine(),
    '',
    '| dataset | method | queries | top1 | R@5 | MRR | nDCG@10 |',
    '|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.dataset} | ${r.method} | ${r.m.queries} | ${fmt(r.m.top1, 3)} | ${fmt(r.m.recall_at_5, 3)} | ${fmt(r.m.mrr, 3)} | ${fmt(r.m.ndcg_at_10, 3)} |`),
  ];
  writeResult(extra ? 'quality-extra' : 'quality', lines.join('\n'));
}

mkdirSync(WORK, { recursive: true });
main();
