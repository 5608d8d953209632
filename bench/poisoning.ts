/**
 * Poisoning benchmark (issue 23 §3, issue 25 "learning can be steered"): how far N hostile fetches
 * with a chosen `context` move an unrelated skill for a query, on a real library
 * (../shared/bench/trigger's 112 skills with corpus-real's 1,206 as the rest of the library),
 * under policy bm25f.v4 (v3 was retired by issue 33), without and with the trust bound (src/router/search/
 * trust-bound.ts). For each of a fixed sample of English should-trigger queries, the attacked
 * skill X is a trigger skill outside the cold top 20 of both policies for that query (picked by a
 * hash of the query id); the attacker fetches X N times with the query as the context, spent as:
 *
 * - `main storage`: one full-weight example per fetch (main before examples kept sessions);
 * - `one client, one session`: the real write path (Router.fetch, caps, per-session dedup);
 * - `one client, N sessions` and `N clients, one session each`: the real path, reaching full
 *   weight at four sessions and escaping the per-client caps: what only the bound stops.
 *
 * Also measured: one fetch of the wrong cold #1 for a query (an agent's honest mistake) and how far
 * it moves the labelled skill; legitimate agreement (4 clients fetch the labelled skill for the
 * query) to show learning still works; and search latency with fetch examples stored, without and
 * with the bound (the bound ranks the trusted part a second time when fetch examples exist).
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
} from '../src/catalog/index.js';
import { POLICY_V4_ID, Router, indexCatalog } from '../src/internal.js';
import { UsageIndex } from '../src/router/index.js';
import { SearchCache, searchCatalog } from '../src/router/search/dispatch.js';
import { TRUST_BOUND_K } from '../src/router/search/trust-bound.js';
import { REPO, WORK, fmt, machineLine, median, time, writeResult } from './lib.js';

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

/** Main's storage before usage examples kept their sessions: one full-weight example per fetch. */
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

/** A ranking mode: the policy asked for and whether the trust bound applies. */
interface Mode {
  readonly policy: string;
  readonly bound: boolean;
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

  ranking(query: string, usage: UsageIndex, mode: Mode, limit = DEPTH): string[] {
    return searchCatalog(
      this.reader,
      this.cache,
      { query, limit, policy: mode.policy },
      { usage, trustBound: mode.bound },
    ).candidates.map((c) => c.skill_id);
  }

  rank(query: string, usage: UsageIndex, id: string, mode: Mode): number {
    const i = this.ranking(query, usage, mode).indexOf(id);
    return i < 0 ? DEPTH + 1 : i + 1;
  }

  /** Fetches `id` with `context` through the real Router path, as `client`/`session`. */
  fetch(id: string, context: string, client: string, session: string): void {
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
      { client, session },
    );
  }

  stored(): UsageIndex {
    return new UsageIndex(readUsage(this.telemetry).examples);
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

const POLICIES = [{ id: POLICY_V4_ID, label: 'v4' }] as const;

/** How the attacker spends N fetches. */
const ATTACKS = [
  { label: 'main storage: one example per fetch', kind: 'main' },
  { label: 'one client, one session', kind: 'one' },
  { label: 'one client, N sessions', kind: 'sessions' },
  { label: 'N clients, one session each', kind: 'clients' },
] as const;

function stats(ranks: readonly number[]): string {
  const first = ranks.filter((x) => x === 1).length;
  const top5 = ranks.filter((x) => x <= 5).length;
  const med = median(ranks);
  return `${fmt((100 * first) / ranks.length, 1)} % | ${fmt((100 * top5) / ranks.length, 1)} % | ${med > DEPTH ? `>${DEPTH}` : med}`;
}

// The usage examples after the attacker spent n fetches on x for q the `kind` way.
function attacked(b: Bench, kind: string, n: number, x: string, query: string): UsageIndex {
  if (kind === 'main') return mainIndex(Array(n).fill({ skill_id: x, query }));
  for (let i = 0; i < n; i++) {
    if (kind === 'one') b.fetch(x, query, 'mcp:attacker', 'one-session');
    else if (kind === 'sessions') b.fetch(x, query, 'mcp:attacker', `session-${i}`);
    // Each client's own session (labels are the client's to choose; distinct per connection).
    else b.fetch(x, query, `mcp:attacker-${i}`, `attacker-${i}-session`);
  }
  const usage = b.stored();
  b.forgetAll();
  return usage;
}

function hostile(b: Bench, queries: readonly Query[], targets: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const n of NS) {
    for (const attack of ATTACKS) {
      // ranks[policy][bound]
      const ranks = POLICIES.map(() => [[] as number[], [] as number[]]);
      for (const q of queries) {
        const x = targets.get(q.id)!;
        const usage = attacked(b, attack.kind, n, x, q.query);
        POLICIES.forEach((p, i) => {
          ranks[i]![0]!.push(b.rank(q.query, usage, x, { policy: p.id, bound: false }));
          ranks[i]![1]!.push(b.rank(q.query, usage, x, { policy: p.id, bound: true }));
        });
      }
      POLICIES.forEach((p, i) =>
        lines.push(
          `| ${n} | ${attack.label} | ${p.label} | ${stats(ranks[i]![0]!)} | ${stats(ranks[i]![1]!)} |`,
        ),
      );
    }
  }
  return lines;
}

