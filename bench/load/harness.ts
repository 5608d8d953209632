/**
 * The load test of issue #16, as a function: `runLoad({ catalog, … })` builds a catalog at `catalog`
 * (a SQLite file or a `postgres://…` URL: the harness only ever hands it to the CLI as `--catalog`)
 * from a generated library, starts N `skilldex mcp --http` servers on it, and drives C concurrent
 * `skill_search` clients through a round-robin balancer while an operator
 *   1. edits the library and runs `skilldex index` (index + publish in one),
 *   2. `kill -9`s one server (the balancer finds out from refused connections and fails over),
 *   3. runs the caller's `restart` hook, if any (a database restart: CATALOG_UNAVAILABLE answers are
 *      expected while it lasts and for a grace period after — the balancer tries those calls
 *      again — and every server must answer again),
 *   4. edits the library again and runs `skilldex index --no-publish` then `skilldex publish`,
 * and after each publish fetches with pins from an older generation. Afterwards every surviving
 * server is asked for each publish's changes and its `/healthz`. It reports what it saw; it asserts
 * nothing (test/mcp/load.test.ts and bench/load.ts judge the report). throughput.ts times the same
 * clients with no operator, for the 1-server vs N-server comparison.
 *
 * It never opens the catalog itself, never writes outside `workDir` (and the catalog), and kills
 * every process it started before it returns or throws.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { LoadBalancer, callTool, type Routed } from './balancer.js';
import {
  finalChecks,
  firstPin,
  healthOf,
  waitRecovered,
  type FinalCheck,
  type Health,
  type Pin,
} from './checks.js';
import { findBin, killAll, maskLocation, runJson, startServers, type CliEnv } from './cluster.js';
import { drive, latencyOf, type Latency } from './drive.js';
import { editLibrary, makeLibrary, makeQueries, type LibraryEdit } from './library.js';

/** The code a fetch pinned to an older generation must get. */
export const STALE_PIN_CODE = 'CATALOG_GENERATION_MISMATCH';

/** The code a server answers while its database is down (the PostgreSQL backend). */
export const UNAVAILABLE_CODE = 'CATALOG_UNAVAILABLE';

/** Options of runLoad. Every field but `catalog` and `workDir` has a default (DEFAULT_LOAD). */
export interface LoadOptions {
  /** The catalog location, passed as `--catalog` to every command: a file or a `postgres://…` URL. */
  readonly catalog: string;
  /** A folder the harness owns: the generated library, and the cwd and HOME of every child. */
  readonly workDir: string;
  /** Skills in the generated library (default 2,000). */
  readonly skills?: number;
  /** `skilldex mcp --http` servers (default 3). */
  readonly servers?: number;
  /** skill_search calls at least; the load also goes on until the operator is done (default 20,000). */
  readonly calls?: number;
  /** Concurrent clients (default 50). */
  readonly clients?: number;
  /** Servers record and rank with telemetry (default true; false passes `--no-telemetry`). */
  readonly telemetry?: boolean;
  /** `kill -9` one server mid-run (default true; never with a single server). */
  readonly kill?: boolean;
  /**
   * Restarts the catalog's database mid-run (e.g. `pg_ctl restart`); none by default (SQLite has no
   * server to restart). While it runs and for `restartGraceMs` after, a CATALOG_UNAVAILABLE answer
   * is counted as `unavailable`, not as an error, and the balancer tries the call again; the call
   * must still end with an answer. After the hook every live server must answer a search again;
   * one still failing `restartGraceMs` after it is an error. CATALOG_UNAVAILABLE at any other time
   * is an error.
   */
  readonly restart?: () => Promise<void>;
  /** See `restart` (default 15,000 ms). */
  readonly restartGraceMs?: number;
  /** What each publish changes (default 20 descriptions edited, 5 skills added, 5 removed). */
  readonly edits?: { readonly edit: number; readonly add: number; readonly remove: number };
  /** Each client fetches with a stale pin once per this many of its searches, when it has one (default 100). */
  readonly staleEvery?: number;
  /** Per-call timeout in ms; a call over it is an error (default 30,000). */
  readonly callTimeoutMs?: number;
  /** The CLI shim (default: bin/skilldex.js above this file). */
  readonly bin?: string;
  /** Extra environment for every child, e.g. PGPASSWORD (PATH, HOME and PG* are passed already). */
  readonly env?: Readonly<Record<string, string>>;
  /** Progress lines (default: none). */
  readonly log?: (line: string) => void;
}

