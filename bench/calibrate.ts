/**
 * Confidence calibration (issue #22, docs/ranking.md §11): fits, for each ranking policy, the
 * logistic model that turns a search answer's candidates into `confidence` — the estimated
 * probability that a candidate is the skill a person would pick — on the trigger dev set of
 * ../shared/bench/trigger (real skills, their authors' should / should-not requests), alone and
 * with ../shared/bench/corpus-real as distractors, and reports the trade-off of each floor: the
 * share of top-1 hits kept against the false triggers left. The default floor is the highest one
 * that still keeps 85 % of the top-1 hits in both settings.
 *
 * Training rows: for a should-trigger request, each of its top 3 candidates, labelled 1 when it is
 * the labelled skill; for a should-not request, the skill it names when that skill is among the top
 * 3, labelled 0 (another skill there may well be right: the author labelled one skill only).
 *
 * Every live policy is fitted (POLICIES, the default first), except one whose model reads the
 * near-miss stage's re-ranked list (v5, fitted by bench/nearmiss.ts). A BM25F policy's model goes into the
 * `confidence` of its parameter object (src/router/search/policies/bm25f-v4.ts); v1's into
 * src/router/search/policies/confidence-models.ts.
 *
 *   npm run bench:calibrate            # prints the models as JSON and writes the results
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_POLICY_ID,
  POLICIES,
  Router,
  indexCatalog,
  type Candidate,
} from '../src/internal.js';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  confidenceOf,
  type ConfidenceModel,
} from '../src/router/search/confidence.js';
import { REPO, WORK, fmt, machineLine, writeResult } from './lib.js';
import { triggerQueries, type TriggerQuery } from './trigger-quality.js';
import { fitLogistic } from './logistic.js';

const SPLIT = path.resolve(REPO, '..', 'shared', 'bench');
const TRIGGER = path.join(SPLIT, 'trigger');
const CORPUS = path.join(SPLIT, 'corpus-real');
const TOP = 3;
/** Share of the top-1 hits the default floor keeps at least, in each setting. */
const KEEP = 0.85;
const FLOORS = Array.from({ length: 19 }, (_, i) => (i + 1) / 20);

interface Ranked {
  readonly q: TriggerQuery;
  /** Features of the top candidates, and their skill ids. */
  readonly ids: readonly string[];
  readonly x: readonly number[][];
}

function queries(): TriggerQuery[] {
  return triggerQueries(TRIGGER);
}

function rank(policy: string, scopes: readonly string[], qs: readonly TriggerQuery[]): Ranked[] {
  const dir = path.join(WORK, 'calibrate');
  mkdirSync(dir, { recursive: true });
  const catalog = path.join(
    dir,
    `${policy.split('.').pop()}-${scopes.length}-${Date.now()}.sqlite`,
  );
  indexCatalog({ catalog, scopes: [...scopes], now: () => new Date(0), policy });
  const router = new Router({ catalog, telemetry: false });
  try {
    return qs.map((q) => {
      let list: readonly Candidate[] = [];
      try {
        list = router.search({ query: q.query, limit: TOP + 1 }).candidates;
      } catch {
        list = [];
      }
      const shown = list.slice(0, TOP);
      const after = list[TOP]?.score ?? 0;
      return {
        q,
        ids: shown.map((c) => c.skill_id),
        x: shown.map((_, i) => confidenceFeatures(shown, i, after)),
      };
    });
  } finally {
    router.close();
  }
}

function samples(rows: readonly Ranked[]): { X: number[][]; y: number[] } {
  const X: number[][] = [];
  const y: number[] = [];
  for (const r of rows) {
    r.ids.forEach((id, i) => {
      if (r.q.should_trigger) {
        X.push([...r.x[i]!]);
        y.push(id === r.q.skill ? 1 : 0);
      } else if (id === r.q.skill) {
        X.push([...r.x[i]!]);
        y.push(0);
      }
    });
  }
  return { X, y };
}

// Logistic regression on standardised features by Newton's method (bench/logistic.ts).
function fit(X: readonly number[][], y: readonly number[], source: string): ConfidenceModel {
  return { ...fitLogistic(X, y, 1e-3, 50), floor: 0.5, fitted_on: source };
}

