/**
 * The explorer's read-only catalog and telemetry views (issue 15): usage per day, suggested but
 * never fetched, ever in a top 5; a Router built with `record: false` writes no telemetry; a missing
 * telemetry file reads as empty and is not created.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CatalogExplorer, Router, TelemetryReader, telemetryPathFor } from '../../src/internal.js';
import { makeLibrary } from '../explorer/support.js';

const DAY1 = new Date('2026-03-01T10:00:00Z');
const DAY2 = new Date('2026-03-02T10:00:00Z');

describe('telemetry views', () => {
  it('reads what agents did: suggestions by day, fetches, never fetched, top 5', () => {
    const lib = makeLibrary();
    let now = DAY1;
    const agent = new Router({ catalog: lib.catalog, now: () => now });
    const first = agent.search({ query: 'extract tables from pdf', limit: 5 });
    agent.search({ query: 'clean csv files', limit: 1 });
    now = DAY2;
    const pick = first.candidates[0]!;
    expect(pick.skill_id).toBe('pdf-toolkit');
    agent.fetch({
      skill_id: pick.skill_id,
      expected_revision: pick.revision_id,
      catalog_generation: pick.catalog_generation,
      context: 'test',
    });
    agent.close();

    const t = new TelemetryReader(telemetryPathFor(lib.catalog));
    expect(t.usageByDay('pdf-toolkit')).toEqual([
      { day: '2026-03-01', suggestions: 1, fetches: 0 },
      { day: '2026-03-02', suggestions: 0, fetches: 1 },
    ]);
    const never = t.suggestedNeverFetched(50).map((u) => u.skill_id);
    expect(never).toContain('csv-cleaner');
    expect(never).not.toContain('pdf-toolkit');
    const top = t.everInTopFive();
    expect(top.has('pdf-toolkit')).toBe(true);
    expect(top.has('csv-cleaner')).toBe(true);
    expect(top.has('email-drafter')).toBe(false);
    expect(t.totals().fetches).toBe(1);
  });

  it('a Router with record: false writes nothing; a missing file reads empty and stays missing', () => {
    const lib = makeLibrary();
    const file = telemetryPathFor(lib.catalog);
    const t = new TelemetryReader(file);
    expect(t.suggestedNeverFetched(10)).toEqual([]);
    expect(existsSync(file)).toBe(false);
    const reader = new Router({ catalog: lib.catalog, telemetry: false, record: false });
    reader.search({ query: 'pdf' });
    reader.close();
    expect(existsSync(file)).toBe(false);
    expect(new TelemetryReader(undefined).totals()).toEqual({
      suggestions: 0,
      fetches: 0,
      hook_suggestions: 0,
    });
  });
});

describe('catalog views', () => {
  it('counts the published generation by scope and refuses an unknown skill', () => {
    const lib = makeLibrary();
    const c = new CatalogExplorer(lib.catalog);
    const o = c.overview();
    expect(o.by_scope.reduce((s, x) => s + x.active, 0)).toBe(o.counts.active);
    expect(c.servedIds()).toContain('pdf-toolkit');
    expect(() => c.skill('nope')).toThrow(expect.objectContaining({ code: 'SKILL_NOT_FOUND' }));
    expect(() => c.generationChanges(0)).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    const g = c.generationChanges();
    expect(g).toHaveLength(1);
    expect(g[0]!.added).toBe(o.counts.total);
    c.close();
  });

  it("counts the prompt hook's suggestions as a skill page charts them (Catalog page and skill page agree)", () => {
    const lib = makeLibrary();
    const agent = new Router({ catalog: lib.catalog, now: () => DAY1 });
    const generation = agent.search({
      query: 'extract tables from pdf',
      limit: 1,
    }).catalog_generation;
    for (let i = 0; i < 3; i++)
      agent.recordHookSuggestions('merge two pdf files', generation, [
        'pdf-toolkit',
        'csv-cleaner',
      ]);
    agent.close();
    const t = new TelemetryReader(telemetryPathFor(lib.catalog));
    const charted = t.usageByDay('pdf-toolkit').reduce((n, d) => n + d.suggestions, 0);
    expect(charted).toBe(4);
    // 1 search suggestion + 3 rounds of 2 hook suggestions, 6 of them the hook's.
    expect(t.totals()).toEqual({ suggestions: 7, fetches: 0, hook_suggestions: 6 });
  });
});
