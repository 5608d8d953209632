/**
 * The ranking checks (pure over an injected ranker): every rankable skill's self-queries are ranked;
 * when another skill comes first the pair is CONFUSABLE (with the queries and both scores), and a
 * skill that no self-query brings into the top `reach_rank` is UNREACHABLE. Near-duplicate
 * descriptions join the CONFUSABLE pairs. The ranker is whatever the catalog's policy is: only
 * candidates' `skill_id` and `score` are read, never a policy's internals.
 */
import { compareStrings, contentTokens, tokenize } from '../text/index.js';
import type { RawFinding, LintThresholds } from './codes.js';
import { findingAt, skillFinding } from './finding.js';
import { nearDuplicateFamilies, type FamilyLink } from './families.js';
import type { SkillFamily } from './group.js';
import { selfQueries, type LintSkill, type SelfQuery, type WordStats } from './skill.js';

/** A ranked candidate as the checks read it. */
export interface RankedCandidate {
  readonly skill_id: string;
  readonly score: number;
}

/** Ranks `query` and returns up to `limit` candidates, best first. */
export type RankFn = (query: string, limit: number) => readonly RankedCandidate[];

/** Candidates asked for per self-query: enough to give a loser's own score and rank. */
export const RANK_DEPTH = 10;

/** What one self-query did. */
export interface QueryOutcome {
  readonly kind: SelfQuery['kind'];
  readonly query: string;
  /** The first candidate (absent when nothing matched). */
  readonly winner?: RankedCandidate;
  /** The skill's own 1-based rank and score within RANK_DEPTH, or null when it is not there. */
  readonly own_rank: number | null;
  readonly own_score: number | null;
}

/**
 * Runs the self-queries of every rankable skill, in skill order. Each query is first ranked with
 * limit 1 (a skill that wins its own query needs nothing more, and the router stops soonest), then,
 * when another skill wins, with limit `reach_rank`, and with RANK_DEPTH when the skill is not in
 * that top either. Rankings are memoised by (query, limit): a templated family asks the same
 * rare-word query hundreds of times, and the router answers each in time linear in the skills that
 * tie on it, so without the memo identical descriptions cost n² (issue #25).
 */
export function runSelfQueries(
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  stats: WordStats,
  rank: RankFn,
  t: LintThresholds,
  onProgress?: (done: number, total: number) => void,
): Map<string, QueryOutcome[]> {
  const memo = new Map<string, readonly RankedCandidate[]>();
  const ranked = (query: string, limit: number): readonly RankedCandidate[] => {
    const key = `${limit}\u0000${query}`;
    let r = memo.get(key);
    if (r === undefined) memo.set(key, (r = rank(query, limit)));
    return r;
  };
  const reach = Math.min(t.reach_rank, RANK_DEPTH);
  const out = new Map<string, QueryOutcome[]>();
  for (let i = 0; i < skills.length; i++) {
    const skill = skills[i]!;
    if (skill.rankable) {
      const outcomes: QueryOutcome[] = [];
      for (const q of selfQueries(skill, words[i]!, stats, t)) {
        let list = ranked(q.query, 1);
        if (list[0] !== undefined && list[0].skill_id !== skill.skill_id && reach > 1)
          list = ranked(q.query, reach);
        let own = list.findIndex((c) => c.skill_id === skill.skill_id);
        if (own < 0 && list.length >= reach && reach < RANK_DEPTH) {
          list = ranked(q.query, RANK_DEPTH);
          own = list.findIndex((c) => c.skill_id === skill.skill_id);
        }
        outcomes.push({
          kind: q.kind,
          query: q.query,
          ...(list[0] ? { winner: { skill_id: list[0].skill_id, score: list[0].score } } : {}),
          own_rank: own >= 0 ? own + 1 : null,
          own_score: own >= 0 ? list[own]!.score : null,
        });
      }
      out.set(skill.skill_id, outcomes);
    }
    if (onProgress && (i % 100 === 99 || i === skills.length - 1)) onProgress(i + 1, skills.length);
  }
  return out;
}

