/**
 * Scoring trigger cases (pure over an injected ranker; issue #24). Every case's request is ranked
 * once against the whole library; a positive passes when its skill is within the first
 * `recall_at` (and the ranking did not abstain), a negative when its skill neither ranks first nor
 * clears the confidence floor (false trigger). Per skill: top-1, top-3, MRR (first 100 ranks, as
 * shared/bench/trigger/score.py counts), false triggers, abstentions, and the confusions — the
 * skills that took its requests, with the words that carried them. Library totals, micro and
 * macro, and the pairs of skills that take each other's requests most.
 */

/** A ranked candidate as scoring reads it. */
export interface TriggerCandidate {
  readonly skill_id: string;
  readonly score: number;
  /** Calibrated confidence 0–1, when the ranking policy gives one (issue #22). */
  readonly confidence?: number;
  /** The query words that carried the candidate, most points first. */
  readonly words: readonly string[];
}

/** One ranking: candidates best first, and whether the router abstained (said nothing). */
export interface TriggerRanking {
  readonly candidates: readonly TriggerCandidate[];
  readonly abstain: boolean;
}

/** Ranks `query` with up to `limit` candidates (limit ≤ MRR_CUTOFF). */
export type TriggerRankFn = (query: string, limit: number) => TriggerRanking;

/** Ranks looked at for MRR (shared/bench/trigger/score.py CUTOFF). */
export const MRR_CUTOFF = 100;
/** Candidates asked for first; deeper only for a positive whose skill is not among them. */
export const SHALLOW = 10;
/** Words named per confusion. */
const CONFUSION_WORDS = 4;

/** A case to score, as discovery ties it to its skill (discover.ts TriggerCase is this type). */
export interface ScoredCaseInput {
  /** The item's own id, else `<file relative to its scope or project>#<locator>`. */
  readonly id: string;
  readonly skill_id: string;
  readonly query: string;
  readonly should_trigger: boolean;
  readonly file: string;
  readonly line?: number;
}

/** What one case did. */
export interface CaseOutcome extends ScoredCaseInput {
  /** The first candidate, or null when nothing ranked. */
  readonly first: string | null;
  /** The case's skill's 1-based rank within MRR_CUTOFF (SHALLOW for a negative), or null. */
  readonly rank: number | null;
  readonly abstained: boolean;
  /** Whether the case's skill cleared the confidence floor (null: no confidence or no floor). */
  readonly cleared_floor: boolean | null;
  /** Negative: its skill ranked first or cleared the floor. */
  readonly false_trigger: boolean;
  readonly passed: boolean;
  /** The first three candidates. */
  readonly top: readonly { readonly skill_id: string; readonly score: number }[];
  /** The words that carried the first candidate, when it is another skill (a miss) or a false trigger. */
  readonly words: readonly string[];
}

/** A skill that took some of another's requests, and the words that carried them. */
export interface Confusion {
  readonly to: string;
  readonly count: number;
  readonly words: readonly string[];
  readonly cases: readonly string[];
}

/** The numbers of a set of cases: one skill's (SkillTriggerResult) or the library's (TriggerTotals). */
export interface TriggerCounts {
  readonly positives: number;
  readonly negatives: number;
  readonly top1: number;
  readonly top3: number;
  /** Mean reciprocal rank over the positives (0 for a positive outside the first 100). */
  readonly mrr: number | null;
  /** Share of positives within the first `recall_at` (null without positives). */
  readonly recall: number | null;
  readonly abstained: number;
  /** Negatives where the skill ranked first (score.py's false_trigger@1). */
  readonly false_first: number;
  /** Negatives where it ranked first or cleared the floor. */
  readonly false_triggers: number;
  /** false_triggers / negatives (null without negatives). */
  readonly false_rate: number | null;
}

/** One skill's numbers. */
export interface SkillTriggerResult extends TriggerCounts {
  readonly skill_id: string;
  readonly confusions: readonly Confusion[];
}

