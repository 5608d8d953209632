/**
 * Lifecycle, generations and status (src/catalog/write/lifecycle.ts, read/status.ts through the operator
 * calls): deprecated skills are hidden unless asked for and then penalised ×0.5 in the explanation;
 * archived skills are never candidates and fetch answers SKILL_ARCHIVED; restore brings a skill
 * back; the generation history names parents; status counts unpublished changes and drifted files.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Router,
  V1,
  changeLifecycle,
  getCatalogStatus,
  getGenerations,
  publishCatalog,
} from '../../src/internal.js';
import { tmpTree } from '../support/cli.js';
import { NOW, ON_PG, codeOf, indexTree, newCatalogPath, skillText } from './support.js';

const routers: Router[] = [];
afterEach(() => {
  for (const r of routers.splice(0)) r.close();
});

function open(catalog: string): Router {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  routers.push(r);
  return r;
}

// Two skills share the words "invoice" and "ledger" so each query has more than one candidate.
function setup(): { root: string; catalog: string } {
  const root = tmpTree({
    'old-invoices/SKILL.md': skillText('old-invoices', {
      description: 'Parse invoice ledger exports (legacy).',
      keywords: ['invoice', 'ledger'],
    }),
    'new-invoices/SKILL.md': skillText('new-invoices', {
      description: 'Parse invoice ledger exports and reconcile them.',
      keywords: ['invoice'],
    }),
    'weather/SKILL.md': skillText('weather', {
      description: 'Forecast weather from station data.',
      keywords: ['weather'],
    }),
  });
  const catalog = newCatalogPath();
  indexTree(catalog, root);
  return { root, catalog };
}

const ids = (r: Router, query: string, includeDeprecated = false): string[] =>
  r.search({ query, include_deprecated: includeDeprecated }).candidates.map((c) => c.skill_id);

describe('deprecate', () => {
  it('records reason and replacement, publishes, and hides the skill unless include_deprecated', () => {
    const { catalog } = setup();
    const router = open(catalog);
    const active = router
      .search({ query: 'invoice ledger' })
      .candidates.find((c) => c.skill_id === 'old-invoices')!;
    const rep = changeLifecycle({
      catalog,
      skill_id: 'old-invoices',
      to: 'deprecated',
      reason: 'superseded',
      replacement: 'new-invoices',
      now: NOW,
    });
    expect(rep.change).toEqual({
      skill_id: 'old-invoices',
      from: 'active',
      to: 'deprecated',
      reason: 'superseded',
      replacement: 'new-invoices',
    });
    expect(rep.publish).toMatchObject({
      changed: true,
      seq: 2,
      counts: { total: 3, active: 2, deprecated: 1, archived: 0 },
    });

    expect(ids(router, 'invoice ledger')).toEqual(['new-invoices']);
    const withDep = router.search({ query: 'invoice ledger', include_deprecated: true }).candidates;
    const dep = withDep.find((c) => c.skill_id === 'old-invoices')!;
    expect(dep.state).toBe('deprecated');
    expect(dep.explanation.lifecycle).toEqual({
      state: 'deprecated',
      multiplier: V1.DEPRECATED_MULTIPLIER,
    });
    expect(V1.DEPRECATED_MULTIPLIER).toBe(0.5);
    expect(dep.explanation.base).toBe(active.explanation.base);
    expect(dep.score).toBeCloseTo(active.score * 0.5, 9);
    expect(dep.explanation.final).toBe(dep.score);
  });

  it('refuses an unknown replacement or the skill itself (INVALID_ARGUMENT) and changes nothing', () => {
    const { catalog } = setup();
    expect(
      codeOf(() =>
        changeLifecycle({
          catalog,
          skill_id: 'old-invoices',
          to: 'deprecated',
          replacement: 'no-such-skill',
          now: NOW,
        }),
      ),
    ).toBe('INVALID_ARGUMENT');
    expect(
      codeOf(() =>
        changeLifecycle({
          catalog,
          skill_id: 'old-invoices',
          to: 'deprecated',
          replacement: 'old-invoices',
          now: NOW,
        }),
      ),
    ).toBe('INVALID_ARGUMENT');
    expect(getGenerations({ catalog })).toHaveLength(1);
    expect(getCatalogStatus({ catalog }).working).toMatchObject({ active: 3, deprecated: 0 });
  });

  it('of an unknown id is SKILL_NOT_FOUND, like archive and restore', () => {
    const { catalog } = setup();
    for (const to of ['deprecated', 'archived', 'active'] as const) {
      expect(codeOf(() => changeLifecycle({ catalog, skill_id: 'nope', to, now: NOW }))).toBe(
        'SKILL_NOT_FOUND',
      );
    }
  });
});

describe('archive and restore', () => {
  it('an archived skill is never a candidate, even with include_deprecated, and fetch is SKILL_ARCHIVED', () => {
    const { catalog } = setup();
    const router = open(catalog);
    const pin = router
      .search({ query: 'invoice' })
      .candidates.find((c) => c.skill_id === 'old-invoices')!;
    const rep = changeLifecycle({
      catalog,
      skill_id: 'old-invoices',
      to: 'archived',
      reason: 'unused',
      now: NOW,
    });
    expect(rep.change).toMatchObject({
      from: 'active',
      to: 'archived',
      reason: 'unused',
      replacement: null,
    });
    expect(rep.publish).toMatchObject({ counts: { archived: 1, active: 2 } });
    expect(ids(router, 'invoice ledger')).toEqual(['new-invoices']);
    expect(ids(router, 'invoice ledger', true)).toEqual(['new-invoices']);
    expect(ids(router, 'old invoices legacy', true)).not.toContain('old-invoices');
    const gen = router.currentGeneration();
    expect(
      codeOf(() =>
        router.fetch({
          skill_id: 'old-invoices',
          expected_revision: pin.revision_id,
          catalog_generation: gen,
          context: '',
        }),
      ),
    ).toBe('SKILL_ARCHIVED');
  });

  it('restore makes an archived or deprecated skill active again, under the original generation id', () => {
    const { catalog } = setup();
    const router = open(catalog);
    const original = router.currentGeneration();
    const before = router.search({ query: 'invoice ledger' });
    changeLifecycle({ catalog, skill_id: 'old-invoices', to: 'archived', now: NOW });
    const back = changeLifecycle({ catalog, skill_id: 'old-invoices', to: 'active', now: NOW });
    expect(back.change).toMatchObject({
      from: 'archived',
      to: 'active',
      reason: null,
      replacement: null,
    });
    expect(back.publish).toMatchObject({ changed: true, seq: 3, catalog_generation: original });
    expect(router.search({ query: 'invoice ledger' })).toEqual(before);

    changeLifecycle({ catalog, skill_id: 'weather', to: 'deprecated', now: NOW });
    changeLifecycle({ catalog, skill_id: 'weather', to: 'active', now: NOW });
    expect(ids(router, 'weather')).toEqual(['weather']);
  });

  it('with publish: false changes only the working set until publish', () => {
    const { catalog } = setup();
    const router = open(catalog);
    const rep = changeLifecycle({
      catalog,
      skill_id: 'weather',
      to: 'archived',
      publish: false,
      now: NOW,
    });
    expect(rep.publish).toBeNull();
    expect(ids(router, 'weather')).toEqual(['weather']);
    expect(getCatalogStatus({ catalog }).unpublished_changes).toBeGreaterThan(0);
    publishCatalog({ catalog, now: NOW });
    expect(ids(router, 'weather')).toEqual([]);
    expect(getCatalogStatus({ catalog }).unpublished_changes).toBe(0);
  });
});

describe('generations', () => {
  it.skipIf(ON_PG)(
    'lists the history newest first, each with its parent, and marks the published one',
    () => {
      const { catalog } = setup();
      const g1 = getGenerations({ catalog })[0]!;
      changeLifecycle({ catalog, skill_id: 'weather', to: 'deprecated', now: NOW });
      changeLifecycle({ catalog, skill_id: 'weather', to: 'archived', now: NOW });
      const gens = getGenerations({ catalog });
      expect(gens.map((g) => g.seq)).toEqual([3, 2, 1]);
      expect(gens.map((g) => g.parent_seq)).toEqual([2, 1, null]);
      expect(gens.map((g) => g.published)).toEqual([true, false, false]);
      expect(gens[2]).toEqual({ ...g1, published: false });
      expect(gens[0]).toMatchObject({
        policy: 'tf.skillrouter.hybrid-lexical.v1',
        created_at: NOW().toISOString(),
        counts: { total: 3, archived: 1 },
      });
      expect(new Set(gens.map((g) => g.catalog_generation)).size).toBe(3);
    },
  );
});

describe('status', () => {
  it('reports the published generation, working-set counts and no drift after a clean index', () => {
    const { catalog } = setup();
    const s = getCatalogStatus({ catalog });
    expect(s.catalog).toBe(catalog);
    expect(s.published).toMatchObject({ seq: 1, published: true });
    expect(s.working).toEqual({ skills: 3, active: 3, deprecated: 0, archived: 0, retired: 0 });
    expect(s.unpublished_changes).toBe(0);
    expect(s.drifted).toEqual([]);
    expect(s.revisions_seen).toBe(3);
  });

  it('counts unpublished changes from a staged index', () => {
    const { root, catalog } = setup();
    writeFileSync(
      path.join(root, 'weather/SKILL.md'),
      skillText('weather', { description: 'Forecast weather and tides.', keywords: ['weather'] }),
    );
    rmSync(path.join(root, 'old-invoices'), { recursive: true });
    indexTree(catalog, root, { publish: false });
    const s = getCatalogStatus({ catalog });
    // weather: its published member and its working revision differ (2 rows of the diff); old-invoices retired (1 row).
    expect(s.unpublished_changes).toBe(3);
    expect(s.working).toMatchObject({ skills: 3, active: 2, retired: 1 });
    expect(s.revisions_seen).toBe(4);
  });

  it('lists files edited or deleted since indexing as drifted', () => {
    const { root, catalog } = setup();
    writeFileSync(
      path.join(root, 'weather/SKILL.md'),
      skillText('weather', { description: 'Edited after indexing.', keywords: ['weather'] }),
    );
    rmSync(path.join(root, 'old-invoices/SKILL.md'));
    const s = getCatalogStatus({ catalog });
    expect(s.drifted.map((d) => [d.skill_id, d.reason])).toEqual([
      ['old-invoices', 'missing'],
      ['weather', 'changed'],
    ]);
    expect(s.unpublished_changes).toBe(0);
  });

  it('does not count a file touched without a change of bytes as drifted', () => {
    const { root, catalog } = setup();
    const file = path.join(root, 'weather/SKILL.md');
    const text = skillText('weather', {
      description: 'Forecast weather from station data.',
      keywords: ['weather'],
    });
    writeFileSync(file, text);
    expect(getCatalogStatus({ catalog }).drifted).toEqual([]);
  });
});
