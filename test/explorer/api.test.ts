/**
 * The explorer's JSON API in process (issue 15): fetch against the server on an ephemeral loopback
 * port. Every bad request gets its code and HTTP status, the server keeps answering after them,
 * searches and skill pages return the library's report objects, hostile skill text comes back as
 * data, and a catalog re-published while the server runs is seen on the next request.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COMPARISON_SETS,
  ERROR_CODES,
  POLICIES,
  POLICY_V4_ID,
  POLICY_V5_ID,
  SUBSTRATE_TYPES,
} from '../../src/internal.js';
import { NEVER_IN_TOP_FIVE_MIN_SEARCHES, startExplorer } from '../../src/explorer/index.js';
import { CONTENT_SECURITY_POLICY } from '../../src/explorer/app.js';
import { MAX_EXPLORER_QUERY_CHARS } from '../../src/explorer/api.js';
import { REPO } from '../support/cli.js';
import { layoutOf } from '../../src/catalog/index.js';
import { isRetiredLayout } from '../../src/catalog/store/layout.js';
import {
  HOSTILE_BODY,
  HOSTILE_DESCRIPTION,
  HOSTILE_ID,
  errorOf,
  makeLibrary,
  raw,
  reindex,
  startOver,
  writeSkill,
  type Library,
  type Running,
} from './support.js';

let lib: Library;
let srv: Running;

beforeAll(async () => {
  lib = makeLibrary();
  srv = await startOver(lib, {
    cascadeRoots: [path.join(REPO, 'examples', 'cascade')],
    substrateRoot: path.join(REPO, 'examples', 'substrate'),
  });
});

afterAll(async () => {
  await srv.close();
});

interface Search {
  catalog_generation: string;
  policy: string;
  candidates: { skill_id: string; score: number; explanation: Record<string, unknown> }[];
}

/** Asserts `r` is the error `code` with its hint, at HTTP `status`. */
function expectError(
  r: Awaited<ReturnType<typeof raw>>,
  status: number,
  code: keyof typeof ERROR_CODES,
): void {
  expect(r.status, r.body).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/json/);
  const e = errorOf(r);
  expect(e.code).toBe(code);
  expect(e.hint).toBe(ERROR_CODES[code].hint);
  expect(e.message.length).toBeGreaterThan(0);
  expect(typeof e.details).toBe('object');
}

describe('search', () => {
  it('ranks the clear-cut skill first and explains every candidate', async () => {
    const r = await raw(srv.base, '/api/search?q=extract+tables+from+pdf&limit=3');
    expect(r.status).toBe(200);
    const s = r.json<Search>();
    expect(s.candidates[0]?.skill_id).toBe('pdf-toolkit');
    expect(s.candidates.length).toBeLessThanOrEqual(3);
    for (const c of s.candidates) expect(c.explanation['final']).toBe(c.score);
    for (let i = 1; i < s.candidates.length; i++)
      expect(s.candidates[i - 1]!.score).toBeGreaterThanOrEqual(s.candidates[i]!.score);
  });

  it('ranks under a named known policy of the catalog family, and names it in the result', async () => {
    const catalogPolicy = (await raw(srv.base, '/api/policies')).json<{ catalog_policy: string }>()
      .catalog_policy;
    for (const policy of POLICIES.keys()) {
      // A retired policy (bm25f.v3) has no stored documents any more.
      if (isRetiredLayout(policy)) continue;
      const r = await raw(
        srv.base,
        `/api/search?q=deploy+kubernetes&policy=${encodeURIComponent(policy)}`,
      );
      // A catalog keeps only its own family's data (catalog/store/layout.ts): the other family's
      // policies answer REINDEX_REQUIRED (409), never a 500 or an empty ranking.
      if (layoutOf(policy) !== layoutOf(catalogPolicy)) {
        expectError(r, 409, 'REINDEX_REQUIRED');
        continue;
      }
      const s = r.json<Search>();
      expect(s.policy).toBe(policy);
      expect(s.candidates[0]?.skill_id).toBe('kubernetes-deploy');
    }
  });

  it('refuses an empty, blank or over-long query with INVALID_QUERY (400)', async () => {
    expectError(await raw(srv.base, '/api/search'), 400, 'INVALID_QUERY');
    expectError(await raw(srv.base, '/api/search?q='), 400, 'INVALID_QUERY');
    expectError(await raw(srv.base, '/api/search?q=%20%20'), 400, 'INVALID_QUERY');
    expectError(
      await raw(srv.base, `/api/search?q=${'a'.repeat(MAX_EXPLORER_QUERY_CHARS + 1)}`),
      400,
      'INVALID_QUERY',
    );
    // Only stop-words: the library's own refusal, same code, with a hint of its own.
    const stop = await raw(srv.base, '/api/search?q=the+of+and');
    expect(stop.status).toBe(400);
    expect(errorOf(stop)).toMatchObject({
      code: 'INVALID_QUERY',
      details: { reason: 'stop-words' },
    });
    expect(errorOf(stop).hint).not.toBe(ERROR_CODES.INVALID_QUERY.hint);
  });

  it('refuses a bad limit or an unknown policy with INVALID_ARGUMENT (400)', async () => {
    expectError(await raw(srv.base, '/api/search?q=pdf&limit=0'), 400, 'INVALID_ARGUMENT');
    expectError(await raw(srv.base, '/api/search?q=pdf&limit=51'), 400, 'INVALID_ARGUMENT');
    expectError(await raw(srv.base, '/api/search?q=pdf&limit=2x'), 400, 'INVALID_ARGUMENT');
    expectError(
      await raw(srv.base, '/api/search?q=pdf&policy=no.such.policy'),
      400,
      'INVALID_ARGUMENT',
    );
  });

  it('returns hostile skill text as data, byte for byte', async () => {
    const s = (await raw(srv.base, '/api/search?q=convert+widgets')).json<{
      candidates: { skill_id: string; description: string }[];
    }>();
    const c = s.candidates.find((x) => x.skill_id === HOSTILE_ID);
    expect(c?.description).toBe(HOSTILE_DESCRIPTION);
  });
});

