/**
 * stdout belongs to JSON-RPC (issue #4): the built server is spawned raw, JSON-RPC
 * lines are written to its stdin by hand, and every line it prints on stdout must be a JSON-RPC
 * 2.0 message, while its logs go to stderr. Also how the process starts and ends: it exits 0 when
 * stdin closes, and refuses a missing catalog or cascade root before speaking any protocol.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBin, tmpDir } from '../support/cli.js';
import { BIN, makeCatalog, type TestCatalog } from './support.js';

interface RawRun {
  stdout: string;
  stderr: string;
  code: number | null;
}

const running = new Set<ReturnType<typeof spawn>>();

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
});

/**
 * Spawns `skilldex mcp <args>`, writes `lines` one by one (each after the answer to the previous
 * request, so the order is deterministic), closes stdin and collects everything until exit.
 */
async function rawSession(
  args: readonly string[],
  lines: readonly (object | string)[],
): Promise<RawRun> {
  const cwd = tmpDir('skilldex-mcp-raw-');
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', HOME: cwd },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  let answered: (() => void) | undefined;
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8');
    answered?.();
  });
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  for (const line of lines) {
    const isRequest = typeof line === 'object' && 'id' in line;
    const before = stdout.split('\n').length;
    const waiting = isRequest
      ? new Promise<void>((resolve) => {
          answered = () => {
            if (stdout.split('\n').length > before) resolve();
          };
        })
      : Promise.resolve();
    child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`);
    await waiting;
  }
  // Give a notification or a garbage line time to produce (the wrong) output before closing.
  await new Promise((r) => setTimeout(r, 200));
  child.stdin.end();
  const code = await exited;
  running.delete(child);
  return { stdout, stderr, code };
}

describe('the stdio server speaks only JSON-RPC on stdout', () => {
  let cat: TestCatalog;
  let run: RawRun;

  beforeAll(async () => {
    cat = await makeCatalog();
    run = await rawSession(
      ['--catalog', cat.catalog, '--cascade-root', path.join(cat.skills, '..')],
      [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'raw', version: '1' },
          },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'skill_search', arguments: { query: 'merge pdf files', limit: 2 } },
        },
        {
          jsonrpc: '2.0',
          id: 4,
          method: 'tools/call',
          params: { name: 'skill_search', arguments: { query: '!!!' } },
        },
        {
          jsonrpc: '2.0',
          id: 5,
          method: 'tools/call',
          params: { name: 'skill_search', arguments: { limit: 'x' } },
        },
        {
          jsonrpc: '2.0',
          id: 6,
          method: 'tools/call',
          params: { name: 'skill_index_crawl', arguments: { need: 'pdf' } },
        },
        { jsonrpc: '2.0', id: 7, method: 'skills/list', params: {} },
        {
          jsonrpc: '2.0',
          id: 8,
          method: 'resources/read',
          params: { uri: 'skill://pdf-toolkit/SKILL.md' },
        },
        { jsonrpc: '2.0', id: 9, method: 'no/such/method' },
        'this line is not JSON',
        { jsonrpc: '2.0', id: 10, method: 'ping' },
      ],
    );
  });

  it('prints one JSON-RPC 2.0 message per stdout line and answers every request', () => {
    const lines = run.stdout.split('\n').filter((l) => l !== '');
    const messages = lines.map(
      (l) =>
        JSON.parse(l) as {
          jsonrpc: string;
          id?: number;
          result?: unknown;
          error?: { code: number };
        },
    );
    for (const m of messages) expect(m.jsonrpc).toBe('2.0');
    expect(messages.map((m) => m.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (const id of [1, 2, 3, 4, 5, 6, 7, 8, 10])
      expect(byId.get(id)?.result, `id ${id}`).toBeDefined();
    expect(byId.get(9)?.error?.code).toBe(-32601);
    expect(byId.get(4)?.result).toMatchObject({
      isError: true,
      _meta: { 'dev.skilldex/error': { code: 'INVALID_QUERY' } },
    });
    expect(byId.get(5)?.result).toMatchObject({ isError: true });
  });

  it('logs on stderr, including the line that was not JSON-RPC, and exits 0 when stdin closes', () => {
    expect(run.stderr).toContain('skilldex mcp: serving on stdio');
    expect(run.stderr).toMatch(/skilldex mcp: .*JSON/i);
    expect(run.stdout).not.toContain('serving on stdio');
    expect(run.code).toBe(0);
  });
});

describe('refusals before the protocol starts', () => {
  it('a missing catalog exits 2 with CATALOG_MISSING on stderr and nothing on stdout', () => {
    const dir = tmpDir();
    const r = runBin(['mcp', '--catalog', path.join(dir, 'none.sqlite')], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('CATALOG_MISSING');
  });

  it('a --cascade-root that does not exist exits 2 with FILE_NOT_FOUND', async () => {
    const cat = await makeCatalog();
    const r = runBin(
      ['mcp', '--catalog', cat.catalog, '--cascade-root', path.join(cat.dir, 'nowhere')],
      { cwd: cat.dir },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('FILE_NOT_FOUND');
  });

  it('an --http port out of range is refused as INVALID_ARGUMENT', async () => {
    const cat = await makeCatalog();
    const r = runBin(['mcp', '--catalog', cat.catalog, '--http', '70000'], { cwd: cat.dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('INVALID_ARGUMENT');
  });
});
