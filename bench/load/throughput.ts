/**
 * Requests per second of N `skilldex mcp --http` servers on one catalog under a fixed client load,
 * with no operator (issue #16): what the 1-server vs N-server comparison and the before/after
 * comparison of two builds time. Besides the rate and the latency it reads the CPU time every
 * party used per answered call — the servers (from /proc), this process (the clients and the
 * balancer) and, when given, the database's processes — so the reader can tell a machine out of
 * cores from servers that slow each other down; and, when given, what the database's sessions
 * waited on meanwhile.
 *
 * It never opens the catalog itself and kills its servers before it returns or throws.
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { LoadBalancer } from './balancer.js';
import { cpuMsOf, findBin, killAll, startServers } from './cluster.js';
import { drive, latencyOf, type Latency } from './drive.js';
import { makeQueries } from './library.js';
import type { WaitSummary } from './postgres.js';

/** Options of measureThroughput: the catalog (already indexed) and the load's shape. */
export interface ThroughputOptions {
  readonly catalog: string;
  /** Working folder and HOME of the servers. */
  readonly workDir: string;
  readonly servers: number;
  readonly clients: number;
  /** Calls timed (after an untimed warm-up of 100 per server). */
  readonly calls: number;
  readonly telemetry: boolean;
  /** The CLI shim of the build to run (default: this tree's bin/skilldex.js). */
  readonly bin?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** CPU time the database's processes used so far, in ms (PostgreSQL; none for SQLite). */
  readonly dbCpuMs?: () => number | undefined;
  /** Starts sampling the database's waits; stopped when the timed part ends. */
  readonly sampleWaits?: () => { stop(): WaitSummary };
  /** Per-call timeout in ms (default 30,000). */
  readonly callTimeoutMs?: number;
}

/** Requests per second of `servers` servers under a fixed client load (no operator). */
export interface Throughput {
  readonly servers: number;
  readonly calls: number;
  readonly errors: number;
  readonly duration_ms: number;
  readonly requests_per_second: number;
  readonly latency_ms: Latency;
  /** CPU time the servers used per answered call, in ms (undefined without /proc). */
  readonly server_cpu_ms_per_call: number | undefined;
  /** CPU time this process (the clients and the balancer) used per answered call, in ms. */
  readonly client_cpu_ms_per_call: number;
  /** CPU time the database's processes used per answered call, in ms (when measured). */
  readonly db_cpu_ms_per_call: number | undefined;
  /** What the database's sessions waited on during the timed part (when sampled). */
  readonly waits: WaitSummary | undefined;
  /** The machine's 1-minute load average when the timed part began (it is shared). */
  readonly load_average: number;
  /** Cores the whole machine kept busy during the timed part (from /proc/stat; undefined without it). */
  readonly machine_busy_cores: number | undefined;
  /** Cores this test kept busy meanwhile: servers, clients and database together. */
  readonly test_busy_cores: number | undefined;
}

/** CPU time the whole machine has spent busy (all but idle and iowait), in ms, from /proc/stat. */
export function machineBusyMs(): number | undefined {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal …, in USER_HZ (100 per second) ticks.
  const t = line.trim().split(/\s+/).slice(1, 9).map(Number);
  const busy = t.reduce((a, b) => a + b, 0) - t[3]! - t[4]!;
  return Number.isFinite(busy) ? busy * 10 : undefined;
}

/**
 * Starts `servers` servers on an already-indexed catalog, warms each up, then times `calls`
 * skill_search calls from `clients` clients through the balancer. Kills its servers before it
 * returns or throws.
 */
export async function measureThroughput(o: ThroughputOptions): Promise<Throughput> {
  const timeoutMs = o.callTimeoutMs ?? 30_000;
  const cli = { bin: o.bin ?? findBin(), cwd: o.workDir, env: o.env ?? {} };
  try {
    const servers = await startServers(cli, o.servers, o.catalog, o.telemetry);
    const lb = new LoadBalancer(servers, { timeoutMs });
    const queries = makeQueries(4_096, 99);
    // Warm-up: JIT, page cache and statement caches on every server, untimed.
    await drive(lb, {
      clients: o.clients,
      queries: queries.slice(-512),
      more: (n) => n < 100 * o.servers,
    });
    let toolErrors = 0;
    const serverCpu = (): number | undefined =>
      servers.reduce<number | undefined>((sum, p) => {
        const ms = cpuMsOf(p.child.pid);
        return sum === undefined || ms === undefined ? undefined : sum + ms;
      }, 0);
    const load = loadavg()[0]!;
    const waits = o.sampleWaits?.();
    const db0 = o.dbCpuMs?.();
    const cpu0 = serverCpu();
    const client0 = process.cpuUsage();
    const machine0 = machineBusyMs();
    const run = await drive(lb, {
      clients: o.clients,
      queries,
      more: (n) => n < o.calls,
      onAnswer: (r) => {
        if (!r.answer.ok) toolErrors++;
      },
    });
    const cpu1 = serverCpu();
    const client = process.cpuUsage(client0);
    const db1 = o.dbCpuMs?.();
    const machine1 = machineBusyMs();
    const waited = waits?.stop();
    await Promise.all(servers.map((s) => s.stop()));
    const perCall = (a: number | undefined, b: number | undefined): number | undefined =>
      a === undefined || b === undefined ? undefined : (b - a) / run.answered;
    const clientMs = (client.user + client.system) / 1000;
    const testMs =
      cpu0 === undefined || cpu1 === undefined
        ? undefined
        : cpu1 - cpu0 + clientMs + (db0 !== undefined && db1 !== undefined ? db1 - db0 : 0);
    return {
      servers: o.servers,
      calls: run.answered,
      errors: run.lost + toolErrors,
      duration_ms: run.durationMs,
      requests_per_second: run.answered / (run.durationMs / 1000),
      latency_ms: latencyOf(run.latenciesMs),
      server_cpu_ms_per_call: perCall(cpu0, cpu1),
      client_cpu_ms_per_call: clientMs / run.answered,
      db_cpu_ms_per_call: perCall(db0, db1),
      waits: waited,
      load_average: load,
      machine_busy_cores:
        machine0 === undefined || machine1 === undefined
          ? undefined
          : (machine1 - machine0) / run.durationMs,
      test_busy_cores: testMs === undefined ? undefined : testMs / run.durationMs,
    };
  } finally {
    killAll();
  }
}