/** Library totals: micro over all cases, macro over skills. */
export interface TriggerTotals extends TriggerCounts {
  readonly cases: number;
  readonly macro: { readonly recall: number | null; readonly false_rate: number | null };
}

/** Two skills that take each other's requests: how many each way. */
export interface StealingPair {
  readonly a: string;
  readonly b: string;
  readonly a_to_b: number;
  readonly b_to_a: number;
  readonly total: number;
}

/** Ranks and scores every case. `floor` is the confidence floor (undefined: the first-rank rule only). */
export function scoreCases(
  cases: readonly ScoredCaseInput[],
  rank: TriggerRankFn,
  recallAt: number,
  floor?: number,
  onProgress?: (done: number, total: number) => void,
): CaseOutcome[] {
  const memo = new Map<string, TriggerRanking>();
  const ranked = (q: string, limit: number): TriggerRanking => {
    const key = `${limit}\u0000${q}`;
    let r = memo.get(key);
    if (r === undefined) memo.set(key, (r = rank(q, limit)));
    return r;
  };
  return cases.map((c, i) => {
    let r = ranked(c.query, SHALLOW);
    let at = r.candidates.findIndex((x) => x.skill_id === c.skill_id);
    if (c.should_trigger && at < 0 && r.candidates.length >= SHALLOW) {
      r = ranked(c.query, MRR_CUTOFF);
      at = r.candidates.findIndex((x) => x.skill_id === c.skill_id);
    }
    if (onProgress && (i % 100 === 99 || i === cases.length - 1)) onProgress(i + 1, cases.length);
    return outcome(c, r, at, recallAt, floor);
  });
}

function outcome(
  c: ScoredCaseInput,
  r: TriggerRanking,
  at: number,
  recallAt: number,
  floor: number | undefined,
): CaseOutcome {
  const first = r.candidates[0];
  const own = at >= 0 ? r.candidates[at] : undefined;
  const cleared =
    floor === undefined || own?.confidence === undefined ? null : own.confidence >= floor;
  const falseTrigger =
    !c.should_trigger && !r.abstain && (first?.skill_id === c.skill_id || cleared === true);
  const passed = c.should_trigger ? !r.abstain && at >= 0 && at < recallAt : !falseTrigger;
  const wrongFirst = first !== undefined && first.skill_id !== c.skill_id;
  return {
    ...c,
    first: first?.skill_id ?? null,
    rank: at >= 0 ? at + 1 : null,
    abstained: r.abstain || r.candidates.length === 0,
    cleared_floor: cleared,
    false_trigger: falseTrigger,
    passed,
    top: r.candidates.slice(0, 3).map((x) => ({ skill_id: x.skill_id, score: x.score })),
    words: (c.should_trigger && wrongFirst) || falseTrigger ? (first?.words ?? []) : [],
  };
}

/** Per-skill numbers for every skill with a case (skill id order). */
export function skillResults(outcomes: readonly CaseOutcome[]): SkillTriggerResult[] {
  const bySkill = new Map<string, CaseOutcome[]>();
  for (const o of outcomes) bySkill.set(o.skill_id, [...(bySkill.get(o.skill_id) ?? []), o]);
  return [...bySkill.entries()]
    .sort(([a], [b]) => cmp(a, b))
    .map(([skill_id, os]) => {
      const pos = os.filter((o) => o.should_trigger);
      const neg = os.filter((o) => !o.should_trigger);
      const rr = pos.reduce(
        (s, o) => s + (o.rank !== null && o.rank <= MRR_CUTOFF ? 1 / o.rank : 0),
        0,
      );
      const falseTriggers = neg.filter((o) => o.false_trigger).length;
      return {
        skill_id,
        positives: pos.length,
        negatives: neg.length,
        top1: pos.filter((o) => o.rank === 1).length,
        top3: pos.filter((o) => o.rank !== null && o.rank <= 3).length,
        mrr: pos.length > 0 ? rr / pos.length : null,
        recall: pos.length > 0 ? pos.filter((o) => o.passed).length / pos.length : null,
        abstained: pos.filter((o) => o.abstained).length,
        false_first: neg.filter((o) => o.first === skill_id).length,
        false_triggers: falseTriggers,
        false_rate: neg.length > 0 ? falseTriggers / neg.length : null,
        confusions: confusionsOf(pos),
      };
    });
}