describe('skills', () => {
  it('gives a skill page: served skill, catalog record, verified text, usage', async () => {
    const r = await raw(srv.base, '/api/skills/pdf-toolkit');
    expect(r.status).toBe(200);
    const p = r.json<{
      skill: { skill_id: string; frontmatter: Record<string, unknown> };
      record: {
        path: string;
        scope: string;
        revisions: { revision_id: string }[];
        lifecycle: { state: string }[];
      };
      text: string;
      text_error: unknown;
      usage: unknown[];
    }>();
    expect(p.skill.skill_id).toBe('pdf-toolkit');
    expect(p.skill.frontmatter['name']).toBe('pdf-toolkit');
    expect(p.record.path.endsWith(path.join('pdf-toolkit', 'SKILL.md'))).toBe(true);
    expect(p.record.revisions).toHaveLength(1);
    expect(p.record.lifecycle.map((l) => l.state)).toEqual(['active']);
    expect(p.text).toContain('Body of pdf-toolkit.');
    expect(p.text_error).toBeNull();
    expect(p.usage).toEqual([]);
  });

  it('returns a hostile body as the exact file text', async () => {
    const p = (await raw(srv.base, `/api/skills/${HOSTILE_ID}`)).json<{
      text: string;
      skill: { description: string };
    }>();
    expect(p.text).toContain(HOSTILE_BODY);
    expect(p.skill.description).toBe(HOSTILE_DESCRIPTION);
  });

  it('answers an unknown skill with SKILL_NOT_FOUND (404)', async () => {
    expectError(await raw(srv.base, '/api/skills/no-such-skill'), 404, 'SKILL_NOT_FOUND');
    expectError(await raw(srv.base, '/api/skills/..%2F..%2Fetc%2Fpasswd'), 404, 'SKILL_NOT_FOUND');
    // A typo: the closest served ids, as the CLI's show suggests them.
    const typo = await raw(srv.base, '/api/skills/pdf-tolkit');
    expectError(typo, 404, 'SKILL_NOT_FOUND');
    expect(errorOf(typo).details).toEqual({
      skill_id: 'pdf-tolkit',
      did_you_mean: ['pdf-toolkit'],
    });
  });

  it('lists served skills page by page', async () => {
    const page = (await raw(srv.base, '/api/skills?limit=2')).json<{
      skills: { skill_id: string }[];
      next_cursor?: string;
    }>();
    expect(page.skills.map((s) => s.skill_id)).toEqual(['csv-cleaner', 'email-drafter']);
    const next = (await raw(srv.base, `/api/skills?limit=2&cursor=${page.next_cursor}`)).json<{
      skills: { skill_id: string }[];
    }>();
    expect(next.skills.map((s) => s.skill_id)).toEqual(['kubernetes-deploy', HOSTILE_ID]);
  });
});

