/**
 * Malformed tool arguments through the MCP server (issue #4), built in process and reached over an
 * in-memory transport: missing fields, wrong types, out-of-range numbers and extra-long strings
 * each come back as an `isError` result whose message names the offending field, and the server
 * keeps answering afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  closeAll,
  connectInProcess,
  makeCatalog,
  pins,
  search,
  toolError,
  validationText,
  type Connection,
  type TestCatalog,
} from './support.js';

let cat: TestCatalog;

beforeAll(async () => {
  cat = await makeCatalog();
});

afterAll(closeAll);

const GEN = `sha256:${'a'.repeat(64)}`;
const FETCH = {
  skill_id: 'pdf-toolkit',
  expected_revision: GEN,
  catalog_generation: GEN,
  context: '',
};

// [what, tool, arguments, the field the message must name, the code (null: a type error the SDK's
// schema check answers, uncoded)]. Ranges and presence are the library's: coded (issue 11).
const CASES: [string, string, Record<string, unknown>, string, string | null][] = [
  ['missing query', 'skill_search', {}, 'query', null],
  ['query of the wrong type', 'skill_search', { query: 42 }, 'query', null],
  ['query as an array', 'skill_search', { query: ['pdf'] }, 'query', null],
  ['empty query', 'skill_search', { query: '' }, 'query', 'INVALID_QUERY'],
  [
    'query over 65,536 characters',
    'skill_search',
    { query: 'pdf '.repeat(20_000) },
    'query',
    'INVALID_QUERY',
  ],
  ['limit as a string', 'skill_search', { query: 'pdf', limit: 'x' }, 'limit', null],
  ['limit 0', 'skill_search', { query: 'pdf', limit: 0 }, 'limit', 'INVALID_ARGUMENT'],
  ['limit 51', 'skill_search', { query: 'pdf', limit: 51 }, 'limit', 'INVALID_ARGUMENT'],
  ['fractional limit', 'skill_search', { query: 'pdf', limit: 2.5 }, 'limit', 'INVALID_ARGUMENT'],
  [
    'include_deprecated as a string',
    'skill_search',
    { query: 'pdf', include_deprecated: 'yes' },
    'include_deprecated',
    null,
  ],
  [
    'fetch without pins',
    'skill_fetch',
    { skill_id: 'pdf-toolkit' },
    'expected_revision',
    'INVALID_ARGUMENT',
  ],
  [
    'fetch without context',
    'skill_fetch',
    { ...FETCH, context: undefined },
    'context',
    'INVALID_ARGUMENT',
  ],
  [
    'fetch with an empty skill_id',
    'skill_fetch',
    { ...FETCH, skill_id: '' },
    'skill_id',
    'INVALID_ARGUMENT',
  ],
  [
    'fetch with a numeric generation',
    'skill_fetch',
    { ...FETCH, catalog_generation: 7 },
    'catalog_generation',
    null,
  ],
  [
    'fetch with a context over 2,000 characters',
    'skill_fetch',
    { ...FETCH, context: 'x'.repeat(2_001) },
    'context',
    'INVALID_ARGUMENT',
  ],
];

const transports: [string, () => Promise<Connection>][] = [
  ['an in-memory transport', () => connectInProcess({ catalog: cat.catalog })],
];

describe.each(transports)('malformed arguments over %s', (_name, connect) => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connect();
  });

  it.each(CASES)(
    '%s: an error result naming the field, coded when it is a range or a missing field',
    async (_what, tool, args, field, code) => {
      const r = await call(conn.client, tool, args);
      if (code === null) {
        const text = validationText(r);
        expect(text).toMatch(/validation/i);
        expect(text).toContain(field);
      } else {
        const e = toolError(r);
        expect(e.code).toBe(code);
        expect(e.message).toContain(field);
      }
    },
  );

  it('the advertised input schemas still carry the ranges and the required fields', async () => {
    const { tools } = await conn.client.listTools();
    const search = tools.find((t) => t.name === 'skill_search')!.inputSchema as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(search.properties['limit']).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    expect(search.properties['query']).toMatchObject({
      type: 'string',
      minLength: 1,
      maxLength: 65_536,
    });
    expect(search.required).toEqual(['query']);
    const fetch = tools.find((t) => t.name === 'skill_fetch')!.inputSchema as {
      required: string[];
    };
    expect([...fetch.required].sort()).toEqual([
      'catalog_generation',
      'context',
      'expected_revision',
      'skill_id',
    ]);
  });

  it('an unknown tool is an error result, and nothing of it reaches the library', async () => {
    const r = await call(conn.client, 'skill_index', { query: 'pdf' });
    expect(validationText(r)).toContain('skill_index');
  });

  it('keeps working after every malformed call', async () => {
    const found = await search(conn.client, 'merge pdf files');
    expect(found.candidates[0]?.skill_id).toBe('pdf-toolkit');
    const r = await call(conn.client, 'skill_fetch', pins(found.candidates[0]!));
    expect(r.isError).toBeFalsy();
  });

  it('a long query of real words within the limit is searched, not refused', async () => {
    const found = await search(conn.client, 'merge pdf files '.repeat(3_000));
    expect(found.candidates[0]?.skill_id).toBe('pdf-toolkit');
  });
});
