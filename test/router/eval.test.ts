/**
 * Retrieval metrics and query files (src/router/evaluation/eval.ts): scoreRanking against hand-computed top-1,
 * recall@5, MRR and nDCG@10 — binary, multi-relevant and graded, as shared/bench/tools/score.py
 * defines them — the means, the macro average, and JSONL parsing that names the bad line.
 */
import { describe, expect, it } from 'vitest';
import {
  MRR_DEPTH,
  macroAverage,
  meanMetrics,
  parseQueryLines,
  scoreRanking,
  type LabelledQuery,
} from '../../src/internal.js';

const q = (relevant: string[], graded?: Record<string, number>): LabelledQuery => ({
  id: 'q',
  query: 'x',
  relevant,
  ...(graded ? { graded } : {}),
});
const lg = (i: number): number => Math.log2(i + 2);

function expectMetrics(
  got: ReturnType<typeof scoreRanking>,
  want: ReturnType<typeof scoreRanking>,
): void {
  expect(got.top1).toBe(want.top1);
  expect(got.recall_at_5).toBeCloseTo(want.recall_at_5, 12);
  expect(got.mrr).toBeCloseTo(want.mrr, 12);
  expect(got.ndcg_at_10).toBeCloseTo(want.ndcg_at_10, 12);
}

describe('scoreRanking', () => {
  it('one relevant at rank 1: every metric is 1', () => {
    expectMetrics(scoreRanking(['a', 'b', 'c'], q(['a'])), {
      top1: 1,
      recall_at_5: 1,
      mrr: 1,
      ndcg_at_10: 1,
    });
  });

  it('one relevant at rank 3', () => {
    expectMetrics(scoreRanking(['x', 'y', 'a', 'z'], q(['a'])), {
      top1: 0,
      recall_at_5: 1,
      mrr: 1 / 3,
      ndcg_at_10: 1 / lg(2),
    });
    expect(scoreRanking(['x', 'y', 'a', 'z'], q(['a'])).ndcg_at_10).toBeCloseTo(0.5, 12);
  });

  it('one relevant at rank 6: outside recall@5, inside MRR and nDCG@10', () => {
    expectMetrics(scoreRanking(['b', 'c', 'd', 'e', 'f', 'a'], q(['a'])), {
      top1: 0,
      recall_at_5: 0,
      mrr: 1 / 6,
      ndcg_at_10: 1 / lg(5),
    });
  });

  it('one relevant at rank 11: only MRR counts it', () => {
    const ranking = [...'bcdefghijk'].concat('a');
    expectMetrics(scoreRanking(ranking, q(['a'])), {
      top1: 0,
      recall_at_5: 0,
      mrr: 1 / 11,
      ndcg_at_10: 0,
    });
  });

  it('MRR looks at the first 100 only', () => {
    const ranking = Array.from({ length: MRR_DEPTH }, (_, i) => `n${i}`).concat('a');
    expect(MRR_DEPTH).toBe(100);
    expect(scoreRanking(ranking, q(['a'])).mrr).toBe(0);
    expect(scoreRanking(ranking.slice(1), q(['a'])).mrr).toBeCloseTo(1 / 100, 12);
  });

  it('several relevant skills: recall is the share found in the top 5; nDCG against the ideal order', () => {
    const got = scoreRanking(['a', 'b', 'c', 'd', 'e', 'f', 'x'], q(['a', 'd', 'x']));
    const dcg = 1 / lg(0) + 1 / lg(3) + 1 / lg(6);
    const idcg = 1 / lg(0) + 1 / lg(1) + 1 / lg(2);
    expectMetrics(got, { top1: 1, recall_at_5: 2 / 3, mrr: 1, ndcg_at_10: dcg / idcg });
    expect(got.ndcg_at_10).toBeCloseTo(0.827814, 5);
  });

  it('several relevant skills, the first found at rank 2', () => {
    const got = scoreRanking(['z', 'b', 'a'], q(['a', 'b']));
    expectMetrics(got, {
      top1: 0,
      recall_at_5: 1,
      mrr: 1 / 2,
      ndcg_at_10: (1 / lg(1) + 1 / lg(2)) / (1 / lg(0) + 1 / lg(1)),
    });
  });

  it('graded labels: gains are the grades, the ideal is the grades sorted', () => {
    const got = scoreRanking(['c', 'x', 'a', 'b'], q(['a', 'b'], { a: 3, b: 1, c: 2 }));
    const dcg = 2 / lg(0) + 3 / lg(2) + 1 / lg(3);
    const idcg = 3 / lg(0) + 2 / lg(1) + 1 / lg(2);
    expectMetrics(got, { top1: 0, recall_at_5: 1, mrr: 1 / 3, ndcg_at_10: dcg / idcg });
    expect(got.ndcg_at_10).toBeCloseTo(0.825449, 5);
  });

  it('graded labels that leave a relevant skill out give it no gain (as the bench scorer does)', () => {
    const got = scoreRanking(['b', 'a'], q(['a', 'b'], { a: 2 }));
    expectMetrics(got, { top1: 1, recall_at_5: 1, mrr: 1, ndcg_at_10: 2 / lg(1) / (2 / lg(0)) });
  });

  it('an empty graded object means binary gains', () => {
    expectMetrics(scoreRanking(['x', 'a'], q(['a'], {})), scoreRanking(['x', 'a'], q(['a'])));
  });

  it('an empty ranking or no relevant skill scores 0, never NaN', () => {
    expectMetrics(scoreRanking([], q(['a'])), { top1: 0, recall_at_5: 0, mrr: 0, ndcg_at_10: 0 });
    expectMetrics(scoreRanking(['a'], q([])), { top1: 0, recall_at_5: 0, mrr: 0, ndcg_at_10: 0 });
  });

  it('a skill listed twice in a ranking counts once in recall', () => {
    expect(scoreRanking(['a', 'a', 'b'], q(['a', 'c'])).recall_at_5).toBe(0.5);
  });
});

