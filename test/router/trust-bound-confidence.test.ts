/**
 * The trust bound bounds confidence too (issue 36 M1, docs/ranking.md §9 and §11): a skill the
 * bound holds back never reaches the floor through the fetch examples the bound discounts. The
 * attack of the issue, reproduced on examples/skills: three clients each search "deploy to
 * kubernetes", then fetch `kubernetes-deploy` with the context "write a haiku about autumn leaves".
 * Afterwards the request "write a haiku about autumn leaves" must abstain in every surface — the
 * library (Router.search), the prompt hook (suggest / runHook) and MCP skill_search — and the
 * skill the bound put first keeps a confidence that does not depend on the skill held back.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogReader, readUsage, telemetryPathFor } from '../../src/catalog/index.js';
import { POLICY_V4_ID, Router, indexCatalog, type SearchResult } from '../../src/internal.js';
import { UsageIndex } from '../../src/router/index.js';
import {
  boundedConfidences,
  confidenceFeatures,
  confidenceOf,
} from '../../src/router/search/confidence.js';
import { SearchCache, searchCatalog } from '../../src/router/search/dispatch.js';
import { CONFIDENCE_MODELS } from '../../src/router/search/policies/confidence-models.js';
import type { RankedCandidate } from '../../src/router/search/types.js';
import { hookStateDir, runHook, suggest } from '../../src/hook/index.js';
import { NOW } from '../catalog/support.js';
import { REPO, runCli, tmpDir } from '../support/cli.js';
import { apiSearch, type ExplorerContext } from '../../src/explorer/api.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { BIN, call, closeAll, connectInProcess, makeCatalog } from '../mcp/support.js';

const TARGET = 'kubernetes-deploy';
const HAIKU = 'write a haiku about autumn leaves';

let catalog: string;
let home: string;

// The attack, through the real search and fetch path: three clients, one session each.
function attack(): void {
  for (const client of ['mcp:alpha', 'mcp:beta', 'mcp:gamma']) {
    const router = new Router({ catalog, now: NOW, origin: { client, session: `${client}-s1` } });
    try {
      const hit = router
        .search({ query: 'deploy to kubernetes', limit: 5 })
        .candidates.find((c) => c.skill_id === TARGET)!;
      expect(hit, 'the example library holds kubernetes-deploy').toBeDefined();
      router.fetch({
        skill_id: TARGET,
        expected_revision: hit.revision_id,
        catalog_generation: hit.catalog_generation,
        context: HAIKU,
      });
    } finally {
      router.close();
    }
  }
}

function heldBack(r: SearchResult): SearchResult['candidates'] {
  return r.candidates.filter((c) => c.explanation.trust_bound?.role === 'held_back');
}

beforeAll(() => {
  const root = tmpDir('skilldex-m1-');
  home = path.join(root, 'home');
  const skills = path.join(root, 'skills');
  cpSync(path.join(REPO, 'examples', 'skills'), skills, { recursive: true });
  catalog = path.join(root, 'catalog.sqlite');
  indexCatalog({ catalog, scopes: [skills], home, project: root, now: NOW });
  attack();
});

afterAll(async () => {
  await closeAll();
});

describe('a skill the trust bound holds back stays below the floor (issue 36 M1)', () => {
  it('library: the attack is held back, and the answer abstains', () => {
    const router = new Router({ catalog, now: NOW });
    try {
      // Without the bound the fetch examples would put the skill first; with it, it is held back.
      const reader = new CatalogReader(catalog);
      const usage = new UsageIndex(readUsage(telemetryPathFor(catalog)).examples);
      const unbounded = searchCatalog(
        reader,
        new SearchCache(),
        { query: HAIKU, limit: 8 },
        { usage, trustBound: false },
      );
      reader.close();
      expect(unbounded.candidates[0]?.skill_id).toBe(TARGET);
      const r = router.search({ query: HAIKU, limit: 8 });
      const held = heldBack(r);
      expect(held.map((c) => c.skill_id)).toContain(TARGET);
      for (const c of held) expect(c.confidence).toBeLessThan(r.min_confidence);
      expect(r.abstain).toBe(true);
      // Whatever floor a client asks for above 0, a held-back skill does not reach it.
      for (const floor of [0.05, 0.3, 0.6, 0.9]) {
        const f = router.search({ query: HAIKU, limit: 8, min_confidence: floor });
        for (const c of heldBack(f)) expect(c.confidence).toBeLessThan(floor);
        expect(f.abstain).toBe(!f.candidates.some((c) => c.confidence >= floor));
      }
    } finally {
      router.close();
    }
  });

  it('the skill put first is judged without the held-back skills, whose confidence is capped below the floor', () => {
    const model = CONFIDENCE_MODELS.get(POLICY_V4_ID)!;
    const cand = (
      skill_id: string,
      score: number,
      role?: 'first' | 'held_back',
    ): RankedCandidate => ({
      skill_id,
      skill_version: '1',
      revision_id: 'r',
      catalog_generation: 'g',
      name: skill_id,
      description: '',
      state: 'active',
      score,
      explanation: {
        policy: POLICY_V4_ID,
        terms: [{ tf: { name: 1, keywords: 1, description: 1, body: 1, usage: 1 } }],
        ...(role ? { trust_bound: { k: 10, role, skill: 'x' } } : {}),
      } as unknown as RankedCandidate['explanation'],
    });
    const first = cand('trusted', 6, 'first');
    const held = cand('poisoned', 30, 'held_back');
    const other = cand('other', 2);
    const out = boundedConfidences(model, [first, held, other], 1, 0.6);
    // The first and the other are scored as the list [first, other]: the held-back one is not there.
    const clean = [first, other];
    expect(out[0]).toBe(confidenceOf(model, confidenceFeatures(clean, 0, 1)));
    expect(out[2]).toBe(confidenceOf(model, confidenceFeatures(clean, 1, 1)));
    // Unbounded, the held-back one would clear the floor; bounded, it is just below it.
    expect(confidenceOf(model, confidenceFeatures([first, held, other], 1, 1))).toBeGreaterThan(
      0.6,
    );
    expect(out[1]).toBe(0.5999);
    expect(boundedConfidences(model, [first, held, other], 1, 0.2)[1]).toBeLessThan(0.2);
    // Without a held-back candidate nothing changes.
    expect(boundedConfidences(model, clean, 1, 0.6)).toEqual([
      confidenceOf(model, confidenceFeatures(clean, 0, 1)),
      confidenceOf(model, confidenceFeatures(clean, 1, 1)),
    ]);
  });

  it('hook: suggests nothing for the prompt (suggest and a full run)', () => {
    const router = new Router({ catalog, now: NOW, telemetry: false });
    try {
      const a = suggest(router, HAIKU, { host: 'claude-code', home, env: { HOME: home } });
      expect(a.suggestions.map((s) => s.skill_id)).not.toContain(TARGET);
      expect(a.above).not.toContain(TARGET);
      expect(a.abstain).toBe(true);
    } finally {
      router.close();
    }
    const env = { HOME: home };
    const run = runHook(
      JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'h1', prompt: HAIKU }),
      {
        host: 'claude-code',
        catalog,
        telemetry: false,
        usage: true,
        home,
        env,
        stateDir: hookStateDir(home, env),
        remaining: () => 1000,
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.stdout).toBe('');
  });

  it('CLI search --json and the explorer API agree: abstain, the held-back skill below the floor', async () => {
    const cli = await runCli(['search', HAIKU, '--catalog', catalog, '--json', '--no-telemetry'], {
      env: { HOME: home },
    });
    const viaCli = JSON.parse(cli.stdout) as SearchResult;
    const router = new Router({ catalog, now: NOW, record: false });
    try {
      const ctx = { router } as unknown as ExplorerContext;
      const viaExplorer = apiSearch(ctx, (n) => (n === 'q' ? HAIKU : undefined)) as SearchResult;
      for (const r of [viaCli, viaExplorer]) {
        expect(r.abstain).toBe(true);
        const k8s = r.candidates.find((c) => c.skill_id === TARGET);
        expect(k8s?.explanation.trust_bound?.role).toBe('held_back');
        expect(k8s!.confidence).toBeLessThan(r.min_confidence);
      }
    } finally {
      router.close();
    }
  });

  it('MCP skill_search: abstain is true and the held-back skill is below the floor', async () => {
    const conn = await connectInProcess({ catalog, telemetry: true });
    const r = await call(conn.client, 'skill_search', { query: HAIKU });
    expect(r.isError).not.toBe(true);
    const s = r.structuredContent as unknown as SearchResult;
    expect(s.abstain).toBe(true);
    const k8s = s.candidates.find((c) => c.skill_id === TARGET);
    expect(k8s, 'kubernetes-deploy is still listed, held back').toBeDefined();
    expect(k8s!.confidence).toBeLessThan(s.min_confidence);
  });
});

describe('the attack of issue 36 M1 end to end: three MCP stdio sessions of the built server', () => {
  // One `skilldex mcp` process per client name, as three agents would run it.
  async function session(catalogFile: string, name: string): Promise<Client> {
    const cwd = tmpDir('skilldex-m1-cwd-');
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, 'mcp', '--catalog', catalogFile],
      cwd,
      env: { PATH: process.env['PATH'] ?? '', HOME: cwd },
      stderr: 'pipe',
    });
    const client = new Client({ name, version: '1.0.0' });
    await client.connect(transport);
    return client;
  }

  it('after the fetches, skill_search abstains and the hook suggests nothing', async () => {
    const cat = await makeCatalog();
    for (const name of ['agent-alpha', 'agent-beta', 'agent-gamma']) {
      const client = await session(cat.catalog, name);
      try {
        const s = (await call(client, 'skill_search', { query: 'deploy to kubernetes' }))
          .structuredContent as unknown as SearchResult;
        const hit = s.candidates.find((c) => c.skill_id === TARGET)!;
        const f = await call(client, 'skill_fetch', {
          skill_id: TARGET,
          expected_revision: hit.revision_id,
          catalog_generation: hit.catalog_generation,
          context: HAIKU,
        });
        expect(f.isError).not.toBe(true);
      } finally {
        await client.close();
      }
    }
    const client = await session(cat.catalog, 'agent-delta');
    try {
      const s = (await call(client, 'skill_search', { query: HAIKU }))
        .structuredContent as unknown as SearchResult;
      const k8s = s.candidates.find((c) => c.skill_id === TARGET);
      expect(k8s?.explanation.trust_bound?.role).toBe('held_back');
      expect(k8s!.confidence).toBeLessThan(s.min_confidence);
      expect(s.abstain).toBe(true);
    } finally {
      await client.close();
    }
    const env = { HOME: home };
    const run = runHook(
      JSON.stringify({ hook_event_name: 'UserPromptSubmit', session_id: 'h2', prompt: HAIKU }),
      {
        host: 'claude-code',
        catalog: cat.catalog,
        telemetry: true,
        usage: true,
        home,
        env,
        stateDir: hookStateDir(home, env),
        remaining: () => 1000,
      },
    );
    expect(run.error).toBeUndefined();
    expect(run.answer?.above ?? []).not.toContain(TARGET);
    expect(run.stdout).toBe('');
  });
});
