/**
 * The explorer's HTTP application (issue 15): a hono app that guards every request with the shared
 * HTTP guard of src/http (Host, Origin, Sec-Fetch-Site on every request; the bearer token on every
 * `/api/` request), answers the JSON API (api.ts) with GET only, and serves the bundled page — one
 * HTML shell for every page path, and the static files built into `dist/explorer/assets/` — under
 * a strict Content-Security-Policy (own scripts and styles only, no inline code, no eval). The page
 * and its assets hold no catalog data and need no token: the page takes the token from the URL's
 * `#token=` fragment and sends it as a bearer header. No cookie is set and nothing redirects.
 * Any failure becomes the JSON error object `{ error: { code, message, hint, details } }` with its
 * HTTP status (a damaged catalog: 503 CATALOG_CORRUPT, as from the CLI and MCP); an unexpected one
 * is logged and answered 500 INTERNAL, and the server keeps serving.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Hono, type Context } from 'hono';
import { checkRequest, type GuardConfig } from '../http/index.js';
import {
  SkilldexError,
  codedFromForeign,
  jsonText,
  maskSecrets,
  type ErrorCode,
} from '../internal.js';
import {
  apiCascadeAudit,
  apiCascadeCrawl,
  apiCascadeRoots,
  apiCascadeTree,
  apiGenerationDiff,
  apiGenerations,
  apiOverview,
  apiPolicies,
  apiSearch,
  apiExamples,
  apiSkill,
  apiSkills,
  apiSubstrate,
  apiSubstrateContents,
  type ExplorerContext,
} from './api.js';

/** The Content-Security-Policy of every answer: nothing but this server's own files and API. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** HTTP status of each failure code the explorer can answer (anything else: 500). */
const STATUS: Partial<Record<ErrorCode, 400 | 401 | 403 | 404 | 405 | 409 | 503>> = {
  INVALID_QUERY: 400,
  INVALID_ARGUMENT: 400,
  PATH_OUTSIDE_ROOT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN_ORIGIN: 403,
  SKILL_NOT_FOUND: 404,
  SKILL_ARCHIVED: 404,
  GENERATION_NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  NOT_CONFIGURED: 404,
  METHOD_NOT_ALLOWED: 405,
  INDEX_DRIFT: 409,
  // A policy of another family than the catalog's stored data (catalog/store/layout.ts).
  REINDEX_REQUIRED: 409,
  CATALOG_MISSING: 503,
  CATALOG_EMPTY: 503,
  CATALOG_CORRUPT: 503,
  CATALOG_TOO_NEW: 503,
  CATALOG_ROLLBACK: 503,
  CATALOG_BUSY: 503,
  CATALOG_UNAVAILABLE: 503,
};

/** The HTTP status an error code is answered with. */
export function statusOf(code: ErrorCode): number {
  return STATUS[code] ?? 500;
}

/** Paths that answer the page's HTML shell (the page routes itself from the path). */
const PAGE_PATHS = ['/', '/overview', '/compare', '/cascade', '/substrate', '/generations/diff'];

/** Content types of the bundled files. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
};

/** Options of the app. */
export interface AppOptions {
  /** Folder holding the built page (index.html and its assets). */
  readonly assetsDir: string;
  /** Diagnostics sink (stderr). */
  readonly log: (line: string) => void;
}

