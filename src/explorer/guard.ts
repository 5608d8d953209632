/**
 * The explorer's request guard (issue 15), pure functions of the request's headers: the Host must
 * name this server (a loopback name or address, compared case-insensitively, or the address it was
 * bound to) on its port, so a DNS-rebinding page cannot reach it; an Origin, when sent, must be the
 * server's own; and with a token configured every request carries it (a bearer header, or the
 * cookie the page receives when opened with `?token=`), compared in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { SkilldexError } from '../index.js';

/** Cookie that carries the token for the page's own requests once opened with `?token=`. */
export const TOKEN_COOKIE = 'skilldex_token';

/** Host names that always mean this machine. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** True when `host` (a bind address or Host name, any case) is a loopback name or address. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return (
    LOOPBACK_NAMES.has(h) ||
    /^127(\.\d{1,3}){3}$/.test(h) ||
    h === '0:0:0:0:0:0:0:1' ||
    h === '[0:0:0:0:0:0:0:1]'
  );
}

/** What the guard knows about the running server. */
export interface GuardConfig {
  /** The address the server is bound to. */
  readonly host: string;
  /** The port it listens on. */
  readonly port: number;
  /** The bearer token, when one is required. */
  readonly token?: string;
}

/** The headers the guard reads (lower-case names). */
export interface GuardHeaders {
  readonly host?: string | undefined;
  readonly origin?: string | undefined;
  readonly authorization?: string | undefined;
  readonly cookie?: string | undefined;
  readonly 'sec-fetch-site'?: string | undefined;
}

/** Throws FORBIDDEN_ORIGIN for a foreign Host or Origin, UNAUTHORIZED for a missing or wrong token. */
export function checkRequest(
  config: GuardConfig,
  headers: GuardHeaders,
  queryToken?: string,
): void {
  const host = headers.host;
  if (host === undefined || !isOwnHost(config, host)) {
    throw new SkilldexError(
      'FORBIDDEN_ORIGIN',
      `Host ${JSON.stringify(host ?? '')} does not name this server`,
      { host: host ?? null },
    );
  }
  const origin = headers.origin;
  if (origin !== undefined && !isOwnOrigin(config, origin)) {
    throw new SkilldexError(
      'FORBIDDEN_ORIGIN',
      `Origin ${JSON.stringify(origin)} is not this server's own`,
      { origin },
    );
  }
  // A browser that sends no Origin on a GET still says where the request came from.
  if (headers['sec-fetch-site'] === 'cross-site') {
    throw new SkilldexError('FORBIDDEN_ORIGIN', 'a cross-site request was refused', {
      'sec-fetch-site': 'cross-site',
    });
  }
  if (config.token === undefined) return;
  const offered =
    bearerOf(headers.authorization) ?? queryToken ?? cookieOf(headers.cookie, TOKEN_COOKIE);
  if (offered === undefined || !sameSecret(offered, config.token)) {
    throw new SkilldexError(
      'UNAUTHORIZED',
      offered === undefined ? 'this server needs a token' : 'the token is wrong',
      {},
    );
  }
}

/** Constant-time equality of two secrets (hashed first, so their lengths do not leak either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb);
}

function isOwnHost(config: GuardConfig, hostHeader: string): boolean {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d+))?$/.exec(hostHeader.trim());
  if (!m) return false;
  const name = m[1]!.toLowerCase();
  const port = m[2] === undefined ? 80 : Number(m[2]);
  if (port !== config.port) return false;
  if (isLoopback(name)) return true;
  const bound = config.host.toLowerCase();
  return name === bound || name === `[${bound}]`;
}

function isOwnOrigin(config: GuardConfig, origin: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  return (
    url.protocol === 'http:' && url.origin === origin.toLowerCase() && isOwnHost(config, url.host)
  );
}

function bearerOf(authorization: string | undefined): string | undefined {
  const m = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  return m ? m[1] : undefined;
}

function cookieOf(cookie: string | undefined, name: string): string | undefined {
  if (cookie === undefined) return undefined;
  for (const part of cookie.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name)
      return decodeURIComponent(part.slice(i + 1).trim());
  }
  return undefined;
}