// The skills that took a skill's positives at #1, most first, with the words that carried them.
function confusionsOf(pos: readonly CaseOutcome[]): Confusion[] {
  const by = new Map<string, CaseOutcome[]>();
  for (const o of pos)
    if (o.first !== null && o.first !== o.skill_id)
      by.set(o.first, [...(by.get(o.first) ?? []), o]);
  return [...by.entries()]
    .map(([to, os]) => {
      const weight = new Map<string, number>();
      for (const o of os)
        o.words.forEach((w, k) => weight.set(w, (weight.get(w) ?? 0) + (o.words.length - k)));
      const words = [...weight.entries()]
        .sort((a, b) => b[1] - a[1] || cmp(a[0], b[0]))
        .slice(0, CONFUSION_WORDS)
        .map(([w]) => w);
      return { to, count: os.length, words, cases: os.map((o) => o.id) };
    })
    .sort((a, b) => b.count - a.count || cmp(a.to, b.to));
}

/** Library totals over all outcomes, and the macro average over the per-skill results. */
export function totalsOf(
  outcomes: readonly CaseOutcome[],
  skills: readonly SkillTriggerResult[],
): TriggerTotals {
  const pos = outcomes.filter((o) => o.should_trigger);
  const neg = outcomes.filter((o) => !o.should_trigger);
  const rr = pos.reduce((s, o) => s + (o.rank !== null ? 1 / o.rank : 0), 0);
  const mean = (xs: readonly (number | null)[]): number | null => {
    const v = xs.filter((x): x is number => x !== null);
    return v.length > 0 ? v.reduce((a, b) => a + b, 0) / v.length : null;
  };
  const falseTriggers = neg.filter((o) => o.false_trigger).length;
  return {
    cases: outcomes.length,
    positives: pos.length,
    negatives: neg.length,
    top1: pos.filter((o) => o.rank === 1).length,
    top3: pos.filter((o) => o.rank !== null && o.rank <= 3).length,
    abstained: pos.filter((o) => o.abstained).length,
    false_first: neg.filter((o) => o.first === o.skill_id).length,
    false_triggers: falseTriggers,
    recall: pos.length > 0 ? pos.filter((o) => o.passed).length / pos.length : null,
    false_rate: neg.length > 0 ? falseTriggers / neg.length : null,
    mrr: pos.length > 0 ? rr / pos.length : null,
    macro: {
      recall: mean(skills.map((s) => s.recall)),
      false_rate: mean(skills.map((s) => s.false_rate)),
    },
  };
}

/** The pairs of skills that take each other's requests, most first (at most `limit`). */
export function stealingPairs(skills: readonly SkillTriggerResult[], limit = 10): StealingPair[] {
  const pairs = new Map<string, { a: string; b: string; ab: number; ba: number }>();
  for (const s of skills)
    for (const c of s.confusions) {
      const [a, b] = s.skill_id < c.to ? [s.skill_id, c.to] : [c.to, s.skill_id];
      const key = `${a}\u0000${b}`;
      const p = pairs.get(key) ?? { a, b, ab: 0, ba: 0 };
      if (s.skill_id === a) p.ab += c.count;
      else p.ba += c.count;
      pairs.set(key, p);
    }
  return [...pairs.values()]
    .map((p) => ({ a: p.a, b: p.b, a_to_b: p.ab, b_to_a: p.ba, total: p.ab + p.ba }))
    .sort((x, y) => y.total - x.total || cmp(x.a, y.a) || cmp(x.b, y.b))
    .slice(0, limit);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
