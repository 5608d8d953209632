/**
 * Load benchmark (issue #16): the load test of bench/load/harness.ts at the issue's scale — 3
 * `skilldex mcp --http` servers on one catalog built from 2,000 generated skills, 20,000
 * skill_search calls from 50 concurrent clients through a round-robin balancer while an operator
 * publishes twice and `kill -9`s a server — then requests per second of 1 server vs 3 servers under
 * the same client load (no operator). Writes bench/results/load.md.
 *
 *   npm run bench:load [-- --skills 2000 --servers 3 --calls 20000 --clients 50
 *                         --scale-calls 10000 --catalog FILE|URL --no-telemetry --no-scale]
 *
 * Every flag also reads an environment variable (LOAD_SKILLS, LOAD_SERVERS, LOAD_CALLS,
 * LOAD_CLIENTS, LOAD_SCALE_CALLS, LOAD_CATALOG). Without --catalog the catalog is a fresh file in
 * bench/.work/load/; a `postgres://…` URL is handed to the CLI as is.
 */
import { rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { maskLocation } from './load/cluster.js';
import {
  DEFAULT_LOAD,
  measureThroughput,
  runLoad,
  type LoadReport,
  type Throughput,
} from './load/harness.js';
import { WORK, fmt, machineLine, writeResult } from './lib.js';

function arg(name: string, env: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const raw = i > 0 ? process.argv[i + 1] : process.env[env];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} (or ${env}) must be a positive integer, got ${raw}`);
  return n;
}

const SKILLS = arg('--skills', 'LOAD_SKILLS', DEFAULT_LOAD.skills);
const SERVERS = arg('--servers', 'LOAD_SERVERS', DEFAULT_LOAD.servers);
const CALLS = arg('--calls', 'LOAD_CALLS', DEFAULT_LOAD.calls);
const CLIENTS = arg('--clients', 'LOAD_CLIENTS', DEFAULT_LOAD.clients);
/** Calls timed per configuration in the 1 vs N servers comparison. */
const SCALE_CALLS = arg('--scale-calls', 'LOAD_SCALE_CALLS', 5_000);
const TELEMETRY = !process.argv.includes('--no-telemetry');
const SCALE = !process.argv.includes('--no-scale');

function catalogLocation(workDir: string): string {
  const i = process.argv.indexOf('--catalog');
  const named = i > 0 ? process.argv[i + 1] : process.env['LOAD_CATALOG'];
  if (named !== undefined && named !== '') return named;
  const file = path.join(workDir, 'catalog.sqlite');
  for (const f of [
    file,
    `${file}-wal`,
    `${file}-shm`,
    path.join(workDir, 'catalog.telemetry.sqlite'),
  ]) {
    rmSync(f, { force: true });
  }
  return file;
}

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function loadSection(r: LoadReport): string[] {
  const gens = r.published.map(
    (g, i) =>
      `| ${i === 0 ? 'initial index' : `publish ${i}`} | \`${g.slice(0, 19)}…\` | ${r.answered_generations[g] ?? 0} |`,
  );
  const finalOk = r.final.filter((f) => f.ok).length;
  return [
    `## Load: ${r.servers} servers, ${r.clients} clients, ${r.skills} skills`,
    '',
    `Catalog \`${r.catalog}\`; servers ${r.telemetry ? 'with' : 'without'} telemetry.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| skill_search calls answered | ${r.calls} |`,
    `| app-level errors | ${r.app_errors} |`,
    `| failovers (connection refused/reset, retried on the next server) | ${r.failovers} |`,
    `| CATALOG_UNAVAILABLE during a database restart | ${r.restart.ran ? r.unavailable : 'no restart (SQLite)'} |`,
    `| answers from a generation not published | ${r.unknown_generations.length} |`,
    `| stale-pin fetches / answered CATALOG_GENERATION_MISMATCH | ${r.stale_pin.calls} / ${r.stale_pin.mismatch} |`,
    `| final checks on surviving servers (search + fetch of every publish's changes) | ${finalOk} / ${r.final.length} ok |`,
    `| latency p50 / p95 / p99 / max (ms) | ${fmt(r.latency_ms.p50, 1)} / ${fmt(r.latency_ms.p95, 1)} / ${fmt(r.latency_ms.p99, 1)} / ${fmt(r.latency_ms.max, 1)} |`,
    `| wall time (s) | ${fmt(r.duration_ms / 1000, 1)} |`,
    `| requests/second | ${fmt(r.requests_per_second, 0)} |`,
    '',
    '| generation | catalog_generation | answers |',
    '|---|---|---|',
    ...gens,
    '',
    'Timeline:',
    '',
    ...r.events.map((e) => `- ${fmt(e.at_ms / 1000, 1)} s, after ${e.at_call} calls: ${e.what}`),
    ...(r.error_samples.length > 0
      ? ['', 'First errors:', '', ...r.error_samples.map((e) => `- ${e.replace(/\s+/g, ' ')}`)]
      : []),
  ];
}

