/**
 * The ranking checks (pure over an injected ranker): every rankable skill's self-queries are ranked;
 * when another skill comes first the pair is CONFUSABLE (with the queries and both scores), and a
 * skill that no self-query brings into the top `reach_rank` is UNREACHABLE. Near-duplicate
 * descriptions join the CONFUSABLE pairs. The ranker is whatever the catalog's policy is: only
 * candidates' `skill_id` and `score` are read, never a policy's internals.
 */
import { contentTokens, tokenize } from '../text/index.js';
import { LINT_CODES, type LintFinding, type LintThresholds } from './codes.js';
import { similarPairs, type SimilarPair } from './near-duplicates.js';
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

/** Runs the self-queries of every rankable skill, in skill order. */
export function runSelfQueries(
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  stats: WordStats,
  rank: RankFn,
  t: LintThresholds,
  onProgress?: (done: number, total: number) => void,
): Map<string, QueryOutcome[]> {
  const out = new Map<string, QueryOutcome[]>();
  for (let i = 0; i < skills.length; i++) {
    const skill = skills[i]!;
    if (skill.rankable) {
      const outcomes: QueryOutcome[] = [];
      for (const q of selfQueries(skill, words[i]!, stats, t.query_words)) {
        // The top reach_rank answers most queries; only a skill not there needs the deeper list
        // for its own score (a smaller limit lets the router prune sooner: ~15 % less CPU at 10k).
        let ranked = rank(q.query, Math.min(t.reach_rank, RANK_DEPTH));
        let own = ranked.findIndex((c) => c.skill_id === skill.skill_id);
        if (
          own < 0 &&
          ranked.length >= Math.min(t.reach_rank, RANK_DEPTH) &&
          t.reach_rank < RANK_DEPTH
        ) {
          ranked = rank(q.query, RANK_DEPTH);
          own = ranked.findIndex((c) => c.skill_id === skill.skill_id);
        }
        outcomes.push({
          kind: q.kind,
          query: q.query,
          ...(ranked[0]
            ? { winner: { skill_id: ranked[0].skill_id, score: ranked[0].score } }
            : {}),
          own_rank: own >= 0 ? own + 1 : null,
          own_score: own >= 0 ? ranked[own]!.score : null,
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
): LintFinding[] {
  const findings: LintFinding[] = [];
  for (const skill of skills) {
    const qs = outcomes.get(skill.skill_id);
    if (!qs || qs.length === 0) continue;
    if (qs.some((q) => q.own_rank !== null && q.own_rank <= t.reach_rank)) continue;
    const takers = [...new Set(qs.flatMap((q) => (q.winner ? [q.winner.skill_id] : [])))];
    const line = lines(skill, 'name');
    findings.push({
      code: 'UNREACHABLE',
      severity: LINT_CODES.UNREACHABLE.severity,
      skill_ids: [skill.skill_id],
      path: skill.path,
      ...(line !== undefined ? { line } : {}),
      field: 'name',
      message: `no self-query brings ${skill.skill_id} into the top ${t.reach_rank}: ${qs.map((q) => `${JSON.stringify(q.query)} → ${q.own_rank === null ? `not in the top ${RANK_DEPTH}` : `rank ${q.own_rank}`}`).join(', ')}${takers.length > 0 ? `; taken by ${takers.join(', ')}` : ''}`,
      fix: "give the name and description words that are the skill's own (see CONFUSABLE findings for who takes its queries)",
      details: { queries: qs, reach_rank: t.reach_rank, taken_by: takers },
    });
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

/**
 * CONFUSABLE pairs: a self-query of one skill won by the other, and pairs whose listing words have
 * Jaccard ≥ `near_duplicate_jaccard`. One finding per pair, located on the first skill's
 * description; `separate` gives the words that tell the two apart (for fix suggestions).
 */
export function checkConfusable(
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  outcomes: ReadonlyMap<string, readonly QueryOutcome[]>,
  lines: (skill: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): LintFinding[] {
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
  const similar = similarPairs(words, t.near_duplicate_jaccard, t.near_duplicate_min_words);
  const families = nearDuplicateFamilies(skills.length, similar);
  for (const p of similar) {
    if (families.sizeOf(p.i) === 2) pairOf(p.i, p.j).jaccard = Math.round(p.jaccard * 1000) / 1000;
  }
  const findings: LintFinding[] = familyFindings(skills, words, similar, families, lines, t);
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
      (x, y) => cmp(x.from, y.from) || cmp(x.kind, y.kind) || cmp(x.query, y.query),
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
    const line = lines(a, 'description');
    findings.push({
      code: 'CONFUSABLE',
      severity: LINT_CODES.CONFUSABLE.severity,
      skill_ids: [a.skill_id, b.skill_id],
      path: a.path,
      ...(line !== undefined ? { line } : {}),
      field: 'description',
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
    });
  }
  return findings;
}

// Separating words shown per side.
const SEPARATING_WORDS = 6;

/**
 * Words that tell `a` and `b` apart: content words of each one's whole SKILL.md text (name,
 * frontmatter, body) absent from the other's, the most frequent first (ties by the word).
 */
export function separatingWords(a: LintSkill, b: LintSkill): { a: string[]; b: string[] } {
  return separatingFrom(termCounts(a), termCounts(b));
}

function separatingFrom(
  ta: Map<string, number>,
  tb: Map<string, number>,
): { a: string[]; b: string[] } {
  const only = (x: Map<string, number>, y: Map<string, number>): string[] =>
    [...x]
      .filter(([w]) => !y.has(w) && /\p{L}/u.test(w) && w.length > 2)
      .sort((p, q) => q[1] - p[1] || cmp(p[0], q[0]))
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

/** Connected groups of near-duplicate pairs (union-find), so a templated family is one finding. */
function nearDuplicateFamilies(
  n: number,
  pairs: readonly SimilarPair[],
): { rootOf: (i: number) => number; sizeOf: (i: number) => number } {
  const parent = Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  for (const p of pairs) {
    const a = find(p.i);
    const b = find(p.j);
    // The smaller index is the root, so a family's root is its first skill in id order.
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  }
  const size = new Map<number, number>();
  for (let i = 0; i < n; i++) size.set(find(i), (size.get(find(i)) ?? 0) + 1);
  return { rootOf: find, sizeOf: (i) => size.get(find(i)) ?? 1 };
}

// Members named in a family finding's message (all are in its details).
const FAMILY_NAMED = 8;

/**
 * One CONFUSABLE finding per family of three or more skills linked by near-duplicate descriptions
 * (a templated description reused with one word changed), on its first skill: the members, the
 * words they all share, and the lowest and highest Jaccard of their linked pairs.
 */
function familyFindings(
  skills: readonly LintSkill[],
  words: readonly (readonly string[])[],
  similar: readonly SimilarPair[],
  families: { rootOf: (i: number) => number; sizeOf: (i: number) => number },
  lines: (skill: LintSkill, field: string) => number | undefined,
  t: LintThresholds,
): LintFinding[] {
  const members = new Map<number, number[]>();
  for (let i = 0; i < skills.length; i++) {
    if (families.sizeOf(i) < 3) continue;
    const root = families.rootOf(i);
    let list = members.get(root);
    if (!list) members.set(root, (list = []));
    list.push(i);
  }
  const range = new Map<number, { min: number; max: number; pairs: number }>();
  for (const p of similar) {
    const root = families.rootOf(p.i);
    if (!members.has(root)) continue;
    const r = range.get(root) ?? { min: 1, max: 0, pairs: 0 };
    range.set(root, {
      min: Math.min(r.min, p.jaccard),
      max: Math.max(r.max, p.jaccard),
      pairs: r.pairs + 1,
    });
  }
  const out: LintFinding[] = [];
  for (const [root, idx] of members) {
    const first = skills[root]!;
    const ids = idx.map((i) => skills[i]!.skill_id);
    const shared = words[root]!.filter((w) => idx.every((i) => words[i]!.includes(w)));
    const r = range.get(root)!;
    const line = lines(first, 'description');
    const named =
      ids.length > FAMILY_NAMED
        ? `${ids.slice(0, FAMILY_NAMED).join(', ')} and ${ids.length - FAMILY_NAMED} more`
        : ids.join(', ');
    out.push({
      code: 'CONFUSABLE',
      severity: LINT_CODES.CONFUSABLE.severity,
      skill_ids: ids,
      path: first.path,
      ...(line !== undefined ? { line } : {}),
      field: 'description',
      message: `${ids.length} skills have near-duplicate descriptions (word Jaccard ${round3(r.min)}-${round3(r.max)} ≥ ${t.near_duplicate_jaccard} over ${r.pairs} pairs): ${named}${shared.length > 0 ? `; all share ${shared.map((w) => JSON.stringify(w)).join(', ')}` : ''}`,
      fix: 'give each description the words only it has (what it works on, when to pick it over its siblings); the shared template routes nowhere',
      details: {
        kind: 'near-duplicate-family',
        members: ids,
        paths: idx.map((i) => skills[i]!.path),
        shared_words: shared,
        pairs: r.pairs,
        min_jaccard: round3(r.min),
        max_jaccard: round3(r.max),
      },
    });
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

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
