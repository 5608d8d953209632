/**
 * What the BM25F engine does under any parameter set, checked under bm25f.v4 (docs/ranking.md
 * §8–10; these were bm25f.v3's tests before v3 was retired): the fast path over postings equals the
 * brute-force scorer
 * over every serving row (ids, order, scores and explanations) on random catalogs with bodies,
 * identifier-shaped words, lifecycle states, telemetry and learned usage examples; and the
 * behaviour users rely on: the body is searched, identifiers split, an exact name wins, dropped
 * words are shown, usage examples rank (learn, forget, the per-skill cap, re-index survival,
 * --no-usage, archived skills keep none).
 */
import { renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  POLICY_ID,
  POLICY_V4_ID,
  Router,
  changeLifecycle,
  forgetExamples,
  indexCatalog,
  learnExamples,
  type Bm25fExplanation,
  type SearchResult,
} from '../../src/internal.js';
import { readUsage, telemetryPathFor } from '../../src/catalog/index.js';
import { MAX_EXAMPLES_PER_SKILL } from '../../src/catalog/side/usage-write.js';
import { runCli, tmpDir, writeTree } from '../support/cli.js';
import { NOW, ON_PG, propertyRuns, newCatalogPath, skillText } from '../catalog/support.js';
import {
  VOCAB,
  applyLifecycle,
  idOf,
  libraryArb,
  queryArb,
  textOf,
  writeHistories,
  type GenSkill,
  expectFastEqualsBrute,
} from './support.js';

const LIMITS = Array.from({ length: 20 }, (_, i) => i + 1);
const IDENT = ['getWeather', 'resnet50', 'HTMLParser', 'snake_case_name', 'pdfToText', 'v2Api'];
const bodyWord = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...VOCAB) },
  { weight: 1, arbitrary: fc.constantFrom(...IDENT) },
);

function build(
  skills: readonly GenSkill[],
  bodies: readonly string[][],
  policy = POLICY_V4_ID,
): { catalog: string; root: string; cleanup: () => void } {
  const root = tmpDir('skilldex-bm25f-');
  const catalog = newCatalogPath('skilldex-bm25f-cat-');
  skills.forEach((s, i) => {
    const text = textOf(s, i).replace(
      /\n\n# [^\n]*\n\nBody of [^\n]*\n$/,
      `\n\n${(bodies[i] ?? []).join(' ')}\n`,
    );
    writeTree(root, { [path.join(idOf(s, i), 'SKILL.md')]: text });
  });
  indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW, policy });
  applyLifecycle(catalog, skills);
  writeHistories(catalog, skills);
  return { catalog, root, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

function checkAllLimits(
  router: Router,
  query: string,
  includeDeprecated: boolean,
  limits: readonly number[] = LIMITS,
): void {
  expectFastEqualsBrute(router, { query, include_deprecated: includeDeprecated }, limits);
}

describe('bm25f engine: fast path = brute force (property, identifiers and bodies)', () => {
  it('on random catalogs with bodies, identifiers, lifecycle, telemetry and usage examples, limits 1..20', () => {
    fc.assert(
      fc.property(
        libraryArb(3, 40).chain((skills) =>
          fc.tuple(
            fc.constant(skills),
            fc.array(fc.array(bodyWord, { maxLength: 30 }), {
              minLength: skills.length,
              maxLength: skills.length,
            }),
            fc.array(
              fc.tuple(
                fc.nat(skills.length - 1),
                fc.array(fc.oneof(fc.constantFrom(...VOCAB), fc.constantFrom(...IDENT)), {
                  minLength: 1,
                  maxLength: 4,
                }),
              ),
              {
                maxLength: 12,
              },
            ),
          ),
        ),
        fc.array(queryArb, { minLength: 1, maxLength: 3 }),
        ([skills, bodies, examples], queries) => {
          const lib = build(skills, bodies);
          try {
            if (examples.length > 0) {
              const text = examples
                .map(([i, ws]) =>
                  JSON.stringify({ query: ws.join(' '), skill_id: idOf(skills[i]!, i) }),
                )
                .join('\n');
              learnExamples({ catalog: lib.catalog, text, file: 'gen.jsonl', now: NOW });
            }
            const router = new Router({ catalog: lib.catalog, now: NOW, telemetry: false });
            try {
              for (const q of queries) checkAllLimits(router, q.query, q.include_deprecated);
              for (const w of IDENT) checkAllLimits(router, w, true, [1, 3, 8]);
            } finally {
              router.close();
            }
          } finally {
            lib.cleanup();
          }
        },
      ),
      { numRuns: propertyRuns(20) },
    );
  }, 300_000);
});

function lib(
  files: Record<string, { description: string; body?: string; keywords?: string[] }>,
  policy = POLICY_V4_ID,
): { catalog: string; root: string } {
  const root = tmpDir('skilldex-bm25fb-');
  const catalog = newCatalogPath('skilldex-bm25fb-cat-');
  for (const [id, spec] of Object.entries(files))
    writeTree(root, { [path.join(id, 'SKILL.md')]: skillText(id, spec) });
  indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW, policy });
  return { catalog, root };
}

