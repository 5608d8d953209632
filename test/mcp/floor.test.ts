/**
 * The confidence floor of `skill_search` over MCP: a request's own `min_confidence` wins; without
 * one the server's floor applies (`mcp --min-confidence`, else `min_confidence` of the config),
 * else the policy's. Checked in process and through the built `skilldex mcp` on stdio, where the
 * floor comes from the user's config file and from the flag.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tmpDir } from '../support/cli.js';
import {
  closeAll,
  connectInProcess,
  connectStdio,
  makeCatalog,
  type Connection,
  type TestCatalog,
} from './support.js';

let cat: TestCatalog;

beforeAll(async () => {
  cat = await makeCatalog();
});

afterAll(async () => {
  await closeAll();
});

async function floorOf(conn: Connection, args: Record<string, unknown>): Promise<unknown> {
  const r = await conn.client.callTool({
    name: 'skill_search',
    arguments: { query: 'merge pdf files', ...args },
  });
  expect(r.isError).not.toBe(true);
  return (r.structuredContent as Record<string, unknown>)['min_confidence'];
}

describe('skill_search confidence floor', () => {
  it("uses the policy's floor when neither the server nor the request sets one", async () => {
    const conn = await connectInProcess({ catalog: cat.catalog });
    expect(await floorOf(conn, {})).toBe(0.6);
  });

  it("uses the server's floor by default, and a request's own floor over it", async () => {
    const conn = await connectInProcess({ catalog: cat.catalog, minConfidence: 0.9 });
    expect(await floorOf(conn, {})).toBe(0.9);
    expect(await floorOf(conn, { min_confidence: 0.2 })).toBe(0.2);
  });

  it('skilldex mcp takes min_confidence from the user config, and --min-confidence over it', async () => {
    const home = tmpDir('skilldex-mcp-floor-');
    mkdirSync(path.join(home, '.config', 'skilldex'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'skilldex', 'config.toml'), 'min_confidence = 0.85\n');
    const fromConfig = await connectStdio(['--catalog', cat.catalog, '--no-telemetry'], {
      cwd: home,
    });
    expect(await floorOf(fromConfig, {})).toBe(0.85);
    const fromFlag = await connectStdio(
      ['--catalog', cat.catalog, '--no-telemetry', '--min-confidence', '0.75'],
      { cwd: home },
    );
    expect(await floorOf(fromFlag, {})).toBe(0.75);
    expect(await floorOf(fromFlag, { min_confidence: 0.3 })).toBe(0.3);
  });

  it('mcp refuses a --min-confidence outside 0-1 before serving (INVALID_ARGUMENT, exit 2)', async () => {
    for (const bad of ['1.5', '-0.1', 'high', '']) {
      const r = await runCli(['mcp', '--catalog', cat.catalog, '--min-confidence', bad, '--json']);
      expect(r.code).toBe(2);
      const { error } = JSON.parse(r.stdout) as { error: { code: string; details: unknown } };
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.details).toEqual({ option: '--min-confidence' });
    }
  });
});
