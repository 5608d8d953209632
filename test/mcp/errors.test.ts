/**
 * Every skill_fetch and skill_search error of docs/integration.md through the MCP server built in
 * process (in-memory transport): each is an `isError` tool result whose text (and `_meta`) is
 * `{ code, message, hint, details }`. Also, end to end against the built server over stdio, the
 * generation switch: a long-running server serves a newly published generation to new searches,
 * while a fetch pinned to the old generation gets CATALOG_GENERATION_MISMATCH (no silent hot
 * reload into an in-flight task).
 */
import { appendFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/internal.js';
import {
  call,
  closeAll,
  connectInProcess,
  connectStdio,
  makeCatalog,
  operator,
  pins,
  reindex,
  search,
  toolError,
  type Connection,
  type TestCatalog,
  type WireCandidate,
} from './support.js';

const NO_REVISION = `sha256:${'0'.repeat(64)}`;

afterAll(closeAll);

/** Asserts `r` is the tool error `code` with the code's hint and a message. */
function expectError(
  r: Awaited<ReturnType<typeof call>>,
  code: keyof typeof ERROR_CODES,
  ownHint = false,
): Record<string, unknown> {
  const e = toolError(r);
  expect(e.code).toBe(code);
  // A failure narrower than its code carries its own hint (SkilldexError options.hint).
  if (ownHint) expect(e.hint).not.toBe(ERROR_CODES[code].hint);
  else expect(e.hint).toBe(ERROR_CODES[code].hint);
  expect(e.message.length).toBeGreaterThan(0);
  return e.details;
}

const transports: [string, (cat: TestCatalog) => Promise<Connection>][] = [
  ['an in-memory transport', (cat) => connectInProcess({ catalog: cat.catalog, telemetry: true })],
];

describe.each(transports)('every error code over %s', (_name, connect) => {
  let cat: TestCatalog;
  let conn: Connection;
  let first: { generation: string; byId: Map<string, WireCandidate> };

  beforeAll(async () => {
    cat = await makeCatalog();
    conn = await connect(cat);
    const found = await search(conn.client, 'csv pdf regex unit converter spreadsheet', {
      limit: 50,
    });
    first = {
      generation: found.catalog_generation,
      byId: new Map(found.candidates.map((c) => [c.skill_id, c])),
    };
    for (const id of ['csv-cleaner', 'pdf-toolkit', 'regex-builder', 'unit-converter'])
      expect(first.byId.has(id), id).toBe(true);
  });
  const pinned = (id: string): WireCandidate => first.byId.get(id)!;

  it('INVALID_QUERY: a query with no searchable word', async () => {
    for (const query of ['!!!', '   ', '😀 🎉']) {
      const details = expectError(
        await call(conn.client, 'skill_search', { query }),
        'INVALID_QUERY',
      );
      expect(details).toMatchObject({ reason: 'no-words' });
    }
    // Words that are all stop-words: a hint of their own (add the words the task is about).
    const details = expectError(
      await call(conn.client, 'skill_search', { query: 'the of and' }),
      'INVALID_QUERY',
      true,
    );
    expect(details).toMatchObject({ reason: 'stop-words' });
  });

  it('SKILL_NOT_FOUND: an id the generation does not hold', async () => {
    const r = await call(conn.client, 'skill_fetch', {
      ...pins(pinned('pdf-toolkit')),
      skill_id: 'no-such-skill',
    });
    expect(expectError(r, 'SKILL_NOT_FOUND')).toEqual({
      skill_id: 'no-such-skill',
      did_you_mean: [],
    });
    // A typo: the closest served ids, as the CLI's show suggests them.
    const typo = await call(conn.client, 'skill_fetch', {
      ...pins(pinned('pdf-toolkit')),
      skill_id: 'pdf-tolkit',
    });
    expect(expectError(typo, 'SKILL_NOT_FOUND')).toEqual({
      skill_id: 'pdf-tolkit',
      did_you_mean: ['pdf-toolkit'],
    });
  });

  it('REVISION_MISMATCH: the catalog holds another revision', async () => {
    const c = pinned('pdf-toolkit');
    const r = await call(conn.client, 'skill_fetch', {
      ...pins(c),
      expected_revision: NO_REVISION,
    });
    expect(expectError(r, 'REVISION_MISMATCH')).toMatchObject({
      skill_id: 'pdf-toolkit',
      expected: NO_REVISION,
      current: c.revision_id,
    });
  });

  it('INDEX_DRIFT: the file was edited after indexing (no re-index)', async () => {
    appendFileSync(path.join(cat.skills, 'csv-cleaner', 'SKILL.md'), '\nEdited after indexing.\n');
    const r = await call(conn.client, 'skill_fetch', pins(pinned('csv-cleaner')));
    expect(expectError(r, 'INDEX_DRIFT')).toMatchObject({
      skill_id: 'csv-cleaner',
      expected: pinned('csv-cleaner').revision_id,
    });
    // Search reads the catalog only: it still answers, from the same generation.
    expect((await search(conn.client, 'csv')).catalog_generation).toBe(first.generation);
  });

  it('INDEX_DRIFT: the file was deleted after indexing', async () => {
    rmSync(path.join(cat.skills, 'unit-converter', 'SKILL.md'));
    const r = await call(conn.client, 'skill_fetch', pins(pinned('unit-converter')));
    expect(expectError(r, 'INDEX_DRIFT')).toMatchObject({ skill_id: 'unit-converter' });
  });

  it('CATALOG_GENERATION_MISMATCH after a lifecycle change publishes a new generation', async () => {
    await operator(cat, 'archive', 'regex-builder');
    const r = await call(conn.client, 'skill_fetch', pins(pinned('pdf-toolkit')));
    const details = expectError(r, 'CATALOG_GENERATION_MISMATCH');
    expect(details['expected']).toBe(first.generation);
    expect(details['current']).not.toBe(first.generation);
  });

  it('SKILL_ARCHIVED: valid pins on the new generation, and archived skills are never candidates', async () => {
    const now = await search(conn.client, 'regex pattern', { limit: 50, include_deprecated: true });
    expect(now.catalog_generation).not.toBe(first.generation);
    expect(now.candidates.map((c) => c.skill_id)).not.toContain('regex-builder');
    const r = await call(conn.client, 'skill_fetch', {
      ...pins(pinned('regex-builder')),
      catalog_generation: now.catalog_generation,
    });
    expect(expectError(r, 'SKILL_ARCHIVED')).toEqual({ skill_id: 'regex-builder' });
  });

  it('after a re-index the edited skill has a new revision: old pins mismatch, new pins fetch', async () => {
    await reindex(cat);
    const now = await search(conn.client, 'csv clean', { limit: 50 });
    const fresh = now.candidates.find((c) => c.skill_id === 'csv-cleaner')!;
    expect(fresh.revision_id).not.toBe(pinned('csv-cleaner').revision_id);
    expect(now.candidates.map((c) => c.skill_id)).not.toContain('unit-converter');
    const stale = await call(conn.client, 'skill_fetch', {
      ...pins(pinned('csv-cleaner')),
      catalog_generation: now.catalog_generation,
    });
    expectError(stale, 'REVISION_MISMATCH');
    const gone = await call(conn.client, 'skill_fetch', {
      ...pins(pinned('unit-converter')),
      catalog_generation: now.catalog_generation,
    });
    // A skill whose file is gone is retired by the re-index: the new generation does not hold it.
    expectError(gone, 'SKILL_NOT_FOUND');
    const ok = await call(conn.client, 'skill_fetch', pins(fresh));
    expect(ok.isError).toBeFalsy();
    expect((ok.structuredContent as { body: string }).body).toContain('Edited after indexing.');
  });
});

describe('the generation switch on a long-running stdio server', () => {
  let cat: TestCatalog;
  let conn: Connection;

  beforeAll(async () => {
    cat = await makeCatalog();
    conn = await connectStdio(['--catalog', cat.catalog, '--no-telemetry']);
  });

  it('new searches see the new generation; fetches pinned to the old one are refused', async () => {
    const before = await search(conn.client, 'clean csv files');
    const old = before.candidates.find((c) => c.skill_id === 'csv-cleaner')!;
    expect(old).toBeDefined();
    expect((await search(conn.client, 'zebrafish')).candidates).toEqual([]);

    // An operator edits the skill and publishes, while the server keeps running.
    const file = path.join(cat.skills, 'csv-cleaner', 'SKILL.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'description: ',
        'description: Zebrafish-grade cleaning. ',
      ),
    );
    await reindex(cat);

    const after = await search(conn.client, 'zebrafish');
    expect(after.catalog_generation).not.toBe(before.catalog_generation);
    expect(after.candidates.map((c) => c.skill_id)).toEqual(['csv-cleaner']);
    const fresh = after.candidates[0]!;
    expect(fresh.revision_id).not.toBe(old.revision_id);
    expect(fresh.catalog_generation).toBe(after.catalog_generation);

    const refused = toolError(await call(conn.client, 'skill_fetch', pins(old)));
    expect(refused).toMatchObject({
      code: 'CATALOG_GENERATION_MISMATCH',
      details: { expected: before.catalog_generation, current: after.catalog_generation },
    });
    // Even an unchanged skill is refused under the old generation: the pin is the whole tuple.
    const unchanged = before.candidates.find((c) => c.skill_id !== 'csv-cleaner')!;
    expect(toolError(await call(conn.client, 'skill_fetch', pins(unchanged))).code).toBe(
      'CATALOG_GENERATION_MISMATCH',
    );

    const fetched = await call(conn.client, 'skill_fetch', pins(fresh));
    expect(fetched.isError).toBeFalsy();
    expect(fetched.structuredContent).toMatchObject({
      skill_id: 'csv-cleaner',
      revision_id: fresh.revision_id,
      catalog_generation: after.catalog_generation,
    });
  });

  it('deprecate and restore publish generations; restore returns to the same content-addressed generation', async () => {
    const base = await search(conn.client, 'zebrafish', { include_deprecated: true });
    await operator(cat, 'deprecate', 'csv-cleaner');
    const hidden = await search(conn.client, 'zebrafish');
    expect(hidden.catalog_generation).not.toBe(base.catalog_generation);
    expect(hidden.candidates).toEqual([]);
    const shown = await search(conn.client, 'zebrafish', { include_deprecated: true });
    expect(shown.candidates.map((c) => [c.skill_id, c.state])).toEqual([
      ['csv-cleaner', 'deprecated'],
    ]);
    expect(shown.candidates[0]!.score).toBeLessThan(base.candidates[0]!.score);
    // A deprecated skill is still fetchable with its pins.
    expect(
      (await call(conn.client, 'skill_fetch', pins(shown.candidates[0]!))).isError,
    ).toBeFalsy();

    await operator(cat, 'restore', 'csv-cleaner');
    const restored = await search(conn.client, 'zebrafish');
    expect(restored.catalog_generation).toBe(base.catalog_generation);
    expect(restored.candidates.map((c) => c.state)).toEqual(['active']);
  });
});