/** The defaults of LoadOptions: the issue's figures. */
export const DEFAULT_LOAD = Object.freeze({
  skills: 2_000,
  servers: 3,
  calls: 20_000,
  clients: 50,
  telemetry: true,
  kill: true,
  restartGraceMs: 15_000,
  edits: Object.freeze({ edit: 20, add: 5, remove: 5 }),
  staleEvery: 100,
  callTimeoutMs: 30_000,
});

/** One thing the operator did, and when. */
export interface LoadEvent {
  /** ms since the load started. */
  readonly at_ms: number;
  /** skill_search calls issued by then. */
  readonly at_call: number;
  readonly what: string;
}

/** What runLoad saw. */
export interface LoadReport {
  /** The catalog location with any password masked. */
  readonly catalog: string;
  readonly skills: number;
  readonly servers: number;
  readonly clients: number;
  readonly telemetry: boolean;
  /** skill_search calls answered (tool errors included, lost calls not). */
  readonly calls: number;
  /** Everything that is not a correct answer: lost calls, tool errors, wrong stale-pin answers, … */
  readonly app_errors: number;
  /** The first errors, for the reader. */
  readonly error_samples: readonly string[];
  /** Calls a lost connection moved to another server. */
  readonly failovers: number;
  /** CATALOG_UNAVAILABLE answers during a restart window (each tried again by the balancer). */
  readonly unavailable: number;
  /** Calls that got one or more of them before their answer. */
  readonly unavailable_calls: number;
  /** Generations the operator published in this run, in order (the first one: the initial index). */
  readonly published: readonly string[];
  /** Whether `skilldex generations` lists every one of them. */
  readonly published_listed: boolean;
  /** Answers per catalog_generation (skill_search results and the candidates in them). */
  readonly answered_generations: Readonly<Record<string, number>>;
  /** catalog_generation values answered that are not in `published`. */
  readonly unknown_generations: readonly string[];
  /** Fetches with a pin from an older published generation, and how many got STALE_PIN_CODE. */
  readonly stale_pin: { readonly calls: number; readonly mismatch: number };
  /** The server killed with SIGKILL, if any. */
  readonly killed: number | null;
  /** Servers (other than the killed one) that died during the run. */
  readonly crashed: readonly number[];
  /** Whether the restart hook ran; and ms from its end until every live server answered again. */
  readonly restart: { readonly ran: boolean; readonly recovered_ms: number | null };
  readonly final: readonly FinalCheck[];
  /** `GET /healthz` of every surviving server after the load: 200 with the last generation. */
  readonly health: readonly Health[];
  readonly events: readonly LoadEvent[];
  readonly latency_ms: Latency;
  readonly duration_ms: number;
  readonly requests_per_second: number;
}

type Resolved = Required<Omit<LoadOptions, 'restart' | 'bin' | 'env' | 'log'>> &
  Pick<LoadOptions, 'restart' | 'log'> & { readonly cli: CliEnv };

