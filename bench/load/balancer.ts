/**
 * The load test's client side (issue #16): one MCP tool call as a plain JSON-RPC POST to a stateless
 * `skilldex mcp --http` server (docs/integration.md; no initialize needed, JSON responses), and a
 * simulated load balancer in front of N servers: round-robin over the servers it believes up; a
 * refused or reset connection marks that server down for a while (a passive health check) and the
 * call is retried once on the next server, counted as a failover. A tool answer with a code the
 * caller names retryable (CATALOG_UNAVAILABLE while a database restarts) is tried again after a
 * pause, on the next server. Anything else — an HTTP status other than 200, a JSON-RPC error, a
 * timeout — is the caller's to count as an error.
 */

/** What a tool call answered: its structured result, or the coded tool error. */
export type ToolAnswer =
  | { readonly ok: true; readonly result: Record<string, unknown> }
  | { readonly ok: false; readonly code: string; readonly message: string };

/** The connection to a server failed (refused, reset, closed mid-answer): another server may answer. */
export class ConnectionLost extends Error {
  override readonly name = 'ConnectionLost';
}

/** Error codes of a connection that failed below HTTP (Node's and undici's spellings). */
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

function isConnectionFailure(err: unknown): boolean {
  for (let e: unknown = err; e instanceof Error; e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return true;
  }
  return false;
}

/** The `_meta` key under which skilldex puts a tool error's `{ code, message }` (src/mcp/context.ts). */
const ERROR_META_KEY = 'dev.skilldex/error';

interface JsonRpcAnswer {
  result?: {
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
    content?: { type: string; text?: string }[];
    _meta?: Record<string, { code?: string; message?: string } | undefined>;
  };
  error?: { code: number; message: string };
}

let nextId = 1;

/**
 * Calls tool `name` on the server at `url` with one JSON-RPC POST. ConnectionLost when the
 * connection failed; an Error for any other failure (HTTP status, JSON-RPC error, timeout).
 */
export async function callTool(
  url: string,
  name: string,
  args: Record<string, unknown>,
  timeoutMs: number,
): Promise<ToolAnswer> {
  let status: number;
  let text: string;
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method: 'tools/call',
        params: { name, arguments: args },
      }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = res.status;
    text = await res.text();
  } catch (err) {
    if (isConnectionFailure(err))
      throw new ConnectionLost(`${url}: ${String(err)}`, { cause: err });
    throw err;
  }
  if (status !== 200) throw new Error(`${url} answered HTTP ${status}: ${text.slice(0, 300)}`);
  const msg = JSON.parse(text) as JsonRpcAnswer;
  if (msg.error)
    throw new Error(`${url} answered JSON-RPC error ${msg.error.code}: ${msg.error.message}`);
  const r = msg.result;
  if (!r) throw new Error(`${url} answered neither result nor error`);
  if (r.isError === true) {
    const coded = r._meta?.[ERROR_META_KEY] ?? parseCoded(r.content?.[0]?.text);
    return { ok: false, code: coded?.code ?? 'UNCODED', message: coded?.message ?? '' };
  }
  if (!r.structuredContent) throw new Error(`${url} answered no structuredContent`);
  return { ok: true, result: r.structuredContent };
}

function parseCoded(text: string | undefined): { code?: string; message?: string } | undefined {
  try {
    return text === undefined
      ? undefined
      : (JSON.parse(text) as { code?: string; message?: string });
  } catch {
    return { message: text };
  }
}

/** One server behind the balancer. */
export interface Backend {
  readonly index: number;
  readonly url: string;
}

/** What the balancer did for one call. */
export interface Routed {
  readonly answer: ToolAnswer;
  /** The server that answered. */
  readonly server: number;
  /** True when a first server's connection failed and the next one answered. */
  readonly failedOver: boolean;
  /** Answers with a retryable code (CATALOG_UNAVAILABLE) before this one. */
  readonly retries: number;
}

/** How long a server whose connection failed is left out of the rotation, in ms (nginx's fail_timeout is 10 s). */
export const DEFAULT_RETRY_AFTER_MS = 2_000;

/** First pause before a call answered with a retryable code is tried again, in ms; it doubles. */
export const RETRY_PAUSE_MS = 100;

/** Longest pause between two tries of one call, in ms. */
export const MAX_RETRY_PAUSE_MS = 1_000;

