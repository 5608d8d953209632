/**
 * Poisoning benchmark (issue 23 §3, issue 25 "learning can be steered"): how far N hostile fetches
 * — one client, one session, a chosen `context` — move an unrelated skill for a query, on a real
 * library (../shared/bench/trigger's 112 skills with corpus-real's 1,206 as the rest of the
 * library, policy bm25f.v3), before and after this change. For each of a fixed sample of English
 * should-trigger queries, the attacked skill X is a trigger skill outside the cold top 20 for that
 * query (picked by a hash of the query id); the attacker fetches X N times with the query as the
 * context.
 *
 * - `before (main)`: the usage examples main stores — one row per fetch, every row an example —
 *   given to today's engine (bm25f.ts, unchanged by this branch).
 * - `after: stored`: the real path (Router.fetch with one client and session, the caps,
 *   readUsage) with every example counted once, as the engine did before it read `weight`.
 * - `after: stored + weight`: the same examples as the engine counts them now (each example's
 *   terms count `weight` times in the usage field: 0.25 for one session).
 * - `sessions`: the attacker opens N sessions (one fetch each) — the case the ranking-side bound
 *   (an example never lifts a skill absent from the cold top-k to #1 unless it is import or host)
 *   must close; reported so that bound has a baseline.
 *
 * Also measured: one fetch of the wrong cold #1 for a query (an agent's honest mistake) and how far
 * it moves the labelled skill; and legitimate agreement (4 sessions fetch the labelled skill for the
 * query) to show learning still works.
 *
 *   npm run bench:poisoning
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import {
  CatalogReader,
  forgetUsage,
  openUsageForWrite,
  readUsage,
  telemetryPathFor,
  type UsageExample,
} from '../src/catalog/index.js';
import { POLICY_V3_ID, Router, indexCatalog } from '../src/index.js';
import { UsageIndex } from '../src/router/index.js';
import { SearchCache, searchCatalog } from '../src/router/search/dispatch.js';
import { REPO, WORK, fmt, machineLine, median, writeResult } from './lib.js';

const SPLIT = path.resolve(REPO, '..', 'shared', 'bench');
const TRIGGER = path.join(SPLIT, 'trigger');
const CORPUS = path.join(SPLIT, 'corpus-real');
/** Queries sampled (English should-trigger, first by sha256 of their id). */
const SAMPLE = 80;
/** Hostile fetch counts measured. */
const NS = [1, 3, 10, 30] as const;
/** Ranks looked at; a skill below is counted at DEPTH + 1. */
const DEPTH = 50;
/** The attacked skill is outside the cold top COLD_K for its query. */
const COLD_K = 20;

interface Query {
  readonly id: string;
  readonly query: string;
  readonly skill: string;
}

function sha(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}

