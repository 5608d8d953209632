/**
 * Who an MCP request comes from, as the telemetry and usage examples record it (docs/integration.md
 * §5, docs/ranking.md §9): a client and a session. On stdio one connection is one client and one
 * session: the client is `mcp:` + the name its `initialize` gave, the session one random id per
 * server. Over HTTP the server is stateless and keeps no session (start.ts), so the only identity a
 * request carries that it did not choose freely is its bearer token: the client and the session are
 * both `http:` + a fingerprint of the token (`http:anonymous` without one). Every HTTP client of a
 * token therefore counts as one session, which is what lets no single client earn a fetch example
 * full weight. Names are labels, never trusted: they only decide which caps a row falls under.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { UsageOrigin } from '../internal.js';

/** The part of a tool handler's `extra` this reads. */
export interface RequestExtra {
  readonly requestInfo?: { readonly headers?: Readonly<Record<string, unknown>> };
}

/** Longest client name kept from `initialize` (the rest is cut). */
export const MAX_CLIENT_NAME_CHARS = 64;

/** A new stdio session id (one per server, so per connection). */
export function newSessionId(): string {
  return `mcp:${randomUUID()}`;
}

/** The origin of one request to `server` (see the file header). */
export function requestOrigin(
  server: McpServer,
  extra: RequestExtra,
  session: string,
): UsageOrigin {
  if (extra.requestInfo !== undefined) {
    const auth = extra.requestInfo.headers?.['authorization'];
    const token = typeof auth === 'string' ? /^Bearer\s+(\S+)/i.exec(auth)?.[1] : undefined;
    const who =
      token === undefined
        ? 'http:anonymous'
        : `http:${createHash('sha256').update(token).digest('hex').slice(0, 12)}`;
    return { client: who, session: who };
  }
  const name = server.server.getClientVersion()?.name ?? 'unknown';
  return { client: `mcp:${name.slice(0, MAX_CLIENT_NAME_CHARS)}`, session };
}