function resolveOptions(o: LoadOptions): Resolved {
  const known = new Set([
    ...Object.keys(DEFAULT_LOAD),
    'catalog',
    'workDir',
    'restart',
    'bin',
    'env',
    'log',
  ]);
  for (const k of Object.keys(o))
    if (!known.has(k)) throw new Error(`runLoad: unknown option "${k}"`);
  const defined = Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
  // A zero here would leave the operator waiting for calls no client issues.
  for (const k of [
    'skills',
    'servers',
    'calls',
    'clients',
    'staleEvery',
    'callTimeoutMs',
  ] as const) {
    const v = o[k];
    if (v !== undefined && !(Number.isInteger(v) && v >= 1)) {
      throw new Error(`runLoad: ${k} must be a positive integer, got ${v}`);
    }
  }
  mkdirSync(o.workDir, { recursive: true });
  return {
    ...DEFAULT_LOAD,
    ...defined,
    catalog: o.catalog,
    workDir: o.workDir,
    cli: { bin: o.bin ?? findBin(), cwd: o.workDir, env: o.env ?? {} },
  } as Resolved;
}

interface PublishReport {
  catalog_generation: string;
  changed: boolean;
}

async function publishedBy(cli: CliEnv, args: readonly string[]): Promise<PublishReport> {
  const out = (await runJson(cli, args)) as {
    publish?: PublishReport | null;
  } & Partial<PublishReport>;
  const pub = 'catalog_generation' in out ? (out as PublishReport) : out.publish;
  if (!pub) throw new Error(`skilldex ${args[0]} published nothing`);
  return pub;
}

/** Runs the load test; see the file header. Kills every child process before it returns or throws. */
export async function runLoad(options: LoadOptions): Promise<LoadReport> {
  const o = resolveOptions(options);
  const log = o.log ?? ((): void => undefined);
  try {
    return await runResolved(o, log);
  } finally {
    killAll();
  }
}

