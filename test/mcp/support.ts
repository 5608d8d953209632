/**
 * MCP test support (issue #4): a temporary catalog over a copy of examples/skills; the server built
 * in process by `createServer(ctx)` and reached through the SDK's own Client over a linked
 * in-memory transport pair (`connectInProcess`: most tests); the BUILT server (`node bin/skilldex.js
 * mcp …`) as a child process over a real stdio or Streamable HTTP transport (the end-to-end tests);
 * and helpers that read tool results. Every client, router and spawned process is tracked and
 * closed by `closeAll()` so no test run leaves a server behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { Router } from '../../src/internal.js';
import { createServer } from '../../src/mcp/server.js';
import { REPO, runCli, tmpDir } from '../support/cli.js';

/** The built command-line shim the tests start. */
export const BIN = path.join(REPO, 'bin', 'skilldex.js');

/** The bundled example library. */
export const EXAMPLE_SKILLS = path.join(REPO, 'examples', 'skills');

/** A library the test may edit and the catalog indexed from it. */
/** Requests the example library answers, each with a clear best skill (concurrency tests cycle them). */
export const EXAMPLE_QUERIES = [
  'merge pdf files',
  'clean a messy csv',
  'write release notes',
  'kubernetes deploy rollout',
  'review terraform plan',
  'sql query tuning',
  'translate text to french',
  'regex for email addresses',
  'summarize meeting notes',
  'docker compose services',
  'unit conversion',
  'python unit tests',
  'chart data visualization',
];

export interface TestCatalog {
  /** The temporary folder holding both. */
  readonly dir: string;
  /** The skill library (the scope indexed). */
  readonly skills: string;
  /** The catalog file. */
  readonly catalog: string;
}

/** Copies examples/skills (or uses `skills` as is) into a temp folder and indexes it. */
export async function makeCatalog(options: { from?: string } = {}): Promise<TestCatalog> {
  const dir = tmpDir('skilldex-mcp-');
  const skills = path.join(dir, 'skills');
  cpSync(options.from ?? EXAMPLE_SKILLS, skills, { recursive: true });
  const catalog = path.join(dir, 'catalog.sqlite');
  await reindex({ dir, skills, catalog });
  return { dir, skills, catalog };
}

/** Re-indexes the library and publishes a new generation (in process, as an operator would). */
export async function reindex(cat: TestCatalog): Promise<void> {
  const r = await runCli(['index', '--catalog', cat.catalog, '--scope', cat.skills, '--json']);
  expect(r.code, r.stderr).toBe(0);
}

/** Runs an operator command (`archive`, `deprecate`, `restore`…) on the catalog in process. */
export async function operator(cat: TestCatalog, command: string, skillId: string): Promise<void> {
  const r = await runCli([command, skillId, '--catalog', cat.catalog, '--json']);
  expect(r.code, r.stderr).toBe(0);
}

/** One connected client and the server process behind it. */
export interface Connection {
  readonly client: Client;
  /** Everything the server wrote on stderr so far. */
  stderr(): string;
}

const closers = new Set<() => Promise<unknown>>();

/** Closes every client and server process the tests opened (call in afterAll). */
export async function closeAll(): Promise<void> {
  const all = [...closers];
  closers.clear();
  await Promise.all(all.map((c) => c()));
}

/** The environment a server runs in: no inherited catalog or telemetry settings. */
function serverEnv(home: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', HOME: home };
}

/** What an in-process server is given: what `skilldex mcp`'s flags would give it. */
export interface InProcessOptions {
  /** The catalog file (`--catalog`). */
  readonly catalog: string;
  /** Real paths `skill_index_crawl` may read (`--cascade-root`); default none. */
  readonly cascadeRoots?: readonly string[];
  /** The substrate root of `substrate_read` (`--substrate`); default none. */
  readonly substrateRoot?: string;
  /** Record and use telemetry (default false: `--no-telemetry`). */
  readonly telemetry?: boolean;
  /** The server's default floor (`--min-confidence`, or `min_confidence` of the config). */
  readonly minConfidence?: number;
}

/**
 * Builds the server in process (`createServer(ctx)` over a fresh Router on the catalog, as
 * `skilldex mcp` does) and connects the SDK Client to it over `InMemoryTransport.createLinkedPair()`.
 * No process, no build: the tools run the source under test.
 */
