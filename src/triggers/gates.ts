/**
 * The gates of `eval --triggers` (pure; issue #24): minimum recall and maximum false-trigger rate,
 * library-wide and per skill, and regressions against a saved `--json` report (a skill whose
 * recall fell or whose false-trigger rate rose, a confusion pair the baseline did not have). A
 * failed gate is data in the report; the CLI turns any into exit 1.
 */
import { SkilldexError } from '../errors.js';
import type { SkillTriggerResult, TriggerTotals } from './score.js';
import { parseBaselineJson } from '../lint/index.js';

/** The gates asked for (absent: not checked). Rates are shares in [0, 1]. */
export interface TriggerGates {
  /** Library-wide recall (positives within the first `recall_at`) at least this. */
  readonly min_recall?: number;
  /** Every skill with positives: recall at least this. */
  readonly min_skill_recall?: number;
  /** Library-wide false-trigger rate at most this. */
  readonly max_false?: number;
  /** Every skill with negatives: false-trigger rate at most this. */
  readonly max_skill_false?: number;
}

/** One gate that failed: which, for the library or a skill, the value and the limit. */
export interface GateFailure {
  readonly gate: keyof TriggerGates | 'regression';
  /** `library`, or the skill id. */
  readonly scope: string;
  readonly value: number;
  readonly limit: number;
  readonly message: string;
}

/** A saved report as a baseline: each skill's recall, false rate and confusion targets. */
export interface TriggerBaseline {
  readonly file: string;
  readonly recall_at: number;
  readonly skills: ReadonlyMap<
    string,
    {
      readonly recall: number | null;
      readonly false_rate: number | null;
      readonly confusions: ReadonlySet<string>;
    }
  >;
}

/** Every gate failure of a run: gates first (library, then skills), then regressions. */
export function checkGates(
  gates: TriggerGates,
  totals: TriggerTotals,
  skills: readonly SkillTriggerResult[],
  baseline?: TriggerBaseline,
): GateFailure[] {
  const out: GateFailure[] = [];
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
  const low = (gate: keyof TriggerGates, scope: string, value: number | null, limit?: number) => {
    if (limit !== undefined && value !== null && value < limit - 1e-12)
      out.push({
        gate,
        scope,
        value,
        limit,
        message: `${scope}: recall ${pct(value)} < ${pct(limit)}`,
      });
  };
  const high = (gate: keyof TriggerGates, scope: string, value: number | null, limit?: number) => {
    if (limit !== undefined && value !== null && value > limit + 1e-12)
      out.push({
        gate,
        scope,
        value,
        limit,
        message: `${scope}: false triggers ${pct(value)} > ${pct(limit)}`,
      });
  };
  low('min_recall', 'library', totals.recall, gates.min_recall);
  high('max_false', 'library', totals.false_rate, gates.max_false);
  for (const s of skills) {
    low('min_skill_recall', s.skill_id, s.recall, gates.min_skill_recall);
    high('max_skill_false', s.skill_id, s.false_rate, gates.max_skill_false);
  }
  if (baseline !== undefined) out.push(...regressions(skills, baseline));
  return out;
}

// A skill that got worse than in the baseline, or a confusion pair the baseline did not have.
function regressions(skills: readonly SkillTriggerResult[], b: TriggerBaseline): GateFailure[] {
  const out: GateFailure[] = [];
  for (const s of skills) {
    const old = b.skills.get(s.skill_id);
    if (old === undefined) continue;
    if (s.recall !== null && old.recall !== null && s.recall < old.recall - 1e-12)
      out.push({
        gate: 'regression',
        scope: s.skill_id,
        value: s.recall,
        limit: old.recall,
        message: `${s.skill_id}: recall fell from ${old.recall.toFixed(3)} to ${s.recall.toFixed(3)}`,
      });
    if (s.false_rate !== null && old.false_rate !== null && s.false_rate > old.false_rate + 1e-12)
      out.push({
        gate: 'regression',
        scope: s.skill_id,
        value: s.false_rate,
        limit: old.false_rate,
        message: `${s.skill_id}: false-trigger rate rose from ${old.false_rate.toFixed(3)} to ${s.false_rate.toFixed(3)}`,
      });
    for (const c of s.confusions)
      if (!old.confusions.has(c.to))
        out.push({
          gate: 'regression',
          scope: s.skill_id,
          value: c.count,
          limit: 0,
          message: `${s.skill_id}: new confusion: ${c.count} of its requests went to ${c.to}${c.words.length > 0 ? ` on: ${c.words.join(', ')}` : ''}`,
        });
  }
  return out;
}

/**
 * Reads a saved `skilldex eval --triggers --json` report as a baseline. BASELINE_INVALID names the
 * file when the text is not such a report.
 */
export function parseTriggerBaseline(text: string, file: string): TriggerBaseline {
  const raw = parseBaselineJson(text, file, 'skilldex eval --triggers --json');
  const r = raw as { per_skill?: unknown; recall_at?: unknown } | null;
  if (!Array.isArray(r?.per_skill) || typeof r?.recall_at !== 'number')
    throw new SkilldexError(
      'BASELINE_INVALID',
      `${file}: no per_skill array and recall_at: not an eval --triggers report`,
      { file },
    );
  const skills = new Map<
    string,
    { recall: number | null; false_rate: number | null; confusions: Set<string> }
  >();
  r.per_skill.forEach((s: unknown, i) => {
    const o = s as Partial<SkillTriggerResult> | null;
    if (typeof o?.skill_id !== 'string' || !Array.isArray(o.confusions))
      throw new SkilldexError(
        'BASELINE_INVALID',
        `${file}: per_skill[${i}] is not a skill result`,
        {
          file,
          index: i,
        },
      );
    skills.set(o.skill_id, {
      recall: typeof o.recall === 'number' ? o.recall : null,
      false_rate: typeof o.false_rate === 'number' ? o.false_rate : null,
      confusions: new Set(
        o.confusions
          .map((c) => (c as { to?: unknown }).to)
          .filter((t): t is string => typeof t === 'string'),
      ),
    });
  });
  return { file, recall_at: r.recall_at, skills };
}
