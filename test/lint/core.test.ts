/**
 * The pure lint core: near-duplicate families against a brute-force Jaccard over all pairs
 * (property tests: every family is joined by true links, identical sets always share one, and on
 * templated data the families equal the brute-force components), frontmatter lines, self-queries,
 * and lintSkills with an injected ranker (scores, ranks, near-duplicate families) — no catalog
 * involved.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_THRESHOLDS as LINT_DEFAULT_THRESHOLDS,
  lintSkills,
  type LintSkill,
  frontmatterLines,
} from '../../src/lint/index.js';
import { EXACT_UP_TO, jaccard, nearDuplicateFamilies } from '../../src/lint/families.js';
import { selfQueries, wordStats } from '../../src/lint/skill.js';

// Connected components (two or more members) of the pairs with Jaccard ≥ t, by brute force.
function bruteFamilies(sets: readonly (readonly string[])[], t: number, minSize = 1): number[][] {
  const parent = sets.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      const a = new Set(sets[i]);
      const b = new Set(sets[j]);
      if (a.size < Math.max(1, minSize) || b.size < Math.max(1, minSize)) continue;
      if (jaccard(a, b) >= t - 1e-9)
        parent[Math.max(find(i), find(j))] = Math.min(find(i), find(j));
    }
  const groups = new Map<number, number[]>();
  sets.forEach((_, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), i]));
  return [...groups.values()].filter((g) => g.length >= 2);
}

function skill(id: string, description: string, extra: Partial<LintSkill> = {}): LintSkill {
  return {
    skill_id: id,
    name: id,
    description,
    keywords: [],
    tags: [],
    path: `/lib/${id}/SKILL.md`,
    text: `---\nname: ${id}\ndescription: ${JSON.stringify(description)}\n---\n\n# ${id}\n`,
    warnings: [],
    rankable: true,
    ...extra,
  };
}

describe('nearDuplicateFamilies', () => {
  const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');

  it('joins only sets linked by true near-duplicates, and every identical set', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 7 }), { maxLength: 14 }),
        fc.constantFrom(0.5, 0.6, 0.75, 0.8, 1),
        (sets, t) => {
          // The MinHash passes (exactUpTo 0), which a library this small would not take.
          const families = nearDuplicateFamilies(sets, t, 1, 0);
          const truth = bruteFamilies(sets, t);
          const familyOf = new Map<number, number>();
          families.forEach((f, k) => f.members.forEach((m) => familyOf.set(m, k)));
          families.forEach((f) => {
            // Every link is a true near-duplicate pair, and the links connect the family.
            for (const l of f.links)
              expect(jaccard(new Set(sets[l.i]), new Set(sets[l.j]))).toBeGreaterThanOrEqual(
                t - 1e-9,
              );
            // A family lies inside one brute-force component.
            expect(truth.some((c) => f.members.every((m) => c.includes(m)))).toBe(true);
          });
          // Identical non-empty sets always share a family.
          for (let i = 0; i < sets.length; i++)
            for (let j = i + 1; j < sets.length; j++) {
              const key = (s: readonly string[]) => [...new Set(s)].sort().join(',');
              if (sets[i]!.length > 0 && key(sets[i]!) === key(sets[j]!))
                expect(familyOf.get(i)).toBe(familyOf.get(j));
            }
        },
      ),
    );
  });

  it('a library of up to EXACT_UP_TO sets gets the brute-force families, bridges MinHash may miss included', () => {
    // Two families of three joined only by {c,d}–{d} (Jaccard 0.5): found by a CI run's random
    // seed when small libraries went through the MinHash passes too.
    const sets = [['c', 'd'], ['c', 'a'], ['c'], ['e'], ['d', 'e'], ['d']];
    expect(nearDuplicateFamilies(sets, 0.5).map((f) => [...f.members])).toEqual([
      [0, 1, 2, 3, 4, 5],
    ]);
    expect(bruteFamilies(sets, 0.5)).toEqual([[0, 1, 2, 3, 4, 5]]);
    const many = Array.from({ length: EXACT_UP_TO + 1 }, (_, i) => [`w${i}`, 'shared']);
    // Past the bound the MinHash passes run (every pair here is Jaccard 1/3: no family).
    expect(nearDuplicateFamilies(many, 0.5)).toEqual([]);
  });

  it('equals the brute-force families on small random libraries', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 7 }), { maxLength: 14 }),
        fc.constantFrom(0.5, 0.6, 0.75, 0.8, 1),
        (sets, t) => {
          const got = nearDuplicateFamilies(sets, t).map((f) => [...f.members]);
          expect(got).toEqual(bruteFamilies(sets, t).sort((x, y) => x[0]! - y[0]!));
        },
      ),
    );
  });

  it('finds a templated family of 2,000 (one word varies) and thousands of identical sets whole', () => {
    const template =
      'automate tasks via rube mcp composio always search tools first current schemas';
    const tpl = Array.from({ length: 2000 }, (_, i) => [...template.split(' '), `app${i}`]);
    // As in the real corpus: a member whose name adds three words (Jaccard 0.75 with every other
    // member) is a near-duplicate only of the bare template (12 of 15 words: 0.8), placed first so
    // the whole crowd lies between the two.
    tpl.unshift(template.split(' '));
    tpl.push([...template.split(' '), 'dungeon', 'fighter', 'online']);
    const fams = nearDuplicateFamilies(tpl, 0.8, 5);
    expect(fams.map((f) => f.members.length)).toEqual([tpl.length]);
    const same = Array.from({ length: 5000 }, () => ['extract', 'tables', 'pdf', 'merge', 'forms']);
    const fs = nearDuplicateFamilies(same, 0.8, 5);
    expect(fs).toHaveLength(1);
    expect(fs[0]!.members).toHaveLength(5000);
    // One link per member beyond the first: linear, never the 12.5 million pairs.
    expect(fs[0]!.links).toHaveLength(4999);
  });

  it('leaves out sets smaller than minSize and refuses a threshold outside (0, 1]', () => {
    expect(
      nearDuplicateFamilies(
        [
          ['a', 'b'],
          ['a', 'b'],
        ],
        0.8,
        3,
      ),
    ).toEqual([]);
    expect(() => nearDuplicateFamilies([], 0)).toThrow(RangeError);
  });
});

describe('frontmatterLines', () => {
  it('gives the line of each top-level key between the fences', () => {
    const m = frontmatterLines(
      '---\nname: x\n"description": >\n  folded\nmetadata:\n  version: 1\n---\nkeywords: not frontmatter\n',
    );
    expect([...m]).toEqual([
      ['name', 2],
      ['description', 3],
      ['metadata', 5],
    ]);
  });

  it('is empty without a frontmatter', () => {
    expect(frontmatterLines('# title\nname: x\n').size).toBe(0);
  });
});

describe('selfQueries', () => {
  it('is the name as words, then the rarest non-name words', () => {
    const lib = [
      ['alpha', 'zebra', 'common'],
      ['common', 'beta'],
      ['common', 'zebra'],
    ];
    const s = skill('alpha-tool', 'Alpha zebra common quokka');
    const q = selfQueries(s, ['alpha', 'zebra', 'common', 'quokka'], wordStats(lib), {
      query_words: 2,
      common_share: 0.2,
      common_min_skills: 20,
    });
    expect(q).toEqual([
      { kind: 'name', query: 'alpha tool' },
      { kind: 'rare-words', query: 'quokka zebra' },
    ]);
  });
});

describe('lintSkills with an injected ranker', () => {
  it("reports a lost self-query with the winner's and the loser's scores and ranks", () => {
    const skills = [
      skill('a-one', 'Apples oranges pears plums cherries grapes'),
      skill('b-two', 'Lemons limes melons kiwis figs dates'),
    ];
    // Everything ranks b-two first, a-one second.
    const rank = () => [
      { skill_id: 'b-two', score: 2 },
      { skill_id: 'a-one', score: 1 },
    ];
    const { findings } = lintSkills({ skills, rank }, LINT_DEFAULT_THRESHOLDS);
    const conf = findings.filter((f) => f.code === 'CONFUSABLE');
    expect(conf).toHaveLength(1);
    expect(conf[0]!.skill_ids).toEqual(['a-one', 'b-two']);
    const lost = conf[0]!.details['lost_queries'] as {
      from: string;
      winner_score: number;
      own_score: number;
      own_rank: number;
    }[];
    expect(
      lost.every(
        (q) => q.from === 'a-one' && q.winner_score === 2 && q.own_score === 1 && q.own_rank === 2,
      ),
    ).toBe(true);
    expect(findings.some((f) => f.code === 'UNREACHABLE')).toBe(false);
  });

  it('a skill below the top 3 for every self-query is UNREACHABLE', () => {
    const skills = ['w', 'x', 'y', 'z'].map((c) =>
      skill(`${c}-skill`, `${c}alpha ${c}beta ${c}gamma ${c}delta ${c}epsilon`),
    );
    const rank = () =>
      ['w-skill', 'x-skill', 'y-skill', 'z-skill'].map((id, i) => ({ skill_id: id, score: 4 - i }));
    const { findings } = lintSkills({ skills, rank }, LINT_DEFAULT_THRESHOLDS);
    expect(findings.filter((f) => f.code === 'UNREACHABLE').map((f) => f.skill_ids[0])).toEqual([
      'z-skill',
    ]);
  });

  it('a family of three templated descriptions is one CONFUSABLE finding with the shared words', () => {
    const tpl = (app: string) =>
      `Automate ${app} tasks via the Rube MCP server; always search tools first for current schemas.`;
    const skills = ['ably', 'brex', 'canny'].map((a) => skill(`${a}-automation`, tpl(a)));
    const { findings } = lintSkills({ skills }, LINT_DEFAULT_THRESHOLDS);
    const conf = findings.filter((f) => f.code === 'CONFUSABLE');
    expect(conf).toHaveLength(1);
    expect(conf[0]!.skill_ids).toEqual(['ably-automation', 'brex-automation', 'canny-automation']);
    expect(conf[0]!.details).toMatchObject({
      kind: 'near-duplicate-family',
      family: 'ably-automation',
      family_size: 3,
      members: ['ably-automation', 'brex-automation', 'canny-automation'],
    });
    // The three member findings are folded into it, each with its fingerprint.
    expect(conf[0]!.fingerprints).toEqual([
      'CONFUSABLE|family|ably-automation',
      'CONFUSABLE|family|brex-automation',
      'CONFUSABLE|family|canny-automation',
    ]);
    expect(conf[0]!.details['shared_words']).toEqual(
      expect.arrayContaining(['automate', 'rube', 'schemas']),
    );
  });

  it('judges common words only in libraries of at least common_min_skills', () => {
    const many = Array.from({ length: 20 }, (_, i) =>
      skill(`s${i}`, `shared generic helper tool thing unique${i}word`),
    );
    const { findings } = lintSkills(
      { skills: many },
      { ...LINT_DEFAULT_THRESHOLDS, near_duplicate_jaccard: 1 },
    );
    const weak = findings.filter((f) => f.code === 'DESCRIPTION_WEAK');
    expect(weak).toHaveLength(20);
    expect(weak[0]!.details['common_words']).toEqual([
      'shared',
      'generic',
      'helper',
      'tool',
      'thing',
    ]);
    const few = lintSkills(
      { skills: many.slice(0, 5) },
      { ...LINT_DEFAULT_THRESHOLDS, near_duplicate_jaccard: 1 },
    ).findings;
    expect(few.filter((f) => f.code === 'DESCRIPTION_WEAK')).toEqual([]);
  });
});
