/**
 * Policy v2 (docs/ranking.md §7): IDF-weighted tiers, the default for new catalogs, selectable per
 * catalog with --policy and remembered by it; v1 stays selectable.
 */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_POLICY_ID,
  POLICY_ID,
  POLICY_V2_ID,
  POLICY_V4_ID,
  Router,
  V2,
  changeLifecycle,
  indexCatalog,
} from '../../src/internal.js';
import { idfWeight } from '../../src/router/index.js';
import { REPO, runCli } from '../support/cli.js';
import { NOW, newCatalogPath } from '../catalog/support.js';
import path from 'node:path';
import type { Candidate, ScoreExplanation } from '../../src/internal.js';

/** The explanation of a candidate of a lexical (v1/v2) catalog, which these tests pin. */
function lx(c: Candidate): ScoreExplanation {
  return c.explanation as ScoreExplanation;
}

const EXAMPLES = path.join(REPO, 'examples', 'skills');

describe('policy v2', () => {
  it('is chosen per catalog with policy (bm25f.v4 by default), and the catalog remembers the choice', () => {
    expect(DEFAULT_POLICY_ID).toBe(POLICY_V4_ID);
    const a = newCatalogPath();
    indexCatalog({ catalog: a, scopes: [EXAMPLES], now: NOW });
    const ra = new Router({ catalog: a, telemetry: false });
    expect(ra.search({ query: 'merge pdf files' }).policy).toBe(POLICY_V4_ID);
    ra.close();
    // A catalog published under v1 stays on v1 when re-indexed without --policy.
    const v1 = newCatalogPath();
    indexCatalog({ catalog: v1, scopes: [EXAMPLES], now: NOW, policy: POLICY_ID });
    indexCatalog({ catalog: v1, scopes: [EXAMPLES], now: NOW });
    const r1 = new Router({ catalog: v1, telemetry: false });
    expect(r1.search({ query: 'merge pdf files' }).policy).toBe(POLICY_ID);
    r1.close();

    const b = newCatalogPath();
    indexCatalog({ catalog: b, scopes: [EXAMPLES], now: NOW, policy: POLICY_V2_ID });
    // A later publish (here: a lifecycle change) keeps the remembered policy.
    changeLifecycle({ catalog: b, skill_id: 'csv-cleaner', to: 'deprecated', now: NOW });
    const rb = new Router({ catalog: b, telemetry: false });
    expect(rb.search({ query: 'merge pdf files' }).policy).toBe(POLICY_V2_ID);
    rb.close();
  });

  it('weights each token by inverse document frequency and explains the weights', () => {
    expect(idfWeight(0, 100)).toBe(1);
    expect(idfWeight(100, 100)).toBe(0);
    expect(idfWeight(5, 100)).toBeGreaterThan(idfWeight(50, 100));
    const cat = newCatalogPath();
    indexCatalog({ catalog: cat, scopes: [EXAMPLES], now: NOW, policy: POLICY_V2_ID });
    const r = new Router({ catalog: cat, telemetry: false });
    const top = r.search({ query: 'fill in a pdf form' }).candidates[0]!;
    r.close();
    expect(top.skill_id).toBe('pdf-toolkit');
    const e = lx(top);
    expect(e.policy).toBe(POLICY_V2_ID);
    expect(e.token_weights).toHaveLength(e.query_tokens.length);
    for (const w of e.token_weights!) expect(w).toBeGreaterThan(0);
    expect(e.fts.weight).toBe(V2.FTS_WEIGHT);
    expect(e.fuzzy.weight).toBe(V2.FUZZY_WEIGHT);
    // The components add up to the final score.
    expect(e.base).toBeCloseTo(e.exact.total + e.fts.weighted + e.fuzzy.weighted, 6);
    expect(e.final).toBeCloseTo(e.base * e.telemetry.multiplier * e.lifecycle.multiplier, 6);
  });

  it('routes the example library: each skill by its own description', () => {
    const cat = newCatalogPath();
    const report = indexCatalog({
      catalog: cat,
      scopes: [EXAMPLES],
      now: NOW,
      policy: POLICY_V2_ID,
    });
    expect(report.publish?.changed).toBe(true);
    const r = new Router({ catalog: cat, telemetry: false });
    const cases: [string, string][] = [
      ['extract tables from a pdf', 'pdf-toolkit'],
      ['deploy an app to kubernetes', 'kubernetes-deploy'],
      ['write a blameless postmortem for the outage', 'incident-postmortem'],
      ['kubernets deploymnt', 'kubernetes-deploy'],
    ];
    for (const [q, want] of cases)
      expect(r.search({ query: q }).candidates[0]?.skill_id, q).toBe(want);
    r.close();
  });

  it('refuses an unknown policy id with INVALID_ARGUMENT (exit 2)', async () => {
    const r = await runCli([
      'index',
      '--catalog',
      newCatalogPath(),
      '--scope',
      EXAMPLES,
      '--policy',
      'nope',
      '--json',
    ]);
    expect(r.code).toBe(2);
    expect((JSON.parse(r.stdout) as { error: { code: string } }).error.code).toBe(
      'INVALID_ARGUMENT',
    );
  });
});
