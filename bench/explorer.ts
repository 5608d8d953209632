/**
 * Explorer benchmark (issue 15): on a generated library of 10,000 skills, how long the page takes
 * to become interactive in headless Chromium (/usr/bin/chromium via playwright-core): the search
 * view opened on a deep link until its ranked results are drawn, the catalog overview until drawn,
 * and a skill page; plus the JSON API's own answer times for the same routes. The baseline is the
 * API answer time of the same route: the page's cost is the difference.
 */
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import {
  CatalogExplorer,
  Router,
  TelemetryReader,
  indexCatalog,
  telemetryPathFor,
} from '../src/internal.js';
import { startExplorer } from '../src/explorer/index.js';
import {
  REPO,
  WORK,
  fmt,
  generateSkillLibrary,
  machineLine,
  median,
  now,
  writeResult,
} from './lib.js';

const N = 10_000;
const RUNS = 7;
const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';

async function main(): Promise<void> {
  const skills = generateSkillLibrary(N);
  const catalog = path.join(WORK, `explorer-${N}.sqlite`);
  if (!existsSync(catalog)) indexCatalog({ catalog, scopes: [skills] });
  const router = new Router({ catalog, record: false });
  const explorer = new CatalogExplorer(catalog);
  const handle = await startExplorer(
    {
      router,
      catalog: explorer,
      telemetry: new TelemetryReader(telemetryPathFor(catalog)),
      cascadeRoots: [],
    },
    { port: 0, assetsDir: path.join(REPO, 'dist', 'explorer', 'assets') },
  );
  const base = `http://127.0.0.1:${handle.port}`;
  const someSkill = router.listSkills({ limit: 1 }).skills[0]!;
  const query = someSkill.description.split(' ').slice(0, 4).join(' ');
  const routes: [string, string, string, string][] = [
    [
      'search deep link',
      `/?q=${encodeURIComponent(query)}`,
      'li.result',
      `/api/search?q=${encodeURIComponent(query)}`,
    ],
    ['catalog overview', '/overview', '.stats', '/api/overview'],
    [
      'skill page',
      `/skills/${encodeURIComponent(someSkill.skill_id)}`,
      '#skill-body',
      `/api/skills/${encodeURIComponent(someSkill.skill_id)}`,
    ],
  ];
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const rows: string[] = [];
  for (const [label, route, selector, apiRoute] of routes) {
    const pageMs: number[] = [];
    const domMs: number[] = [];
    const apiMs: number[] = [];
    const readyMs: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const t0 = now();
      await (await fetch(base + apiRoute)).arrayBuffer();
      const api = now() - t0;
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const t1 = now();
      await page.goto(base + route);
      await page.waitForSelector(selector);
      const shown = now() - t1;
      const dom = (await page.evaluate(
        'performance.getEntriesByType("navigation")[0].domInteractive',
      )) as number;
      await page.waitForSelector('body[data-ready="true"]');
      const ready = (await page.evaluate(
        'performance.getEntriesByName("skilldex:ready")[0].startTime',
      )) as number;
      await page.close();
      // The first run warms the caches (page load, SQLite pages, fuzzy index) and is not counted.
      if (i === 0) continue;
      pageMs.push(shown);
      domMs.push(dom);
      readyMs.push(ready);
      apiMs.push(api);
    }
    rows.push(
      `| ${label} | ${fmt(median(apiMs), 1)} | ${fmt(median(domMs), 1)} | ${fmt(median(readyMs), 1)} | ${fmt(Math.max(...readyMs), 1)} | ${fmt(median(pageMs), 1)} |`,
    );
  }
  await browser.close();
  await handle.close();
  explorer.close();
  router.close();
  writeResult(
    'explorer',
    [
      `# Explorer: first page interactive on ${N.toLocaleString('en')} skills`,
      '',
      machineLine(),
      '',
      `Headless Chromium (${CHROMIUM}) on a generated library (bench/lib.ts), ${RUNS} runs after one warm-up, median (and worst) in ms.`,
      '"API" is the JSON route alone (the baseline); "DOM interactive" is the navigation timing of the HTML shell;',
      '"interactive" is the page\'s own `skilldex:ready` mark: from navigation start until the view has drawn its data',
      '(ranked results, counts, the rendered body) and the search box answers; "seen by the driver" adds the',
      'browser-automation round trips (page.goto, waitForSelector) of a client outside the browser.',
      `Load average during the run: ${loadavg()
        .map((x) => x.toFixed(1))
        .join(', ')} (the machine is shared).`,
      '',
      '| view | API (ms) | DOM interactive (ms) | interactive, median (ms) | interactive, worst (ms) | seen by the driver, median (ms) |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      ...rows,
      '',
    ].join('\n'),
  );
}

await main();