async function runResolved(o: Resolved, log: (line: string) => void): Promise<LoadReport> {
  const library = path.join(o.workDir, 'library');
  log(`generating ${o.skills} skills in ${library}…`);
  makeLibrary(library, o.skills);
  log(`indexing into ${maskLocation(o.catalog)}…`);
  // --allow-shrink: a catalog location reused from an earlier run held another library's skills.
  const first = await publishedBy(o.cli, [
    'index',
    '--catalog',
    o.catalog,
    '--scope',
    library,
    '--allow-shrink',
  ]);
  const published = [first.catalog_generation];
  log(`starting ${o.servers} servers…`);
  const servers = await startServers(o.cli, o.servers, o.catalog, o.telemetry);

  const errors: string[] = [];
  let errorCount = 0;
  const fail = (what: string): void => {
    errorCount++;
    if (errors.length < 20) {
      errors.push(what);
      log(`error: ${what}`);
    }
  };
  const generations = new Map<string, number>();
  const seen = (g: unknown): void => {
    const key = String(g);
    generations.set(key, (generations.get(key) ?? 0) + 1);
  };
  const pins = new Map<string, Pin>();
  let unavailable = 0;
  let restarting = false;
  let restartEnded = -Infinity;
  const inRestartWindow = (): boolean =>
    restarting || performance.now() - restartEnded < o.restartGraceMs;
  // CATALOG_UNAVAILABLE means "not now": the balancer tries the call again (next server, a pause
  // doubling from 100 ms to 1 s) for up to twice the grace period. During a restart window that
  // is expected and counted; at any other time it is an error. Either way the call itself must
  // end with an answer: a final answer that is a tool error is an error.
  const lb = new LoadBalancer(servers, {
    timeoutMs: o.callTimeoutMs,
    retryCodes: [UNAVAILABLE_CODE],
    retryForMs: 2 * o.restartGraceMs,
    onRetry: (server, code) => {
      if (inRestartWindow()) unavailable++;
      else fail(`server ${server} answered ${code} outside a database restart`);
    },
  });
  let unavailableCalls = 0;
  const toolError = (answer: { code: string; message: string }, what: string): void =>
    fail(`${what}: ${answer.code} ${answer.message}`);

  // The first answer of every server, before the load: each serves the initial generation. A
  // misspelt query first builds the server's fuzzy index, as the load's first unknown word would.
  for (const s of servers) {
    await callTool(s.url, 'skill_search', { query: 'pdff tabel extrct' }, o.callTimeoutMs);
    const a = await callTool(
      s.url,
      'skill_search',
      { query: 'pdf table extract' },
      o.callTimeoutMs,
    );
    const pin = firstPin(a);
    if (!pin) throw new Error(`server ${s.index} gave no candidate before the load`);
    pins.set(pin.catalog_generation, pin);
    seen(pin.catalog_generation);
  }

  let staleCalls = 0;
  let staleMismatch = 0;
  const staleFetch = async (): Promise<void> => {
    const latest = published[published.length - 1];
    const pin = published
      .filter((g) => g !== latest)
      .map((g) => pins.get(g))
      .find((p) => p);
    if (!pin) return;
    staleCalls++;
    let routed: Routed;
    try {
      routed = await lb.call('skill_fetch', {
        skill_id: pin.skill_id,
        expected_revision: pin.revision_id,
        catalog_generation: pin.catalog_generation,
        context: 'load test: a pin from an older generation',
      });
    } catch (err) {
      fail(`stale-pin fetch lost: ${String(err)}`);
      return;
    }
    if (!routed.answer.ok) {
      if (routed.answer.code === STALE_PIN_CODE) staleMismatch++;
      else toolError(routed.answer, `stale-pin fetch on server ${routed.server}`);
    } else fail(`stale-pin fetch of ${pin.skill_id} at ${pin.catalog_generation} was answered`);
  };

  // The operator's script, paced by the number of calls issued.
  let issued = 0;
  const waiters: { at: number; wake: () => void }[] = [];
  const atCall = (k: number): Promise<void> =>
    new Promise((wake) => (issued >= k ? wake() : waiters.push({ at: k, wake })));
  const events: LoadEvent[] = [];
  let t0 = performance.now();
  const event = (what: string): void => {
    events.push({ at_ms: Math.round(performance.now() - t0), at_call: issued, what });
    log(`[${issued} calls] ${what}`);
  };
  const edits: LibraryEdit[] = [];
  const publish = async (
    p: number,
    how: 'index' | 'index --no-publish + publish',
  ): Promise<void> => {
    edits.push(editLibrary(library, p, o.edits));
    const scope = ['--catalog', o.catalog, '--scope', library];
    let pub: PublishReport;
    if (how === 'index') pub = await publishedBy(o.cli, ['index', ...scope]);
    else {
      await runJson(o.cli, ['index', ...scope, '--no-publish']);
      pub = await publishedBy(o.cli, ['publish', '--catalog', o.catalog]);
    }
    if (!pub.changed || published.includes(pub.catalog_generation)) {
      throw new Error(`publish ${p} did not make a new generation (${pub.catalog_generation})`);
    }
    published.push(pub.catalog_generation);
    event(`published ${pub.catalog_generation} (${how})`);
    await staleFetch();
  };
  let killed: number | null = null;
  let recoveredMs: number | null = null;
  let operatorDone = false;
  const operator = async (): Promise<void> => {
    try {
      await atCall(Math.floor(o.calls * 0.15));
      await publish(1, 'index');
      if (o.kill && servers.length > 1) {
        await atCall(Math.floor(o.calls * 0.4));
        const victim = servers[servers.length - 1]!;
        await victim.kill9();
        killed = victim.index;
        event(`kill -9 server ${victim.index}`);
      }
      if (o.restart) {
        await atCall(Math.floor(o.calls * 0.5));
        event('restart hook started');
        restarting = true;
        try {
          await o.restart();
        } finally {
          restarting = false;
          restartEnded = performance.now();
        }
        event('restart hook ended');
        recoveredMs = await waitRecovered(
          servers.filter((s) => s.alive()),
          o.callTimeoutMs,
          o.restartGraceMs,
          () => restartEnded,
        );
        if (recoveredMs === null)
          fail(`a server still failed ${o.restartGraceMs} ms after the restart`);
        else event(`every live server answers again (${Math.round(recoveredMs)} ms)`);
      }
      await atCall(Math.floor(o.calls * 0.65));
      await publish(2, 'index --no-publish + publish');
    } finally {
      operatorDone = true;
    }
  };

  log(`load: ${o.calls} skill_search calls or more, ${o.clients} clients…`);
  const queries = makeQueries(4_096, o.calls + o.clients);
  t0 = performance.now();
  const operatorRun = operator();
  const onAnswer = async (routed: Routed, n: number): Promise<void> => {
    if (routed.retries > 0) unavailableCalls++;
    const a = routed.answer;
    if (!a.ok) {
      toolError(a, `skill_search on server ${routed.server}`);
      return;
    }
    const generation = String(a.result['catalog_generation']);
    seen(generation);
    const candidates = (a.result['candidates'] as Pin[] | undefined) ?? [];
    // Every candidate carries the generation too: all of them must be the answer's.
    const other = candidates.find((c) => c.catalog_generation !== generation);
    if (other)
      fail(`call ${n}: a candidate of ${other.catalog_generation} in an answer of ${generation}`);
    const pin = firstPin(a);
    if (pin && !pins.has(pin.catalog_generation)) pins.set(pin.catalog_generation, pin);
    if ((n + 1) % o.staleEvery === 0) await staleFetch();
  };
  const run = await drive(lb, {
    clients: o.clients,
    queries,
    more: (n) => n < o.calls || !operatorDone,
    onIssue: (n) => {
      issued = n + 1;
      for (let i = waiters.length - 1; i >= 0; i--) {
        if (issued >= waiters[i]!.at) waiters.splice(i, 1)[0]!.wake();
      }
    },
    onAnswer,
    onLost: (e) => fail(`call ${e.call} lost: ${e.what}`),
  });
  await operatorRun;
  log(`load done: ${run.answered} answers in ${Math.round(run.durationMs)} ms`);

  const survivors = servers.filter((s) => s.index !== killed);
  const crashed = survivors.filter((s) => !s.alive()).map((s) => s.index);
  for (const i of crashed) fail(`server ${i} died during the run`);
  const final = await finalChecks(
    survivors.filter((s) => s.alive()),
    edits,
    published[published.length - 1]!,
    o.callTimeoutMs,
  );
  for (const f of final.filter((x) => !x.ok))
    fail(`final check on server ${f.server}: ${JSON.stringify(f)}`);
  const health = await healthOf(
    survivors.filter((s) => s.alive()),
    o.callTimeoutMs,
  );
  for (const h of health.filter(
    (x) => x.status !== 200 || x.catalog_generation !== published[published.length - 1],
  ))
    fail(`GET /healthz of server ${h.server}: ${JSON.stringify(h)}`);
  const listed = (await runJson(o.cli, ['generations', '--catalog', o.catalog])) as {
    generations: { catalog_generation: string }[];
  };
  const listedIds = new Set(listed.generations.map((g) => g.catalog_generation));
  await Promise.all(servers.map((s) => s.stop()));

  const answered = Object.fromEntries(generations);
  return {
    catalog: maskLocation(o.catalog),
    skills: o.skills,
    servers: o.servers,
    clients: o.clients,
    telemetry: o.telemetry,
    calls: run.answered,
    app_errors: errorCount,
    error_samples: errors,
    failovers: lb.failovers,
    unavailable,
    unavailable_calls: unavailableCalls,
    published,
    published_listed: published.every((g) => listedIds.has(g)),
    answered_generations: answered,
    unknown_generations: Object.keys(answered).filter((g) => !published.includes(g)),
    stale_pin: { calls: staleCalls, mismatch: staleMismatch },
    killed,
    crashed,
    restart: { ran: o.restart !== undefined, recovered_ms: recoveredMs },
    final,
    health,
    events,
    latency_ms: latencyOf(run.latenciesMs),
    duration_ms: run.durationMs,
    requests_per_second: run.answered / (run.durationMs / 1000),
  };
}
