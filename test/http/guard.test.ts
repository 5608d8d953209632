/**
 * The one HTTP guard of both servers (src/http, issue 26): loopback by address range and name, and
 * a table of requests — Host, Origin, Sec-Fetch-Site and bearer token — with the answer each gets,
 * for a loopback and a non-loopback bind, with and without a token. The MCP and explorer tests run
 * the same rules through their servers; this table is where the rules are written down once.
 */
import { describe, expect, it } from 'vitest';
import {
  bindAddress,
  checkRequest,
  hostOf,
  isLoopback,
  type GuardConfig,
  type GuardHeaders,
} from '../../src/http/index.js';

const TOKEN = 'a-token-of-sixteen-chars-or-more';

describe('isLoopback', () => {
  it.each([
    '127.0.0.1',
    '127.0.0.2',
    '127.255.255.254',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::0:1',
    '::ffff:127.0.0.1',
    '[::ffff:127.0.0.1]',
    '::ffff:7f00:1',
    'localhost',
    'LOCALHOST',
    'app.localhost',
    'a.b.localhost',
  ])('%s is loopback', (a) => {
    expect(isLoopback(a)).toBe(true);
  });

  it.each([
    '0.0.0.0',
    '10.0.0.1',
    '128.0.0.1',
    '::',
    '::2',
    '::ffff:10.0.0.1',
    '::ffff:128.0.0.1',
    'evil.example',
    '127.0.0.1.evil.example',
    'localhost.evil.example',
    'evil_localhost',
    'a b.localhost',
    '',
  ])('%s is not loopback', (a) => {
    expect(isLoopback(a)).toBe(false);
  });
});

describe('hostOf and bindAddress', () => {
  it('reads name and port, lower-cased, and refuses malformed values', () => {
    expect(hostOf('LocalHost:8080')).toEqual({ host: 'localhost', port: 8080 });
    expect(hostOf('[::1]:9')).toEqual({ host: '[::1]', port: 9 });
    expect(hostOf('example.com')).toEqual({ host: 'example.com' });
    for (const bad of ['::1', 'a b:1', 'user@host:1', 'host:123456', 'host/x:1', ''])
      expect(hostOf(bad), bad).toBeUndefined();
  });

  it('binds a bracketed IPv6 literal as the bare address', () => {
    expect(bindAddress('[::1]')).toBe('::1');
    expect(bindAddress('::1')).toBe('::1');
    expect(bindAddress(' 127.0.0.1 ')).toBe('127.0.0.1');
  });
});

const LOOP: GuardConfig = { bindHost: '127.0.0.1', port: 8787 };
const LOOP_V6: GuardConfig = { bindHost: '[::1]', port: 8787 };
const LOOP_TOKEN: GuardConfig = { ...LOOP, token: TOKEN };
const MCP: GuardConfig = { ...LOOP, loopbackOrigins: true };
const OPEN: GuardConfig = { bindHost: '0.0.0.0', port: 8787, token: TOKEN };

