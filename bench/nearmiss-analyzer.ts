/**
 * The analyzer switches of issue 34 item 2 (src/text/analyze-v5.ts), measured by bench/nearmiss.ts.
 * The engine's index cannot take a new analyzer without a new policy (the lead's v5), so each
 * switch is measured on a BM25F of v4's shape computed here over the same skills and requests:
 * fields name, description, body with v4's weights (3, 1, 0.5), length normalisation (0.3, 0.75,
 * 0.9) and k1 1.2, BM25's IDF, documents and queries analysed alike. No constant is fitted; the
 * on/off choice of each switch is made by leave-one-repository-out (on if it raises top-1 − false
 * trigger@1 on the other 33 repositories) and the pooled held-out figures are reported.
 */
import path from 'node:path';
import {
  MEANINGFUL_STOP_WORDS,
  analyzeTermsV5,
  type AnalyzerV5Options,
} from '../src/text/analyze-v5.js';
import { loadBaselineSkills, type BaselineSkill } from './bm25-baseline.js';
import { CORPUS, TRIGGER } from './nearmiss-cache.js';
import type { TriggerQuery } from './trigger-quality.js';

const WEIGHTS = [3, 1, 0.5];
const B = [0.3, 0.75, 0.9];
const K1 = 1.2;

interface Doc {
  readonly id: string;
  readonly tf: readonly Map<string, number>[];
  readonly len: readonly number[];
}

function countOf(terms: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1);
  return m;
}

/** Top-1 of each request under BM25F with analyzer `opts` (request id → skill id, '' if none). */
function firstOf(
  skills: readonly BaselineSkill[],
  qs: readonly TriggerQuery[],
  opts: AnalyzerV5Options,
): Map<string, string> {
  const docs: Doc[] = skills.map((s) => {
    const nameText = s.name.startsWith('extra:') ? path.basename(s.name.slice(6)) : s.name;
    const fields = [nameText, s.description, s.body].map((t) => analyzeTermsV5(t, opts));
    return { id: s.name, tf: fields.map(countOf), len: fields.map((f) => f.length) };
  });
  const avg = [0, 1, 2].map((k) => docs.reduce((a, d) => a + d.len[k]!, 0) / docs.length || 1);
  const df = new Map<string, number>();
  for (const d of docs) {
    const seen = new Set<string>();
    for (const f of d.tf) for (const t of f.keys()) seen.add(t);
    for (const t of seen) df.set(t, (df.get(t) ?? 0) + 1);
  }
  const N = docs.length;
  const out = new Map<string, string>();
  for (const q of qs) {
    const terms = [...new Set(analyzeTermsV5(q.query, opts))];
    let best = '';
    let bestScore = 0;
    for (const d of docs) {
      let s = 0;
      for (const t of terms) {
        let x = 0;
        for (let k = 0; k < 3; k++) {
          const tf = d.tf[k]!.get(t) ?? 0;
          if (tf > 0) x += (WEIGHTS[k]! * tf) / (1 - B[k]! + (B[k]! * d.len[k]!) / avg[k]!);
        }
        if (x === 0) continue;
        const n = df.get(t) ?? 0;
        s += (Math.log(1 + (N - n + 0.5) / (n + 0.5)) * x) / (K1 + x);
      }
      if (s > bestScore || (s === bestScore && s > 0 && d.id < best)) {
        best = d.id;
        bestScore = s;
      }
    }
    out.set(q.id, best);
  }
  return out;
}

interface Fig {
  readonly top1: number;
  readonly falseTrigger: number;
}

function figOf(qs: readonly TriggerQuery[], first: ReadonlyMap<string, string>): Fig {
  const pos = qs.filter((q) => q.should_trigger);
  const neg = qs.filter((q) => !q.should_trigger);
  return {
    top1: pos.filter((q) => first.get(q.id) === q.skill).length / Math.max(1, pos.length),
    falseTrigger: neg.filter((q) => first.get(q.id) === q.skill).length / Math.max(1, neg.length),
  };
}