const ids = (r: SearchResult): string[] => r.candidates.map((c) => c.skill_id);

describe('bm25f engine behaviour', () => {
  const files = {
    'weather-api': {
      description: 'Current conditions and forecasts for a city.',
      body: 'Call getWeather(city) to read the forecast.',
    },
    'slide-maker': {
      description: 'Build presentation decks from an outline.',
      body: 'Exports PPTX.',
    },
    'pdf-toolkit': {
      description: 'Extract text and tables from PDF files.',
      body: 'Uses pdfplumber.',
    },
    'mcp-builder': {
      description: 'Guide for building MCP servers that expose tools.',
      body: 'Server scaffolding.',
    },
    'artifacts-builder': {
      description: 'Build rich HTML artifacts with many tools and components for MCP clients.',
      body: 'builder builder',
    },
  };

  it('is the default policy of a new catalog and names itself in every explanation', () => {
    const { catalog } = lib(files, undefined as unknown as string);
    const router = new Router({ catalog, telemetry: false });
    const r = router.search({ query: 'forecast for a city' });
    expect(r.policy).toBe(POLICY_V4_ID);
    expect(r.candidates[0]!.explanation.policy).toBe(POLICY_V4_ID);
    router.close();
  });

  it('searches the body and splits identifiers (getWeather → get weather), in documents and queries', () => {
    const { catalog } = lib(files);
    const router = new Router({ catalog, telemetry: false });
    expect(ids(router.search({ query: 'pdfplumber' }))[0]).toBe('pdf-toolkit');
    expect(ids(router.search({ query: 'weather' }))[0]).toBe('weather-api');
    expect(ids(router.search({ query: 'getWeather' }))[0]).toBe('weather-api');
    const e = router.search({ query: 'pdfplumber' }).candidates[0]!.explanation as Bm25fExplanation;
    expect(e.fields.body).toBeGreaterThan(0);
    expect(e.fields.name).toBe(0);
    router.close();
  });

  it('gives an exact name its bonus, so a common word never routes a name query elsewhere', () => {
    const { catalog } = lib(files);
    const router = new Router({ catalog, telemetry: false });
    const r = router.search({ query: 'mcp-builder' });
    expect(ids(r)[0]).toBe('mcp-builder');
    expect((r.candidates[0]!.explanation as Bm25fExplanation).name_bonus.applies).toBe(true);
    router.close();
  });

  it('explains dropped words with their reason and each field, and components sum to base', () => {
    const { catalog } = lib(files);
    const router = new Router({ catalog, telemetry: false });
    const e = router.search({ query: 'please extract the tables from 2 pdf' }).candidates[0]!
      .explanation as Bm25fExplanation;
    expect(e.dropped_tokens).toEqual(
      expect.arrayContaining([
        { token: 'the', reason: 'stop-word' },
        { token: 'please', reason: 'filler' },
        { token: '2', reason: 'number' },
      ]),
    );
    const sum = e.components.reduce((s, c) => s + c.points, 0);
    expect(Math.abs(sum - e.base)).toBeLessThan(1e-6);
    router.close();
  });

  it('a long-running router answers a publish that only moved a file from the new rows, not its cache', () => {
    const { catalog, root } = lib(files);
    const router = new Router({ catalog, telemetry: false });
    const query = 'extract tables from pdf files';
    const before = router.search({ query, limit: 3 });
    expect(ids(before)[0]).toBe('pdf-toolkit');
    // Same content, same generation: the publish rewrites the moved skill's serving row (a new
    // rowid) under the same sequence, so a cache keyed on the sequence alone would be stale.
    renameSync(path.join(root, 'pdf-toolkit'), path.join(root, 'pdf-toolkit-moved'));
    indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
    const fresh = new Router({ catalog, telemetry: false });
    const after = router.search({ query, limit: 3 });
    expect(after.catalog_generation).toBe(before.catalog_generation);
    expect(after).toEqual(fresh.search({ query, limit: 3 }));
    expect(after).toEqual(before);
    router.close();
    fresh.close();
  });

  it.skipIf(ON_PG)(
    'v1 stays selectable and unchanged: a v1 catalog explains with exact tiers',
    () => {
      const { catalog } = lib(files, POLICY_ID);
      const router = new Router({ catalog, telemetry: false });
      const r = router.search({ query: 'extract tables' });
      expect(r.policy).toBe(POLICY_ID);
      expect('exact' in r.candidates[0]!.explanation).toBe(true);
      router.close();
    },
  );
});

