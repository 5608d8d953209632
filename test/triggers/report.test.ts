/**
 * The pure parts of `eval --triggers` with an injected ranker: pass and fail per case (first rank,
 * recall_at 3, abstention, the confidence floor once candidates carry confidence), per-skill
 * numbers and confusions with the words that carried them, totals, stealing pairs, gates library-
 * wide and per skill, regressions against a baseline, and suggestions.
 */
import { describe, expect, it } from 'vitest';
import {
  checkGates,
  parseTriggerBaseline,
  scoreCases,
  skillResults,
  stealingPairs,
  suggestFor,
  totalsOf,
  type TriggerRankFn,
  type TriggerRanking,
} from '../../src/triggers/index.js';

const c = (id: string, skill: string, query: string, should = true) => ({
  id,
  skill_id: skill,
  query,
  should_trigger: should,
  file: '/lib/evals.json',
});
const cand = (skill_id: string, score: number, words: string[] = [], confidence?: number) => ({
  skill_id,
  score,
  words,
  ...(confidence !== undefined ? { confidence } : {}),
});

// Routes by the first word of the request.
const rank: TriggerRankFn = (q): TriggerRanking => {
  const table: Record<string, TriggerRanking> = {
    pdf: { abstain: false, candidates: [cand('pdf-tools', 5, ['pdf']), cand('csv-tools', 1)] },
    table: {
      abstain: false,
      candidates: [cand('csv-tools', 4, ['table', 'rows']), cand('pdf-tools', 3)],
    },
    rows: { abstain: false, candidates: [cand('csv-tools', 4, ['rows']), cand('pdf-tools', 2)] },
    image: { abstain: false, candidates: [cand('pdf-tools', 2, ['image'])] },
  };
  return table[q.split(' ')[0]!] ?? { abstain: true, candidates: [] };
};

const CASES = [
  c('1', 'pdf-tools', 'pdf merge'),
  c('2', 'pdf-tools', 'table from a pdf'),
  c('3', 'pdf-tools', 'rows out of a pdf'),
  c('4', 'pdf-tools', 'weather today'),
  c('5', 'pdf-tools', 'image resize', false),
  c('6', 'pdf-tools', 'table csv', false),
  c('7', 'csv-tools', 'table clean'),
  c('8', 'csv-tools', 'pdf export', true),
];

describe('scoring', () => {
  it('per skill: top-1, top-3, MRR, abstentions, false triggers and confusions with their words', () => {
    const outcomes = scoreCases(CASES, rank, 1);
    const results = skillResults(outcomes);
    const pdf = results.find((r) => r.skill_id === 'pdf-tools')!;
    expect(pdf).toMatchObject({
      positives: 4,
      negatives: 2,
      top1: 1,
      top3: 3,
      abstained: 1,
      false_first: 1,
      false_triggers: 1,
      recall: 0.25,
      false_rate: 0.5,
    });
    expect(pdf.mrr).toBeCloseTo((1 + 0.5 + 0.5 + 0) / 4, 12);
    expect(pdf.confusions).toEqual([
      { to: 'csv-tools', count: 2, words: ['rows', 'table'], cases: ['2', '3'] },
    ]);
    const totals = totalsOf(outcomes, results);
    expect(totals).toMatchObject({
      cases: 8,
      positives: 6,
      negatives: 2,
      top1: 2,
      false_triggers: 1,
    });
    expect(totals.macro.recall).toBeCloseTo((0.25 + 0.5) / 2, 12);
    expect(stealingPairs(results)).toEqual([
      { a: 'csv-tools', b: 'pdf-tools', a_to_b: 1, b_to_a: 2, total: 3 },
    ]);
  });

  it('recall_at 3 passes a positive within the first three; an abstention never passes', () => {
    const outcomes = scoreCases(CASES, rank, 3);
    expect(
      outcomes.filter((o) => o.skill_id === 'pdf-tools' && o.should_trigger).map((o) => o.passed),
    ).toEqual([true, true, true, false]);
  });

  it('with confidence and a floor, a negative whose skill clears the floor is a false trigger', () => {
    const confident: TriggerRankFn = () => ({
      abstain: false,
      candidates: [cand('csv-tools', 4, ['table'], 0.9), cand('pdf-tools', 3, [], 0.6)],
    });
    const neg = [c('n', 'pdf-tools', 'table csv', false)];
    expect(scoreCases(neg, confident, 1, 0.5)[0]).toMatchObject({
      false_trigger: true,
      cleared_floor: true,
    });
    expect(scoreCases(neg, confident, 1, 0.7)[0]).toMatchObject({
      false_trigger: false,
      cleared_floor: false,
    });
    // Without a floor only the first rank counts; an abstaining ranking triggers nothing.
    expect(scoreCases(neg, confident, 1)[0]).toMatchObject({
      false_trigger: false,
      cleared_floor: null,
    });
    const abstaining: TriggerRankFn = () => ({
      abstain: true,
      candidates: [cand('pdf-tools', 1, [], 0.2)],
    });
    expect(scoreCases(neg, abstaining, 1)[0]).toMatchObject({ false_trigger: false, passed: true });
  });
});