// One fetch of the cold #1 when it is not the labelled skill: how far the labelled skill moves.
function honestMistake(b: Bench, queries: readonly Query[]): string[] {
  const out: string[] = [
    '| policy | queries | mean rank change, without bound | with bound | moved down (without / with) |',
    '|---|---|---|---|---|',
  ];
  for (const p of POLICIES) {
    const shifts: [number[], number[]] = [[], []];
    for (const q of queries) {
      const cold = b.ranking(q.query, UsageIndex.EMPTY, { policy: p.id, bound: true });
      const wrong = cold[0];
      const coldRank = cold.indexOf(q.skill) + 1;
      if (wrong === undefined || wrong === q.skill || coldRank === 0 || coldRank > 10) continue;
      b.fetch(wrong, q.query, 'mcp:agent', 'agent');
      const usage = b.stored();
      b.forgetAll();
      shifts[0].push(b.rank(q.query, usage, q.skill, { policy: p.id, bound: false }) - coldRank);
      shifts[1].push(b.rank(q.query, usage, q.skill, { policy: p.id, bound: true }) - coldRank);
    }
    const mean = (xs: number[]): string =>
      fmt(xs.reduce((a, x) => a + x, 0) / Math.max(1, xs.length), 2);
    const down = (xs: number[]): number => xs.filter((x) => x > 0).length;
    out.push(
      `| ${p.label} | ${shifts[0].length} | +${mean(shifts[0])} | +${mean(shifts[1])} | ${down(shifts[0])} / ${down(shifts[1])} |`,
    );
  }
  return out;
}

// Legitimate agreement: 4 sessions of 4 clients fetch the labelled skill for the query. Learning
// must still work: the bound only forbids first place to skills outside the trusted top 10.
function agreement(b: Bench, queries: readonly Query[]): string[] {
  const out: string[] = [
    '| policy | queries not #1 cold | of them in the cold top 10 | labelled #1 afterwards, without bound | with bound |',
    '|---|---|---|---|---|',
  ];
  for (const p of POLICIES) {
    let cases = 0;
    let inTop = 0;
    const won = [0, 0];
    for (const q of queries) {
      const coldRank = b.rank(q.query, UsageIndex.EMPTY, q.skill, { policy: p.id, bound: true });
      if (coldRank === 1) continue;
      cases++;
      if (coldRank <= TRUST_BOUND_K) inTop++;
      for (let i = 0; i < 4; i++) b.fetch(q.skill, q.query, `mcp:agent-${i}`, `agree-${i}`);
      const usage = b.stored();
      b.forgetAll();
      if (b.rank(q.query, usage, q.skill, { policy: p.id, bound: false }) === 1) won[0]!++;
      if (b.rank(q.query, usage, q.skill, { policy: p.id, bound: true }) === 1) won[1]!++;
    }
    const pct = (k: number): string => `${fmt((100 * k) / Math.max(1, cases), 1)} %`;
    out.push(`| ${p.label} | ${cases} | ${inTop} | ${pct(won[0]!)} | ${pct(won[1]!)} |`);
  }
  return out;
}

/** Rounds of the latency measurement (each times every sample query once per mode). */
const LATENCY_ROUNDS = 15;