function sample(): Query[] {
  const all = readFileSync(path.join(TRIGGER, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Query & { should_trigger: boolean; lang?: string })
    .filter((q) => q.should_trigger && (q.lang ?? 'en') === 'en');
  return all
    .map((q) => ({ q, k: sha(q.id).toString('hex') }))
    .sort((a, b) => (a.k < b.k ? -1 : 1))
    .slice(0, SAMPLE)
    .map(({ q }) => ({ id: q.id, query: q.query, skill: q.skill }));
}

/** The usage field as the engine builds it: each example counted its weight. */
function weightedIndex(examples: readonly UsageExample[]): UsageIndex {
  return new UsageIndex(examples);
}

/** The same examples with every one counted once (the engine before it read weights). */
function unweightedIndex(examples: readonly UsageExample[]): UsageIndex {
  return new UsageIndex(examples.map((e) => ({ ...e, weight: 1 })));
}

/** Main's storage: one example per fetch row. */
function mainIndex(rows: readonly { skill_id: string; query: string }[]): UsageIndex {
  return new UsageIndex(
    rows.map((r, i) => ({
      id: i + 1,
      ...r,
      source: 'fetch' as const,
      sessions: 1,
      clients: 1,
      weight: 1,
    })),
  );
}

class Bench {
  readonly reader: CatalogReader;
  readonly cache = new SearchCache();
  readonly router: Router;
  readonly telemetry: string;
  private readonly pins = new Map<string, { revision: string; generation: string }>();
  constructor(readonly catalog: string) {
    this.reader = new CatalogReader(catalog);
    this.router = new Router({ catalog });
    this.telemetry = telemetryPathFor(catalog);
  }

  ranking(query: string, usage: UsageIndex): string[] {
    return searchCatalog(
      this.reader,
      this.cache,
      { query, limit: DEPTH },
      { usage },
    ).candidates.map((c) => c.skill_id);
  }

  rank(query: string, usage: UsageIndex, id: string): number {
    const i = this.ranking(query, usage).indexOf(id);
    return i < 0 ? DEPTH + 1 : i + 1;
  }

  /** Fetches `id` with `context` through the real Router path, as `client`/`session`. */
  fetch(id: string, context: string, session: string): void {
    let pin = this.pins.get(id);
    if (!pin) {
      const s = this.router.getSkill(id);
      pin = { revision: s.revision_id, generation: s.catalog_generation };
      this.pins.set(id, pin);
    }
    this.router.fetch(
      {
        skill_id: id,
        expected_revision: pin.revision,
        catalog_generation: pin.generation,
        context,
      },
      { client: 'mcp:attacker', session },
    );
  }

  stored(): readonly UsageExample[] {
    return readUsage(this.telemetry).examples;
  }

  forgetAll(): void {
    const db = openUsageForWrite(this.telemetry);
    try {
      forgetUsage(db, { all: true });
    } finally {
      db.close();
    }
  }
}

interface Row {
  readonly label: string;
  readonly ranks: number[];
}

function summarize(r: Row, n: number): string {
  const first = r.ranks.filter((x) => x === 1).length;
  const top5 = r.ranks.filter((x) => x <= 5).length;
  const med = median(r.ranks);
  return `| ${n} | ${r.label} | ${fmt((100 * first) / r.ranks.length, 1)} % | ${fmt((100 * top5) / r.ranks.length, 1)} % | ${med > DEPTH ? `>${DEPTH}` : med} |`;
}

function hostile(b: Bench, queries: readonly Query[], targets: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const n of NS) {
    const rows: Row[] = [
      { label: 'before (main): one example per fetch', ranks: [] },
      { label: 'after: stored (dedup per session, caps)', ranks: [] },
      { label: 'after: stored + weight (proposed engine use)', ranks: [] },
      { label: `after: ${n} sessions of one client, + weight`, ranks: [] },
    ];
    for (const q of queries) {
      const x = targets.get(q.id)!;
      rows[0]!.ranks.push(
        b.rank(q.query, mainIndex(Array(n).fill({ skill_id: x, query: q.query })), x),
      );
      for (let i = 0; i < n; i++) b.fetch(x, q.query, 'one-session');
      const one = b.stored();
      rows[1]!.ranks.push(b.rank(q.query, unweightedIndex(one), x));
      rows[2]!.ranks.push(b.rank(q.query, weightedIndex(one), x));
      b.forgetAll();
      for (let i = 0; i < n; i++) b.fetch(x, q.query, `session-${i}`);
      rows[3]!.ranks.push(b.rank(q.query, weightedIndex(b.stored()), x));
      b.forgetAll();
    }
    for (const r of rows) lines.push(summarize(r, n));
  }
  return lines;
}

// One fetch of the cold #1 when it is not the labelled skill: how far the labelled skill moves.
function honestMistake(b: Bench, queries: readonly Query[]): string[] {
  const shifts = { before: [] as number[], stored: [] as number[], weighted: [] as number[] };
  let cases = 0;
  for (const q of queries) {
    const cold = b.ranking(q.query, UsageIndex.EMPTY);
    const wrong = cold[0];
    const coldRank = cold.indexOf(q.skill) + 1;
    if (wrong === undefined || wrong === q.skill || coldRank === 0 || coldRank > 10) continue;
    cases++;
    shifts.before.push(
      b.rank(q.query, mainIndex([{ skill_id: wrong, query: q.query }]), q.skill) - coldRank,
    );
    b.fetch(wrong, q.query, 'agent');
    const ex = b.stored();
    shifts.stored.push(b.rank(q.query, unweightedIndex(ex), q.skill) - coldRank);
    shifts.weighted.push(b.rank(q.query, weightedIndex(ex), q.skill) - coldRank);
    b.forgetAll();
  }
  const mean = (xs: number[]): string =>
    fmt(xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length), 2);
  return [
    `${cases} queries whose labelled skill is ranked 2–10 cold; one fetch of the cold #1 with the query as context:`,
    '',
    '| storage / engine | mean rank change of the labelled skill | queries where it moved down |',
    '|---|---|---|',
    `| before (main) | +${mean(shifts.before)} | ${shifts.before.filter((x) => x > 0).length} |`,
    `| after: stored | +${mean(shifts.stored)} | ${shifts.stored.filter((x) => x > 0).length} |`,
    `| after: stored + weight | +${mean(shifts.weighted)} | ${shifts.weighted.filter((x) => x > 0).length} |`,
  ];
}

