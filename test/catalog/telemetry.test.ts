/**
 * Telemetry (src/catalog/side/telemetry.ts through Router and the CLI): search records suggestion
 * events, fetch records fetch events, both in `<catalog>.telemetry.sqlite`; `--no-telemetry` and
 * SKILLDEX_TELEMETRY=off write nothing; a broken telemetry file never fails a search or a fetch;
 * history changes the telemetry multiplier shown in the explanation.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { Router, telemetryPathFor, type SearchResult } from '../../src/internal.js';
import { TelemetryStore } from '../../src/catalog/index.js';
import { queryHash } from '../../src/router/search/query.js';
import { runCli, tmpTree } from '../support/cli.js';
import { NOW, indexTree, newCatalogPath, skillText } from './support.js';

interface EventRow {
  kind: string;
  at: string;
  query_hash: string | null;
  skill_id: string;
  revision_id: string | null;
  rank: number | null;
  generation: string;
  context: string | null;
}

function setup(): { root: string; catalog: string; telemetry: string } {
  const root = tmpTree({
    'csv-tool/SKILL.md': skillText('csv-tool', {
      description: 'Clean csv files and fix delimiters.',
      keywords: ['csv'],
    }),
    'csv-chart/SKILL.md': skillText('csv-chart', {
      description: 'Chart csv columns as plots.',
      keywords: ['chart'],
    }),
    'other/SKILL.md': skillText('other', {
      description: 'Something unrelated about gardening.',
      keywords: ['garden'],
    }),
  });
  const catalog = newCatalogPath();
  indexTree(catalog, root);
  return { root, catalog, telemetry: telemetryPathFor(catalog) };
}

function events(file: string): EventRow[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        `SELECT kind, at, query_hash, skill_id, revision_id, rank, generation, context FROM events ORDER BY id`,
      )
      .all() as EventRow[];
  } finally {
    db.close();
  }
}

function counts(file: string): { skill_id: string; suggestions: number; fetches: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(`SELECT skill_id, suggestions, fetches FROM counts ORDER BY skill_id`)
      .all() as {
      skill_id: string;
      suggestions: number;
      fetches: number;
    }[];
  } finally {
    db.close();
  }
}

function searchAndFetch(catalog: string, options: { telemetry?: boolean } = {}): SearchResult {
  const router = new Router({ catalog, now: NOW, ...options });
  try {
    const r = router.search({ query: 'csv chart' });
    const top = r.candidates[0]!;
    router.fetch({
      skill_id: top.skill_id,
      expected_revision: top.revision_id,
      catalog_generation: r.catalog_generation,
      context: 'plot a csv',
    });
    return r;
  } finally {
    router.close();
  }
}

describe('telemetry events', () => {
  it('lives beside the catalog as <name>.telemetry.sqlite', () => {
    expect(telemetryPathFor('/a/b/catalog.sqlite')).toBe('/a/b/catalog.telemetry.sqlite');
    expect(telemetryPathFor('/a/b/lib.db')).toBe('/a/b/lib.telemetry.sqlite');
    expect(telemetryPathFor('/a/b/plain')).toBe('/a/b/plain.telemetry.sqlite');
  });

  it('search writes one suggestion per candidate in rank order; fetch writes one fetch event', () => {
    const { catalog, telemetry } = setup();
    const r = searchAndFetch(catalog);
    const ev = events(telemetry);
    const suggestions = ev.filter((e) => e.kind === 'suggestion');
    expect(suggestions.map((e) => [e.skill_id, e.rank])).toEqual(
      r.candidates.map((c, i) => [c.skill_id, i + 1]),
    );
    for (const e of suggestions) {
      expect(e).toMatchObject({
        query_hash: queryHash('csv chart'),
        generation: r.catalog_generation,
        at: NOW().toISOString(),
        revision_id: null,
      });
      expect(e.query_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    }
    const fetches = ev.filter((e) => e.kind === 'fetch');
    expect(fetches).toEqual([
      {
        kind: 'fetch',
        at: NOW().toISOString(),
        query_hash: null,
        skill_id: r.candidates[0]!.skill_id,
        revision_id: r.candidates[0]!.revision_id,
        rank: null,
        generation: r.catalog_generation,
        context: 'plot a csv',
      },
    ]);
    expect(counts(telemetry)).toEqual(
      r.candidates
        .map((c, i) => ({ skill_id: c.skill_id, suggestions: 1, fetches: i === 0 ? 1 : 0 }))
        .sort((a, b) => (a.skill_id < b.skill_id ? -1 : 1)),
    );
  });

  it('a failed fetch records nothing', () => {
    const { catalog, telemetry } = setup();
    const router = new Router({ catalog, now: NOW });
    try {
      expect(() =>
        router.fetch({
          skill_id: 'csv-tool',
          expected_revision: 'sha256:x',
          catalog_generation: router.currentGeneration(),
          context: '',
        }),
      ).toThrow();
    } finally {
      router.close();
    }
    expect(
      existsSync(telemetry) ? events(telemetry).filter((e) => e.kind === 'fetch') : [],
    ).toEqual([]);
  });

  it('a search that records nothing (a person at the CLI) creates no telemetry file', async () => {
    const { catalog, telemetry } = setup();
    const s = await runCli(['search', 'csv', '--catalog', catalog, '--json']);
    expect(s.code).toBe(0);
    expect(existsSync(telemetry)).toBe(false);
    // The agent path records: the file appears, and a later human search reads its history.
    expect((await runCli(['search', 'csv', '--catalog', catalog, '--record'])).code).toBe(0);
    expect(counts(telemetry).map((c) => c.suggestions)).toEqual([1, 1]);
    const router = new Router({ catalog, now: NOW, recordSuggestions: false });
    const c = router.search({ query: 'csv' }).candidates[0]!;
    router.close();
    expect(c.explanation).toMatchObject({ telemetry: { suggestions: 1 } });
  });

  it('is not written with telemetry: false, --no-telemetry or SKILLDEX_TELEMETRY=off', async () => {
    const { catalog, telemetry } = setup();
    searchAndFetch(catalog, { telemetry: false });
    expect(existsSync(telemetry)).toBe(false);
    const s = await runCli(['search', 'csv', '--catalog', catalog, '--no-telemetry', '--json']);
    expect(s.code).toBe(0);
    const top = (JSON.parse(s.stdout) as SearchResult).candidates[0]!;
    const pins = [
      '--revision',
      top.revision_id,
      '--generation',
      top.catalog_generation,
      '--catalog',
      catalog,
    ];
    expect((await runCli(['fetch', top.skill_id, ...pins, '--no-telemetry'])).code).toBe(0);
    const env = { HOME: '/nonexistent-home', SKILLDEX_TELEMETRY: 'off' };
    expect((await runCli(['search', 'csv', '--catalog', catalog], { env })).code).toBe(0);
    expect((await runCli(['fetch', top.skill_id, ...pins], { env })).code).toBe(0);
    expect(existsSync(telemetry)).toBe(false);
    // …and is written by the same commands without the switch (a terminal search records
    // suggestions only with --record, as the agent path does).
    expect((await runCli(['search', 'csv', '--catalog', catalog, '--record'])).code).toBe(0);
    expect((await runCli(['fetch', top.skill_id, ...pins])).code).toBe(0);
    const shown = (JSON.parse(s.stdout) as SearchResult).candidates.length;
    expect(events(telemetry).map((e) => e.kind)).toEqual([
      ...Array<string>(shown).fill('suggestion'),
      'fetch',
    ]);
  });
});

describe('a broken telemetry file', () => {
  const broken: [string, (file: string) => void][] = [
    ['a folder at its path', (file) => mkdirSync(file)],
    ['garbage bytes', (file) => writeFileSync(file, Buffer.alloc(8192, 0x5a))],
    [
      'a foreign SQLite file',
      (file) => {
        const db = new Database(file);
        db.exec(`CREATE TABLE events (x INTEGER); CREATE TABLE counts (y TEXT);`);
        db.close();
      },
    ],
  ];
  for (const [what, make] of broken) {
    it(`(${what}) never fails search or fetch, and the results equal those without telemetry`, async () => {
      const { catalog, telemetry } = setup();
      make(telemetry);
      const expected = searchAndFetch(catalog, { telemetry: false });
      expect(searchAndFetch(catalog)).toEqual(expected);
      const s = await runCli(['search', 'csv chart', '--catalog', catalog, '--json']);
      expect(s.code).toBe(0);
      expect(JSON.parse(s.stdout)).toEqual(expected);
      const top = expected.candidates[0]!;
      const f = await runCli([
        'fetch',
        top.skill_id,
        '--revision',
        top.revision_id,
        '--generation',
        top.catalog_generation,
        '--catalog',
        catalog,
        '--json',
      ]);
      expect(f.code).toBe(0);
    });
  }
});

describe('reading histories', () => {
  it('reads many skills in one call, as history reads each, with zeros for skills never shown', () => {
    const { catalog, telemetry } = setup();
    searchAndFetch(catalog);
    const store = new TelemetryStore(telemetry, NOW);
    try {
      // More ids than one IN list holds, most of them unknown.
      const ids = [
        'csv-tool',
        'csv-chart',
        'other',
        ...Array.from({ length: 600 }, (_, i) => `x${i}`),
      ];
      const all = store.histories(ids);
      expect([...all.keys()]).toEqual(ids);
      for (const id of ids) expect(all.get(id)).toEqual(store.history(id));
      expect(all.get('x7')).toEqual({ suggestions: 0, fetches: 0 });
      expect(counts(telemetry).map((c) => all.get(c.skill_id))).toEqual(
        counts(telemetry).map((c) => ({ suggestions: c.suggestions, fetches: c.fetches })),
      );
    } finally {
      store.close();
    }
  });
});

describe('telemetry in the ranking', () => {
  it('history changes the multiplier and the score shown in the explanation', () => {
    const { catalog, telemetry } = setup();
    const router = new Router({ catalog, now: NOW });
    try {
      const first = router.search({ query: 'csv' });
      for (const c of first.candidates)
        expect(c.explanation.telemetry).toEqual({ suggestions: 0, fetches: 0, multiplier: 1 });
      // Write a history: csv-chart fetched at every suggestion, csv-tool never fetched.
      const db = new Database(telemetry);
      db.exec(
        `DELETE FROM counts; INSERT INTO counts (skill_id, suggestions, fetches) VALUES ('csv-chart', 40, 40), ('csv-tool', 60, 0);`,
      );
      db.close();
      const second = router.search({ query: 'csv' });
      const chart = second.candidates.find((c) => c.skill_id === 'csv-chart')!;
      const tool = second.candidates.find((c) => c.skill_id === 'csv-tool')!;
      expect(chart.explanation.telemetry).toEqual({
        suggestions: 40,
        fetches: 40,
        multiplier: 1.15,
      });
      expect(tool.explanation.telemetry).toEqual({ suggestions: 60, fetches: 0, multiplier: 0.85 });
      expect(chart.score).toBeCloseTo(chart.explanation.base * 1.15, 9);
      expect(tool.score).toBeCloseTo(tool.explanation.base * 0.85, 9);
      // Without telemetry the same query ignores the history.
      const off = new Router({ catalog, telemetry: false });
      try {
        expect(
          off.search({ query: 'csv' }).candidates.map((c) => c.explanation.telemetry.multiplier),
        ).toEqual(first.candidates.map(() => 1));
      } finally {
        off.close();
      }
    } finally {
      router.close();
    }
  });
});
