/**
 * Who may talk to skilldex's HTTP servers (`mcp --http` and `serve`), as pure functions of the bind
 * address, the port and the request headers (docs/integration.md §5, docs/explorer.md): one rule
 * set for both, so the two cannot drift apart again (issue 26).
 *
 * - Loopback is decided by address range (127.0.0.0/8, `::1`, `::ffff:127.0.0.0/104`) and by
 *   name (`localhost` and every `*.localhost`, RFC 6761 §6.3), brackets and case ignored.
 * - On a loopback bind the `Host` must be a loopback name on the server's own port (DNS rebinding).
 *   On any other bind a token is required at start, and the Host is not checked (a load balancer
 *   forwards its own public name).
 * - An `Origin`, when sent, must be the server's own (the request's Host, or a loopback name on the
 *   server's port of a loopback bind); a server that serves browser clients of other local pages
 *   (the MCP server: `loopbackOrigins`) also admits any loopback origin. A request without an
 *   Origin that a browser marks `Sec-Fetch-Site: cross-site` is refused.
 * - With a token, `Authorization: Bearer <token>` must match it, compared in constant time. There
 *   is no other way to carry it: no cookie (browsers send cookies to every port of a host) and no
 *   query parameter (URLs are logged).
 *
 * Never reads a socket, never answers a request: each server turns a Refusal into its own answer.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';

/** True when `address` (an IP literal, bracketed or not, or a host name) is a loopback address or name. */
export function isLoopback(address: string): boolean {
  const a = address
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (a === 'localhost' || a.endsWith('.localhost')) return /^[a-z0-9.-]+$/.test(a);
  const v = isIP(a);
  if (v === 4) return a.split('.')[0] === '127';
  if (v === 6) {
    // Every spelling of ::1 (0:0:0:0:0:0:0:1, ::0:1…), and IPv4-mapped loopback (::ffff:127.0.0.1,
    // which Node also writes ::ffff:7f00:1).
    const groups = expandIpv6(a);
    if (groups === undefined) return false;
    if (groups.slice(0, 7).every((g) => g === 0) && groups[7] === 1) return true;
    return (
      groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff && groups[6]! >> 8 === 127
    );
  }
  return false;
}

// The eight 16-bit groups of an IPv6 literal (a dotted IPv4 tail counts as two), or undefined.
function expandIpv6(a: string): number[] | undefined {
  let text = a.replace(/%.*$/, '');
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [b1, b2, b3, b4] = v4.slice(1).map(Number) as [number, number, number, number];
    text =
      text.slice(0, v4.index) + `${((b1 << 8) | b2).toString(16)}:${((b3 << 8) | b4).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const part = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const head = part(halves[0]!);
  const tail = halves.length === 2 ? part(halves[1]!) : [];
  const fill = 8 - head.length - tail.length;
  if (fill < 0 || (halves.length === 1 && fill !== 0)) return undefined;
  return [...head, ...new Array<number>(fill).fill(0), ...tail];
}

/**
 * The name and port of a `Host` header value (`name`, `name:port`, `[v6]:port`), the name
 * lower-cased; undefined when malformed (spaces, an unbracketed IPv6 address, a port over 5 digits).
 */
export function hostOf(header: string): { host: string; port?: number } | undefined {
  const m = /^(\[[0-9a-f:.]+\]|[^:[\]\s/@]+)(?::(\d{1,5}))?$/i.exec(header.trim());
  if (!m) return undefined;
  return { host: m[1]!.toLowerCase(), ...(m[2] !== undefined ? { port: Number(m[2]) } : {}) };
}

/** What the guard knows about one running server. */
export interface GuardConfig {
  /** The address the server is bound to, as given (`127.0.0.1`, `[::1]`, `localhost`, `0.0.0.0`…). */
  readonly bindHost: string;
  /** The port it listens on. */
  readonly port: number;
  /** The bearer token, when one is required. */
  readonly token?: string;
  /**
   * Admit an Origin that is any loopback origin (any port), not only the server's own. The MCP
   * server does (browser-based MCP clients run on another local port); the explorer does not.
   */
  readonly loopbackOrigins?: boolean;
}

/** The request headers the guard reads (lower-case names, as node:http gives them). */
export interface GuardHeaders {
  readonly host?: string | undefined;
  readonly origin?: string | undefined;
  readonly authorization?: string | undefined;
  readonly 'sec-fetch-site'?: string | undefined;
}

/** Why a request is refused: the HTTP status, the skilldex code, a message and details. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly code: 'FORBIDDEN_ORIGIN' | 'UNAUTHORIZED';
  readonly message: string;
  readonly details: Readonly<Record<string, unknown>>;
}

/**
 * Checks one request: a Refusal, or undefined when it may go on. `needToken: false` checks Host,
 * Origin and Sec-Fetch-Site only (a health check answers load balancers, which hold no token).
 */
export function checkRequest(
  config: GuardConfig,
  headers: GuardHeaders,
  needToken = true,
): Refusal | undefined {
  const loopbackBind = isLoopback(config.bindHost);
  const host = headers.host === undefined ? undefined : hostOf(headers.host);
  // A Host without a port names port 80 (RFC 9110 §7.2).
  if (loopbackBind && (!host || !isLoopback(host.host) || (host.port ?? 80) !== config.port)) {
    return forbidden(`Host ${JSON.stringify(headers.host ?? '')} does not name this server`, {
      host: headers.host ?? null,
    });
  }
  const origin = headers.origin;
  if (origin !== undefined && !originAllowed(config, origin, headers.host, loopbackBind)) {
    return forbidden(`Origin ${JSON.stringify(origin)} is not allowed`, { origin });
  }
  // A browser that sends no Origin (a navigation, an image) still says where the request came from.
  if (origin === undefined && headers['sec-fetch-site']?.toLowerCase() === 'cross-site') {
    return forbidden('a cross-site request was refused', { 'sec-fetch-site': 'cross-site' });
  }
  if (!needToken || config.token === undefined) return undefined;
  const offered = bearerOf(headers.authorization);
  if (offered === undefined || !sameSecret(offered, config.token)) {
    return {
      status: 401,
      code: 'UNAUTHORIZED',
      message:
        offered === undefined
          ? 'this server needs a token: send Authorization: Bearer <token>'
          : 'the bearer token is wrong',
      details: {},
    };
  }
  return undefined;
}

function forbidden(message: string, details: Record<string, unknown>): Refusal {
  return { status: 403, code: 'FORBIDDEN_ORIGIN', message, details };
}

function originAllowed(
  config: GuardConfig,
  origin: string,
  hostHeader: string | undefined,
  loopbackBind: boolean,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // "null" and other opaque origins
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // An origin is scheme://host[:port] and nothing else.
  if (url.origin !== origin.trim().toLowerCase().replace(/\/$/, '')) return false;
  if (config.loopbackOrigins === true && isLoopback(url.hostname)) return true;
  // A loopback server speaks plain HTTP on its own port; elsewhere a TLS front may stand before it,
  // so the origin need only name the Host the request was sent to.
  if (loopbackBind)
    return (
      url.protocol === 'http:' && isLoopback(url.hostname) && Number(url.port || 80) === config.port
    );
  return hostHeader !== undefined && url.host === hostHeader.trim().toLowerCase();
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearerOf(authorization: string | undefined): string | undefined {
  const m = authorization === undefined ? null : /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization);
  return m ? m[1] : undefined;
}

/** Constant-time equality of two secrets: both hashed first, so neither length nor content leaks. */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}
