/**
 * Knowing when nothing fits (src/router/search/confidence.ts, docs/ranking.md §11): every
 * candidate carries a confidence in [0, 1], the answer abstains when none reaches the floor, the
 * floor is the request's `min_confidence` or the policy's, a candidate's confidence does not depend
 * on how many candidates were asked for, and a bad floor is a typed INVALID_ARGUMENT.
 */
import { NEARMISS_CONFIDENCE_FEATURES } from '../../src/router/search/stages/rerank-nearmiss.js';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POLICIES, Router } from '../../src/internal.js';
import { CONFIDENCE_MODELS } from '../../src/router/search/policies/confidence-models.js';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  confidenceOf,
} from '../../src/router/search/confidence.js';
import { REPO } from '../support/cli.js';
import { NOW, codeOf, indexTree, newCatalogPath } from '../catalog/support.js';

const EXAMPLES = path.join(REPO, 'examples', 'skills');
let router: Router;

beforeAll(() => {
  const catalog = newCatalogPath();
  indexTree(catalog, EXAMPLES);
  router = new Router({ catalog, telemetry: false, now: NOW });
});
afterAll(() => router.close());

describe('confidence and abstention', () => {
  it('a request a skill clearly covers is suggested above the policy floor', () => {
    const r = router.search({ query: 'extract tables from a pdf', limit: 5 });
    const model = CONFIDENCE_MODELS.get(r.policy)!;
    expect(model).toBeDefined();
    expect(r.min_confidence).toBe(model.floor);
    expect(r.candidates[0]!.skill_id).toBe('pdf-toolkit');
    expect(r.candidates[0]!.confidence).toBeGreaterThanOrEqual(model.floor);
    expect(r.abstain).toBe(false);
    // The runner-up is less certain than the winner.
    expect(r.candidates[1]!.confidence).toBeLessThan(r.candidates[0]!.confidence);
  });

  it('a request no skill covers abstains, and still lists what it found', () => {
    const r = router.search({ query: 'book a table for two at an italian restaurant tonight' });
    expect(r.abstain).toBe(true);
    for (const c of r.candidates) expect(c.confidence).toBeLessThan(r.min_confidence);
    const none = router.search({ query: 'zzqx vvkw' });
    expect(none.candidates).toEqual([]);
    expect(none.abstain).toBe(true);
  });

  it('the request floor overrides the policy floor, at both ends', () => {
    const q = { query: 'book a table for two at an italian restaurant tonight' };
    const low = router.search({ ...q, min_confidence: 0 });
    expect(low.min_confidence).toBe(0);
    expect(low.abstain).toBe(low.candidates.length === 0);
    const high = router.search({ query: 'extract tables from a pdf', min_confidence: 1 });
    expect(high.abstain).toBe(high.candidates.every((c) => c.confidence < 1));
  });

  it('a candidate’s confidence does not depend on the limit', () => {
    for (const query of ['deploy to kubernetes with helm', 'summarize meeting notes', 'docker']) {
      const five = router.search({ query, limit: 5 }).candidates;
      for (let limit = 1; limit <= 4; limit++) {
        const fewer = router.search({ query, limit }).candidates;
        expect(fewer.map((c) => c.confidence)).toEqual(
          five.slice(0, limit).map((c) => c.confidence),
        );
      }
    }
  });

  it.each([-0.1, 1.5, Number.NaN, '0.5', null])('min_confidence %s is INVALID_ARGUMENT', (v) => {
    expect(codeOf(() => router.search({ query: 'pdf', min_confidence: v as never }))).toBe(
      'INVALID_ARGUMENT',
    );
  });
});

describe('the confidence model', () => {
  it('every policy model has one weight, mean and scale per feature and a floor in (0, 1)', () => {
    // One model per live policy (a BM25F policy's lives in its parameter object).
    expect([...CONFIDENCE_MODELS.keys()].sort()).toEqual([...POLICIES.keys()].sort());
    for (const m of CONFIDENCE_MODELS.values()) {
      // v5's model reads the re-ranked list's features (stages/rerank-nearmiss.ts).
      const n =
        m.features === 'nearmiss'
          ? NEARMISS_CONFIDENCE_FEATURES.length
          : CONFIDENCE_FEATURES.length;
      expect(m.weights).toHaveLength(n);
      expect(m.means).toHaveLength(n);
      expect(m.scales).toHaveLength(n);
      expect(m.floor).toBeGreaterThan(0);
      expect(m.floor).toBeLessThan(1);
    }
  });

  it('a larger lead over the next candidate never lowers the first candidate’s confidence', () => {
    const r = router.search({ query: 'validate a json schema', limit: 3 });
    const list = r.candidates;
    const model = CONFIDENCE_MODELS.get(r.policy)!;
    const x = confidenceFeatures(list, 0, 0);
    const closer = confidenceFeatures(
      [list[0]!, { ...list[1]!, score: list[0]!.score * 0.99 }, ...list.slice(2)],
      0,
      0,
    );
    expect(closer[2]!).toBeLessThan(x[2]!);
    expect(confidenceOf(model, closer)).toBeLessThanOrEqual(confidenceOf(model, x));
  });
});
