/**
 * Explorer cascade benchmark (issue 27): how long the cascade view of `skilldex serve` takes to show
 * its first view on the 1,206-skill real corpus (../shared/bench/corpus-real, copied into
 * bench/.work and given a cascade with `buildCascade`), in headless Chromium (/usr/bin/chromium via
 * playwright-core). Each run starts a fresh explorer in this process (a cold server: no audit cached)
 * and opens /cascade twice: the first visit (cold) and a second one (warm). "first view" is the
 * page's `skilldex:ready` mark; "audit shown" is its `skilldex:audit` mark (the full audit's
 * problems drawn), when the page has one. The baseline is the JSON route the first view waits for.
 */
import { cpSync, existsSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import {
  CatalogExplorer,
  Router,
  TelemetryReader,
  buildCascade,
  indexCatalog,
  telemetryPathFor,
} from '../src/internal.js';
import { startExplorer } from '../src/explorer/index.js';
import { REPO, WORK, fmt, machineLine, median, now, writeResult } from './lib.js';

const RUNS = 5;
const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';
const CORPUS =
  process.env['SKILLDEX_CORPUS_REAL'] ?? path.join(REPO, '..', 'shared', 'bench', 'corpus-real');
const ASSETS = process.env['SKILLDEX_ASSETS'] ?? path.join(REPO, 'dist', 'explorer', 'assets');

/** The corpus copied into bench/.work with a cascade built over it (reused when complete). */
function corpusWithCascade(): { lib: string; catalog: string } {
  const dir = path.join(WORK, 'cascade-real');
  const lib = path.join(dir, 'lib');
  const catalog = path.join(dir, 'catalog.sqlite');
  const marker = path.join(dir, '.complete');
  if (!existsSync(marker)) {
    cpSync(CORPUS, lib, { recursive: true });
    buildCascade(lib, { audit: false });
    indexCatalog({ catalog, scopes: [lib] });
    writeFileSync(marker, '');
  }
  return { lib, catalog };
}

interface Visit {
  readonly ready: number;
  readonly audit: number | undefined;
}

async function visit(browser: Browser, url: string): Promise<Visit> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120_000 });
  const mark = (name: string): Promise<number | undefined> =>
    page.evaluate((n) => performance.getEntriesByName(n)[0]?.startTime, name) as Promise<
      number | undefined
    >;
  const ready = (await mark('skilldex:ready'))!;
  // The full audit arrives after the first view on a page that loads it separately.
  if ((await page.locator('[data-audit]').count()) > 0)
    await page.waitForSelector('[data-audit="done"]', { timeout: 120_000 });
  const audit = await mark('skilldex:audit');
  await page.close();
  return { ready, audit };
}

async function main(): Promise<void> {
  const { lib, catalog } = corpusWithCascade();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const cold: Visit[] = [];
  const warm: Visit[] = [];
  const api: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const router = new Router({ catalog, record: false });
    const explorer = new CatalogExplorer(catalog);
    const handle = await startExplorer(
      {
        router,
        catalog: explorer,
        telemetry: new TelemetryReader(telemetryPathFor(catalog)),
        cascadeRoots: [lib],
      },
      { port: 0, assetsDir: ASSETS },
    );
    const base = `http://127.0.0.1:${handle.port}`;
    cold.push(await visit(browser, `${base}/cascade`));
    warm.push(await visit(browser, `${base}/cascade`));
    const t0 = now();
    await (await fetch(`${base}/api/cascade/tree?root=0`)).arrayBuffer();
    api.push(now() - t0);
    await handle.close();
    explorer.close();
    router.close();
  }
  await browser.close();
  const row = (label: string, xs: readonly Visit[]): string => {
    const audits = xs.map((x) => x.audit).filter((x): x is number => x !== undefined);
    return `| ${label} | ${fmt(median(xs.map((x) => x.ready)), 0)} | ${fmt(Math.max(...xs.map((x) => x.ready)), 0)} | ${audits.length > 0 ? fmt(median(audits), 0) : 'in the first view'} |`;
  };
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO })
    .toString()
    .trim();
  writeResult(
    'explorer-cascade',
    [
      '# Explorer: the cascade view on the 1,206-skill real corpus',
      '',
      `${machineLine()}, commit ${commit}. Load average during the run: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')} (the machine is shared).`,
      '',
      `Headless Chromium (${CHROMIUM}); ../shared/bench/corpus-real (1,206 skills, 116 cascade nodes`,
      'built by buildCascade); a fresh explorer per run (cold: no audit cached), then a second visit',
      `(warm). ${RUNS} runs, median and worst in ms from navigation start. The JSON route of the first`,
      `view alone (the baseline) took ${fmt(median(api), 0)} ms (median, warm).`,
      '',
      '| visit | first view, median | first view, worst | full audit shown, median |',
      '| --- | ---: | ---: | ---: |',
      row('cold', cold),
      row('warm', warm),
      '',
    ].join('\n'),
  );
}

await main();
