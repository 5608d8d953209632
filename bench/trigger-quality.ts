/**
 * The trigger set in bench:quality (issue #22): ../shared/bench/trigger (112 real skills, 847
 * requests their authors say should load a named skill, 711 near-misses that should not), alone
 * and with ../shared/bench/corpus-real as distractors, ranked by the real router — each policy
 * indexes the skills into a fresh temporary catalog, as bench/calibrate.ts does — beside the
 * plain BM25 baselines of the same setting computed in the same run (bench/bm25-baseline.ts).
 * Metrics as ../shared/bench/trigger/score.py defines them: top-1, top-3, MRR (100 deep) of the
 * labelled skill on positives, false trigger@1 (the named skill first) on negatives, English and
 * Chinese rows, the macro average over the 34 repositories; for the policies also what their
 * default confidence floor keeps and lets through (docs/ranking.md §11).
 *
 * It never writes outside bench/.work; it asserts nothing (the figures are for reading).
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Router, indexCatalog, MRR_DEPTH } from '../src/internal.js';
import { baselineRankings, loadBaselineSkills, type BaselineMethod } from './bm25-baseline.js';
import { WORK, fmt } from './lib.js';

/** One request of the trigger set, with its repository (from provenance.jsonl). */
export interface TriggerQuery {
  readonly id: string;
  readonly query: string;
  readonly skill: string;
  readonly should_trigger: boolean;
  readonly lang: string;
  readonly repo: string;
}

/** Metrics of one group of requests (null where the group has no positives / negatives). */
export interface TriggerMetrics {
  readonly positives: number;
  readonly negatives: number;
  readonly top1: number | null;
  readonly top3: number | null;
  readonly mrr: number | null;
  readonly falseTrigger: number | null;
}

/** The rows score.py prints that the report shows. */
export interface TriggerScore {
  readonly all: TriggerMetrics;
  readonly en: TriggerMetrics;
  readonly zh: TriggerMetrics;
  readonly macro: TriggerMetrics;
}

/** What a policy's default floor does on one setting (bench/calibrate.ts's definitions). */
export interface Abstention {
  readonly floor: number;
  /** Share of the top-1 hits whose top candidate reaches the floor. */
  readonly kept: number;
  /** Top-1 over all positives, counting only hits at or above the floor. */
  readonly top1: number;
  /** Negatives whose named skill is first and at or above the floor. */
  readonly falseTrigger: number;
  /** Answers flagged `abstain` (no candidate at or above the floor), on positives and negatives. */
  readonly abstainPositives: number;
  readonly abstainNegatives: number;
}

/** One method's row in one setting. */
export interface TriggerRow {
  readonly method: string;
  readonly score: TriggerScore;
  readonly abstention?: Abstention;
  readonly ms: number;
}

