/**
 * skilldex uses only the MCP SDK's documented modules (issue 26): no file under src/ imports
 * another part of `@modelcontextprotocol/sdk`, so an SDK upgrade cannot break a check silently.
 * The request checks the SDK keeps in internal modules (media type, batch bound) are owned in
 * src/mcp/http-post.ts; their behaviour is pinned here as a table.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_BATCH_SIZE, isJsonContentType } from '../../src/mcp/http-post.js';

const SRC = path.resolve(__dirname, '../../src');

/** The SDK modules skilldex may import: what the SDK's README and examples document. */
const PUBLIC_SDK_MODULES = new Set([
  '@modelcontextprotocol/sdk/server/mcp.js',
  '@modelcontextprotocol/sdk/server/stdio.js',
  '@modelcontextprotocol/sdk/shared/transport.js',
  '@modelcontextprotocol/sdk/types.js',
]);

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = path.join(dir, n);
      return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
    });
}

describe('the MCP SDK surface', () => {
  it('src/ imports only its documented modules', () => {
    const used: string[] = [];
    for (const f of files(SRC)) {
      for (const m of readFileSync(f, 'utf8').matchAll(
        /['"](@modelcontextprotocol\/sdk[^'"]*)['"]/g,
      ))
        used.push(`${path.relative(SRC, f)}: ${m[1]}`);
    }
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((u) => !PUBLIC_SDK_MODULES.has(u.split(': ')[1]!))).toEqual([]);
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['Application/JSON', true],
    ['application/json; charset=utf-8', true],
    ['application/json;charset="utf-8"', true],
    ['application/json; a="x,y"', true],
    ['application/json;', true],
    [' application/json ', true],
    ['text/plain; a=application/json', false],
    ['application/json, text/plain', false],
    ['application/json; a=1, text/plain', false],
    ['application/jsonx', false],
    ['text/json', false],
    ['', false],
    [undefined, false],
  ] as const)('%s → %s', (header, json) => {
    expect(isJsonContentType(header)).toBe(json);
  });

  it('bounds a batch at the SDK bound', () => {
    expect(MAX_BATCH_SIZE).toBe(100);
  });
});