/** How the balancer behaves. */
export interface BalancerOptions {
  /** Per-HTTP-call timeout in ms; a call over it is the caller's error. */
  readonly timeoutMs: number;
  /** See DEFAULT_RETRY_AFTER_MS. */
  readonly retryAfterMs?: number;
  /**
   * Tool error codes that mean "not now" rather than "no": a call answered with one is tried again
   * on the next server after a pause (RETRY_PAUSE_MS, doubling to MAX_RETRY_PAUSE_MS), as a
   * balancer retries a 503 (nginx `proxy_next_upstream http_503`), until `retryForMs` has passed
   * since the call began; then the last answer is returned. Default none.
   */
  readonly retryCodes?: readonly string[];
  /** See `retryCodes` (default 30,000 ms). */
  readonly retryForMs?: number;
  /** Sees each answer that is retried, as it comes. */
  readonly onRetry?: (server: number, code: string) => void;
}

/**
 * Round-robin over the servers not seen failing lately; one retry on the next after a lost
 * connection. A failed server is left out for `retryAfterMs`, then tried again (nginx's
 * `max_fails=1 fail_timeout=…`): a dead one costs one failover per period, a reset from a busy one
 * does not drop it for good. With every server out, calls go to them all the same. Answers with a
 * code in `retryCodes` are tried again (see BalancerOptions).
 */
export class LoadBalancer {
  private readonly downUntil: number[];
  private readonly retryCodes: ReadonlySet<string>;
  private turn = 0;
  /** Calls a lost connection moved to another server. */
  failovers = 0;
  /** Answers with a retryable code that were tried again. */
  retried = 0;

  constructor(
    private readonly backends: readonly Backend[],
    private readonly options: BalancerOptions,
  ) {
    this.downUntil = backends.map(() => 0);
    this.retryCodes = new Set(options.retryCodes ?? []);
  }

  /** Indexes of the servers the balancer sends to now. */
  live(): number[] {
    return this.backends.filter((_, i) => this.isUp(i)).map((b) => b.index);
  }

  private isUp(i: number): boolean {
    return performance.now() >= this.downUntil[i]!;
  }

  /**
   * Calls `name` on the next live server, trying again while the answer has a retryable code;
   * ConnectionLost when a connection failed on the retry too.
   */
  async call(name: string, args: Record<string, unknown>): Promise<Routed> {
    const t0 = performance.now();
    const retryFor = this.options.retryForMs ?? 30_000;
    let pause = RETRY_PAUSE_MS;
    for (let retries = 0; ; retries++) {
      const r = await this.once(name, args);
      const code = r.answer.ok ? undefined : r.answer.code;
      if (
        code === undefined ||
        !this.retryCodes.has(code) ||
        performance.now() - t0 + pause > retryFor
      ) {
        return { ...r, retries };
      }
      this.retried++;
      this.options.onRetry?.(r.server, code);
      await new Promise((wake) => setTimeout(wake, pause));
      pause = Math.min(pause * 2, MAX_RETRY_PAUSE_MS);
    }
  }

  private async once(
    name: string,
    args: Record<string, unknown>,
  ): Promise<Omit<Routed, 'retries'>> {
    const first = this.pick(undefined);
    try {
      return {
        answer: await callTool(first.url, name, args, this.options.timeoutMs),
        server: first.index,
        failedOver: false,
      };
    } catch (err) {
      if (!(err instanceof ConnectionLost)) throw err;
      this.markDown(first);
    }
    this.failovers++;
    const second = this.pick(first);
    try {
      return {
        answer: await callTool(second.url, name, args, this.options.timeoutMs),
        server: second.index,
        failedOver: true,
      };
    } catch (err) {
      if (err instanceof ConnectionLost) this.markDown(second);
      throw err;
    }
  }

  private markDown(b: Backend): void {
    this.downUntil[this.backends.indexOf(b)] =
      performance.now() + (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS);
  }

  // The next live server in turn, never `not`. When none is live, the next one in turn all the same
  // (as nginx never takes its only server out): better a retry than a refusal from the balancer.
  private pick(not: Backend | undefined): Backend {
    const n = this.backends.length;
    for (let k = 0; k < n; k++) {
      const i = this.turn++ % n;
      const b = this.backends[i]!;
      if (this.isUp(i) && b !== not) return b;
    }
    return this.backends.find((b) => b !== not) ?? this.backends[0]!;
  }
}
