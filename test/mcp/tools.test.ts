/**
 * The MCP tools (issue #4, docs/integration.md): the server built in process by `createServer`,
 * reached by the SDK's own Client over a linked in-memory transport pair (the real transports are
 * tested end to end in stdio-protocol.test.ts, http.test.ts and concurrency.test.ts). Tools are listed with described
 * inputs and output schemas, the server announces its instructions and capabilities, skill_search
 * answers the contract (the same object the library returns) with a text rendering, and skill_fetch
 * with every pin returns the verified body.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../src/internal.js';
import {
  call,
  closeAll,
  connectInProcess,
  makeCatalog,
  pins,
  search,
  type Connection,
  type TestCatalog,
} from './support.js';

const HEX = /^sha256:[0-9a-f]{64}$/;

let cat: TestCatalog;
let lib: Router;

beforeAll(async () => {
  cat = await makeCatalog();
  lib = new Router({ catalog: cat.catalog, telemetry: false });
});

afterAll(async () => {
  await closeAll();
  lib.close();
});

const transports: [string, () => Promise<Connection>][] = [
  ['an in-memory transport', () => connectInProcess({ catalog: cat.catalog })],
];

describe.each(transports)('over %s', (_name, connect) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connect();
  });

  it('lists skill_search and skill_fetch with described inputs and output schemas', async () => {
    const { tools } = await conn.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['skill_search', 'skill_fetch']);
    const expected: Record<string, { required: string[]; optional: string[]; output: string[] }> = {
      skill_search: {
        required: ['query'],
        optional: ['limit', 'include_deprecated', 'min_confidence'],
        output: [
          'catalog_generation',
          'policy',
          'query',
          'candidates',
          'min_confidence',
          'abstain',
        ],
      },
      skill_fetch: {
        required: ['skill_id', 'expected_revision', 'catalog_generation', 'context'],
        optional: [],
        output: ['skill_id', 'skill_version', 'revision_id', 'catalog_generation', 'path', 'body'],
      },
    };
    for (const tool of tools) {
      const want = expected[tool.name]!;
      expect(tool.description?.length).toBeGreaterThan(40);
      expect(tool.annotations?.readOnlyHint).toBe(true);
      const props = tool.inputSchema.properties as Record<string, { description?: string }>;
      expect(Object.keys(props).sort()).toEqual([...want.required, ...want.optional].sort());
      for (const [field, schema] of Object.entries(props))
        expect(schema.description, `${tool.name}.${field}`).toMatch(/\w/);
      expect([...(tool.inputSchema.required ?? [])].sort()).toEqual([...want.required].sort());
      expect(tool.outputSchema?.type).toBe('object');
      expect([...(tool.outputSchema?.required ?? [])].sort()).toEqual([...want.output].sort());
    }
  });

  it('announces instructions that teach the protocol, and the resources and Skills capabilities', () => {
    const instructions = conn.client.getInstructions() ?? '';
    for (const word of [
      'skill_search',
      'skill_fetch',
      'expected_revision',
      'catalog_generation',
      'CATALOG_GENERATION_MISMATCH',
    ]) {
      expect(instructions).toContain(word);
    }
    const caps = conn.client.getServerCapabilities();
    expect(caps?.tools).toBeDefined();
    expect(caps?.resources).toBeDefined();
    expect(
      (caps as { extensions?: Record<string, unknown> } | undefined)?.extensions?.[
        'io.modelcontextprotocol/skills'
      ],
    ).toEqual({});
    expect(conn.client.getServerVersion()?.name).toBe('skilldex');
  });

  it('skill_search returns the contract object the library returns, plus a text rendering', async () => {
    const r = await call(conn.client, 'skill_search', { query: 'merge pdf files', limit: 5 });
    expect(r.isError).toBeFalsy();
    const s = r.structuredContent as Record<string, unknown>;
    expect(Object.keys(s)).toEqual([
      'catalog_generation',
      'policy',
      'query',
      'candidates',
      'min_confidence',
      'abstain',
    ]);
    expect(s).toEqual(
      JSON.parse(JSON.stringify(lib.search({ query: 'merge pdf files', limit: 5 }))),
    );
    const candidates = s['candidates'] as Record<string, unknown>[];
    expect(candidates.length).toBeGreaterThan(0);
    expect(candidates.length).toBeLessThanOrEqual(5);
    expect(candidates[0]!['skill_id']).toBe('pdf-toolkit');
    for (const c of candidates) {
      expect(Object.keys(c)).toEqual([
        'skill_id',
        'skill_version',
        'revision_id',
        'catalog_generation',
        'name',
        'description',
        'state',
        'score',
        'explanation',
        'confidence',
      ]);
      expect(c['confidence']).toBeGreaterThanOrEqual(0);
      expect(c['confidence']).toBeLessThanOrEqual(1);
      expect(c['revision_id']).toMatch(HEX);
      expect(c['catalog_generation']).toBe(s['catalog_generation']);
      const ex = c['explanation'] as Record<string, unknown>;
      for (const k of [
        'policy',
        'terms',
        'fields',
        'components',
        'fuzzy',
        'telemetry',
        'lifecycle',
        'final',
      ])
        expect(ex).toHaveProperty(k);
      expect(ex['final']).toBe(c['score']);
    }
    const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
    expect(text).toContain('1. pdf-toolkit');
    expect(text).toContain(`revision_id ${candidates[0]!['revision_id'] as string}`);
    expect(text).toContain(`catalog_generation ${s['catalog_generation'] as string}`);
  });

  it('skill_search honours limit and says so in text when nothing matches', async () => {
    expect((await search(conn.client, 'data', { limit: 1 })).candidates).toHaveLength(1);
    expect((await search(conn.client, 'data')).candidates.length).toBeLessThanOrEqual(8);
    const none = await call(conn.client, 'skill_search', { query: 'zzqxv' });
    expect((none.structuredContent as { candidates: unknown[] }).candidates).toEqual([]);
    expect(none.content[0]?.type === 'text' ? none.content[0].text : '').toMatch(
      /^No skill matches/,
    );
  });

  it('skill_fetch with every pin returns the verified body of each candidate', async () => {
    const found = await search(conn.client, 'write release notes from commits', { limit: 6 });
    expect(found.candidates.length).toBeGreaterThan(1);
    for (const c of found.candidates) {
      const r = await call(conn.client, 'skill_fetch', pins(c));
      expect(r.isError).toBeFalsy();
      const f = r.structuredContent as Record<string, string>;
      expect(Object.keys(f)).toEqual([
        'skill_id',
        'skill_version',
        'revision_id',
        'catalog_generation',
        'path',
        'body',
      ]);
      expect(f).toMatchObject({
        skill_id: c.skill_id,
        skill_version: c.skill_version,
        revision_id: c.revision_id,
        catalog_generation: c.catalog_generation,
      });
      expect(f).toEqual(JSON.parse(JSON.stringify(lib.fetch(pins(c) as never))));
      // The body is the file after its frontmatter, byte for byte.
      const file = readFileSync(path.join(cat.skills, c.skill_id, 'SKILL.md'), 'utf8');
      expect(file.endsWith(f['body']!)).toBe(true);
      expect(f['body']).not.toMatch(/^---/);
      expect(r.content[0]?.type === 'text' ? r.content[0].text : '').toBe(f['body']);
    }
  });
});
