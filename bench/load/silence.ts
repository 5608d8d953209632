/**
 * The silenced database (issue 25): N `skilldex mcp --http` servers on a PostgreSQL catalog reach
 * the database through a loopback proxy (test/support/silent-proxy.mjs) that, mid-load, stops
 * forwarding without closing anything — what a frozen database host or a partition behind a proxy
 * looks like to a client, and what TCP keepalives alone never notice (the proxy's kernel keeps
 * acknowledging). Clients call skill_search and poll GET /healthz throughout. The case shows that
 * no call hangs past the servers' bound (statement timeout + margin, src/catalog/store/pg-wait.ts): while
 * the database is silent the servers answer CATALOG_UNAVAILABLE (a tool error) and /healthz 503,
 * and once the proxy forwards again every server answers searches on its own.
 */
import path from 'node:path';
import { startSilentProxy } from '../../test/support/proxy.js';
import { callTool, type ToolAnswer } from './balancer.js';
import { findBin, runJson, startServers, type CliEnv, type McpServerProcess } from './cluster.js';
import { makeLibrary, makeQueries } from './library.js';
import type { LoadCluster } from './postgres.js';

/** Options of the silence case. */
export interface SilenceOptions {
  readonly cluster: LoadCluster;
  /** Folder the case owns (library, HOME of the servers). */
  readonly workDir: string;
  readonly skills: number;
  readonly servers: number;
  readonly clients: number;
  /** Statement timeout of the servers' connections, ms (the URL's options): their bound is this + 1 s. */
  readonly statementTimeoutMs: number;
  /** Load before the silence, during it, and after it, ms. */
  readonly beforeMs: number;
  readonly silentMs: number;
  readonly afterMs: number;
  /** Client-side timeout of one call, ms: a call that takes longer counts as hung. */
  readonly callTimeoutMs: number;
  readonly log: (line: string) => void;
}

/** Calls and health checks of one phase. */
export interface PhaseCounts {
  ok: number;
  unavailable: number;
  otherErrors: number;
  /** Calls that got no answer within callTimeoutMs, or whose connection failed. */
  hung: number;
  maxCallMs: number;
  health200: number;
  health503: number;
  healthHung: number;
  maxHealthMs: number;
}

/** What the silence case measured. */
export interface SilenceReport {
  readonly servers: number;
  readonly clients: number;
  readonly skills: number;
  readonly statementTimeoutMs: number;
  readonly silentMs: number;
  readonly phases: Readonly<Record<'before' | 'silent' | 'after', PhaseCounts>>;
  /** ms from the end of the silence until every server had answered a search. */
  readonly recoveredMs: number | null;
  readonly errorSamples: readonly string[];
}

const empty = (): PhaseCounts => ({
  ok: 0,
  unavailable: 0,
  otherErrors: 0,
  hung: 0,
  maxCallMs: 0,
  health200: 0,
  health503: 0,
  healthHung: 0,
  maxHealthMs: 0,
});

/** Runs the case (see the file header). */
export async function runSilence(o: SilenceOptions): Promise<SilenceReport> {
  const cli: CliEnv = { bin: findBin(), cwd: o.workDir, env: {} };
  const library = makeLibrary(path.join(o.workDir, 'library'), o.skills);
  const direct = new URL(o.cluster.url);
  await runJson(cli, ['index', '--catalog', direct.toString(), '--scope', library]);
  const proxy = await startSilentProxy(Number(direct.port));
  const through = `postgres://${direct.username}@127.0.0.1:${proxy.port}${direct.pathname}?options=${encodeURIComponent(`-cstatement_timeout=${o.statementTimeoutMs}`)}`;
  const servers = await startServers(cli, o.servers, through, false);
  const phases = { before: empty(), silent: empty(), after: empty() };
  let phase: keyof typeof phases = 'before';
  const samples: string[] = [];
  const queries = makeQueries(1_024, 7);
  let stop = false;
  let silenceEnded = 0;
  const firstAnswer = new Map<number, number>();
  const client = async (c: number): Promise<void> => {
    for (let i = 0; !stop; i++) {
      const s = servers[(c + i) % servers.length]!;
      const at = phase;
      const t0 = performance.now();
      const a = await callTool(
        s.url,
        'skill_search',
        { query: queries[(c * 31 + i) % queries.length]! },
        o.callTimeoutMs,
      ).catch((err: unknown): ToolAnswer | 'hung' => {
        if (samples.length < 5) samples.push(`${at}: ${String(err).slice(0, 200)}`);
        return 'hung';
      });
      const ms = performance.now() - t0;
      const p = phases[at];
      p.maxCallMs = Math.max(p.maxCallMs, ms);
      if (a === 'hung') p.hung++;
      else if (a.ok) {
        p.ok++;
        if (at === 'after' && !firstAnswer.has(s.index))
          firstAnswer.set(s.index, performance.now() - silenceEnded);
      } else if (a.code === 'CATALOG_UNAVAILABLE') p.unavailable++;
      else {
        p.otherErrors++;
        if (samples.length < 5) samples.push(`${at}: ${a.code} ${a.message.slice(0, 160)}`);
      }
    }
  };
  const health = async (): Promise<void> => {
    while (!stop) {
      for (const s of servers) await healthOnce(s, phases[phase], o.callTimeoutMs);
      await new Promise((r) => setTimeout(r, 250));
    }
  };
  const running = [...Array.from({ length: o.clients }, (_, c) => client(c)), health()];
  try {
    await sleep(o.beforeMs);
    o.log(`silence: the proxy stops forwarding for ${o.silentMs / 1000} s`);
    await proxy.silence();
    phase = 'silent';
    await sleep(o.silentMs);
    await proxy.resume();
    silenceEnded = performance.now();
    phase = 'after';
    o.log('silence: the proxy forwards again');
    await sleep(o.afterMs);
  } finally {
    stop = true;
    await Promise.all(running);
    await Promise.all(servers.map((s) => s.stop()));
    proxy.stop();
  }
  return {
    servers: o.servers,
    clients: o.clients,
    skills: o.skills,
    statementTimeoutMs: o.statementTimeoutMs,
    silentMs: o.silentMs,
    phases,
    recoveredMs: firstAnswer.size === servers.length ? Math.max(...firstAnswer.values()) : null,
    errorSamples: samples,
  };
}

async function healthOnce(s: McpServerProcess, p: PhaseCounts, timeoutMs: number): Promise<void> {
  const t0 = performance.now();
  try {
    const res = await fetch(new URL('/healthz', s.url), { signal: AbortSignal.timeout(timeoutMs) });
    await res.text();
    if (res.status === 200) p.health200++;
    else if (res.status === 503) p.health503++;
  } catch {
    p.healthHung++;
  }
  p.maxHealthMs = Math.max(p.maxHealthMs, performance.now() - t0);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
