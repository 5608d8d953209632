/**
 * Honest trigger evaluation (issue 34 item 3, src/triggers/split.ts): `eval --triggers` never
 * grades a request the router learned from. A deterministic 60/40 split by request hash when the
 * policy learns from the skills' own cases (only the train part is learned, only the validation
 * part graded); whatever the split, a request the catalog learned is not graded; the split is stated
 * in the JSON, text, JUnit and SARIF reports. A library's gate cannot pass by memorising its cases.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeExampleQuery, readUsage, telemetryPathFor } from '../../src/catalog/index.js';
import {
  POLICY_V4_ID,
  POLICY_V5_ID,
  Router,
  indexCatalog,
  learnExamples,
} from '../../src/internal.js';
import { optInAuthorEvidence } from '../../src/router/index.js';
import { evalTriggers, renderTriggerJunit, renderTriggerSarif } from '../../src/triggers/index.js';
import { TRAIN_SHARE, splitPartOf } from '../../src/triggers/split.js';
import { renderTriggerText } from '../../src/cli/commands/eval-triggers-render.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { skillText } from '../catalog/support.js';

// New catalogs are v5 (the default) and the v4 tests pass --policy: both opt in to author evidence
// here (no shipped policy ranks with it, docs/ranking.md §9a).
function optInBoth(): () => void {
  const undo = [optInAuthorEvidence(POLICY_V4_ID), optInAuthorEvidence(POLICY_V5_ID)];
  return () => undo.forEach((u) => u());
}

const jsonl = (rows: readonly object[]): string => rows.map((r) => JSON.stringify(r)).join('\n');

// Requests whose words are nowhere in the descriptions: only learning can route them.
const HIDDEN = Array.from(
  { length: 20 },
  (_, i) => `reconcile quarterly vendor invoices batch ${i}`,
);

function library(): { root: string; opts: { home: string; project: string; scopes: string[] } } {
  const root = tmpDir('skilldex-split-');
  writeTree(root, {
    'skills/ledger/SKILL.md': skillText('ledger', { description: 'Keeps a ledger of accounts.' }),
    'skills/ledger/evals/trigger-evals.jsonl': jsonl([
      ...HIDDEN.map((query) => ({ query, should_trigger: true })),
      { query: 'what is the weather in Oslo', should_trigger: false },
    ]),
    'skills/weather/SKILL.md': skillText('weather', {
      description: 'Forecasts the weather for a city, with vendor data.',
    }),
    'skills/weather/evals/trigger-evals.jsonl': jsonl([
      { query: 'forecast for Oslo tomorrow', should_trigger: true },
      { query: 'weather in Paris this weekend', should_trigger: true },
    ]),
  });
  return {
    root,
    opts: {
      home: path.join(root, 'no-home'),
      project: path.join(root, 'no-project'),
      scopes: [path.join(root, 'skills')],
    },
  };
}

describe('the split', () => {
  it('is deterministic and puts about 60 % of requests in the train part', () => {
    const qs = Array.from({ length: 2_000 }, (_, i) => `request number ${i} about things`);
    const train = qs.filter((q) => splitPartOf(q) === 'train').length / qs.length;
    expect(Math.abs(train - TRAIN_SHARE)).toBeLessThan(0.04);
    expect(qs.map(splitPartOf)).toEqual(qs.map(splitPartOf));
    // Case and spacing do not move a request to the other part.
    expect(splitPartOf('Merge  PDFs')).toBe(splitPartOf('merge pdfs'));
  });
});

describe('eval --triggers never grades a request the router learned from', () => {
  let restore: (() => void) | undefined;
  afterEach(() => {
    restore?.();
    restore = undefined;
  });

  it('a catalog that learned the cases cannot pass the gate by memorising them', () => {
    const { root, opts } = library();
    const catalog = path.join(root, 'catalog.sqlite');
    indexCatalog({ catalog, ...opts });
    // The library's own should-trigger requests, learned: the router now routes each of them.
    learnExamples({
      catalog,
      file: 'cases.jsonl',
      text: jsonl(HIDDEN.map((query) => ({ query, skill_id: 'ledger' }))),
    });
    const router = new Router({ catalog, telemetry: false });
    try {
      const memorised = HIDDEN.filter(
        (q) => router.search({ query: q, limit: 1 }).candidates[0]?.skill_id === 'ledger',
      );
      expect(memorised).toHaveLength(HIDDEN.length);
    } finally {
      router.close();
    }
    const report = evalTriggers({ ...opts, catalog, gates: { min_skill_recall: 1 } });
    const learned = new Set(HIDDEN.map(normalizeExampleQuery));
    expect(report.cases.some((c) => learned.has(normalizeExampleQuery(c.query)))).toBe(false);
    expect(report.split).toMatchObject({ method: 'none', learned: HIDDEN.length });
    // Not one of the learned requests counted toward ledger's recall.
    expect(report.per_skill.find((s) => s.skill_id === 'ledger')?.positives ?? 0).toBe(0);
    expect(report.totals.cases).toBe(report.split.validation);
  });

  it('under a policy that learns from the skills’ own cases: 60/40 split, the router learns only the train part, only validation is graded', () => {
    restore = optInBoth();
    const { opts } = library();
    const report = evalTriggers({ ...opts });
    const all = HIDDEN.length + 3;
    expect(report.split.method).toBe('hash-60-40');
    expect(report.split.train + report.split.validation + report.split.learned).toBe(all);
    expect(report.split.train).toBeGreaterThan(0);
    expect(report.split.validation).toBeGreaterThan(0);
    expect(report.cases.every((c) => splitPartOf(c.query) === 'validation')).toBe(true);
    expect(report.cases).toHaveLength(report.split.validation);
    // Stated in every format.
    expect(renderTriggerText(report, { cwd: '/', quiet: true })).toContain(
      `split 60/40 train/validation by request hash: ${report.split.train} train requests not graded`,
    );
    expect(renderTriggerJunit(report)).toContain('<property name="split" value="hash-60-40"/>');
    const sarif = renderTriggerSarif(report, { baseDir: '/', toolVersion: '0' }) as unknown as {
      runs: { properties: { split: unknown } }[];
    };
    expect(sarif.runs[0]!.properties.split).toEqual(report.split);
  });

  it('--split holdout under v4 grades only the validation part; --split none grades every unlearned case', () => {
    const { opts } = library();
    const held = evalTriggers({ ...opts, split: 'holdout' });
    expect(held.split.method).toBe('hash-60-40');
    expect(held.cases.every((c) => splitPartOf(c.query) === 'validation')).toBe(true);
    const none = evalTriggers({ ...opts, split: 'none' });
    expect(none.split).toMatchObject({ method: 'none', train: 0, learned: 0 });
    expect(none.cases).toHaveLength(HIDDEN.length + 3);
    expect(() => evalTriggers({ ...opts, split: 'sometimes' as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
  });

  it('a temporary catalog keeps only the train part’s author examples; a given catalog’s are all learned', () => {
    restore = optInBoth();
    // Requests each of its own words but `ledger`, where the weather skill ranks first: only
    // memorising a request itself routes it to the ledger skill.
    const unique = Array.from(
      { length: 30 },
      (_, i) => `ledger zq${i}alpha zq${i}beta zq${i}gamma`,
    );
    const root = tmpDir('skilldex-split-unique-');
    writeTree(root, {
      'skills/ledger/SKILL.md': skillText('ledger', { description: 'Keeps a ledger of accounts.' }),
      'skills/ledger/evals/trigger-evals.jsonl': jsonl(
        unique.map((query) => ({ query, should_trigger: true })),
      ),
      'skills/weather/SKILL.md': skillText('weather', {
        description: 'Ledger weather: forecasts the weather ledger by ledger.',
      }),
    });
    const opts = {
      home: path.join(root, 'no-home'),
      project: path.join(root, 'no-project'),
      scopes: [path.join(root, 'skills')],
    };
    // While the requests are routed, look at what the temporary catalog learned.
    const tmp = tmpDir('skilldex-split-tmp-');
    let stored: string[] | undefined;
    const temp = evalTriggers({
      ...opts,
      tmpDir: tmp,
      onProgress: (stage) => {
        if (stage !== 'rank' || stored !== undefined) return;
        const [dir] = readdirSync(tmp);
        const cat = path.join(tmp, dir!, 'catalog.sqlite');
        stored = readUsage(telemetryPathFor(cat)).examples.map((e) => e.query);
      },
    });
    expect(temp.split.method).toBe('hash-60-40');
    expect(temp.split.validation).toBeGreaterThan(5);
    expect(stored).toBeDefined();
    expect(stored!.length).toBe(temp.split.train);
    expect(stored!.every((q) => splitPartOf(q) === 'train')).toBe(true);
    expect(temp.cases.every((c) => !stored!.includes(c.query))).toBe(true);
    // The same library indexed into a catalog of our own: index stores every case.
    const catalog = path.join(root, 'catalog.sqlite');
    indexCatalog({ catalog, ...opts });
    expect(readUsage(telemetryPathFor(catalog)).examples).toHaveLength(unique.length);
    const router = new Router({ catalog, telemetry: false });
    try {
      expect(router.search({ query: unique[0]!, limit: 1 }).candidates[0]?.skill_id).toBe('ledger');
    } finally {
      router.close();
    }
    // Given that catalog, every author example is a learned request: none is graded.
    const given = evalTriggers({ ...opts, catalog });
    expect(given.split.method).toBe('hash-60-40');
    expect(given.cases).toHaveLength(0);
    expect(given.split.learned).toBe(temp.split.validation);
  });
});
