/**
 * Policy bm25f.v4 (docs/ranking.md §10): the fast path over postings equals the brute-force scorer
 * (ids, order, scores and explanations) on random catalogs with Chinese text, boundary clauses,
 * template lines shared by a family of skills, lifecycle states, telemetry and usage examples, for
 * requests with excluded words and names typed as phrases; and what each part of v4 is for, on
 * small libraries: CJK requests, "do not use for" clauses, excluded words, template lines (also
 * when a publish makes a line a template line, against a fresh index), name phrases, and a catalog
 * moving between v1 and v4.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  POLICY_ID,
  POLICY_V4_ID,
  POLICY_V5_ID,
  Router,
  indexCatalog,
  learnExamples,
  publishCatalog,
  type Bm25fExplanation,
  type SearchResult,
} from '../../src/internal.js';
import { tmpDir, writeTree } from '../support/cli.js';
import { NOW, ON_PG, codeOf, newCatalogPath, propertyRuns, skillText } from '../catalog/support.js';
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

const CJK = ['收尾', '复检', '帮我', '文档', '设计', '视频', '鸿蒙', '网络权限', '会话'];
const TEMPLATE = [
  'Connect NAME through the shared toolkit before any data work.',
  'Always search the toolkit tools first for current table schemas.',
  'Manage connections for NAME with the toolkit session.',
];
const LIMITS = [1, 2, 3, 5, 8, 13, 20];

function checkAllLimits(router: Router, query: string, includeDeprecated: boolean): void {
  expectFastEqualsBrute(router, { query, include_deprecated: includeDeprecated }, LIMITS);
}

interface Extras {
  readonly boundary: readonly string[];
  readonly body: readonly string[];
  readonly templated: boolean;
}

const extrasArb = fc.record({
  boundary: fc.array(fc.oneof(fc.constantFrom(...VOCAB), fc.constantFrom(...CJK)), {
    maxLength: 3,
  }),
  body: fc.array(fc.oneof(fc.constantFrom(...VOCAB), fc.constantFrom(...CJK)), { maxLength: 20 }),
  templated: fc.boolean(),
});

function build(
  skills: readonly GenSkill[],
  extras: readonly Extras[],
  policy = POLICY_V4_ID,
): { catalog: string; cleanup: () => void } {
  const root = tmpDir('skilldex-v4-');
  const catalog = newCatalogPath('skilldex-v4-cat-');
  skills.forEach((s, i) => {
    const e = extras[i]!;
    const id = idOf(s, i);
    let text = textOf(s, i);
    if (e.boundary.length > 0)
      text = text.replace(
        /^(description: .*)$/m,
        (d) => `${d} Do not use for ${e.boundary.join(' ')}.`,
      );
    const template = e.templated ? TEMPLATE.map((l) => l.replace('NAME', id)) : [];
    text = text.replace(
      /\n\n# [^\n]*\n\nBody of [^\n]*\n$/,
      `\n\n${[...template, e.body.join(' ')].join('\n')}\n`,
    );
    writeTree(root, { [path.join(id, 'SKILL.md')]: text });
  });
  indexCatalog({
    catalog,
    scopes: [root],
    home: root,
    project: root,
    now: NOW,
    policy,
  });
  applyLifecycle(catalog, skills);
  writeHistories(catalog, skills);
  return { catalog, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const v4QueryArb = fc.oneof(
  queryArb,
  fc
    .tuple(queryArb, fc.constantFrom(...VOCAB, ...CJK))
    .map(([q, w]) => ({ ...q, query: `${q.query}, not about ${w}` })),
  fc
    .tuple(fc.array(fc.constantFrom(...CJK), { minLength: 1, maxLength: 3 }), fc.boolean())
    .map(([ws, dep]) => ({
      query: `帮我${ws.join('')}，不需要${CJK[ws.length]}`,
      include_deprecated: dep,
    })),
);

// v5 is v4's parameter set plus the near-miss stage over the top 10 (policy-v5.test.ts): the same
// property holds it, the stage applied alike on both paths.
describe.each([
  ['bm25f.v4', POLICY_V4_ID],
  ['bm25f.v5', POLICY_V5_ID],
])('%s: fast path = brute force (property)', (_name, policy) => {
  it('on random catalogs with CJK, boundaries, template families, lifecycle, telemetry and usage', () => {
    fc.assert(
      fc.property(
        libraryArb(3, 30).chain((skills) =>
          fc.tuple(
            fc.constant(skills),
            fc.array(extrasArb, { minLength: skills.length, maxLength: skills.length }),
            fc.array(
              fc.tuple(
                fc.nat(skills.length - 1),
                fc.array(fc.constantFrom(...VOCAB, ...CJK), { minLength: 1, maxLength: 4 }),
              ),
              { maxLength: 8 },
            ),
          ),
        ),
        fc.array(v4QueryArb, { minLength: 1, maxLength: 3 }),
        ([skills, extras, examples], queries) => {
          const lib = build(skills, extras, policy);
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
              // A name typed as a phrase, inside a longer request.
              const s = skills[0]!;
              checkAllLimits(router, `please run the ${s.nameWords.join(' ')} on this`, true);
            } finally {
              router.close();
            }
          } finally {
            lib.cleanup();
          }
        },
      ),
      { numRuns: propertyRuns(16) },
    );
  }, 600_000);
});

function library(files: Record<string, { description: string; body?: string }>): {
  root: string;
  catalog: string;
} {
  const root = tmpDir('skilldex-v4b-');
  const catalog = newCatalogPath('skilldex-v4b-cat-');
  for (const [id, spec] of Object.entries(files))
    writeTree(root, { [path.join(id, 'SKILL.md')]: skillText(id, spec) });
  return { root, catalog };
}

function index(l: { root: string; catalog: string }, policy = POLICY_V4_ID): void {
  indexCatalog({
    catalog: l.catalog,
    scopes: [l.root],
    home: l.root,
    project: l.root,
    now: NOW,
    policy,
  });
}

function search(catalog: string, query: string, limit = 5): SearchResult {
  const r = new Router({ catalog, telemetry: false, now: NOW });
  try {
    return r.search({ query, limit });
  } finally {
    r.close();
  }
}

const ids = (r: SearchResult): string[] => r.candidates.map((c) => c.skill_id);
const v4 = (r: SearchResult, id: string): Bm25fExplanation =>
  r.candidates.find((c) => c.skill_id === id)!.explanation as Bm25fExplanation;

describe('bm25f.v4 behaviour', () => {
  it('matches Chinese requests through character bigrams', () => {
    const l = library({
      'session-wrap': { description: '会话收尾：复检、整理文档和记忆。Wrap up the session.' },
      'design-review': { description: '审视产品界面设计。Review UI design.' },
    });
    index(l);
    expect(ids(search(l.catalog, '这个 session 快结束了，帮我收尾'))[0]).toBe('session-wrap');
    expect(ids(search(l.catalog, '帮我审视这个界面'))[0]).toBe('design-review');
  });

  it('does not count a skill\'s "do not use for" words for it, and charges a request that matches them', () => {
    const l = library({
      'data-integration': {
        description:
          'Extract and load data from APIs into the warehouse. Do NOT use for dbt models (use dbt-transforms).',
      },
      'dbt-transforms': { description: 'Write and test transformations in the warehouse.' },
    });
    index(l);
    // The clause's words alone: data-integration falls below dbt-transforms, or out of the list.
    expect(ids(search(l.catalog, 'dbt models for the warehouse'))[0]).toBe('dbt-transforms');
    const r = search(l.catalog, 'load data from APIs for dbt models');
    const e = v4(r, 'data-integration');
    expect(e.boundary.matched).toEqual(['dbt', 'models']);
    expect(e.boundary.points).toBeGreaterThan(0);
    expect(e.boundary.clauses).toEqual(['Do NOT use for dbt models (use dbt-transforms).']);
    expect(e.components.find((c) => c.name === 'boundary')!.points).toBeLessThan(0);
  });

  it("charges the skills that have a request's excluded words", () => {
    const l = library({
      'landing-video': { description: 'Build a landing page with a product video.' },
      'landing-static': { description: 'Build a static landing page.' },
    });
    index(l);
    const plain = search(l.catalog, 'build a landing page with video');
    expect(ids(plain)[0]).toBe('landing-video');
    const r = search(l.catalog, 'build a landing page, no need for video');
    expect(ids(r)[0]).toBe('landing-static');
    expect(v4(r, 'landing-video').exclusion).toMatchObject({
      tokens: ['video'],
      matched: ['video'],
    });
  });

  it('leaves template lines out of bodies, and a publish that makes a line a template line equals a fresh index', () => {
    const family: Record<string, { description: string; body: string }> = {};
    const member = (app: string): { description: string; body: string } => ({
      description: `Automate ${app} tasks.`,
      body: TEMPLATE.map((t) => t.replace('NAME', app)).join('\n') + '\nBuild the mcp server.',
    });
    for (let i = 0; i < 9; i++) family[`app${i}-automation`] = member(`app${i}`);
    const l = library({
      ...family,
      'mcp-builder': {
        description: 'Create MCP servers for tools.',
        body: 'Build and test an MCP server.',
      },
    });
    index(l);
    // Nine members: below the template count, their lines still count.
    expect(
      v4(search(l.catalog, 'toolkit session', 20), 'app0-automation').fields.body,
    ).toBeGreaterThan(0);
    // A tenth makes the shared lines template lines; every member is served again without them.
    writeTree(l.root, {
      [path.join('app9-automation', 'SKILL.md')]: skillText('app9-automation', member('app9')),
    });
    index(l);
    const r = search(l.catalog, 'toolkit session', 20);
    expect(ids(r).filter((id) => id.includes('automation'))).toEqual([]);
    const fresh = { root: l.root, catalog: newCatalogPath('skilldex-v4c-') };
    index(fresh);
    for (const q of ['toolkit session', 'build an mcp server', 'app3 tasks'])
      expect(search(fresh.catalog, q, 20)).toEqual(search(l.catalog, q, 20));
    expect(ids(search(l.catalog, 'build an mcp server'))[0]).toBe('mcp-builder');
  });

  it('adds the name-phrase bonus when the name is typed as a phrase', () => {
    const l = library({
      'deep-review-loop': { description: 'Iterate review rounds until convergence.' },
      'review-notes': { description: 'Keep notes from a deep review loop of meetings.' },
    });
    index(l);
    const r = search(l.catalog, 'run the deep review loop on this spec');
    expect(ids(r)[0]).toBe('deep-review-loop');
    expect(v4(r, 'deep-review-loop').name_phrase).toEqual({ applies: true, points: 2 });
    expect(v4(r, 'review-notes').name_phrase.applies).toBe(false);
  });

  // v1 ranks with SQLite's FTS5, which a PostgreSQL catalog has not.
  it.skipIf(ON_PG)(
    'moves a catalog between v1 and v4 by re-reading its files; a publish without that is REINDEX_REQUIRED',
    () => {
      const l = library({
        'pdf-toolkit': { description: 'Extract tables from PDF files.' },
        'csv-cleaner': { description: 'Clean CSV data.' },
      });
      // A v1 catalog keeps no body lines (catalog/store/layout.ts): v4 cannot publish from it.
      index(l, POLICY_ID);
      expect(search(l.catalog, 'pdf tables').policy).toBe(POLICY_ID);
      expect(
        codeOf(() => publishCatalog({ catalog: l.catalog, now: NOW, policy: POLICY_V4_ID })),
      ).toBe('REINDEX_REQUIRED');
      index(l, POLICY_V4_ID);
      const r = search(l.catalog, 'pdf tables');
      expect(r.policy).toBe(POLICY_V4_ID);
      expect(ids(r)[0]).toBe('pdf-toolkit');
      index(l, POLICY_ID);
      expect(search(l.catalog, 'pdf tables').policy).toBe(POLICY_ID);
    },
  );

  it('indexes a skill whose description strict YAML refuses, as hosts do', () => {
    const root = tmpDir('skilldex-v4l-');
    mkdirSync(path.join(root, 'test-persona-fatima'));
    writeFileSync(
      path.join(root, 'test-persona-fatima', 'SKILL.md'),
      '---\nname: test-persona-fatima\ndescription: Persona Tester: Fatima — tests plain language\n---\nBody\n',
    );
    const catalog = newCatalogPath('skilldex-v4l-cat-');
    indexCatalog({ catalog, scopes: [root], home: root, project: root, now: NOW });
    expect(ids(search(catalog, 'persona tester plain language'))).toEqual(['test-persona-fatima']);
  });
});