describe('catalog views', () => {
  it('gives the overview: counts by scope and state, unused skills', async () => {
    const o = (await raw(srv.base, '/api/overview')).json<{
      counts: { total: number; active: number };
      by_scope: { scope: string; active: number }[];
      never_in_top_five: {
        count: number;
        shown: boolean;
        searches: number;
        threshold: number;
        skill_ids: string[];
      };
      telemetry: { searches: number };
      suggested_never_fetched: unknown[];
    }>();
    expect(o.counts.active).toBe(o.by_scope.reduce((s, x) => s + x.active, 0));
    expect(o.counts.total).toBeGreaterThanOrEqual(5);
    // The explorer records no suggestions: its own searches leave every skill unsuggested.
    expect(o.never_in_top_five.count).toBe(o.counts.active);
    expect(o.suggested_never_fetched).toEqual([]);
    // No searches recorded: under the threshold, the list is held back and says how much there is.
    expect(o.never_in_top_five).toMatchObject({
      shown: false,
      searches: 0,
      threshold: NEVER_IN_TOP_FIVE_MIN_SEARCHES,
      skill_ids: [],
    });
    expect(o.telemetry.searches).toBe(0);
  });

  it('lists policies with the catalog policy among them', async () => {
    const p = (await raw(srv.base, '/api/policies')).json<{
      catalog_policy: string;
      policies: string[];
    }>();
    expect(p.policies).toContain(p.catalog_policy);
  });

  it('compares parameter sets over the same stored document: v4 beside v4 without its request-side parts', async () => {
    const p = (await raw(srv.base, '/api/policies')).json<{
      catalog_policy: string;
      policies: string[];
      parameter_sets: string[];
    }>();
    // The default (v5) catalog reads v4's stored document, so v4 and its plain set rank over it.
    expect(p.catalog_policy).toBe(POLICY_V5_ID);
    expect(p.policies).toEqual([...POLICIES.keys()]);
    expect(p.parameter_sets).toEqual([...COMPARISON_SETS.keys()]);
    const q = 'deploy+kubernetes+rather+than+docker';
    const get = async (policy: string): Promise<Search> =>
      (
        await raw(srv.base, `/api/search?q=${q}&policy=${encodeURIComponent(policy)}`)
      ).json<Search>();
    const v4 = await get(POLICY_V4_ID);
    const plain = await get(p.parameter_sets[0]!);
    expect(plain.policy).toBe(p.parameter_sets[0]);
    expect(plain.catalog_generation).toBe(v4.catalog_generation);
    // v4 sets "docker" apart as an excluded word; the plain set reads it as wanted.
    expect(v4.candidates[0]!.explanation['exclusion']).toMatchObject({ tokens: ['docker'] });
    for (const c of plain.candidates) {
      expect(c.explanation['exclusion']).toMatchObject({ tokens: [], points: 0 });
      expect(c.explanation['boundary']).toMatchObject({ points: 0 });
      expect(c.explanation['name_phrase']).toMatchObject({ points: 0 });
      expect(c.explanation['query_tokens']).toContain('docker');
    }
  });

  it('browses and crawls the cascade, and reads the substrate', async () => {
    const tree = (await raw(srv.base, '/api/cascade/tree')).json<{
      nodes: { node: string; entries: { key: string; keywords: string[]; target: string }[] }[];
      problems: unknown[];
      fingerprint: string;
    }>();
    expect(tree.nodes[0]?.node).toBe('.');
    expect(tree.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    // The full audit: the same nodes, computed once and then kept while the tree is unchanged.
    const audit = (await raw(srv.base, '/api/cascade/audit')).json<{
      cached: boolean;
      fingerprint: string;
      audit: { nodes: string[]; problems: unknown[] };
    }>();
    expect(audit.audit.nodes).toEqual(tree.nodes.map((n) => n.node));
    expect(audit.fingerprint).toBe(tree.fingerprint);
    expect(audit.audit.problems.length).toBeGreaterThanOrEqual(tree.problems.length);
    expect((await raw(srv.base, '/api/cascade/audit')).json<{ cached: boolean }>().cached).toBe(
      true,
    );
    const crawl = (await raw(srv.base, '/api/cascade/crawl?need=pdf')).json<{
      outcome: string;
      visited: string[];
    }>();
    expect(crawl.visited[0]).toBe('.');
    expect(['hit', 'ambiguous', 'no match']).toContain(crawl.outcome);
    expectError(await raw(srv.base, '/api/cascade/crawl?need='), 400, 'INVALID_QUERY');
    expectError(await raw(srv.base, '/api/cascade/tree?root=1'), 400, 'INVALID_ARGUMENT');
    const sub = (await raw(srv.base, '/api/substrate?q=caching')).json<{
      query: string;
      opened: unknown[];
    }>();
    expect(sub.query).toBe('caching');
    expect(Array.isArray(sub.opened)).toBe(true);
    expectError(await raw(srv.base, '/api/substrate?q=x&type=nope'), 400, 'INVALID_ARGUMENT');
    // What the substrate holds, before any query: every type, with its index rows.
    const contents = (await raw(srv.base, '/api/substrate/contents')).json<{
      types: { type: string; entries: { id: string }[] }[];
    }>();
    expect(contents.types.map((t) => t.type)).toEqual([...SUBSTRATE_TYPES]);
    expect(contents.types.some((t) => t.entries.length > 0)).toBe(true);
  });
});

describe('requests refused', () => {
  it('answers an unknown route with ROUTE_NOT_FOUND (404)', async () => {
    expectError(await raw(srv.base, '/api/nothing'), 404, 'ROUTE_NOT_FOUND');
    expectError(await raw(srv.base, '/assets/..%2F..%2Fpackage.json'), 404, 'ROUTE_NOT_FOUND');
  });

  it('answers a wrong method with METHOD_NOT_ALLOWED (405) and an Allow header', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const r = await raw(srv.base, '/api/search?q=pdf', { method });
      expectError(r, 405, 'METHOD_NOT_ALLOWED');
      expect(r.headers['allow']).toBe('GET, HEAD');
    }
  });

  it('refuses a foreign Host (403) and accepts loopback names in any case', async () => {
    const port = srv.base.port;
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost:${Number(port) + 1}`,
      `localhost`,
    ]) {
      expectError(
        await raw(srv.base, '/api/policies', { headers: { host } }),
        403,
        'FORBIDDEN_ORIGIN',
      );
    }
    for (const host of [
      `LOCALHOST:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      `LocalHost:${port}`,
    ]) {
      expect((await raw(srv.base, '/api/policies', { headers: { host } })).status).toBe(200);
    }
  });

  it('refuses a foreign Origin (403) and accepts its own', async () => {
    const port = srv.base.port;
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      `https://localhost:${port}`,
      'null',
    ]) {
      expectError(
        await raw(srv.base, '/api/policies', { headers: { origin } }),
        403,
        'FORBIDDEN_ORIGIN',
      );
    }
    expectError(
      await raw(srv.base, '/api/policies', { headers: { 'sec-fetch-site': 'cross-site' } }),
      403,
      'FORBIDDEN_ORIGIN',
    );
    expect(
      (await raw(srv.base, '/api/policies', { headers: { origin: `http://localhost:${port}` } }))
        .status,
    ).toBe(200);
  });

  it('keeps serving after bad requests, several at once', async () => {
    const bad = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        raw(srv.base, i % 2 ? '/api/skills/nope' : '/api/search?q='),
      ),
    );
    expect(bad.every((r) => r.status === 404 || r.status === 400)).toBe(true);
    const ok = await raw(srv.base, '/api/search?q=csv');
    expect(ok.json<Search>().candidates[0]?.skill_id).toBe('csv-cleaner');
  });

  it('sends a strict Content-Security-Policy on pages and API answers', async () => {
    for (const p of ['/', '/skills/pdf-toolkit', '/api/policies', '/api/nothing']) {
      const r = await raw(srv.base, p);
      expect(r.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(r.headers['x-content-type-options']).toBe('nosniff');
    }
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    const page = await raw(srv.base, '/?q=pdf');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    // The shell has no inline script: its only script is the bundled file.
    expect(page.body).toMatch(/<script type="module" src="\/assets\/app\.js"><\/script>/);
    expect(page.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
  });
});

