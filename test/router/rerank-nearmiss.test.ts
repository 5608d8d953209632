/**
 * The near-miss re-rank stage (src/router/search/stages/rerank-nearmiss.ts, issue 34 items 1 and
 * 3): its features read what the explanations show, its order follows its weights within its
 * depth and leaves the rest alone, its confidence is the frozen model's, and it is pure.
 */
import { describe, expect, it } from 'vitest';
import {
  NEARMISS_CONFIDENCE_FEATURES,
  NEARMISS_CONFIDENCE_V1,
  NEARMISS_HOOK_RULE,
  RERANK_FEATURES,
  RERANK_NEARMISS_V1,
  explainForm,
  nearmissConfidenceFeatures,
  nearmissConfidenceOf,
  rerankFeatures,
  rerankNearMiss,
  type RerankCandidate,
  type RerankFieldNumbers,
  type RerankParams,
} from '../../src/router/search/stages/rerank-nearmiss.js';

const ZERO: RerankFieldNumbers = { name: 0, keywords: 0, description: 0, body: 0, usage: 0 };

function tf(partial: Partial<RerankFieldNumbers>): RerankFieldNumbers {
  return { ...ZERO, ...partial };
}

function candidate(
  name: string,
  score: number,
  terms: readonly [string, number, Partial<RerankFieldNumbers>][],
  fields: Partial<RerankFieldNumbers>,
  boundary: { clauses?: string[]; matched?: string[] } = {},
): RerankCandidate {
  return {
    skill_id: name,
    name,
    description: `${name} description`,
    score,
    explanation: {
      terms: terms.map(([term, idf, f]) => ({ term, idf, tf: tf(f), points: 0 })),
      fields: tf(fields),
      name_bonus: { applies: false },
      name_phrase: { applies: false },
      boundary: {
        clauses: boundary.clauses ?? [],
        matched: boundary.matched ?? [],
        points: (boundary.matched ?? []).length > 0 ? 1 : 0,
      },
      dropped_tokens: [],
    },
  };
}

// "set up a separate git worktree for the hotfix": the broad git skill leads on common words, the
// worktree skill carries the request's rarest term in its name.
const QUERY = 'set up a separate git worktree for the hotfix';
const broad = candidate(
  'git-advanced-workflows',
  9,
  [
    ['git', 1.2, { name: 1, description: 2, body: 20 }],
    ['worktre', 4.5, { body: 1 }],
    ['hotfix', 3.9, { body: 2 }],
    ['separ', 2.0, { body: 1 }],
  ],
  { name: 2, description: 1, body: 6 },
);
const specific = candidate(
  'using-git-worktrees',
  6,
  [
    ['git', 1.2, { name: 1, description: 1 }],
    ['worktre', 4.5, { name: 1, description: 1, body: 5 }],
    ['hotfix', 3.9, {}],
    ['separ', 2.0, { body: 1 }],
  ],
  { name: 4, description: 1.5, body: 0.5 },
);
const other = candidate(
  'release-notes',
  3,
  [
    ['git', 1.2, { body: 1 }],
    ['worktre', 4.5, {}],
    ['hotfix', 3.9, { description: 1 }],
    ['separ', 2.0, {}],
  ],
  { description: 2, body: 1 },
  { clauses: ['Not for git worktrees — use using-git-worktrees instead'], matched: ['git'] },
);

const col = (name: (typeof RERANK_FEATURES)[number]): number => RERANK_FEATURES.indexOf(name);

describe('rerankFeatures', () => {
  const xs = rerankFeatures([broad, specific, other], QUERY);

  it('finds the rarest matched term in the specific name, not in the broad one', () => {
    expect(xs[0]![col('rarest_in_name')]).toBe(0);
    expect(xs[1]![col('rarest_in_name')]).toBe(1);
    expect(xs[1]![col('rarest_in_routing')]).toBe(1);
    expect(xs[0]![col('rarest_anywhere')]).toBe(1);
    expect(xs[2]![col('rarest_anywhere')]).toBe(0);
  });

  it('weighs coverage by IDF and splits it by field', () => {
    const mass = 1.2 + 4.5 + 3.9 + 2.0;
    expect(xs[0]![col('idf_coverage')]).toBeCloseTo(1, 9);
    expect(xs[0]![col('idf_routing_coverage')]).toBeCloseTo(1.2 / mass, 9);
    expect(xs[1]![col('idf_routing_coverage')]).toBeCloseTo((1.2 + 4.5) / mass, 9);
    expect(xs[0]![col('body_share')]).toBeCloseTo(6 / 9, 9);
    expect(xs[0]![col('share_of_top')]).toBe(1);
    expect(xs[1]![col('share_of_top')]).toBeCloseTo(6 / 9, 9);
    expect(xs[2]![col('rank_prior')]).toBeCloseTo(1 / 3, 9);
  });

  it('marks a matched boundary clause, and lifts the skill it sends the request to', () => {
    expect(xs[2]![col('boundary_hit')]).toBe(1);
    expect(xs[1]![col('redirect_target')]).toBe(1);
    expect(xs[0]![col('redirect_target')]).toBe(0);
    // An unmatched clause redirects nothing.
    const quiet = candidate(
      'release-notes',
      3,
      [['git', 1.2, { body: 1 }]],
      { body: 1 },
      {
        clauses: ['use using-git-worktrees instead'],
        matched: [],
      },
    );
    expect(rerankFeatures([broad, specific, quiet], QUERY)[1]![col('redirect_target')]).toBe(0);
  });

  it('reads the request form', () => {
    expect(explainForm('explain the difference between let and const in JavaScript')).toBe(1);
    expect(explainForm('What is a git worktree?')).toBe(1);
    expect(explainForm('为什么这个测试会失败')).toBe(1);
    expect(explainForm(QUERY)).toBe(0);
    expect(explainForm('fix the failing test')).toBe(0);
  });
});

