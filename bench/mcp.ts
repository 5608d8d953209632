/**
 * MCP latency benchmark (issue #4): on a generated library of 10,000 skills (the router
 * benchmark's library, reused from bench/.work when present), measure in one run
 *   - skill_search round trips through a real stdio MCP connection (the SDK's Client talking to a
 *     child `node bin/skilldex.js mcp --no-telemetry`), p50/p95/p99 over ~500 queries of 1–8 words;
 *   - beside the same queries answered in process by Router.search (telemetry off), the baseline;
 *   - and an MCP `ping` round trip, the transport's own floor.
 * Each query is timed both ways back to back, so drift on the machine hits both alike.
 *
 *   npm run bench:mcp [-- --skills 10000 --queries 500]
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DEFAULT_POLICY_ID, Router, indexCatalog } from '../src/internal.js';
import {
  REPO,
  WORK,
  generateSkillLibrary,
  fmt,
  machineLine,
  now,
  percentile,
  zipfQueries,
  time,
  writeResult,
} from './lib.js';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Skills in the generated library (the figure: 10,000). */
const SKILLS = arg('--skills', 10_000);
/** Queries timed each way. */
const QUERIES = arg('--queries', 500);
/** Untimed queries first, each way, so caches and JIT are warm for both. */
const WARMUP = 30;

async function timeAsync<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = now();
  const value = await fn();
  return { value, ms: now() - t0 };
}

async function main(): Promise<void> {
  mkdirSync(WORK, { recursive: true });
  process.stderr.write(`library of ${SKILLS} skills…\n`);
  const dir = generateSkillLibrary(SKILLS);
  const catalog = path.join(WORK, `mcp-${SKILLS}.sqlite`);
  process.stderr.write(`indexing…\n`);
  // Incremental: a second run re-reads nothing and publishes the same generation.
  // The default policy, named: a catalog reused from an earlier run remembers the policy it was built with.
  const indexed = time(() => indexCatalog({ catalog, scopes: [dir], policy: DEFAULT_POLICY_ID }));

  const qs = zipfQueries(QUERIES + WARMUP, SKILLS + 7);
  const router = new Router({ catalog, telemetry: false });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(REPO, 'bin', 'skilldex.js'), 'mcp', '--catalog', catalog, '--no-telemetry'],
    cwd: WORK,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'skilldex-bench', version: '1.0.0' });
  const connected = await timeAsync(() => client.connect(transport));

  const ours: number[] = [];
  const base: number[] = [];
  const pings: number[] = [];
  let mismatches = 0;
  let candidates = 0;
  process.stderr.write(`searching ${QUERIES} queries both ways…\n`);
  for (let i = 0; i < qs.length; i++) {
    const q = qs[i]!;
    const local = time(() => router.search({ query: q }));
    const remote = await timeAsync(() =>
      client.callTool({ name: 'skill_search', arguments: { query: q } }),
    );
    const ping = await timeAsync(() => client.ping());
    if (i < WARMUP) continue;
    base.push(local.ms);
    ours.push(remote.ms);
    pings.push(ping.ms);
    // Same catalog, same query, telemetry off both sides: the answers must be identical.
    const structured = (remote.value as { structuredContent?: unknown }).structuredContent;
    if (JSON.stringify(structured) !== JSON.stringify(local.value)) mismatches++;
    candidates += local.value.candidates.length;
  }
  await client.close();
  router.close();

  // The same query's two timings subtracted: the cost the transport adds to one answer.
  const overhead = ours.map((ms, i) => ms - base[i]!);
  const p = (xs: number[]): string => [50, 95, 99].map((k) => fmt(percentile(xs, k))).join(' / ');
  const lines = [
    '# MCP latency',
    '',
    machineLine(),
    '',
    `${SKILLS} generated skills (Zipf words over a 40,000-word vocabulary), index run (incremental: a re-run re-reads nothing) ${fmt(indexed.ms / 1000)} s; server start + MCP initialize ${fmt(connected.ms)} ms.`,
    '',
    '| path | p50 / p95 / p99 (ms) |',
    '|---|---|',
    `| skill_search over stdio MCP (SDK Client → \`skilldex mcp\` child) | ${p(ours)} |`,
    `| Router.search in process (baseline) | ${p(base)} |`,
    `| MCP ping round trip over the same connection | ${p(pings)} |`,
    '',
    '| comparison | p50 | p99 |',
    '|---|---|---|',
    `| ratio MCP / in process | ${fmt(percentile(ours, 50) / percentile(base, 50))} | ${fmt(percentile(ours, 99) / percentile(base, 99))} |`,
    `| per-query overhead, MCP − in process (ms) | ${fmt(percentile(overhead, 50))} | ${fmt(percentile(overhead, 99))} |`,
    '',
    `Queries: ${QUERIES} of 1–8 Zipf words (after ${WARMUP} untimed warm-up queries), default limit (8), telemetry off on both sides, ` +
      `each query timed in process and then over MCP back to back; ${fmt(candidates / QUERIES, 1)} candidates per answer on average. ` +
      `Answers that differed between the two paths: ${mismatches}.`,
  ];
  writeResult('mcp', lines.join('\n'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