describe('a token', () => {
  const token = 'test-token-0123456789abcdef';
  let guarded: Running;
  beforeAll(async () => {
    guarded = await startOver(lib, { token });
  });
  afterAll(async () => {
    await guarded.close();
  });

  it('is required on the API (401 UNAUTHORIZED without it or with a wrong one)', async () => {
    const none = await raw(guarded.base, '/api/policies');
    expectError(none, 401, 'UNAUTHORIZED');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expectError(
      await raw(guarded.base, '/api/policies', {
        headers: { authorization: 'Bearer wrong-token-0123456789' },
      }),
      401,
      'UNAUTHORIZED',
    );
  });

  it('is accepted as a bearer header only: no cookie, no query parameter', async () => {
    expect(
      (await raw(guarded.base, '/api/policies', { headers: { authorization: `Bearer ${token}` } }))
        .status,
    ).toBe(200);
    // A cookie goes to every port of a host: the right token in one is still no token.
    for (const cookie of [`skilldex_token=${token}`, 'skilldex_token=%E0%A4%A', 'skilldex_token']) {
      expectError(
        await raw(guarded.base, '/api/policies', { headers: { cookie } }),
        401,
        'UNAUTHORIZED',
      );
    }
    expectError(await raw(guarded.base, `/api/policies?token=${token}`), 401, 'UNAUTHORIZED');
  });

  it('is not needed for the page and its assets, which hold no data; nothing sets a cookie or redirects', async () => {
    for (const p of ['/', `/?q=pdf&token=${token}`, '/skills/pdf-toolkit', '/assets/app.js']) {
      const r = await raw(guarded.base, p);
      expect(r.status, p).toBe(200);
      expect(r.headers['set-cookie'], p).toBeUndefined();
      expect(r.headers['location'], p).toBeUndefined();
    }
  });

  it('is needed for a non-loopback host', async () => {
    await expect(startExplorer({} as never, { host: '0.0.0.0' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

describe('a catalog re-published while serving', () => {
  it('is seen on the next request: new generation, new skill, generation changes listed', async () => {
    const before = (await raw(srv.base, '/api/search?q=pdf')).json<Search>().catalog_generation;
    writeSkill(lib.skills, 'yaml-linter', {
      description: 'Lint YAML files and fix indentation.',
      keywords: ['yaml', 'lint'],
    });
    rmSync(path.join(lib.skills, 'email-drafter'), { recursive: true });
    writeFileSync(
      path.join(lib.skills, 'csv-cleaner', 'SKILL.md'),
      '---\nname: csv-cleaner\ndescription: "Clean CSV files, version two."\n---\n\nBody.\n',
    );
    reindex(lib);
    const after = (await raw(srv.base, '/api/search?q=lint+yaml')).json<Search>();
    expect(after.catalog_generation).not.toBe(before);
    expect(after.candidates[0]?.skill_id).toBe('yaml-linter');
    const gens = (await raw(srv.base, '/api/generations')).json<{
      generations: {
        published: boolean;
        added: number;
        changed: number;
        retired: number;
        examples: { added: string[]; changed: string[]; retired: string[] };
      }[];
    }>().generations;
    expect(gens[0]?.published).toBe(true);
    expect(gens[0]?.examples).toEqual({
      added: ['yaml-linter'],
      changed: ['csv-cleaner'],
      retired: ['email-drafter'],
    });
    expect([gens[0]?.added, gens[0]?.changed, gens[0]?.retired]).toEqual([1, 1, 1]);
    expectError(await raw(srv.base, '/api/skills/email-drafter'), 404, 'SKILL_NOT_FOUND');
    const csv = (await raw(srv.base, '/api/skills/csv-cleaner')).json<{
      record: { revisions: unknown[]; lifecycle: { seq: number }[] };
    }>();
    expect(csv.record.revisions).toHaveLength(2);
    expect(csv.record.lifecycle).toHaveLength(2);
    // The generation diff the timeline links to (issue 28): published against the one before.
    const diff = (await raw(srv.base, '/api/generations/diff')).json<{
      from: { seq: number };
      to: { seq: number };
      added: { skill_id: string }[];
      removed: { skill_id: string }[];
      changed: { skill_id: string; revision_changed: boolean }[];
    }>();
    expect([diff.from.seq + 1, diff.to.seq]).toEqual([diff.to.seq, diff.to.seq]);
    expect([diff.added, diff.removed, diff.changed].map((l) => l.map((x) => x.skill_id))).toEqual([
      ['yaml-linter'],
      ['email-drafter'],
      ['csv-cleaner'],
    ]);
    const same = (
      await raw(srv.base, `/api/generations/diff?from=${diff.to.seq}&to=published`)
    ).json<{
      counts: { changed: number; added: number; removed: number };
    }>();
    expect(same.counts).toMatchObject({ added: 0, removed: 0, changed: 0 });
    expectError(await raw(srv.base, '/api/generations/diff?from=999'), 404, 'GENERATION_NOT_FOUND');
    expectError(await raw(srv.base, '/api/generations/diff?from=xyz'), 400, 'INVALID_ARGUMENT');
  });
});