/** The switches measured, each alone against all off. */
export const SWITCHES: readonly (readonly [string, AnalyzerV5Options])[] = [
  ['brands (JavaScript, GitHub, PostgreSQL … kept whole)', { brands: true }],
  ['keep `let`', { keepWords: new Set(['let']) }],
  [
    `keep audited stop-words (${[...MEANINGFUL_STOP_WORDS].join(', ')})`,
    { keepWords: MEANINGFUL_STOP_WORDS },
  ],
  ['agent nouns (builder → build)', { agentNouns: true }],
  ['abbreviations (k8s → kubernetes, pg → postgres …)', { abbreviations: true }],
];

/** The Markdown section: each switch's figures in-sample and its LORO on/off decision's. */
export function analyzerSection(qs: readonly TriggerQuery[], f3: (v: number) => string): string[] {
  const skills = [
    ...loadBaselineSkills(path.join(TRIGGER, 'skills')).skills,
    ...loadBaselineSkills(CORPUS, true).skills,
  ];
  const repos = [...new Set(qs.map((q) => q.repo))].sort();
  const base = firstOf(skills, qs, {});
  const baseFig = figOf(qs, base);
  const lines = [
    '## 2. Analyzer switches (src/text/analyze-v5.ts)',
    '',
    `Measured on a BM25F of v4's shape over name, description and body (bench/nearmiss-analyzer.ts), the ${skills.length.toLocaleString('en-US')} skills and ${qs.length} requests above; each switch alone against v4's analyzer. "LORO" = on for a held-out repository only when it raised top-1 − false trigger@1 on the other 33; "repos +/−" = repositories whose top-1 − false rose / fell.`,
    '',
    '| analyzer | top-1 | false trigger@1 | LORO top-1 | LORO false | repos + / − | keep for v5 |',
    '|---|---|---|---|---|---|---|',
    `| v4's analyzer (all off) | ${f3(baseFig.top1)} | ${f3(baseFig.falseTrigger)} | — | — | — | — |`,
  ];
  const kept: AnalyzerV5Options[] = [];
  for (const [label, opts] of SWITCHES) {
    const on = firstOf(skills, qs, opts);
    const fig = figOf(qs, on);
    let up = 0;
    let down = 0;
    const cv = new Map<string, string>();
    const gain = (sub: readonly TriggerQuery[]): number => {
      const a = figOf(sub, on);
      const b = figOf(sub, base);
      return a.top1 - a.falseTrigger - (b.top1 - b.falseTrigger);
    };
    for (const repo of repos) {
      const held = qs.filter((q) => q.repo === repo);
      const g = gain(held);
      if (g > 1e-9) up++;
      if (g < -1e-9) down++;
      const useIt = gain(qs.filter((q) => q.repo !== repo)) > 0;
      for (const q of held) cv.set(q.id, (useIt ? on : base).get(q.id) ?? '');
    }
    const cvFig = figOf(qs, cv);
    const keep =
      cvFig.top1 >= baseFig.top1 &&
      cvFig.falseTrigger <= baseFig.falseTrigger &&
      (cvFig.top1 > baseFig.top1 || cvFig.falseTrigger < baseFig.falseTrigger);
    if (keep) kept.push(opts);
    lines.push(
      `| ${label} | ${f3(fig.top1)} | ${f3(fig.falseTrigger)} | ${f3(cvFig.top1)} | ${f3(cvFig.falseTrigger)} | ${up} / ${down} | ${keep ? 'yes' : 'no'} |`,
    );
  }
  if (kept.length > 1) {
    const all = Object.assign({}, ...kept) as AnalyzerV5Options;
    const fig = figOf(qs, firstOf(skills, qs, all));
    lines.push(
      `| the kept switches together | ${f3(fig.top1)} | ${f3(fig.falseTrigger)} | — | — | — | — |`,
    );
  }
  lines.push('');
  return lines;
}