// Legitimate agreement: 4 sessions fetch the labelled skill for the query. Learning must still work.
function agreement(b: Bench, queries: readonly Query[]): string[] {
  const out = { cold: 0, before: 0, stored: 0, weighted: 0 };
  let cases = 0;
  for (const q of queries) {
    const coldRank = b.rank(q.query, UsageIndex.EMPTY, q.skill);
    if (coldRank === 1) continue;
    cases++;
    out.before +=
      b.rank(q.query, mainIndex(Array(4).fill({ skill_id: q.skill, query: q.query })), q.skill) ===
      1
        ? 1
        : 0;
    for (let i = 0; i < 4; i++) b.fetch(q.skill, q.query, `agree-${i}`);
    const ex = b.stored();
    out.stored += b.rank(q.query, unweightedIndex(ex), q.skill) === 1 ? 1 : 0;
    out.weighted += b.rank(q.query, weightedIndex(ex), q.skill) === 1 ? 1 : 0;
    b.forgetAll();
  }
  const pct = (n: number): string => `${fmt((100 * n) / Math.max(1, cases), 1)} %`;
  return [
    `${cases} queries whose labelled skill is not #1 cold; 4 sessions each fetch it once with the query as context:`,
    '',
    '| storage / engine | labelled skill #1 afterwards |',
    '|---|---|',
    `| before (main) | ${pct(out.before)} |`,
    `| after: stored | ${pct(out.stored)} |`,
    `| after: stored + weight (4 sessions: weight 1) | ${pct(out.weighted)} |`,
  ];
}

function main(): void {
  const dir = path.join(WORK, 'poisoning');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({
    catalog,
    scopes: [path.join(TRIGGER, 'skills'), CORPUS],
    now: () => new Date(0),
    policy: POLICY_V3_ID,
  });
  const b = new Bench(catalog);
  const triggerSkills = readFileSync(path.join(TRIGGER, 'queries.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (JSON.parse(l) as Query).skill);
  const served = (id: string): boolean => {
    try {
      b.router.getSkill(id);
      return true;
    } catch {
      return false;
    }
  };
  // The labels name the skill folder; a skill whose frontmatter name differs is not served under it.
  const pool = [...new Set(triggerSkills)].filter(served).sort();
  const queries = sample().filter((q) => pool.includes(q.skill));
  const targets = new Map<string, string>();
  for (const q of queries) {
    const cold = new Set(b.ranking(q.query, UsageIndex.EMPTY).slice(0, COLD_K));
    const candidates = pool.filter((s) => s !== q.skill && !cold.has(s));
    targets.set(q.id, candidates[sha(q.id).readUInt32BE(0) % candidates.length]!);
  }
  const lines = [
    '# Poisoning: how far N hostile fetches move an unrelated skill',
    '',
    machineLine(),
    '',
    `Library: ../shared/bench/trigger (112 skills) + corpus-real (1,206), policy bm25f.v3. ${queries.length} English`,
    `should-trigger queries (first by sha256 of the id); for each, the attacked skill is a trigger skill outside the`,
    `cold top ${COLD_K} for it. The attacker fetches it N times with the query as \`context\` (one client; one session`,
    'unless said). Its rank for that query afterwards, for every client (rank > 50 counts as 51):',
    '',
    '| N | storage / engine | attacked skill #1 | in top 5 | median rank |',
    '|---|---|---|---|---|',
    ...hostile(b, queries, targets),
    '',
    ...honestMistake(b, queries),
    '',
    ...agreement(b, queries),
    '',
    "`before (main)` gives today's engine one example per fetch row, as main stores them; `after: stored` is this",
    "branch's real write path (Router.fetch → caps and per-session dedup → readUsage) into the same engine, which",
    "does not read `weight` yet; `+ weight` builds the usage field with each example's terms counted `weight` times",
    '(the proposed engine change). The `N sessions` rows are what the ranking-side bound must close.',
  ];
  writeResult('poisoning', lines.join('\n'));
  b.router.close();
  b.reader.close();
}

mkdirSync(WORK, { recursive: true });
main();
