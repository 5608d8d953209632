/**
 * Load benchmark (issue #16): the load test of bench/load/harness.ts at the issue's scale — 3
 * `skilldex mcp --http` servers on one catalog built from 2,000 generated skills, 20,000
 * skill_search calls from 50 concurrent clients through a round-robin balancer while an operator
 * publishes twice and `kill -9`s a server (and, on PostgreSQL, restarts the database) — on SQLite
 * and on PostgreSQL (a throwaway cluster the bench starts and removes). Then, per backend, with no
 * operator: requests per second and CPU per call of 1 server vs N servers, with the database's CPU
 * and what its sessions waited on; one server of this build vs a baseline build (`--baseline-bin`);
 * and Router.search in this process on the same queries, the floor under the server's CPU per
 * call. Writes bench/results/load.md.
 *
 *   npm run bench:load [-- --skills 2000 --servers 3 --calls 20000 --clients 50
 *                         --scale-calls 3000 --backend sqlite|postgres|both
 *                         --baseline-bin OTHER/bin/skilldex.js --call-timeout-ms 60000
 *                         --no-telemetry --no-scale]
 *
 * Every number flag also reads an environment variable (LOAD_SKILLS, LOAD_SERVERS, LOAD_CALLS,
 * LOAD_CLIENTS, LOAD_SCALE_CALLS, LOAD_CALL_TIMEOUT_MS). The SQLite catalog is a fresh file in bench/.work/load/; without
 * PostgreSQL's server binaries the PostgreSQL part is skipped with a message.
 */
import { rmSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { Router } from '../src/internal.js';
import { killAll, maskLocation } from './load/cluster.js';
import { DEFAULT_LOAD, runLoad, type LoadReport } from './load/harness.js';
import { makeQueries } from './load/library.js';
import { sampleWaits, startLoadCluster, type LoadCluster } from './load/postgres.js';
import { measureThroughput, type Throughput, type ThroughputOptions } from './load/throughput.js';
import { WORK, fmt, machineLine, writeResult } from './lib.js';

function arg(name: string, env: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const raw = i > 0 ? process.argv[i + 1] : process.env[env];
  const n = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name} (or ${env}) must be a positive integer, got ${raw}`);
  return n;
}

function text(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
}

const SKILLS = arg('--skills', 'LOAD_SKILLS', DEFAULT_LOAD.skills);
const SERVERS = arg('--servers', 'LOAD_SERVERS', DEFAULT_LOAD.servers);
const CALLS = arg('--calls', 'LOAD_CALLS', DEFAULT_LOAD.calls);
const CLIENTS = arg('--clients', 'LOAD_CLIENTS', DEFAULT_LOAD.clients);
/** Calls timed per run in the comparisons. */
const SCALE_CALLS = arg('--scale-calls', 'LOAD_SCALE_CALLS', 3_000);
/**
 * Per-call timeout, ms: a guard against a hang, not a latency target (nginx's proxy_read_timeout
 * is 60 s too). Two cores that other work keeps busy can hold a call for tens of seconds.
 */
const CALL_TIMEOUT_MS = arg('--call-timeout-ms', 'LOAD_CALL_TIMEOUT_MS', 60_000);
const TELEMETRY = !process.argv.includes('--no-telemetry');
const SCALE = !process.argv.includes('--no-scale');
const BACKEND = text('--backend') ?? 'both';
if (!['sqlite', 'postgres', 'both'].includes(BACKEND))
  throw new Error(`--backend must be sqlite, postgres or both, got ${BACKEND}`);
const BASELINE_BIN = text('--baseline-bin');
const CORES = availableParallelism();
/** Router.search calls timed in process, per backend. */
const IN_PROCESS_CALLS = 1_000;

const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};

function freshSqlite(workDir: string): string {
  const file = path.join(workDir, 'catalog.sqlite');
  // The catalog and its telemetry side store (src/catalog/side/telemetry.ts), with their WAL files.
  for (const f of [file, path.join(workDir, 'catalog.telemetry.sqlite')])
    for (const ext of ['', '-wal', '-shm']) rmSync(`${f}${ext}`, { force: true });
  return file;
}

const load1 = (): string => fmt(loadavg()[0]!, 1);

function loadSection(r: LoadReport): string[] {
  const gens = r.published.map(
    (g, i) =>
      `| ${i === 0 ? 'initial index' : `publish ${i}`} | \`${g.slice(0, 19)}…\` | ${r.answered_generations[g] ?? 0} |`,
  );
  const finalOk = r.final.filter((f) => f.ok).length;
  const healthy = r.health.filter((h) => h.status === 200).length;
  return [
    `### Load: ${r.servers} servers, ${r.clients} clients, ${r.skills} skills`,
    '',
    `Catalog \`${r.catalog}\`; servers ${r.telemetry ? 'with' : 'without'} telemetry.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| skill_search calls answered | ${r.calls} |`,
    `| app-level errors | ${r.app_errors} |`,
    `| failovers (connection refused/reset, retried on the next server) | ${r.failovers} |`,
    `| CATALOG_UNAVAILABLE answers during the database restart (retried) / calls they delayed | ${r.restart.ran ? `${r.unavailable} / ${r.unavailable_calls}` : 'no restart (SQLite has no server)'} |`,
    `| every live server answering again after the restart | ${r.restart.ran ? (r.restart.recovered_ms === null ? 'NOT within the grace period' : `${fmt(r.restart.recovered_ms / 1000, 1)} s after it ended`) : '—'} |`,
    `| answers from a generation not published | ${r.unknown_generations.length} |`,
    `| stale-pin fetches / answered CATALOG_GENERATION_MISMATCH | ${r.stale_pin.calls} / ${r.stale_pin.mismatch} |`,
    `| final checks on surviving servers (search + fetch of every publish's changes) | ${finalOk} / ${r.final.length} ok |`,
    `| survivors' GET /healthz: 200 with the last generation | ${healthy} / ${r.health.length} |`,
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

const na = (x: number | undefined, digits = 2): string =>
  x === undefined ? 'n/a' : fmt(x, digits);

function runRow(label: string, t: Throughput): string {
  return `| ${label} | ${t.calls} | ${t.errors} | ${fmt(t.requests_per_second, 0)} | ${fmt(t.latency_ms.p50, 0)} / ${fmt(t.latency_ms.p95, 0)} | ${na(t.server_cpu_ms_per_call)} | ${fmt(t.client_cpu_ms_per_call)} | ${na(t.db_cpu_ms_per_call)} | ${na(t.test_busy_cores)} / ${na(t.machine_busy_cores)} | ${fmt(t.load_average, 1)} |`;
}

const RUN_HEADER = [
  '| run | calls | errors | req/s | p50 / p95 (ms) | server CPU ms/call | client CPU ms/call | database CPU ms/call | cores busy: test / whole machine | load avg |',
  '|---|---|---|---|---|---|---|---|---|---|',
];

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const meanOf = (runs: readonly Throughput[], f: (t: Throughput) => number | undefined): number =>
  mean(runs.map((t) => f(t) ?? NaN));

function waitsLine(runs: readonly Throughput[]): string[] {
  const sampled = runs.filter((t) => t.waits !== undefined);
  if (sampled.length === 0) return [];
  const total = new Map<string, number>();
  let samples = 0;
  let active = 0;
  for (const t of sampled) {
    samples += t.waits!.samples;
    active += t.waits!.active;
    for (const [k, v] of Object.entries(t.waits!.waits)) total.set(k, (total.get(k) ?? 0) + v);
  }
  const lockWaits = [...total].filter(([k]) => k.startsWith('Lock:'));
  const listed = [...total].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v}`);
  return [
    '',
    `Database sessions sampled every 200 ms during these runs (${samples} samples, ${active} active sessions seen): ` +
      `${lockWaits.length === 0 ? 'no session ever waited on a lock' : `lock waits ${lockWaits.map(([k, v]) => `${k} ${v}`).join(', ')}`}; ` +
      `waits seen: ${listed.length === 0 ? 'none' : listed.join(', ')}.`,
  ];
}

/**
 * The ceiling of N servers / 1 server on this machine, from CPU per call. One server is one
 * thread whose catalog calls are synchronous: per call it spends s ms of CPU (its own) and waits
 * at least d ms for the database (the database's CPU per call; 0 for SQLite, which runs inside the
 * server and is counted in s), so it answers at most 1000 / (s + d) calls a second. The machine
 * answers at most CORES × 1000 / T, T = servers + clients + database per call. N servers: min(N ×
 * 1000 / (s + d), CORES × 1000 / T).
 */
function ceilingLines(one: readonly Throughput[], many: readonly Throughput[]): string[] {
  const s = meanOf(many, (t) => t.server_cpu_ms_per_call);
  const c = meanOf(many, (t) => t.client_cpu_ms_per_call);
  const d = meanOf(many, (t) => t.db_cpu_ms_per_call ?? 0);
  const total = s + c + d;
  const perServer = s + d;
  const oneMax = Math.min(1000 / perServer, (CORES * 1000) / total);
  const manyMax = Math.min((SERVERS * 1000) / perServer, (CORES * 1000) / total);
  const best = (xs: readonly Throughput[]): number =>
    Math.max(...xs.map((t) => t.requests_per_second));
  const s1 = meanOf(one, (t) => t.server_cpu_ms_per_call);
  const perServerText = d > 0 ? `(${fmt(s)} + ${fmt(d)})` : fmt(s);
  return [
    '',
    `Server CPU per call: ${fmt(s1)} ms with 1 server, ${fmt(s)} ms with ${SERVERS} (${fmt(s / s1)}×). ` +
      `Per call the test spends ${fmt(s)} (servers) + ${fmt(c)} (clients) + ${fmt(d)} (database) = ${fmt(total)} ms of CPU.`,
    '',
    `Ceiling on ${CORES} cores with nothing else running: one server is one thread${d > 0 ? ' that waits for the database on every call' : ''}, so 1 server ≤ min(1000 / ${perServerText}, ${CORES} × 1000 / ${fmt(total)}) = ${fmt(oneMax, 0)} req/s; ` +
      `${SERVERS} servers ≤ min(${SERVERS} × 1000 / ${perServerText}, ${CORES} × 1000 / ${fmt(total)}) = ${fmt(manyMax, 0)} req/s; ` +
      `ratio ceiling **${fmt(manyMax / oneMax)}×**. Measured (best runs): ${fmt(best(one), 0)} and ${fmt(best(many), 0)} req/s, **${fmt(best(many) / best(one))}×**.`,
  ];
}

interface Backend {
  readonly name: 'SQLite' | 'PostgreSQL';
  readonly catalog: string;
  readonly restart?: () => Promise<void>;
  readonly extra?: Pick<ThroughputOptions, 'dbCpuMs' | 'sampleWaits'>;
}

// Router.search in this process on the load's queries: the floor under a server's CPU per call
// (and the database's CPU per call meanwhile, when measured).
function inProcess(
  catalog: string,
  dbCpuMs: (() => number | undefined) | undefined,
): { cpu: number; db: number | undefined; p50: number } {
  const router = new Router({ catalog, telemetry: TELEMETRY });
  try {
    const queries = makeQueries(4_096, 99);
    for (const q of queries.slice(-200)) router.search({ query: q });
    const ms: number[] = [];
    const db0 = dbCpuMs?.();
    const c0 = process.cpuUsage();
    for (const q of queries.slice(0, IN_PROCESS_CALLS)) {
      const t0 = performance.now();
      router.search({ query: q });
      ms.push(performance.now() - t0);
    }
    const c = process.cpuUsage(c0);
    const db1 = dbCpuMs?.();
    ms.sort((a, b) => a - b);
    return {
      cpu: (c.user + c.system) / 1000 / IN_PROCESS_CALLS,
      db: db0 === undefined || db1 === undefined ? undefined : (db1 - db0) / IN_PROCESS_CALLS,
      p50: ms[ms.length >> 1]!,
    };
  } finally {
    router.close();
  }
}

async function backendSection(b: Backend, workDir: string): Promise<string[]> {
  log(`${b.name}: load on ${maskLocation(b.catalog)} (load average ${load1()})…`);
  const report = await runLoad({
    catalog: b.catalog,
    workDir,
    skills: SKILLS,
    servers: SERVERS,
    calls: CALLS,
    clients: CLIENTS,
    telemetry: TELEMETRY,
    callTimeoutMs: CALL_TIMEOUT_MS,
    ...(b.restart !== undefined ? { restart: b.restart } : {}),
    log,
  });
  if (report.app_errors > 0 || report.unknown_generations.length > 0) process.exitCode = 1;
  const lines = [`## ${b.name}`, '', ...loadSection(report)];
  if (!SCALE) return lines;
  const timed = (servers: number, bin?: string): Promise<Throughput> =>
    measureThroughput({
      catalog: b.catalog,
      workDir,
      servers,
      clients: CLIENTS,
      calls: SCALE_CALLS,
      telemetry: TELEMETRY,
      callTimeoutMs: CALL_TIMEOUT_MS,
      ...(bin !== undefined ? { bin } : {}),
      ...b.extra,
    });
  const scale: Throughput[] = [];
  for (const servers of [1, SERVERS, 1, SERVERS]) {
    log(`${b.name}: throughput of ${servers} server(s) (load average ${load1()})…`);
    scale.push(await timed(servers));
  }
  const one = scale.filter((t) => t.servers === 1);
  const many = scale.filter((t) => t.servers === SERVERS);
  lines.push(
    '',
    `### Requests per second: 1 server vs ${SERVERS}`,
    '',
    `${SCALE_CALLS} skill_search calls from ${CLIENTS} clients per run, no operator, after an untimed warm-up; the two configurations alternate twice. CPU per call from /proc/<pid>/stat (10 ms ticks); "cores busy" is CPU time over wall time, for the test's processes and for the whole machine (/proc/stat), which other work shares.`,
    '',
    ...RUN_HEADER,
    ...scale.map((t, i) => runRow(`${t.servers} server${t.servers > 1 ? 's' : ''} (${i + 1})`, t)),
    ...ceilingLines(one, many),
    ...waitsLine(scale),
  );
  const floor = inProcess(b.catalog, b.extra?.dbCpuMs);
  lines.push(
    '',
    `Router.search in this process on the same queries (${IN_PROCESS_CALLS} calls, one at a time, telemetry ${TELEMETRY ? 'on' : 'off'}): ${fmt(floor.cpu)} ms CPU per call${floor.db === undefined ? '' : ` (and ${fmt(floor.db)} ms of the database's)`}, p50 ${fmt(floor.p50)} ms — of a server's ${fmt(meanOf(one, (t) => t.server_cpu_ms_per_call))} ms per call with 1 server, the rest is HTTP, MCP and JSON.`,
  );
  if (BASELINE_BIN !== undefined) {
    const pairs: { label: string; t: Throughput }[] = [];
    for (const which of ['this build', 'baseline', 'this build', 'baseline'] as const) {
      log(`${b.name}: one server, ${which} (load average ${load1()})…`);
      pairs.push({
        label: which,
        t: await timed(1, which === 'baseline' ? BASELINE_BIN : undefined),
      });
    }
    const ours = pairs.filter((p) => p.label === 'this build').map((p) => p.t);
    const base = pairs.filter((p) => p.label === 'baseline').map((p) => p.t);
    const cpuOurs = meanOf(ours, (t) => t.server_cpu_ms_per_call);
    const cpuBase = meanOf(base, (t) => t.server_cpu_ms_per_call);
    const rpsOurs = meanOf(ours, (t) => t.requests_per_second);
    const rpsBase = meanOf(base, (t) => t.requests_per_second);
    lines.push(
      '',
      '### One server: this build vs the baseline',
      '',
      `The baseline is \`${BASELINE_BIN}\` (built from another checkout); the two alternate twice under the same client load.`,
      '',
      ...RUN_HEADER,
      ...pairs.map((p, i) => runRow(`${p.label} (${i + 1})`, p.t)),
      '',
      `Server CPU per call ${fmt(cpuOurs)} ms vs ${fmt(cpuBase)} ms (**${fmt(cpuBase / cpuOurs)}×** less); requests per second ${fmt(rpsOurs, 0)} vs ${fmt(rpsBase, 0)} (${fmt(rpsOurs / rpsBase)}×; bounded by the cores the machine leaves free, see "cores busy").`,
    );
  }
  return lines;
}

