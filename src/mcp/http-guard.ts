/**
 * Who may talk to the HTTP MCP server (issue 11): loopback by address range, Host and Origin
 * headers checked case-insensitively against loopback names (DNS-rebinding protection), and a
 * bearer token compared in constant time. Pure functions of the bind address and the request
 * headers; start.ts applies them before a request reaches the MCP transport.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** Shortest bearer token accepted, in characters: a guessable token is no protection. */
export const MIN_TOKEN_CHARS = 16;

/** True when `address` (an IP literal or a host name) is a loopback address: 127.0.0.0/8, ::1, localhost. */
export function isLoopback(address: string): boolean {
  const a = address.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (a === 'localhost' || a.endsWith('.localhost')) return true;
  const v = isIP(a);
  if (v === 4) return a.split('.')[0] === '127';
  if (v === 6) {
    if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
    // An IPv4-mapped loopback (::ffff:127.0.0.1).
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
    return mapped !== null && isLoopback(mapped[1]!);
  }
  return false;
}

/** The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`), lower-cased; undefined when malformed. */
export function hostOf(header: string): { host: string; port?: string } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]\s]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m) return undefined;
  return { host: m[1]!.toLowerCase(), ...(m[2] !== undefined ? { port: m[2] } : {}) };
}

/** Why a request is refused (HTTP status and message), or undefined when it may go on. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly message: string;
}

/** What the guard knows: whether the server is bound to loopback, its port, and the token (if any). */
export interface GuardConfig {
  readonly loopback: boolean;
  readonly port: number;
  readonly token?: string;
}

/**
 * Checks one request's headers. On a loopback bind the Host must name a loopback host on the
 * server's port (any case); an Origin, when sent, must be a loopback origin (or, on any bind, the
 * request's own Host); with a token, `Authorization: Bearer <token>` must match it.
 */
export function checkRequest(
  config: GuardConfig,
  headers: { host?: string; origin?: string; authorization?: string },
): Refusal | undefined {
  const host = headers.host === undefined ? undefined : hostOf(headers.host);
  if (config.loopback) {
    if (
      !host ||
      !isLoopback(host.host) ||
      (host.port !== undefined && host.port !== String(config.port))
    ) {
      return {
        status: 403,
        message: `Host ${JSON.stringify(headers.host ?? '')} is not this loopback server`,
      };
    }
  }
  if (headers.origin !== undefined && !originAllowed(headers.origin, headers.host)) {
    return { status: 403, message: `Origin ${JSON.stringify(headers.origin)} is not allowed` };
  }
  if (config.token !== undefined && !tokenMatches(config.token, headers.authorization)) {
    return {
      status: 401,
      message: 'missing or wrong bearer token (Authorization: Bearer <token>)',
    };
  }
  return undefined;
}

function originAllowed(origin: string, hostHeader: string | undefined): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" and other opaque origins
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (isLoopback(url.hostname)) return true;
  return hostHeader !== undefined && url.host.toLowerCase() === hostHeader.trim().toLowerCase();
}

// Constant-time: both sides are hashed to 32 bytes first, so neither length nor content leaks
// through the comparison's timing.
function tokenMatches(token: string, authorization: string | undefined): boolean {
  const m = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const given = m ? m[1]! : '';
  const a = createHash('sha256').update(token).digest();
  const b = createHash('sha256').update(given).digest();
  return timingSafeEqual(a, b) && m !== null;
}
