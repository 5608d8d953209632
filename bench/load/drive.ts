/**
 * The load itself (issue #16): C concurrent clients, each a loop of `skill_search` calls through the
 * load balancer, over a fixed list of queries taken in turn. The driver counts calls, errors and
 * latencies; what an answer means is the caller's (`onAnswer`), and so is when to stop (`more`).
 */
import { percentile } from '../lib.js';
import type { LoadBalancer, Routed } from './balancer.js';

/** Latency percentiles of one run, in ms. */
export interface Latency {
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly max: number;
}

/** Computes the latency summary of `ms`. */
export function latencyOf(ms: readonly number[]): Latency {
  return {
    p50: percentile(ms, 50),
    p95: percentile(ms, 95),
    p99: percentile(ms, 99),
    max: ms.reduce((m, x) => Math.max(m, x), 0),
  };
}

/** A failure that reached a client (after the balancer's one retry). */
export interface CallError {
  readonly call: number;
  readonly what: string;
}

/** How the driver runs. */
export interface DriveOptions {
  readonly clients: number;
  readonly queries: readonly string[];
  /** Whether to issue call number `n` (0-based); the driver stops a client at the first false. */
  readonly more: (n: number) => boolean;
  /** Sees each answer; `n` is the call's number. May issue more calls of its own (awaited). */
  readonly onAnswer?: (routed: Routed, n: number) => Promise<void> | void;
  /** Sees each lost call as it happens. */
  readonly onLost?: (error: CallError) => void;
  /** Called after call number `n` was issued (before its answer). */
  readonly onIssue?: (n: number) => void;
}

/** Errors kept as samples; the rest are only counted. */
const MAX_ERROR_SAMPLES = 20;

/** Pause of a client after a lost call, in ms: a failing loop must not starve the event loop. */
const BACKOFF_MS = 20;

/** What one drive did. */
export interface DriveResult {
  /** skill_search calls answered by a server (errors not included). */
  readonly answered: number;
  /** Calls lost after the balancer's retry (or failed below the tool: HTTP, JSON-RPC, timeout). */
  readonly lost: number;
  /** The first of them. */
  readonly errors: readonly CallError[];
  readonly latenciesMs: readonly number[];
  readonly durationMs: number;
}

/** Runs `clients` concurrent client loops against `lb` until `more` says stop. */
export async function drive(lb: LoadBalancer, o: DriveOptions): Promise<DriveResult> {
  let issued = 0;
  let answered = 0;
  let lost = 0;
  const errors: CallError[] = [];
  const latencies: number[] = [];
  const client = async (): Promise<void> => {
    while (o.more(issued)) {
      const n = issued++;
      o.onIssue?.(n);
      const query = o.queries[n % o.queries.length]!;
      const t0 = performance.now();
      let routed: Routed;
      try {
        routed = await lb.call('skill_search', { query });
      } catch (err) {
        lost++;
        const e = { call: n, what: err instanceof Error ? err.message : String(err) };
        if (errors.length < MAX_ERROR_SAMPLES) errors.push(e);
        o.onLost?.(e);
        await new Promise((r) => setTimeout(r, BACKOFF_MS));
        continue;
      }
      latencies.push(performance.now() - t0);
      answered++;
      await o.onAnswer?.(routed, n);
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: o.clients }, client));
  return { answered, lost, errors, latenciesMs: latencies, durationMs: performance.now() - t0 };
}