// Search latency with fetch examples stored (each query's attacked skill fetched by 4 clients,
// full weight), with and without the bound, beside no examples at all; the modes interleave per
// round so drift hits each alike.
function latency(b: Bench, queries: readonly Query[], targets: Map<string, string>): string[] {
  for (const q of queries)
    for (let i = 0; i < 4; i++) b.fetch(targets.get(q.id)!, q.query, `mcp:c${i}`, `s${i}`);
  const usage = b.stored();
  b.forgetAll();
  const out: string[] = [
    '| policy | no examples, µs/search | fetch examples, no bound | fetch examples, bound | bound / no bound | bound / no examples |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of POLICIES) {
    const modes = [
      { usage: UsageIndex.EMPTY, bound: true },
      { usage, bound: false },
      { usage, bound: true },
    ];
    const per: number[][] = modes.map(() => []);
    for (let r = 0; r < LATENCY_ROUNDS + 2; r++) {
      modes.forEach((m, i) => {
        const t = time(() => {
          for (const q of queries) b.ranking(q.query, m.usage, { policy: p.id, bound: m.bound }, 8);
        });
        // The first two rounds warm the caches.
        if (r >= 2) per[i]!.push((1000 * t.ms) / queries.length);
      });
    }
    const [none, off, on] = per.map(median) as [number, number, number];
    out.push(
      `| ${p.label} | ${fmt(none, 0)} | ${fmt(off, 0)} | ${fmt(on, 0)} | ${fmt(on / off, 2)} | ${fmt(on / none, 2)} |`,
    );
  }
  return out;
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
    policy: POLICY_V4_ID,
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
    const cold = new Set(
      POLICIES.flatMap((p) =>
        b.ranking(q.query, UsageIndex.EMPTY, { policy: p.id, bound: true }).slice(0, COLD_K),
      ),
    );
    const candidates = pool.filter((s) => s !== q.skill && !cold.has(s));
    targets.set(q.id, candidates[sha(q.id).readUInt32BE(0) % candidates.length]!);
  }
  const lines = [
    '# Poisoning: how far N hostile fetches move an unrelated skill',
    '',
    machineLine(),
    '',
    `Library: ../shared/bench/trigger (112 skills) + corpus-real (1,206), policy bm25f.v4 (the default).`,
    `${queries.length} English should-trigger queries (first by sha256 of the id); for each, the attacked skill is a`,
    `trigger skill outside the cold top ${COLD_K} of both policies for it. The attacker fetches it N times with the`,
    'query as `context`, through the real write path (Router.fetch: per-session dedup, caps, weights), spent',
    "as each row says. The attacked skill's rank for that query afterwards, for every client (rank > 50 counts",
    `as 51), without and with the trust bound (K = ${TRUST_BOUND_K}: a skill outside the first ${TRUST_BOUND_K} ranked with`,
    'only `import` and `host` examples is never first once fetch examples are added):',
    '',
    '| N | attack | policy | no bound: #1 | top 5 | median rank | bound: #1 | top 5 | median rank |',
    '|---|---|---|---|---|---|---|---|---|',
    ...hostile(b, queries, targets),
    '',
    '`main storage` gives the engine one full-weight example per fetch, as main stored them before usage',
    'examples kept their sessions (earlier figure: 10 fetches → #1 for 80 % of queries under v3).',
    '',
    'An honest mistake: for queries whose labelled skill is ranked 2–10 cold, an agent fetches the cold #1',
    'once with the query as context. How far the labelled skill moves:',
    '',
    ...honestMistake(b, queries),
    '',
    "Legitimate agreement: 4 clients, one session each, fetch a query's labelled skill with the query as",
    'context (full weight). How often it becomes #1 (the bound allows it only from the trusted top 10):',
    '',
    ...agreement(b, queries),
    '',
    `Search latency (limit 8, the ${queries.length} queries, median of ${LATENCY_ROUNDS} rounds, µs per search) with every`,
    "query's attacked skill fetched by 4 clients (full weight), without and with the bound, and with no examples:",
    '',
    ...latency(b, queries, targets),
  ];
  writeResult('poisoning', lines.join('\n'));
  b.router.close();
  b.reader.close();
}

mkdirSync(WORK, { recursive: true });
main();
