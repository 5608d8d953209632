// Retakes docs/explorer.png, the README's picture of the explorer: indexes the bundled example
// library (examples/skills) under the default policy into a temporary catalog, starts
// `skilldex serve` on it (any free port, no telemetry read), opens the search view for one query in
// headless Chromium (/usr/bin/chromium, or $SKILLDEX_CHROMIUM, via playwright-core) and writes a
// 1200×860 screenshot. Run after `npm run build`: `node scripts/explorer-screenshot.mjs [OUT.png]`.
// Writes only OUT (default docs/explorer.png) and a temporary folder it removes; never a network
// request beyond the loopback server it started.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.resolve(process.argv[2] ?? path.join(repo, 'docs', 'explorer.png'));
const cli = path.join(repo, 'bin', 'skilldex.js');
const chromiumPath = process.env.SKILLDEX_CHROMIUM ?? '/usr/bin/chromium';
const query = 'extract tables from a pdf';

const tmp = mkdtempSync(path.join(tmpdir(), 'skilldex-shot-'));
const catalog = path.join(tmp, 'catalog.sqlite');
// A home of its own: no user config or project config changes what is indexed or served.
const env = { PATH: process.env.PATH, HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'config') };
let server;
let browser;
try {
  const index = spawnSync(
    process.execPath,
    [cli, 'index', '--catalog', catalog, '--scope', path.join(repo, 'examples', 'skills'), '-q'],
    { cwd: tmp, env, encoding: 'utf8' },
  );
  if (index.status !== 0) throw new Error(`skilldex index failed: ${index.stderr}`);
  server = spawn(
    process.execPath,
    [cli, 'serve', '--catalog', catalog, '--port', '0', '--no-telemetry', '--json'],
    { cwd: tmp, env, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const url = await servedUrl(server.stdout);
  browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1200, height: 860 } });
  const target = new URL(url);
  target.searchParams.set('q', query);
  target.searchParams.set('limit', '5');
  await page.goto(target.href);
  await page.waitForSelector('body[data-ready="true"]');
  await page.waitForSelector('li.result');
  await page.screenshot({ path: out });
  process.stdout.write(`wrote ${path.relative(process.cwd(), out)} (${query})\n`);
} finally {
  await browser?.close();
  server?.kill('SIGTERM');
  rmSync(tmp, { recursive: true, force: true });
}

// The `url` of the JSON object `skilldex serve --json` prints first (over several lines).
async function servedUrl(stdout) {
  let text = '';
  for await (const chunk of stdout) {
    text += chunk;
    try {
      return JSON.parse(text).url;
    } catch {
      // Not the whole object yet: read on.
    }
  }
  throw new Error(`skilldex serve ended before printing its URL: ${text}`);
}