describe('gates and baselines', () => {
  const outcomes = scoreCases(CASES, rank, 1);
  const results = skillResults(outcomes);
  const totals = totalsOf(outcomes, results);

  it('fail library-wide and per skill, each failure naming its scope, value and limit', () => {
    expect(checkGates({}, totals, results)).toEqual([]);
    const f = checkGates(
      { min_recall: 0.5, min_skill_recall: 0.3, max_false: 0.4, max_skill_false: 0.4 },
      totals,
      results,
    );
    expect(f.map((x) => [x.gate, x.scope])).toEqual([
      ['min_recall', 'library'],
      ['max_false', 'library'],
      ['min_skill_recall', 'pdf-tools'],
      ['max_skill_false', 'pdf-tools'],
    ]);
    expect(f[0]).toMatchObject({ value: 2 / 6, limit: 0.5 });
  });

  it('regressions: a skill that got worse, and a new confusion pair', () => {
    const saved = JSON.stringify({
      recall_at: 1,
      per_skill: [
        { skill_id: 'pdf-tools', recall: 0.5, false_rate: 0.5, confusions: [] },
        { skill_id: 'csv-tools', recall: 0.5, false_rate: null, confusions: [{ to: 'pdf-tools' }] },
      ],
    });
    const baseline = parseTriggerBaseline(saved, 'base.json');
    const f = checkGates({}, totals, results, baseline);
    expect(f.map((x) => [x.gate, x.scope, x.message.split(':')[1]!.trim().split(' ')[0]])).toEqual([
      ['regression', 'pdf-tools', 'recall'],
      ['regression', 'pdf-tools', 'new'],
    ]);
    expect(() => parseTriggerBaseline('{"findings": []}', 'b.json')).toThrow(
      expect.objectContaining({ code: 'BASELINE_INVALID' }),
    );
  });
});

describe('suggestions', () => {
  it('names competing words, missing words and the boundary for false triggers; never for a clean skill', () => {
    const outcomes = scoreCases(CASES, rank, 1);
    const results = skillResults(outcomes);
    const s = suggestFor(
      results,
      outcomes,
      new Map([
        [
          'pdf-tools',
          { name: 'pdf-tools', description: 'Merge and split PDF files; extract table rows.' },
        ],
        ['csv-tools', { name: 'csv-tools', description: 'Clean CSV tables.' }],
      ]),
    );
    const pdf = s.find((x) => x.skill_id === 'pdf-tools')!;
    expect(pdf.competing).toEqual([
      {
        skill: 'csv-tools',
        count: 2,
        carried_by: ['rows', 'table'],
        shared_with_description: ['rows', 'table'],
      },
    ]);
    expect(pdf.missing_words).toEqual(expect.arrayContaining(['weather']));
    expect(pdf.boundary).toMatchObject({ false_triggers: 1, has_negative_clause: false });
    expect(pdf.boundary!.words).toEqual(['image', 'resize']);
  });
});