describe('rerankNearMiss', () => {
  const params = (
    weights: Partial<Record<(typeof RERANK_FEATURES)[number], number>>,
    depth = 10,
  ): RerankParams => ({
    id: 'test',
    depth,
    weights: RERANK_FEATURES.map((f) => weights[f] ?? 0),
    fitted_on: 'test',
  });

  it("keeps the policy's order when only the score share counts", () => {
    const out = rerankNearMiss(QUERY, [broad, specific, other], params({ share_of_top: 1 }));
    expect(out.map((r) => r.candidate.skill_id)).toEqual([
      'git-advanced-workflows',
      'using-git-worktrees',
      'release-notes',
    ]);
    expect(out.map((r) => r.before)).toEqual([0, 1, 2]);
  });

  it('puts the skill whose name carries the rarest term first when that evidence weighs', () => {
    const out = rerankNearMiss(
      QUERY,
      [broad, specific, other],
      params({ share_of_top: 1, rarest_in_name: 1 }),
    );
    expect(out[0]!.candidate.skill_id).toBe('using-git-worktrees');
    expect(out[0]!.before).toBe(1);
    expect(out[0]!.rerank).toBeCloseTo(6 / 9 + 1, 3);
  });

  it('re-orders only its depth; the rest follow in the policy order, unscored', () => {
    const out = rerankNearMiss(
      QUERY,
      [broad, other, specific],
      params({ share_of_top: 1, rarest_in_name: 1 }, 2),
    );
    expect(out.map((r) => r.candidate.skill_id)).toEqual([
      'git-advanced-workflows',
      'release-notes',
      'using-git-worktrees',
    ]);
    expect(out[2]!.rerank).toBeNull();
    expect(out[2]!.features).toEqual([]);
  });

  it('is pure: the same input gives the same answer, the input is not changed', () => {
    const list = [broad, specific, other];
    const copy = JSON.stringify(list);
    const a = rerankNearMiss(QUERY, list);
    const b = rerankNearMiss(QUERY, list);
    expect(a).toEqual(b);
    expect(JSON.stringify(list)).toBe(copy);
    expect(rerankNearMiss(QUERY, [])).toEqual([]);
  });
});

describe('the frozen parameters', () => {
  it('are frozen and complete', () => {
    expect(Object.isFrozen(RERANK_NEARMISS_V1)).toBe(true);
    expect(Object.isFrozen(NEARMISS_CONFIDENCE_V1)).toBe(true);
    expect(Object.isFrozen(NEARMISS_HOOK_RULE)).toBe(true);
    expect(NEARMISS_HOOK_RULE.f2).toBeLessThanOrEqual(NEARMISS_HOOK_RULE.f1);
    expect(NEARMISS_HOOK_RULE.k).toBeGreaterThanOrEqual(1);
    expect(RERANK_NEARMISS_V1.weights).toHaveLength(RERANK_FEATURES.length);
    expect(NEARMISS_CONFIDENCE_V1.weights).toHaveLength(NEARMISS_CONFIDENCE_FEATURES.length);
    expect(NEARMISS_CONFIDENCE_V1.means).toHaveLength(NEARMISS_CONFIDENCE_FEATURES.length);
    expect(NEARMISS_CONFIDENCE_V1.floor).toBeGreaterThan(0);
    expect(NEARMISS_CONFIDENCE_V1.floor).toBeLessThan(1);
  });

  it('give a confidence in [0, 1] that is the logistic of the standardised features', () => {
    const ranked = rerankNearMiss(QUERY, [broad, specific, other]);
    const x = nearmissConfidenceFeatures(QUERY, ranked, 0);
    expect(x).toHaveLength(NEARMISS_CONFIDENCE_FEATURES.length);
    const m = NEARMISS_CONFIDENCE_V1;
    let s = m.bias;
    x.forEach((v, j) => (s += m.weights[j]! * ((v - m.means[j]!) / (m.scales[j] || 1))));
    const c = nearmissConfidenceOf(m, x);
    expect(c).toBeCloseTo(1 / (1 + Math.exp(-s)), 4);
    expect(c).toBeGreaterThanOrEqual(0);
    expect(c).toBeLessThanOrEqual(1);
  });
});
