/**
 * Starting the MCP server on a transport: stdio (the default; stdout carries only JSON-RPC) or
 * Streamable HTTP on `host:port` (127.0.0.1 unless told otherwise). Over HTTP the server is
 * stateless — every POST stands alone, no session, JSON answers — and one McpServer, built at start,
 * answers every request through http-transport.ts (no server, tool registration or schema is built
 * per request). Every HTTP request, `/healthz` included, passes the shared guard of src/http first
 * (Host and Origin checks against DNS rebinding and foreign pages; then, except for `/healthz`,
 * the bearer token when one is set); then http-post.ts checks the POST as the SDK's own transport
 * would (Accept, Content-Type, batch, protocol version). A bind outside loopback is refused without
 * a token; a busy port is PORT_IN_USE.
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import {
  assertTokenLength,
  baseUrlOf,
  checkRequest,
  isLoopback,
  listen,
  type GuardConfig,
} from '../http/index.js';
import { SkilldexError, jsonText } from '../internal.js';
import type { ServerContext } from './context.js';
import { parsePost } from './http-post.js';
import { SharedHttpTransport } from './http-transport.js';
import { createServer } from './server.js';

/** Largest HTTP request body accepted: 1 MiB. */
export const MAX_HTTP_BODY = 1024 * 1024;

/** Serves `ctx` over stdio until the client closes the stream. */
export async function serveStdio(ctx: ServerContext): Promise<void> {
  const server = createServer(ctx);
  const transport = new JsonTextStdioTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.on('end', () => resolve());
  });
  await server.connect(transport);
  ctx.log('skilldex mcp: serving on stdio');
  await closed;
  await server.close();
}

/**
 * The SDK's stdio transport with each message written by jsonText, the one JSON writer (no raw
 * control, bidi or TAG character on the wire; secrets masked), one message per line as the SDK
 * writes them (`serializeMessage`, src/shared/stdio.ts of the SDK).
 */
class JsonTextStdioTransport extends StdioServerTransport {
  constructor(private readonly out: NodeJS.WritableStream = process.stdout) {
    super(process.stdin, out as NodeJS.WriteStream);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.out.write(jsonText(message) + '\n')) resolve();
      else this.out.once('drain', () => resolve());
    });
  }
}

/** A running HTTP server: its URL and a way to stop it. */
export interface HttpHandle {
  readonly url: string;
  readonly server: Server;
  close(): Promise<void>;
}

/** Options of serveHttp. */
export interface HttpOptions {
  /** Bearer token every request must carry (`Authorization: Bearer <token>`); required off loopback. */
  readonly token?: string;
}

/**
 * Serves `ctx` over Streamable HTTP at `http://host:port/mcp` (port 0: any free port).
 * INVALID_ARGUMENT for a non-loopback `host` without a token, or a token under MIN_TOKEN_CHARS (src/http).
 */