type Expect = 'ok' | 'FORBIDDEN_ORIGIN' | 'UNAUTHORIZED';
const CASES: readonly [string, GuardConfig, GuardHeaders, Expect, boolean?][] = [
  // Host on a loopback bind: a loopback name on this port, any case.
  ['own Host', LOOP, { host: '127.0.0.1:8787' }, 'ok'],
  ['Host in capitals', LOOP, { host: 'LOCALHOST:8787' }, 'ok'],
  ['Host [::1]', LOOP, { host: '[::1]:8787' }, 'ok'],
  ['Host *.localhost', LOOP, { host: 'app.localhost:8787' }, 'ok'],
  ['Host ::ffff:127.0.0.1', LOOP, { host: '[::ffff:127.0.0.1]:8787' }, 'ok'],
  ['Host on a [::1] bind', LOOP_V6, { host: '[::1]:8787' }, 'ok'],
  ['no Host', LOOP, {}, 'FORBIDDEN_ORIGIN'],
  ['foreign Host (rebinding)', LOOP, { host: 'evil.example:8787' }, 'FORBIDDEN_ORIGIN'],
  ['loopback Host, other port', LOOP, { host: 'localhost:8788' }, 'FORBIDDEN_ORIGIN'],
  ['loopback Host, no port (80)', LOOP, { host: 'localhost' }, 'FORBIDDEN_ORIGIN'],
  ['look-alike Host', LOOP, { host: 'localhost.evil.example:8787' }, 'FORBIDDEN_ORIGIN'],
  ['malformed Host', LOOP, { host: 'local host:8787' }, 'FORBIDDEN_ORIGIN'],
  // Host on a non-loopback bind (token required at start): a load balancer's name passes.
  [
    'public Host on an open bind',
    OPEN,
    { host: 'skills.example.com', authorization: `Bearer ${TOKEN}` },
    'ok',
  ],
  // Origin: the server's own, or (MCP) any loopback origin.
  ['own Origin', LOOP, { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787' }, 'ok'],
  [
    'loopback Origin on this port',
    LOOP,
    { host: '127.0.0.1:8787', origin: 'http://localhost:8787' },
    'ok',
  ],
  [
    'loopback Origin, other port',
    LOOP,
    { host: '127.0.0.1:8787', origin: 'http://localhost:3000' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'loopback Origin, other port (MCP)',
    MCP,
    { host: '127.0.0.1:8787', origin: 'http://localhost:3000' },
    'ok',
  ],
  [
    'foreign Origin',
    LOOP,
    { host: '127.0.0.1:8787', origin: 'http://evil.example' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'foreign Origin (MCP)',
    MCP,
    { host: '127.0.0.1:8787', origin: 'https://evil.example' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'look-alike Origin',
    MCP,
    { host: '127.0.0.1:8787', origin: 'http://127.0.0.1.evil.example:8787' },
    'FORBIDDEN_ORIGIN',
  ],
  ['opaque Origin', MCP, { host: '127.0.0.1:8787', origin: 'null' }, 'FORBIDDEN_ORIGIN'],
  ['file Origin', MCP, { host: '127.0.0.1:8787', origin: 'file://' }, 'FORBIDDEN_ORIGIN'],
  [
    'Origin with a path',
    LOOP,
    { host: '127.0.0.1:8787', origin: 'http://127.0.0.1:8787/x' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'https Origin of the http server',
    LOOP,
    { host: '127.0.0.1:8787', origin: 'https://127.0.0.1:8787' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'own Origin behind a balancer',
    OPEN,
    {
      host: 'skills.example.com',
      origin: 'https://skills.example.com',
      authorization: `Bearer ${TOKEN}`,
    },
    'ok',
  ],
  [
    'foreign Origin on an open bind',
    OPEN,
    {
      host: 'skills.example.com',
      origin: 'https://evil.example',
      authorization: `Bearer ${TOKEN}`,
    },
    'FORBIDDEN_ORIGIN',
  ],
  // Sec-Fetch-Site without an Origin.
  [
    'cross-site without Origin',
    LOOP,
    { host: '127.0.0.1:8787', 'sec-fetch-site': 'cross-site' },
    'FORBIDDEN_ORIGIN',
  ],
  [
    'CROSS-SITE without Origin',
    LOOP,
    { host: '127.0.0.1:8787', 'sec-fetch-site': 'CROSS-SITE' },
    'FORBIDDEN_ORIGIN',
  ],
  ['same-origin fetch', LOOP, { host: '127.0.0.1:8787', 'sec-fetch-site': 'same-origin' }, 'ok'],
  // Bearer token, compared whole.
  ['right token', LOOP_TOKEN, { host: '127.0.0.1:8787', authorization: `Bearer ${TOKEN}` }, 'ok'],
  [
    'scheme in lower case',
    LOOP_TOKEN,
    { host: '127.0.0.1:8787', authorization: `bearer ${TOKEN}` },
    'ok',
  ],
  ['no token', LOOP_TOKEN, { host: '127.0.0.1:8787' }, 'UNAUTHORIZED'],
  [
    'token prefix',
    LOOP_TOKEN,
    { host: '127.0.0.1:8787', authorization: `Bearer ${TOKEN.slice(0, -1)}` },
    'UNAUTHORIZED',
  ],
  [
    'longer token',
    LOOP_TOKEN,
    { host: '127.0.0.1:8787', authorization: `Bearer ${TOKEN}x` },
    'UNAUTHORIZED',
  ],
  [
    'Basic scheme',
    LOOP_TOKEN,
    { host: '127.0.0.1:8787', authorization: `Basic ${TOKEN}` },
    'UNAUTHORIZED',
  ],
  ['empty Bearer', LOOP_TOKEN, { host: '127.0.0.1:8787', authorization: 'Bearer' }, 'UNAUTHORIZED'],
  [
    'two tokens',
    LOOP_TOKEN,
    { host: '127.0.0.1:8787', authorization: `Bearer ${TOKEN} ${TOKEN}` },
    'UNAUTHORIZED',
  ],
  ['no token on an open bind', OPEN, { host: 'skills.example.com' }, 'UNAUTHORIZED'],
  // Without the token check (a health check), Host and Origin still apply.
  ['health check, no token', LOOP_TOKEN, { host: '127.0.0.1:8787' }, 'ok', false],
  [
    'health check, foreign Host',
    LOOP_TOKEN,
    { host: 'evil.example:8787' },
    'FORBIDDEN_ORIGIN',
    false,
  ],
];

describe('checkRequest: the table', () => {
  it.each(CASES)('%s', (_name, config, headers, expected, needToken = true) => {
    const r = checkRequest(config, headers, needToken);
    if (expected === 'ok') expect(r).toBeUndefined();
    else {
      expect(r?.code).toBe(expected);
      expect(r?.status).toBe(expected === 'UNAUTHORIZED' ? 401 : 403);
    }
  });

  it('never puts the expected token in a refusal', () => {
    for (const [, config, headers, , needToken = true] of CASES) {
      const r = checkRequest(config, headers, needToken);
      if (r) expect(JSON.stringify(r)).not.toContain(TOKEN);
    }
  });
});