/** What a floor does in one setting: top-1 hits kept, false triggers left, abstentions. */
interface Point {
  readonly floor: number;
  readonly kept: number;
  readonly top1: number;
  readonly falseTrigger: number;
  readonly abstainPositives: number;
  readonly abstainNegatives: number;
}

function curve(rows: readonly Ranked[], model: ConfidenceModel): Point[] {
  const pos = rows.filter((r) => r.q.should_trigger);
  const neg = rows.filter((r) => !r.q.should_trigger);
  const conf = (r: Ranked): number => (r.x[0] ? confidenceOf(model, r.x[0]) : 0);
  const hits = pos.filter((r) => r.ids[0] === r.q.skill);
  return [0, ...FLOORS].map((floor) => ({
    floor,
    kept: hits.filter((r) => conf(r) >= floor).length / Math.max(1, hits.length),
    top1: hits.filter((r) => conf(r) >= floor).length / pos.length,
    falseTrigger: neg.filter((r) => r.ids[0] === r.q.skill && conf(r) >= floor).length / neg.length,
    abstainPositives: pos.filter((r) => conf(r) < floor).length / pos.length,
    abstainNegatives: neg.filter((r) => conf(r) < floor).length / neg.length,
  }));
}

function main(): void {
  const qs = queries();
  const skills = path.join(TRIGGER, 'skills');
  const models: Record<string, ConfidenceModel> = {};
  const lines = [
    '# Confidence calibration on the trigger dev set',
    '',
    machineLine(),
    '',
    `Fitted by bench/calibrate.ts on ${qs.length} requests of ../shared/bench/trigger, alone (112 skills) and with corpus-real as distractors (1,318), the two settings pooled. A floor keeps an answer's top candidate only at or above it; "kept" is the share of the top-1 hits kept, "false trigger" the share of should-not requests whose named skill is first and at or above the floor. The default floor is the highest that keeps ≥ ${KEEP * 100} % of the top-1 hits in both settings.`,
    '',
  ];
  // A policy whose model reads a re-ranked list (v5: `features: 'nearmiss'`) is fitted by
  // bench/nearmiss.ts under cross-validation by repository, not here.
  const live = [
    DEFAULT_POLICY_ID,
    ...[...POLICIES.keys()].filter((id) => id !== DEFAULT_POLICY_ID),
  ].filter((id) => {
    const p = POLICIES.get(id)!;
    return p.kind !== 'bm25f' || p.confidence.features !== 'nearmiss';
  });
  for (const policy of live) {
    const clean = rank(policy, [skills], qs);
    const extra = rank(policy, [skills, CORPUS], qs);
    const { X, y } = samples([...clean, ...extra]);
    const model = fit(X, y, `bench/calibrate.ts, trigger dev set (${X.length} rows)`);
    const curves = [curve(clean, model), curve(extra, model)];
    const floor = Math.max(
      ...FLOORS.filter((f) => curves.every((c) => c.find((p) => p.floor === f)!.kept >= KEEP)),
      0.05,
    );
    models[policy] = { ...model, floor };
    lines.push(`## ${policy} (default floor ${floor})`, '');
    lines.push(
      '| floor | kept (alone / + corpus) | top-1 | false trigger@1 | abstains on positives | on negatives |',
    );
    lines.push('|---|---|---|---|---|---|');
    for (let k = 0; k < curves[0]!.length; k++) {
      const a = curves[0]![k]!;
      const b = curves[1]![k]!;
      lines.push(
        `| ${a.floor === floor ? `**${fmt(a.floor, 2)}**` : fmt(a.floor, 2)} | ${fmt(a.kept, 3)} / ${fmt(b.kept, 3)} | ${fmt(a.top1, 3)} / ${fmt(b.top1, 3)} | ${fmt(a.falseTrigger, 3)} / ${fmt(b.falseTrigger, 3)} | ${fmt(a.abstainPositives, 3)} / ${fmt(b.abstainPositives, 3)} | ${fmt(a.abstainNegatives, 3)} / ${fmt(b.abstainNegatives, 3)} |`,
      );
    }
    lines.push('');
  }
  lines.push('Features, in order: ' + CONFIDENCE_FEATURES.join(', ') + '.', '');
  writeResult('calibration', lines.join('\n'));
  process.stdout.write(JSON.stringify(models, null, 2) + '\n');
}

main();