function loadJsonl<T>(file: string): T[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

/** The trigger set's requests with their repositories. */
export function triggerQueries(root: string): TriggerQuery[] {
  const repo = new Map(
    loadJsonl<{ id: string; repo: string }>(path.join(root, 'provenance.jsonl')).map((p) => [
      p.id,
      p.repo,
    ]),
  );
  return loadJsonl<Omit<TriggerQuery, 'repo'>>(path.join(root, 'queries.jsonl')).map((q) => ({
    ...q,
    repo: repo.get(q.id) ?? '',
  }));
}

function metricsOf(
  qs: readonly TriggerQuery[],
  runs: ReadonlyMap<string, string[]>,
): TriggerMetrics {
  const pos = qs.filter((q) => q.should_trigger);
  const neg = qs.filter((q) => !q.should_trigger);
  let top1 = 0;
  let top3 = 0;
  let mrr = 0;
  let ft = 0;
  for (const q of pos) {
    const i = (runs.get(q.id) ?? []).slice(0, MRR_DEPTH).indexOf(q.skill);
    if (i < 0) continue;
    top1 += i === 0 ? 1 : 0;
    top3 += i < 3 ? 1 : 0;
    mrr += 1 / (i + 1);
  }
  for (const q of neg) if ((runs.get(q.id) ?? [])[0] === q.skill) ft++;
  const share = (v: number, n: number): number | null => (n > 0 ? v / n : null);
  return {
    positives: pos.length,
    negatives: neg.length,
    top1: share(top1, pos.length),
    top3: share(top3, pos.length),
    mrr: share(mrr, pos.length),
    falseTrigger: share(ft, neg.length),
  };
}

/** score.py's figures of `runs`: all requests, English, Chinese, macro over repositories. */
export function scoreTrigger(
  qs: readonly TriggerQuery[],
  runs: ReadonlyMap<string, string[]>,
): TriggerScore {
  const byRepo = new Map<string, TriggerQuery[]>();
  for (const q of qs) byRepo.set(q.repo, [...(byRepo.get(q.repo) ?? []), q]);
  const per = [...byRepo.values()].map((g) => metricsOf(g, runs));
  const avg = (k: 'top1' | 'top3' | 'mrr' | 'falseTrigger'): number | null => {
    const v = per.map((m) => m[k]).filter((x): x is number => x !== null);
    return v.length ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  return {
    all: metricsOf(qs, runs),
    en: metricsOf(
      qs.filter((q) => q.lang === 'en'),
      runs,
    ),
    zh: metricsOf(
      qs.filter((q) => q.lang === 'zh'),
      runs,
    ),
    macro: {
      positives: per.length,
      negatives: per.length,
      top1: avg('top1'),
      top3: avg('top3'),
      mrr: avg('mrr'),
      falseTrigger: avg('falseTrigger'),
    },
  };
}

/** A policy's answers: rankings, the top candidate's confidence, the abstain flag. */
interface PolicyRun {
  readonly runs: Map<string, string[]>;
  readonly top: Map<string, number>;
  readonly abstain: Map<string, boolean>;
  readonly floor: number;
}

/** Indexes `scopes` with `policy` into a fresh catalog under bench/.work and asks every request. */
function routerRun(
  policy: string,
  scopes: readonly string[],
  qs: readonly TriggerQuery[],
): PolicyRun {
  const dir = path.join(WORK, 'quality-trigger');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(dir, `${policy.split('.').pop()}.sqlite`);
  indexCatalog({ catalog, scopes: [...scopes], now: () => new Date(0), policy });
  const router = new Router({ catalog, telemetry: false });
  const out: PolicyRun = { runs: new Map(), top: new Map(), abstain: new Map(), floor: 0 };
  let floor = 0;
  try {
    for (const q of qs) {
      try {
        const r = router.search({ query: q.query, limit: MRR_DEPTH }, MRR_DEPTH);
        out.runs.set(
          q.id,
          r.candidates.map((c) => c.skill_id),
        );
        out.top.set(q.id, r.candidates[0]?.confidence ?? 0);
        out.abstain.set(q.id, r.abstain);
        floor = r.min_confidence;
      } catch {
        // A request with no searchable word ranks nothing: an abstention, as score.py counts it.
        out.runs.set(q.id, []);
        out.abstain.set(q.id, true);
      }
    }
  } finally {
    router.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { ...out, floor };
}

function abstentionOf(qs: readonly TriggerQuery[], r: PolicyRun): Abstention {
  const pos = qs.filter((q) => q.should_trigger);
  const neg = qs.filter((q) => !q.should_trigger);
  const first = (q: TriggerQuery): boolean => r.runs.get(q.id)?.[0] === q.skill;
  const above = (q: TriggerQuery): boolean => (r.top.get(q.id) ?? 0) >= r.floor;
  const hits = pos.filter(first);
  const share = (n: number, d: number): number => (d > 0 ? n / d : 0);
  return {
    floor: r.floor,
    kept: share(hits.filter(above).length, hits.length),
    top1: share(hits.filter(above).length, pos.length),
    falseTrigger: share(neg.filter((q) => first(q) && above(q)).length, neg.length),
    abstainPositives: share(pos.filter((q) => r.abstain.get(q.id)).length, pos.length),
    abstainNegatives: share(neg.filter((q) => r.abstain.get(q.id)).length, neg.length),
  };
}

/** The in-run BM25 baselines (label, method). */
export const TRIGGER_BASELINES: readonly (readonly [string, BaselineMethod])[] = [
  ['bm25-nd+stop', { body: false, stop: true }],
  ['bm25-ndb+stop', { body: true, stop: true }],
  ['bm25-ndb+stop w(3, 2, 0.3)', { body: true, stop: true, weights: [3, 2, 0.3] }],
];

/**
 * Every row of one setting: the baselines, then each policy (with its abstention figures).
 * `scopes` are the skill folders the router indexes; the first is the trigger set's skills, the
 * rest distractors. `runFile` receives each method's rankings (score.py's run format).
 */
export function triggerSetting(
  qs: readonly TriggerQuery[],
  scopes: readonly string[],
  policies: readonly string[],
  runFile?: (method: string, runs: ReadonlyMap<string, string[]>) => void,
): TriggerRow[] {
  const rows: TriggerRow[] = [];
  const t0 = performance.now();
  const skills = [
    ...loadBaselineSkills(scopes[0]!).skills,
    ...scopes.slice(1).flatMap((d) => loadBaselineSkills(d, true).skills),
  ];
  const loaded = performance.now() - t0;
  for (const [label, method] of TRIGGER_BASELINES) {
    const t = performance.now();
    const runs = baselineRankings(skills, qs, method);
    runFile?.(label, runs);
    rows.push({ method: label, score: scoreTrigger(qs, runs), ms: loaded + performance.now() - t });
  }
  for (const policy of policies) {
    const t = performance.now();
    const r = routerRun(policy, scopes, qs);
    const method = policy.split('.').slice(-2).join('.');
    runFile?.(method, r.runs);
    rows.push({
      method,
      score: scoreTrigger(qs, r.runs),
      abstention: abstentionOf(qs, r),
      ms: performance.now() - t,
    });
  }
  return rows;
}

const f3 = (v: number | null): string => (v === null ? '–' : fmt(v, 3));

/** The Markdown table of one setting's rows. */
export function triggerTable(rows: readonly TriggerRow[]): string[] {
  const out = [
    '| method | top-1 | top-3 | MRR | false trigger@1 | top-1 en | top-1 zh | top-1 macro | false trigger macro | seconds |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rows) {
    const s = r.score;
    out.push(
      `| ${r.method} | ${f3(s.all.top1)} | ${f3(s.all.top3)} | ${f3(s.all.mrr)} | ${f3(s.all.falseTrigger)} | ${f3(s.en.top1)} | ${f3(s.zh.top1)} | ${f3(s.macro.top1)} | ${f3(s.macro.falseTrigger)} | ${fmt(r.ms / 1000, 1)} |`,
    );
  }
  return out;
}

/** Each policy against the best baseline of the setting (by top-1): the target ratios. */
export function triggerRatios(rows: readonly TriggerRow[]): string[] {
  const base = rows.filter((r) => r.abstention === undefined);
  const best = base.reduce((a, b) => ((b.score.all.top1 ?? 0) > (a.score.all.top1 ?? 0) ? b : a));
  const zhBest = Math.max(...base.map((r) => r.score.zh.top1 ?? 0));
  const ratio = (a: number | null, b: number | null): string =>
    a === null || b === null || b === 0 ? '–' : `${fmt(a / b, 2)}×`;
  const out = [
    `Against the best baseline of this setting (\`${best.method}\`; zh against the best zh top-1 of the baselines):`,
    '',
    '| policy | top-1 | top-3 | MRR | false trigger@1 (policy / baseline) | top-1 zh |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of rows.filter((x) => x.abstention !== undefined)) {
    out.push(
      `| ${r.method} | ${ratio(r.score.all.top1, best.score.all.top1)} | ${ratio(r.score.all.top3, best.score.all.top3)} | ${ratio(r.score.all.mrr, best.score.all.mrr)} | ${f3(r.score.all.falseTrigger)} / ${f3(best.score.all.falseTrigger)} | ${ratio(r.score.zh.top1, zhBest)} |`,
    );
  }
  return out;
}

/** The policies' default floors, one row per policy and setting. */
export function abstentionTable(settings: readonly (readonly [string, TriggerRow[]])[]): string[] {
  const out = [
    '| policy | setting | floor | top-1 hits kept | top-1 after the floor | false trigger@1 after the floor | abstains on positives | abstains on negatives |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const [setting, rows] of settings) {
    for (const r of rows) {
      const a = r.abstention;
      if (!a) continue;
      out.push(
        `| ${r.method} | ${setting} | ${fmt(a.floor, 2)} | ${fmt(a.kept, 3)} | ${fmt(a.top1, 3)} | ${fmt(a.falseTrigger, 3)} | ${fmt(a.abstainPositives, 3)} | ${fmt(a.abstainNegatives, 3)} |`,
      );
    }
  }
  return out;
}