export async function connectInProcess(options: InProcessOptions): Promise<Connection> {
  const router = new Router({ catalog: options.catalog, telemetry: options.telemetry ?? false });
  let err = '';
  const server = createServer({
    router,
    cascadeRoots: options.cascadeRoots ?? [],
    ...(options.substrateRoot !== undefined ? { substrateRoot: options.substrateRoot } : {}),
    ...(options.minConfidence !== undefined ? { minConfidence: options.minConfidence } : {}),
    log: (line) => {
      err += line + '\n';
    },
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await server.connect(serverTransport);
  const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
  await client.connect(clientTransport);
  closers.add(async () => {
    await client.close();
    await server.close();
    router.close();
  });
  return { client, stderr: () => err };
}

/** Starts `skilldex mcp <args>` on stdio and connects the SDK Client to it. */
export async function connectStdio(
  args: readonly string[],
  options: { cwd?: string; home?: string } = {},
): Promise<Connection> {
  const cwd = options.cwd ?? tmpDir('skilldex-mcp-cwd-');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    cwd,
    // HOME defaults to the working folder; a walk up for project files never reads HOME itself.
    env: serverEnv(options.home ?? cwd),
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
  await client.connect(transport);
  closers.add(() => client.close());
  return { client, stderr: () => err };
}

/** A running HTTP server process. */
export interface HttpServer {
  readonly url: URL;
  readonly child: ChildProcess;
  stderr(): string;
  /** Stops the server (SIGTERM) and resolves with its exit code. */
  stop(): Promise<number | null>;
}

/** Starts `skilldex mcp --http 0 <args>` and waits for the URL it prints on stderr. */
export async function startHttp(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<HttpServer> {
  const cwd = options.cwd ?? tmpDir('skilldex-mcp-cwd-');
  const child = spawn(process.execPath, [BIN, 'mcp', '--http', '0', ...args], {
    cwd,
    env: { ...serverEnv(cwd), ...(options.env ?? {}) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await new Promise<URL>((resolve, reject) => {
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
      const m = /skilldex mcp: listening on (http:\/\/\S+)/.exec(err);
      if (m) resolve(new URL(m[1]!));
    });
    void exited.then((code) =>
      reject(new Error(`skilldex mcp exited with ${code} before listening: ${err}`)),
    );
  });
  const stop = async (): Promise<number | null> => {
    closers.delete(stop);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  closers.add(stop);
  // The HTTP server prints only its diagnostics, and only on stderr.
  closers.add(async () => {
    expect(out).toBe('');
  });
  return { url, child, stderr: () => err, stop };
}

/** Connects the SDK Client to a running HTTP server over Streamable HTTP. */
export async function connectHttp(server: HttpServer): Promise<Connection> {
  const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(server.url));
  closers.add(() => client.close());
  return { client, stderr: () => server.stderr() };
}

/** The `{ code, message, hint, details }` of an isError tool result (asserting it is one). */
export function toolError(result: CallToolResult): {
  code: string;
  message: string;
  hint: string;
  details: Record<string, unknown>;
} {
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  const first = result.content[0];
  expect(first?.type).toBe('text');
  const parsed = JSON.parse(first?.type === 'text' ? first.text : '') as {
    code: string;
    message: string;
    hint: string;
    details: Record<string, unknown>;
  };
  expect(result._meta?.['dev.skilldex/error']).toEqual(parsed);
  return parsed;
}

/** The text of a validation-error result (the SDK's own, for arguments that fail the input schema). */
export function validationText(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  const first = result.content[0];
  expect(first?.type).toBe('text');
  return first?.type === 'text' ? first.text : '';
}

/** Calls a tool and returns its result typed as a CallToolResult. */
export async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A search candidate as the tool returns it. */
export interface WireCandidate {
  skill_id: string;
  skill_version: string;
  revision_id: string;
  catalog_generation: string;
  name: string;
  description: string;
  state: string;
  score: number;
  explanation: Record<string, unknown>;
}

/** A skill_search structured result. */
export interface WireSearch {
  catalog_generation: string;
  policy: string;
  query: string;
  candidates: WireCandidate[];
}

/** Runs skill_search and returns its structured content (asserting success). */
export async function search(
  client: Client,
  query: string,
  extra: Record<string, unknown> = {},
): Promise<WireSearch> {
  const r = await call(client, 'skill_search', { query, ...extra });
  expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
  return r.structuredContent as unknown as WireSearch;
}

/** The skill_fetch arguments that pin `c` (every identity field). */
export function pins(
  c: Pick<WireCandidate, 'skill_id' | 'revision_id' | 'catalog_generation'>,
  context = 'test',
): Record<string, string> {
  return {
    skill_id: c.skill_id,
    expected_revision: c.revision_id,
    catalog_generation: c.catalog_generation,
    context,
  };
}