describe('learning from use', () => {
  const files = {
    'pdf-toolkit': { description: 'Extract text and tables from PDF files.' },
    'slide-maker': { description: 'Build presentation decks from an outline.' },
    'doc-writer': { description: 'Write long documents.' },
  };
  const query = 'turn these slides into a handout';

  it('ranks a learned example, explains it, and ranks exactly as before after forget', () => {
    const { catalog } = lib(files);
    const router = new Router({ catalog, telemetry: false });
    const before = router.search({ query, limit: 3 });
    expect(ids(before)[0]).toBe('slide-maker');
    const report = learnExamples({
      catalog,
      text: JSON.stringify({ query: 'slides to a pdf handout', skill_id: 'pdf-toolkit' }) + '\n',
      file: 'x.jsonl',
      now: NOW,
    });
    expect(report.added).toBe(1);
    const warm = router.search({ query, limit: 3 });
    expect(ids(warm)[0]).toBe('pdf-toolkit');
    const e = warm.candidates[0]!.explanation as Bm25fExplanation;
    expect(e.usage.matched).toEqual(['slides to a pdf handout']);
    expect(e.fields.usage).toBeGreaterThan(0);
    expect(forgetExamples({ catalog, skill_id: 'pdf-toolkit' }).removed).toBe(1);
    expect(router.search({ query, limit: 3 })).toEqual(before);
    router.close();
  });

  it.skipIf(ON_PG)(
    'a long-lived router sees examples learned after it opened, and a telemetry file replaced under it',
    () => {
      const { catalog } = lib(files);
      const router = new Router({ catalog, telemetry: false });
      const before = router.search({ query, limit: 3 });
      const learn = (skill_id: string): void => {
        learnExamples({
          catalog,
          text: JSON.stringify({ query: 'slides to a pdf handout', skill_id }),
          file: 'x.jsonl',
          now: NOW,
        });
      };
      learn('pdf-toolkit');
      expect(ids(router.search({ query, limit: 3 }))[0]).toBe('pdf-toolkit');
      // Another file in its place: the router's open connection would still see the old one.
      const file = telemetryPathFor(catalog);
      rmSync(file, { force: true });
      rmSync(file + '-wal', { force: true });
      rmSync(file + '-shm', { force: true });
      expect(router.search({ query, limit: 3 })).toEqual(before);
      learn('doc-writer');
      expect(ids(router.search({ query, limit: 3 }))[0]).toBe('doc-writer');
      router.close();
    },
  );

  it('--no-usage (usage: false) ranks as without examples; telemetry off still ranks with them', () => {
    const { catalog } = lib(files);
    const plain = new Router({ catalog, telemetry: false });
    const before = plain.search({ query, limit: 3 });
    learnExamples({
      catalog,
      text: JSON.stringify({ query: 'slides to a pdf handout', skill_id: 'pdf-toolkit' }),
      file: 'x.jsonl',
      now: NOW,
    });
    const off = new Router({ catalog, telemetry: false, usage: false });
    expect(off.search({ query, limit: 3 })).toEqual(before);
    expect(ids(plain.search({ query, limit: 3 }))[0]).toBe('pdf-toolkit');
    plain.close();
    off.close();
  });

  it('accepts eval lines (relevant lists), reports unknown skills, keeps the newest 200 per skill', () => {
    const { catalog } = lib(files);
    const lines = Array.from({ length: MAX_EXAMPLES_PER_SKILL + 5 }, (_, i) =>
      JSON.stringify({ id: `q${i}`, query: `request number w${i}`, relevant: ['doc-writer'] }),
    );
    lines.push(JSON.stringify({ query: 'x y', skill_id: 'no-such-skill' }));
    // A typo of a served id: the skipped line says which id was probably meant.
    lines.push(JSON.stringify({ query: 'x y', skill_id: 'doc-writr' }));
    const r = learnExamples({ catalog, text: lines.join('\n'), file: 'eval.jsonl', now: NOW });
    expect(r.unknown).toEqual([
      { line: MAX_EXAMPLES_PER_SKILL + 6, skill_id: 'no-such-skill', did_you_mean: [] },
      { line: MAX_EXAMPLES_PER_SKILL + 7, skill_id: 'doc-writr', did_you_mean: ['doc-writer'] },
    ]);
    expect(r.per_skill['doc-writer']).toBe(MAX_EXAMPLES_PER_SKILL);
    const kept = readUsage(telemetryPathFor(catalog)).examples.map((e) => e.query);
    expect(kept).toHaveLength(MAX_EXAMPLES_PER_SKILL);
    expect(kept).toContain(`request number w${MAX_EXAMPLES_PER_SKILL + 4}`);
    expect(kept).not.toContain('request number w0');
  });

  it('refuses a forget without a target, and learn or forget without a catalog, with their codes', () => {
    const { catalog } = lib(files);
    expect(() => forgetExamples({ catalog })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => forgetExamples({ catalog, skill_id: 'pdf-toolkit', all: true })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    const missing = path.join(tmpDir('skilldex-bm25f-none-'), 'none.sqlite');
    expect(() => forgetExamples({ catalog: missing, all: true })).toThrow(
      expect.objectContaining({ code: 'CATALOG_MISSING' }),
    );
    expect(() =>
      learnExamples({ catalog: missing, text: '{"query":"a","skill_id":"b"}', file: 'x.jsonl' }),
    ).toThrow(expect.objectContaining({ code: 'CATALOG_MISSING' }));
  });

  it('the CLI: learn exits 0 when it stored an example, 1 when every line names an unknown skill, 2 on a bad line', async () => {
    const { catalog, root } = lib(files);
    const write = (name: string, text: string): string => {
      writeTree(root, { [name]: text });
      return path.join(root, name);
    };
    const good = write(
      'good.jsonl',
      JSON.stringify({ query: 'slides to a pdf handout', skill_id: 'pdf-toolkit' }) + '\n',
    );
    const unknown = write(
      'unknown.jsonl',
      JSON.stringify({ query: 'x y', skill_id: 'nope' }) + '\n',
    );
    const bad = write('bad.jsonl', '{nope\n');
    expect((await runCli(['learn', good, '--catalog', catalog, '--json'])).code).toBe(0);
    expect((await runCli(['learn', unknown, '--catalog', catalog, '--json'])).code).toBe(1);
    const r = await runCli(['learn', bad, '--catalog', catalog, '--json']);
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout)).toMatchObject({ error: { code: 'INVALID_INPUT_FILE' } });
    const f = await runCli(['forget', '--catalog', catalog, '--json']);
    expect(f.code).toBe(2);
    expect(JSON.parse(f.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
  });

  it('rejects a malformed line with INVALID_INPUT_FILE naming the line', () => {
    const { catalog } = lib(files);
    expect(() =>
      learnExamples({
        catalog,
        text: '{"query":"a","skill_id":"pdf-toolkit"}\n{nope',
        file: 'bad.jsonl',
      }),
    ).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT_FILE',
        details: { file: 'bad.jsonl', line: 2 },
      }),
    );
  });

  it('examples survive re-indexing; an archived skill keeps none; a fetch context becomes an example', () => {
    const { catalog, root } = lib(files);
    learnExamples({
      catalog,
      text: JSON.stringify({ query: 'slides to a pdf handout', skill_id: 'pdf-toolkit' }),
      file: 'x.jsonl',
      now: NOW,
    });
    indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
    // (the author examples index reads beside the skills are not learned ones: issue 34)
    expect(
      readUsage(telemetryPathFor(catalog)).examples.filter((e) => e.source !== 'author'),
    ).toHaveLength(1);
    const router = new Router({ catalog, now: NOW });
    const hit = router.search({ query: 'write long documents' }).candidates[0]!;
    router.fetch({
      skill_id: hit.skill_id,
      expected_revision: hit.revision_id,
      catalog_generation: hit.catalog_generation,
      context: 'draft a long report',
    });
    router.close();
    expect(readUsage(telemetryPathFor(catalog)).examples).toContainEqual(
      expect.objectContaining({
        skill_id: 'doc-writer',
        query: 'draft a long report',
        source: 'fetch',
      }),
    );
    changeLifecycle({ catalog, skill_id: 'pdf-toolkit', to: 'archived', now: NOW });
    expect(readUsage(telemetryPathFor(catalog)).examples.map((e) => e.skill_id)).toEqual([
      'doc-writer',
    ]);
  });
});
