/**
 * Explorer test support (issue 15): a temporary library of clear-cut skills (plus one whose text is
 * hostile markup), its catalog, the explorer started in process on an ephemeral loopback port, and
 * a raw HTTP client (node:http, so Host and Origin can be set freely).
 */
import { spawnSync } from 'node:child_process';
import { request } from 'node:http';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  CatalogExplorer,
  Router,
  TelemetryReader,
  indexCatalog,
  telemetryPathFor,
} from '../../src/internal.js';
import { startExplorer } from '../../src/explorer/index.js';
import { type ExplorerHandle } from '../../src/explorer/start.js';
import { REPO, tmpDir } from '../support/cli.js';

let builtAssets: string | undefined;

/** Builds the page into a private temp folder once per test file (never racing dist/). */
export function pageAssets(): string {
  if (builtAssets !== undefined) return builtAssets;
  const out = path.join(tmpDir('skilldex-page-'), 'assets');
  const r = spawnSync(process.execPath, [path.join(REPO, 'scripts', 'build-page.mjs'), out], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`building the page failed: ${r.stderr}`);
  builtAssets = out;
  return out;
}

/** A hostile skill: markup and a script URL in its description and body. */
export const HOSTILE_ID = 'markup-trap';
export const HOSTILE_DESCRIPTION =
  'Convert widgets <script>window.__pwned = 1</script> <img src=x onerror="window.__pwned = 2"> and javascript:window.__pwned=3 links';
export const HOSTILE_BODY = [
  '# Markup trap',
  '',
  '<script>window.__pwned = 4</script>',
  '',
  '<img src=x onerror="window.__pwned = 5">',
  '',
  '[click me](javascript:window.__pwned=6) and [safe](https://example.com/docs)',
  '',
  '<a href="javascript:window.__pwned=7">raw anchor</a>',
  '',
].join('\n');

/** The fixture library: skills whose ranking for the test queries is clear-cut. */
export const SKILLS: Record<string, { description: string; body?: string; keywords?: string[] }> = {
  'pdf-toolkit': {
    description: 'Extract text and tables from PDF files, merge and split PDF pages.',
    keywords: ['pdf', 'extract tables'],
  },
  'csv-cleaner': {
    description: 'Clean CSV files: fix delimiters, encodings and duplicate rows.',
    keywords: ['csv'],
  },
  'kubernetes-deploy': {
    description: 'Deploy services to Kubernetes clusters with manifests and rollouts.',
    keywords: ['kubernetes', 'deploy'],
  },
  'email-drafter': {
    description: 'Draft polite professional emails and replies.',
    keywords: ['email'],
  },
  [HOSTILE_ID]: { description: HOSTILE_DESCRIPTION, body: HOSTILE_BODY, keywords: ['widgets'] },
};

/** Writes one SKILL.md for `id` under `root`. */
export function writeSkill(
  root: string,
  id: string,
  spec: { description: string; body?: string; keywords?: string[] },
): void {
  const dir = path.join(root, id);
  mkdirSync(dir, { recursive: true });
  const keywords = spec.keywords ? `keywords: ${JSON.stringify(spec.keywords)}\n` : '';
  const body = spec.body ?? `# ${id}\n\nBody of ${id}.\n`;
  writeFileSync(
    path.join(dir, 'SKILL.md'),
    `---\nname: ${id}\ndescription: ${JSON.stringify(spec.description)}\n${keywords}---\n\n${body}`,
  );
}

/** A library folder and its catalog. */
export interface Library {
  readonly dir: string;
  readonly skills: string;
  readonly catalog: string;
}

/** Writes the fixture library into a temp folder and indexes it (one published generation). */
export function makeLibrary(): Library {
  const dir = tmpDir('skilldex-explorer-');
  const skills = path.join(dir, 'skills');
  for (const [id, spec] of Object.entries(SKILLS)) writeSkill(skills, id, spec);
  const catalog = path.join(dir, 'catalog.sqlite');
  indexCatalog({ catalog, scopes: [skills] });
  return { dir, skills, catalog };
}

/** Re-indexes the library (publishes a new generation when something changed). */
export function reindex(lib: Library): void {
  indexCatalog({ catalog: lib.catalog, scopes: [lib.skills] });
}

/** A running explorer and the objects behind it. */
export interface Running {
  readonly handle: ExplorerHandle;
  readonly base: URL;
  close(): Promise<void>;
}

/** Starts the explorer over `lib` on 127.0.0.1, any free port. */
export async function startOver(
  lib: Library,
  options: {
    token?: string;
    cascadeRoots?: string[];
    substrateRoot?: string;
    host?: string;
    port?: number;
  } = {},
): Promise<Running> {
  const router = new Router({ catalog: lib.catalog, record: false });
  const catalog = new CatalogExplorer(lib.catalog);
  const handle = await startExplorer(
    {
      router,
      catalog,
      telemetry: new TelemetryReader(telemetryPathFor(lib.catalog)),
      examplesFile: telemetryPathFor(lib.catalog),
      cascadeRoots: options.cascadeRoots ?? [],
      ...(options.substrateRoot !== undefined ? { substrateRoot: options.substrateRoot } : {}),
    },
    {
      port: options.port ?? 0,
      ...(options.host !== undefined ? { host: options.host } : {}),
      assetsDir: pageAssets(),
      ...(options.token !== undefined ? { token: options.token } : {}),
    },
  );
  return {
    handle,
    base: new URL(`http://127.0.0.1:${handle.port}/`),
    close: async () => {
      await handle.close();
      catalog.close();
      router.close();
    },
  };
}

/** One raw answer. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  json<T = Record<string, unknown>>(): T;
}

/** One raw HTTP request (node:http: any Host, Origin or method). */
export function raw(
  base: URL,
  pathAndQuery: string,
  options: { method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: base.port,
        method: options.method ?? 'GET',
        path: pathAndQuery,
        headers: options.headers ?? {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body,
            json: <T>() => JSON.parse(body) as T,
          });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** The error object of an `{ error }` answer. */
export function errorOf(r: RawResponse): {
  code: string;
  message: string;
  hint: string;
  details: Record<string, unknown>;
} {
  return r.json<{
    error: { code: string; message: string; hint: string; details: Record<string, unknown> };
  }>().error;
}