/** UNREACHABLE for every rankable skill none of whose self-queries reaches the top `reach_rank`. */
export function checkUnreachable(
  skills: readonly LintSkill[],
  outcomes: ReadonlyMap<string, readonly QueryOutcome[]>,
  lines: (skill: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): RawFinding[] {
  const findings: RawFinding[] = [];
  for (const skill of skills) {
    const qs = outcomes.get(skill.skill_id);
    if (!qs || qs.length === 0) continue;
    if (qs.some((q) => q.own_rank !== null && q.own_rank <= t.reach_rank)) continue;
    const takers = [...new Set(qs.flatMap((q) => (q.winner ? [q.winner.skill_id] : [])))];
    findings.push(
      skillFinding('UNREACHABLE', skill, lines(skill, 'name'), 'name', {
        message: `no self-query brings ${skill.skill_id} into the top ${t.reach_rank}: ${qs.map((q) => `${JSON.stringify(q.query)} → ${q.own_rank === null ? `not in the top ${RANK_DEPTH}` : `rank ${q.own_rank}`}`).join(', ')}${takers.length > 0 ? `; taken by ${takers.join(', ')}` : ''}`,
        fix: "give the name and description words that are the skill's own (see CONFUSABLE findings for who takes its queries)",
        details: { queries: qs, reach_rank: t.reach_rank, taken_by: takers },
      }),
    );
  }
  return findings;
}

/** One lost self-query in a CONFUSABLE pair: `from` asked, `winner` ranked first. */
export interface LostQuery {
  readonly from: string;
  readonly kind: SelfQuery['kind'];
  readonly query: string;
  readonly winner: string;
  readonly winner_score: number;
  readonly own_rank: number | null;
  readonly own_score: number | null;
}

/** The near-duplicate structure of a library: families of three or more, and pairs. */
export interface SkillFamilies {
  /** The family of each skill (by index into the skills) that is in one of three or more. */
  readonly byIndex: ReadonlyMap<number, SkillFamily>;
  /** Near-duplicate pairs that form a family of exactly two (i < j), with their Jaccard. */
  readonly pairs: readonly FamilyLink[];
}

/**
 * Finds the near-duplicate families of `skills` (listing words with Jaccard ≥
 * `near_duplicate_jaccard`, descriptions of at least `near_duplicate_min_words` words) in
 * near-linear time (families.ts).
 */
export function skillFamilies(
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  t: LintThresholds,
): SkillFamilies {
  const byIndex = new Map<number, SkillFamily>();
  const pairs: FamilyLink[] = [];
  for (const fam of nearDuplicateFamilies(
    words,
    t.near_duplicate_jaccard,
    t.near_duplicate_min_words,
  )) {
    if (fam.members.length === 2) {
      pairs.push(fam.links[0]!);
      continue;
    }
    const first = fam.members[0]!;
    const memberSets = fam.members.map((i) => new Set(words[i]));
    let min = 1;
    let max = 0;
    for (const l of fam.links) {
      min = Math.min(min, l.jaccard);
      max = Math.max(max, l.jaccard);
    }
    const family: SkillFamily = {
      id: skills[first]!.skill_id,
      members: fam.members.map((i) => skills[i]!.skill_id),
      paths: fam.members.map((i) => skills[i]!.path),
      shared_words: words[first]!.filter((w) => memberSets.every((m) => m.has(w))),
      links: fam.links.length,
      min_jaccard: round3(min),
      max_jaccard: round3(max),
    };
    for (const i of fam.members) byIndex.set(i, family);
  }
  return { byIndex, pairs };
}

/**
 * CONFUSABLE: one finding per pair of skills where a self-query of one is won by the other, or
 * whose listing words are near-duplicates forming a family of two (located on the first skill's
 * description, with the words that tell the two apart); and one finding per member of a family of
 * three or more, which the grouping (group.ts) folds into one finding per family.
 */
export function checkConfusable(
  skills: readonly LintSkill[],
  outcomes: ReadonlyMap<string, readonly QueryOutcome[]>,
  families: SkillFamilies,
  lines: (skill: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): RawFinding[] {
  const byId = new Map(skills.map((s, i) => [s.skill_id, i]));
  const pairs = new Map<string, { a: number; b: number; lost: LostQuery[]; jaccard?: number }>();
  const pairOf = (x: number, y: number) => {
    const [a, b] = skills[x]!.skill_id < skills[y]!.skill_id ? [x, y] : [y, x];
    const key = `${a}\u0000${b}`;
    let p = pairs.get(key);
    if (!p) pairs.set(key, (p = { a, b, lost: [] }));
    return p;
  };
  for (const [id, qs] of outcomes) {
    const from = byId.get(id)!;
    for (const q of qs) {
      if (!q.winner || q.winner.skill_id === id) continue;
      const to = byId.get(q.winner.skill_id);
      // A winner the catalog has but the linted set does not (a catalog built from more scopes).
      if (to === undefined) continue;
      pairOf(from, to).lost.push({
        from: id,
        kind: q.kind,
        query: q.query,
        winner: q.winner.skill_id,
        winner_score: q.winner.score,
        own_rank: q.own_rank,
        own_score: q.own_score,
      });
    }
  }
  for (const p of families.pairs) pairOf(p.i, p.j).jaccard = round3(p.jaccard);
  const findings: RawFinding[] = memberFindings(skills, families, lines, t);
  const counts = new Map<LintSkill, Map<string, number>>();
  const countsOf = (s: LintSkill): Map<string, number> => {
    let c = counts.get(s);
    if (!c) counts.set(s, (c = termCounts(s)));
    return c;
  };
  for (const p of pairs.values()) {
    const a = skills[p.a]!;
    const b = skills[p.b]!;
    const lost = p.lost.sort(
      (x, y) =>
        compareStrings(x.from, y.from) ||
        compareStrings(x.kind, y.kind) ||
        compareStrings(x.query, y.query),
    );
    const parts: string[] = [];
    for (const q of lost) {
      const own =
        q.own_score === null
          ? `${q.from} not in the top ${RANK_DEPTH}`
          : `${q.from} ${fmt(q.own_score)} at rank ${q.own_rank}`;
      parts.push(
        `${q.from}'s ${q.kind === 'name' ? 'name' : 'rare-word'} query ${JSON.stringify(q.query)} ranks ${q.winner} first (${fmt(q.winner_score)}; ${own})`,
      );
    }
    if (p.jaccard !== undefined)
      parts.push(
        `descriptions are near-duplicates (word Jaccard ${p.jaccard} ≥ ${t.near_duplicate_jaccard})`,
      );
    const separating = separatingFrom(countsOf(a), countsOf(b));
    const at = {
      skill_ids: [a.skill_id, b.skill_id],
      path: a.path,
      line: lines(a, 'description'),
      field: 'description',
    };
    findings.push(
      findingAt('CONFUSABLE', at, {
        message: `${a.skill_id} and ${b.skill_id} are confusable: ${parts.join('; ')}`,
        fix: fixText(a.skill_id, b.skill_id),
        details: {
          kind:
            lost.length > 0 && p.jaccard !== undefined
              ? 'both'
              : lost.length > 0
                ? 'self-query'
                : 'near-duplicate',
          other_path: b.path,
          lost_queries: lost,
          ...(p.jaccard !== undefined ? { jaccard: p.jaccard } : {}),
          separating_words: { [a.skill_id]: separating.a, [b.skill_id]: separating.b },
        },
      }),
    );
  }
  return findings;
}

// Separating words shown per side.
const SEPARATING_WORDS = 6;

/**
 * Words that tell two skills apart, from their term counts (termCounts): content words of each
 * one's whole SKILL.md text (name, frontmatter, body) absent from the other's, the most frequent
 * first (ties by the word).
 */
function separatingFrom(
  ta: Map<string, number>,
  tb: Map<string, number>,
): { a: string[]; b: string[] } {
  const only = (x: Map<string, number>, y: Map<string, number>): string[] =>
    [...x]
      .filter(([w]) => !y.has(w) && /\p{L}/u.test(w) && w.length > 2)
      .sort((p, q) => q[1] - p[1] || compareStrings(p[0], q[0]))
      .slice(0, SEPARATING_WORDS)
      .map(([w]) => w);
  return { a: only(ta, tb), b: only(tb, ta) };
}

function termCounts(s: LintSkill): Map<string, number> {
  const counts = new Map<string, number>();
  // Name words are kept out: the author already has them; the point is what else sets a skill apart.
  const name = new Set(tokenize(s.name));
  for (const w of contentTokens(s.text)) {
    if (name.has(w)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

/**
 * One CONFUSABLE finding per member of a family of three or more (group.ts folds them, with the
 * self-queries lost inside the family, into one finding per family).
 */
function memberFindings(
  skills: readonly LintSkill[],
  families: SkillFamilies,
  lines: (skill: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): RawFinding[] {
  const out: RawFinding[] = [];
  for (const [i, fam] of [...families.byIndex].sort((a, b) => a[0] - b[0])) {
    const s = skills[i]!;
    out.push(
      skillFinding('CONFUSABLE', s, lines(s, 'description'), 'description', {
        message: `${s.skill_id}'s description is a near-duplicate in the family of ${fam.id} (${fam.members.length} skills, word Jaccard ≥ ${t.near_duplicate_jaccard})${fam.shared_words.length > 0 ? `; all share ${fam.shared_words.map((w) => JSON.stringify(w)).join(', ')}` : ''}`,
        fix: 'give each description the words only it has (what it works on, when to pick it over its siblings); the shared template routes nowhere',
        details: {
          kind: 'near-duplicate-family',
          family: fam.id,
          family_size: fam.members.length,
          shared_words: fam.shared_words,
        },
      }),
    );
  }
  return out;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function fixText(a: string, b: string): string {
  return `say in each description what only it does, in the words a user would ask with; details.separating_words lists the words only ${a} or only ${b} uses`;
}

function fmt(x: number): string {
  return x.toFixed(3);
}