describe('meanMetrics and macroAverage', () => {
  it('average per query, and per file with every file weighing the same', () => {
    const one = meanMetrics([
      { top1: 1, recall_at_5: 1, mrr: 1, ndcg_at_10: 1 },
      { top1: 0, recall_at_5: 0.5, mrr: 0.25, ndcg_at_10: 0.5 },
    ]);
    expect(one).toEqual({ queries: 2, top1: 0.5, recall_at_5: 0.75, mrr: 0.625, ndcg_at_10: 0.75 });
    const two = meanMetrics([{ top1: 0, recall_at_5: 0, mrr: 0, ndcg_at_10: 0 }]);
    expect(macroAverage([one, two])).toEqual({
      queries: 3,
      top1: 0.25,
      recall_at_5: 0.375,
      mrr: 0.3125,
      ndcg_at_10: 0.375,
    });
    expect(meanMetrics([])).toEqual({ queries: 0, top1: 0, recall_at_5: 0, mrr: 0, ndcg_at_10: 0 });
  });
});

describe('parseQueryLines', () => {
  it('reads objects with id and query, skipping blank lines; numeric ids become strings', () => {
    const text =
      '{"id":"a","query":"pdf"}\n\n  \n{"id":7,"query":"docker","relevant":["x"],"graded":{"x":2}}\r\n';
    expect(parseQueryLines(text, 'f.jsonl', false)).toEqual([
      { id: 'a', query: 'pdf', relevant: [] },
      { id: '7', query: 'docker', relevant: ['x'], graded: { x: 2 } },
    ]);
  });

  it.each([
    ['not JSON', '{"id":"a","query":"x"}\n{oops\n', 2],
    ['not an object', '{"id":"a","query":"x"}\n[1,2]\n', 2],
    ['no id', '{"query":"x"}\n', 1],
    ['a query that is not a string', '{"id":"a","query":5}\n', 1],
    ['a repeated id', '{"id":"a","query":"x"}\n{"id":"a","query":"y"}\n', 2],
    [
      'graded values that are not numbers',
      '{"id":"a","query":"x","relevant":["s"],"graded":{"s":"high"}}\n',
      1,
    ],
    ['graded that is not an object', '{"id":"a","query":"x","relevant":["s"],"graded":[1]}\n', 1],
  ])('%s is INVALID_INPUT_FILE naming the line', (_what, text, line) => {
    expect(() => parseQueryLines(text, 'f.jsonl', false)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT_FILE', details: { file: 'f.jsonl', line } }),
    );
  });

  it('labelled files need relevant as an array of strings', () => {
    expect(() => parseQueryLines('{"id":"a","query":"x"}\n', 'f.jsonl', true)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT_FILE' }),
    );
    expect(() =>
      parseQueryLines('{"id":"a","query":"x","relevant":[1]}\n', 'f.jsonl', true),
    ).toThrow(expect.objectContaining({ code: 'INVALID_INPUT_FILE' }));
    expect(parseQueryLines('{"id":"a","query":"x"}\n', 'f.jsonl', false)).toHaveLength(1);
  });
});
