/**
 * `--suggest` (pure; issue #24): for each skill that misses requests or triggers falsely, what its
 * description could say — suggestions, never edits:
 *
 * - the words of its description that compete with the skills taking its requests (words the
 *   winning ranking held that its own description holds too) and the words that carried them;
 * - the words of its own should-trigger requests its description lacks (most frequent first);
 * - for false triggers, the words of the requests that triggered it wrongly, and whether its
 *   description already has a "do not use for" clause. Under the ranking policies shipped today a
 *   clause's words still count for the skill (a "do not use for" clause tells an agent the boundary
 *   but does not lower the skill's rank), so the suggestion says so.
 */
import { findClauses } from '../lint/index.js';
import { distinctContentTokens, stem } from '../text/index.js';
import type { CaseOutcome, SkillTriggerResult } from './score.js';

/** Words shown per list. */
const WORDS = 8;

/** What one skill's description could change. */
export interface TriggerSuggestion {
  readonly skill_id: string;
  /** Per skill taking its requests: the words carrying them that its own description also holds. */
  readonly competing: readonly {
    readonly skill: string;
    readonly count: number;
    readonly carried_by: readonly string[];
    readonly shared_with_description: readonly string[];
  }[];
  /** Words of its should-trigger requests its description (and name) lacks, most frequent first. */
  readonly missing_words: readonly string[];
  /** False triggers: the words of the requests that triggered it, and its boundary clauses today. */
  readonly boundary: {
    readonly false_triggers: number;
    readonly words: readonly string[];
    readonly has_negative_clause: boolean;
    readonly advice: string;
  } | null;
}

/** Suggestions for every skill with a miss or a false trigger (skill id order). */
export function suggestFor(
  results: readonly SkillTriggerResult[],
  outcomes: readonly CaseOutcome[],
  descriptions: ReadonlyMap<string, { readonly name: string; readonly description: string }>,
): TriggerSuggestion[] {
  const out: TriggerSuggestion[] = [];
  for (const r of results) {
    const own = outcomes.filter((o) => o.skill_id === r.skill_id);
    const failed = own.some((o) => !o.passed);
    const d = descriptions.get(r.skill_id);
    if (!failed || d === undefined) continue;
    const descStems = new Set(distinctContentTokens(`${d.name} ${d.description}`).map(stem));
    const competing = r.confusions.map((c) => ({
      skill: c.to,
      count: c.count,
      carried_by: c.words,
      shared_with_description: c.words.filter((w) => descStems.has(stem(w))),
    }));
    const missing = frequent(
      own.filter((o) => o.should_trigger && !o.passed).map((o) => o.query),
      (w) => !descStems.has(stem(w)),
    );
    const falses = own.filter((o) => o.false_trigger);
    const positiveStems = new Set(
      own.filter((o) => o.should_trigger).flatMap((o) => distinctContentTokens(o.query).map(stem)),
    );
    const boundaryWords = frequent(
      falses.map((o) => o.query),
      (w) => !positiveStems.has(stem(w)),
    );
    const hasNegative = findClauses(d.description).some((c) => c.kind === 'negative');
    out.push({
      skill_id: r.skill_id,
      competing,
      missing_words: missing,
      boundary:
        falses.length === 0
          ? null
          : {
              false_triggers: falses.length,
              words: boundaryWords,
              has_negative_clause: hasNegative,
              advice:
                (hasNegative
                  ? 'the description has a "do not use for" clause; name these requests in it'
                  : `a "Do not use for …" clause naming ${boundaryWords.slice(0, 3).join(', ') || 'these requests'} would tell agents the boundary`) +
                '; under the current ranking policies its words still count for this skill, so it does not lower the skill in skilldex ranking: prefer words only this skill has',
            },
    });
  }
  return out;
}

// The content words of `texts` passing `keep`, by how many texts hold them (ties by the word).
function frequent(texts: readonly string[], keep: (w: string) => boolean): string[] {
  const n = new Map<string, number>();
  for (const t of texts)
    for (const w of distinctContentTokens(t)) if (keep(w)) n.set(w, (n.get(w) ?? 0) + 1);
  return [...n.entries()]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, WORDS)
    .map(([w]) => w);
}