function scaleSection(runs: readonly Throughput[]): string[] {
  const one = runs.filter((t) => t.servers === 1);
  const many = runs.filter((t) => t.servers === SERVERS);
  const best = (xs: readonly Throughput[]): number =>
    Math.max(...xs.map((t) => t.requests_per_second));
  const ratio = best(many) / best(one);
  return [
    `## Requests per second: 1 server vs ${SERVERS}`,
    '',
    `${SCALE_CALLS} skill_search calls from ${CLIENTS} clients per run, no operator, after an untimed warm-up; the two configurations alternate twice and the best run of each is compared.`,
    '',
    '| servers | calls | errors | wall (s) | req/s | p50 / p95 / p99 (ms) | server CPU ms/call | client CPU ms/call |',
    '|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (t) =>
        `| ${t.servers} | ${t.calls} | ${t.errors} | ${fmt(t.duration_ms / 1000, 1)} | ${fmt(t.requests_per_second, 0)} | ${fmt(t.latency_ms.p50, 1)} / ${fmt(t.latency_ms.p95, 1)} / ${fmt(t.latency_ms.p99, 1)} | ${t.server_cpu_ms_per_call === undefined ? 'n/a' : fmt(t.server_cpu_ms_per_call)} | ${fmt(t.client_cpu_ms_per_call)} |`,
    ),
    '',
    `Ratio ${SERVERS} servers / 1 server: **${fmt(ratio)}×** (the issue's target: ≥ 2.5×) on ${availableParallelism()} cores.`,
    '',
    'Server CPU per call is what one answer costs the servers together; when it stays the same with',
    `${SERVERS} servers as with 1, the servers share nothing that slows them and the ratio is bounded by the`,
    'cores left after the clients: one server is one thread (better-sqlite3 is synchronous), so it',
    `cannot use more than one core, while ${SERVERS} servers and the client process compete for the`,
    `machine's ${availableParallelism()}. Cores available to the servers / one core is the ceiling of the ratio.`,
  ];
}

async function main(): Promise<void> {
  const workDir = path.join(WORK, 'load');
  const catalog = catalogLocation(workDir);
  log(
    `load: ${SKILLS} skills, ${SERVERS} servers, ${CALLS} calls, ${CLIENTS} clients on ${maskLocation(catalog)}`,
  );
  const report = await runLoad({
    catalog,
    workDir,
    skills: SKILLS,
    servers: SERVERS,
    calls: CALLS,
    clients: CLIENTS,
    telemetry: TELEMETRY,
    log,
  });
  const lines = [
    '# Load test',
    '',
    `${machineLine()}; ${availableParallelism()} cores available (shared with other work on this machine).`,
    '',
    ...loadSection(report),
  ];
  if (SCALE && SERVERS > 1) {
    const runs: Throughput[] = [];
    for (const servers of [1, SERVERS, 1, SERVERS]) {
      log(`throughput: ${servers} server(s)…`);
      runs.push(
        await measureThroughput({
          catalog,
          workDir,
          servers,
          clients: CLIENTS,
          calls: SCALE_CALLS,
          telemetry: TELEMETRY,
        }),
      );
    }
    lines.push('', ...scaleSection(runs));
  }
  writeResult('load', lines.join('\n'));
  if (report.app_errors > 0 || report.unknown_generations.length > 0) process.exitCode = 1;
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