/** The PostgreSQL cluster while it runs: a signal stops it with the servers. */
let cluster: LoadCluster | undefined;

// An interrupted run leaves nothing behind: no server, no cluster (the 'exit' hooks do not run on
// a signal).
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    killAll();
    cluster?.stop();
    process.exit(130);
  });

async function main(): Promise<void> {
  const lines = [
    '# Load test',
    '',
    `${machineLine()}; ${CORES} cores available, shared with other work on this machine (load average ${load1()} at the start).`,
    '',
    `What counts: an **app-level error** is a call lost even after the balancer's retry, an HTTP status other than 200, a JSON-RPC error, a call over the per-call timeout (${fmt(CALL_TIMEOUT_MS / 1000, 0)} s), a tool error as a final answer, a candidate from another generation than its answer, a stale pin answered anything but CATALOG_GENERATION_MISMATCH, CATALOG_UNAVAILABLE outside a database restart, a server dying other than the one killed, or a failed final check. CATALOG_UNAVAILABLE while the database restarts (and 15 s after) is not an error: the balancer tries that call again on the next server after a pause (100 ms, doubling to 1 s), and the call must still end with an answer (docs/load-test.md).`,
  ];
  if (BACKEND !== 'postgres') {
    const workDir = path.join(WORK, 'load');
    lines.push(
      '',
      ...(await backendSection({ name: 'SQLite', catalog: freshSqlite(workDir) }, workDir)),
    );
  }
  if (BACKEND !== 'sqlite') {
    const pg = await startLoadCluster();
    cluster = pg;
    if (!pg) {
      log('PostgreSQL server binaries (initdb, pg_ctl) not found: the PostgreSQL part is SKIPPED.');
      lines.push('', '## PostgreSQL', '', 'Skipped: PostgreSQL server binaries not found.');
    } else {
      process.once('exit', () => pg.stop());
      try {
        lines.push(
          '',
          ...(await backendSection(
            {
              name: 'PostgreSQL',
              catalog: pg.url,
              restart: pg.restart,
              extra: { dbCpuMs: pg.cpuMs, sampleWaits: () => sampleWaits(pg.url) },
            },
            path.join(WORK, 'load-pg'),
          )),
          '',
          `PostgreSQL ${pg.cluster.bin.split('/').at(-2) ?? ''}: a throwaway cluster on loopback (fsync off, trust authentication), restarted with \`pg_ctl restart -m fast\`.`,
        );
      } finally {
        pg.stop();
      }
    }
  }
  writeResult('load', lines.join('\n'));
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
