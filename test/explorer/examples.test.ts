/**
 * `GET /api/examples?skill=ID[&source=S]` (issue 23 §3 "visible"): a skill's usage examples with
 * their source, sessions and weight, most recent first; a request's text comes back as data; a
 * missing skill parameter or an unknown source is INVALID_ARGUMENT (400).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUsageExamples, openUsageForWrite, telemetryPathFor } from '../../src/catalog/index.js';
import { errorOf, makeLibrary, raw, startOver, type Library, type Running } from './support.js';

let lib: Library;
let srv: Running;
const HOSTILE = '<script>window.__pwned = 9</script> merge pdf';

beforeAll(async () => {
  lib = makeLibrary();
  const db = openUsageForWrite(telemetryPathFor(lib.catalog));
  try {
    addUsageExamples(
      db,
      [{ skill_id: 'pdf-toolkit', query: 'split a pdf by chapter' }],
      'import',
      '2025-01-01T00:00:00.000Z',
    );
    addUsageExamples(
      db,
      [{ skill_id: 'pdf-toolkit', query: HOSTILE }],
      'fetch',
      '2025-02-01T00:00:00.000Z',
      {
        client: 'mcp:agent',
        session: 's1',
      },
    );
  } finally {
    db.close();
  }
  srv = await startOver(lib);
});

afterAll(async () => {
  await srv.close();
});

interface Examples {
  skill_id: string;
  total: number;
  examples: {
    query: string;
    source: string;
    sessions: number;
    weight: number;
    client_names: string[];
  }[];
}

describe('/api/examples', () => {
  it("lists a skill's examples with their sources, most recent first, text as data", async () => {
    const r = await raw(srv.base, '/api/examples?skill=pdf-toolkit');
    expect(r.status).toBe(200);
    const p = r.json<Examples>();
    expect(p.total).toBe(2);
    expect(p.examples.map((e) => [e.source, e.query, e.weight])).toEqual([
      ['fetch', HOSTILE, 0.25],
      ['import', 'split a pdf by chapter', 1],
    ]);
    expect(p.examples[0]!.client_names).toEqual(['mcp:agent']);
    const only = (
      await raw(srv.base, '/api/examples?skill=pdf-toolkit&source=import')
    ).json<Examples>();
    expect(only.examples.map((e) => e.source)).toEqual(['import']);
    const none = (await raw(srv.base, '/api/examples?skill=csv-cleaner')).json<Examples>();
    expect(none).toMatchObject({ total: 0, examples: [] });
  });

  it('refuses a missing skill or an unknown source with INVALID_ARGUMENT (400)', async () => {
    for (const q of [
      '/api/examples',
      '/api/examples?skill=',
      '/api/examples?skill=pdf-toolkit&source=x',
    ]) {
      const r = await raw(srv.base, q);
      expect(r.status, q).toBe(400);
      expect(errorOf(r).code).toBe('INVALID_ARGUMENT');
    }
  });
});
