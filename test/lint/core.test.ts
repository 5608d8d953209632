/**
 * The pure lint core: near-duplicate pairs equal a brute-force Jaccard over all pairs (property
 * test), frontmatter lines, self-queries, and lintSkills with an injected ranker (scores, ranks,
 * near-duplicate families) — no catalog involved.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LINT_DEFAULT_THRESHOLDS, lintSkills, type LintSkill } from '../../src/index.js';
import {
  frontmatterLines,
  jaccard,
  selfQueries,
  similarPairs,
  wordStats,
} from '../../src/lint/index.js';

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

describe('similarPairs', () => {
  it('equals the brute-force pairs with Jaccard ≥ threshold', () => {
    const word = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h');
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { maxLength: 7 }), { maxLength: 12 }),
        fc.constantFrom(0.5, 0.6, 0.75, 0.8, 1),
        (sets, t) => {
          const expected: { i: number; j: number }[] = [];
          for (let i = 0; i < sets.length; i++)
            for (let j = i + 1; j < sets.length; j++) {
              if (sets[i]!.length === 0 || sets[j]!.length === 0) continue;
              if (jaccard(new Set(sets[i]), new Set(sets[j])) >= t - 1e-9) expected.push({ i, j });
            }
          expect(similarPairs(sets, t).map(({ i, j }) => ({ i, j }))).toEqual(expected);
        },
      ),
    );
  });

  it('refuses a threshold outside (0, 1]', () => {
    expect(() => similarPairs([], 0)).toThrow(RangeError);
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
    const q = selfQueries(s, ['alpha', 'zebra', 'common', 'quokka'], wordStats(lib), 2);
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
    expect(conf[0]!.details).toMatchObject({ kind: 'near-duplicate-family', pairs: 3 });
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