/** Builds the explorer app over `ctx`; `guard()` gives the guard config once the port is known. */
export function createExplorerApp(
  ctx: ExplorerContext,
  guard: () => GuardConfig,
  options: AppOptions,
): Hono {
  const assets = loadAssets(options.assetsDir);
  const app = new Hono();

  app.use('*', async (c, next) => {
    c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    c.header('X-Content-Type-Options', 'nosniff');
    c.header('Referrer-Policy', 'no-referrer');
    c.header('X-Frame-Options', 'DENY');
    c.header('Cache-Control', 'no-store');
    const h = (name: string): string | undefined => c.req.header(name);
    // The page and its assets are the same for every install and carry no data: only the API
    // needs the token (the page sends it as a bearer header).
    const refusal = checkRequest(
      guard(),
      {
        host: h('host'),
        origin: h('origin'),
        authorization: h('authorization'),
        'sec-fetch-site': h('sec-fetch-site'),
      },
      c.req.path === '/api' || c.req.path.startsWith('/api/'),
    );
    if (refusal) {
      if (refusal.status === 401) c.header('WWW-Authenticate', 'Bearer');
      throw new SkilldexError(refusal.code, refusal.message, refusal.details);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      c.header('Allow', 'GET, HEAD');
      throw new SkilldexError(
        'METHOD_NOT_ALLOWED',
        `${c.req.method} ${c.req.path}: the explorer answers GET only`,
        { method: c.req.method },
      );
    }
    await next();
    return undefined;
  });

  const q = (c: Context) => (name: string) => c.req.query(name);
  // Every answer's JSON comes from jsonText, the one JSON writer (no raw control, bidi or TAG
  // character on the wire; secrets masked).
  const json = (c: Context, value: unknown, status = 200): Response =>
    c.body(jsonText(value), status as 200, { 'Content-Type': 'application/json; charset=UTF-8' });
  app.get('/api/search', (c) => json(c, apiSearch(ctx, q(c))));
  app.get('/api/policies', (c) => json(c, apiPolicies(ctx)));
  app.get('/api/skills', (c) => json(c, apiSkills(ctx, q(c))));
  app.get('/api/skills/:id{.+}', (c) => json(c, apiSkill(ctx, c.req.param('id'))));
  app.get('/api/examples', (c) => json(c, apiExamples(ctx, q(c))));
  app.get('/api/generations', (c) => json(c, apiGenerations(ctx, q(c))));
  app.get('/api/generations/diff', (c) => json(c, apiGenerationDiff(ctx, q(c))));
  app.get('/api/overview', (c) => json(c, apiOverview(ctx)));
  app.get('/api/cascade', (c) => json(c, apiCascadeRoots(ctx)));
  app.get('/api/cascade/tree', (c) => json(c, apiCascadeTree(ctx, q(c))));
  app.get('/api/cascade/audit', (c) => json(c, apiCascadeAudit(ctx, q(c))));
  app.get('/api/cascade/crawl', (c) => json(c, apiCascadeCrawl(ctx, q(c))));
  app.get('/api/substrate/contents', (c) => json(c, apiSubstrateContents(ctx)));
  app.get('/api/substrate', (c) => json(c, apiSubstrate(ctx, q(c))));

  const shell = (c: Context) => sendAsset(c, assets, 'index.html');
  for (const p of PAGE_PATHS) app.get(p, shell);
  app.get('/skills/:id{.+}', shell);
  app.get('/assets/:name', (c) => sendAsset(c, assets, c.req.param('name')));

  app.notFound((c) =>
    json(
      c,
      {
        error: new SkilldexError('ROUTE_NOT_FOUND', `no route ${c.req.path}`, {
          path: c.req.path,
        }).toJSON(),
      },
      404,
    ),
  );
  app.onError((err, c) => {
    // A foreign failure skilldex knows (SQLite corruption, a full disk) answers with its code.
    const coded = codedFromForeign(err);
    if (coded) return json(c, { error: coded.toJSON() }, statusOf(coded.code));
    options.log(
      maskSecrets(
        `skilldex serve: ${c.req.method} ${c.req.path} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      ),
    );
    const internal = new SkilldexError(
      'INTERNAL',
      maskSecrets(
        `${c.req.method} ${c.req.path} failed: ${err instanceof Error ? err.message : String(err)}`,
      ),
      {},
    );
    return json(c, { error: internal.toJSON() }, 500);
  });
  return app;
}

// The built page is read once at start: a fixed set of names, so a request never names a path.
function loadAssets(dir: string): ReadonlyMap<string, Buffer> {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    throw new SkilldexError(
      'FILE_NOT_FOUND',
      `the explorer page is not built at ${dir}: run npm run build`,
      { path: dir },
      { cause: err },
    );
  }
  return new Map(
    names
      .filter((n) => path.extname(n) in TYPES)
      .map((n) => [n, readFileSync(path.join(dir, n))] as const),
  );
}

function sendAsset(c: Context, assets: ReadonlyMap<string, Buffer>, name: string): Response {
  const body = assets.get(name);
  if (body === undefined)
    throw new SkilldexError('ROUTE_NOT_FOUND', `no asset ${name}`, { path: c.req.path });
  return c.body(new Uint8Array(body), 200, { 'Content-Type': TYPES[path.extname(name)]! });
}