export async function serveHttp(
  ctx: ServerContext,
  port: number,
  host: string,
  options: HttpOptions = {},
): Promise<HttpHandle> {
  const token = options.token;
  assertTokenLength(token, '--token-file');
  if (!isLoopback(host) && token === undefined) {
    throw new SkilldexError(
      'INVALID_ARGUMENT',
      `--host ${host} is not a loopback address: anyone who can reach it could read every skill; set a token (--token-file FILE or SKILLDEX_MCP_TOKEN)`,
      { option: '--host', value: host },
    );
  }
  let boundPort = port;
  // One server for the life of the process, connected once (see http-transport.ts).
  const server = createServer(ctx);
  const transport = new SharedHttpTransport();
  await server.connect(transport);
  const guard = (): GuardConfig => ({
    bindHost: host,
    port: boundPort,
    // Browser-based MCP clients (an inspector page on another local port) may call a loopback server.
    loopbackOrigins: true,
    ...(token !== undefined ? { token } : {}),
  });
  const http = createHttpServer((req, res) => {
    handleRequest({ ctx, transport, guard }, req, res).catch((err: unknown) => {
      ctx.log(`skilldex mcp: request failed: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'internal error');
    });
  });
  try {
    await listen(http, port, host);
  } catch (err) {
    await server.close();
    throw err;
  }
  const bound = baseUrlOf(http);
  boundPort = bound.port;
  const url = `${bound.base}/mcp`;
  ctx.log(`skilldex mcp: listening on ${url}`);
  return {
    url,
    server: http,
    close: async () => {
      await new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      });
      await server.close();
    },
  };
}

/** What answering one HTTP request needs: the server's context, its transport and guard rules. */
interface HttpState {
  readonly ctx: ServerContext;
  readonly transport: SharedHttpTransport;
  /** The guard's rules, read per request (the port is known once the server listens). */
  readonly guard: () => GuardConfig;
}

/** Answers one HTTP request: the guard first, then `/healthz`, then a POST to `/mcp`. */
async function handleRequest(
  s: HttpState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const headers = {
    host: req.headers.host,
    origin: req.headers.origin,
    authorization: req.headers.authorization,
    'sec-fetch-site': single(req.headers['sec-fetch-site']),
  };
  // A load balancer's health check: no token needed, and nothing in the answer but the
  // published generation (200) or the failure code (503, e.g. CATALOG_UNAVAILABLE). The Host
  // and Origin checks still apply: a rebinding page must not read even the generation.
  const health =
    req.method === 'GET' && (req.url === '/healthz' || req.url?.startsWith('/healthz?'));
  const refusal = checkRequest(s.guard(), headers, !health);
  if (!refusal && health) {
    sendHealth(s.ctx, res);
    return;
  }
  if (refusal) {
    if (refusal.status === 401) res.setHeader('www-authenticate', 'Bearer');
    sendJsonRpcError(res, refusal.status, -32001, refusal.message);
    return;
  }
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname !== '/mcp') {
    res
      .writeHead(404, { 'content-type': 'text/plain' })
      .end('skilldex mcp: POST JSON-RPC to /mcp\n');
    return;
  }
  if (req.method !== 'POST') {
    // Stateless server: no SSE stream to resume and no session to delete.
    sendJsonRpcError(res, 405, -32000, 'method not allowed: POST JSON-RPC to /mcp');
    return;
  }
  await answerPost(s.transport, req, res, url);
}

/**
 * Answers a POST to `/mcp` that passed the guard: the body read (413 over MAX_HTTP_BODY) and
 * parsed (-32700), checked as the SDK's transport checks it (http-post.ts), then exchanged with
 * the server; 202 when it held no request.
 */
async function answerPost(
  transport: SharedHttpTransport,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const body = await readBody(req);
  if (body === undefined) {
    // The rest of the body is discarded unread; the connection ends with this answer.
    res.setHeader('connection', 'close');
    sendJsonRpcError(res, 413, -32600, `request body over ${MAX_HTTP_BODY} bytes`);
    return;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    sendJsonRpcError(res, 400, -32700, 'parse error: the body is not JSON');
    return;
  }
  const post = parsePost(
    {
      ...(req.headers.accept !== undefined ? { accept: req.headers.accept } : {}),
      ...(req.headers['content-type'] !== undefined
        ? { 'content-type': req.headers['content-type'] }
        : {}),
      ...(typeof req.headers['mcp-protocol-version'] === 'string'
        ? { 'mcp-protocol-version': req.headers['mcp-protocol-version'] }
        : {}),
    },
    parsed,
  );
  if ('status' in post) {
    sendJsonRpcError(res, post.status, post.code, post.message);
    return;
  }
  const exchange = transport.exchange(post.messages, {
    requestInfo: { headers: req.headers, url },
  });
  // A client that hangs up before its answer: the answer, when it comes, is dropped.
  res.on('close', () => exchange.abandon());
  const answers = await exchange.answers;
  if (post.requests === 0) {
    // Only notifications (or responses): accepted, nothing to answer.
    res.writeHead(202).end();
    return;
  }
  if (res.destroyed) return;
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(jsonText(answers.length === 1 ? answers[0] : answers));
}

// Resolves undefined as soon as the body passes MAX_HTTP_BODY. The request is not destroyed there:
// that would reset the socket before the 413 answer reaches the client; later chunks are dropped.
function readBody(req: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      if (size > MAX_HTTP_BODY) return;
      size += c.length;
      if (size > MAX_HTTP_BODY) {
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(c);
    });
    req.on('end', () =>
      resolve(size > MAX_HTTP_BODY ? undefined : Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
  });
}

function single(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function sendJsonRpcError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
): void {
  res
    .writeHead(status, { 'content-type': 'application/json' })
    .end(jsonText({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

// GET /healthz: whether this server can answer from its catalog right now.
function sendHealth(ctx: ServerContext, res: ServerResponse): void {
  let body: Record<string, unknown>;
  let status = 200;
  try {
    body = { status: 'ok', catalog_generation: ctx.router.currentGeneration() };
  } catch (err) {
    status = 503;
    const code = (err as { code?: unknown }).code;
    body = { status: 'unavailable', code: typeof code === 'string' ? code : 'INTERNAL' };
  }
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(jsonText(body) + '\n');
}
