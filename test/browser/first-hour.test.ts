/**
 * The explorer's first hour (issue 27) in headless Chromium (/usr/bin/chromium via playwright-core):
 * a component has one colour on every card and in both columns of the compare view, named in one
 * legend per page; the skill page's chart labels days within its data's range and shows no "--";
 * the revisions table never breaks a token across lines (desktop and phone); the cascade view
 * shows its problems first and a collapsed tree, is ready before the full audit arrives (the audit
 * route held back) and fills the problems in when it does; an unknown skill page offers the ids it
 * probably meant; "1 suggestion" is singular; "never in a top 5" waits for enough searches and then
 * lists; the substrate page shows what the substrate holds before anything is typed.
 */
import { cpSync, existsSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router, buildCascade } from '../../src/internal.js';
import { NEVER_IN_TOP_FIVE_MIN_SEARCHES } from '../../src/explorer/index.js';
import { REPO, tmpDir } from '../support/cli.js';
import {
  makeLibrary,
  reindex,
  startOver,
  writeSkill,
  type Library,
  type Running,
} from '../explorer/support.js';

// What the page callbacks below use of the browser (they run in the page, not in Node).
declare const document: {
  createRange(): { selectNodeContents(n: unknown): void; getClientRects(): { top: number }[] };
};
declare function getComputedStyle(e: unknown): { backgroundColor: string };

const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';
/** The day the fixture's telemetry is recorded on. */
const DAY = '2026-12-02';

let lib: Library;
let srv: Running;
let browser: Browser;
let cascade: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: see test/browser/explorer.test.ts`);
  lib = makeLibrary();
  // A second revision of one skill, so its revisions table has two rows.
  writeSkill(lib.skills, 'pdf-toolkit', {
    description: 'Extract text and tables from PDF files, merge, split and rotate PDF pages.',
    keywords: ['pdf', 'extract tables'],
  });
  reindex(lib);
  // Telemetry on one day: one search that suggests one skill, a fetch of another.
  const router = new Router({ catalog: lib.catalog, now: () => new Date(`${DAY}T10:00:00Z`) });
  router.search({ query: 'draft polite emails', limit: 1 });
  const hit = router.search({ query: 'extract tables from pdf', limit: 3 }).candidates[0]!;
  router.fetch({
    skill_id: hit.skill_id,
    expected_revision: hit.revision_id,
    catalog_generation: hit.catalog_generation,
    context: 'invoices',
  });
  router.close();
  // A cascade over the skills, with one malformed line (found by the fast walk) in a node.
  cascade = path.join(tmpDir('skilldex-cascade-'), 'skills');
  cpSync(lib.skills, cascade, { recursive: true });
  buildCascade(cascade, { audit: false });
  const index = path.join(cascade, 'skill.index');
  writeFileSync(index, readFileSync(index, 'utf8') + 'this line has no colon\n');
  srv = await startOver(lib, {
    cascadeRoots: [cascade],
    substrateRoot: path.join(REPO, 'examples', 'substrate'),
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

async function open(
  route: string,
  viewport = { width: 1280, height: 900 },
  before?: (page: Page) => Promise<void>,
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await before?.(page);
  await page.goto(new URL(route, srv.base).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

/** Background colour of every bar segment, by component name. */
async function segmentColours(page: Page, scope = 'main'): Promise<Map<string, Set<string>>> {
  const pairs = await page.$$eval(`${scope} .seg`, (els) =>
    els.map((e) => [e.getAttribute('data-component') ?? '', getComputedStyle(e).backgroundColor]),
  );
  const out = new Map<string, Set<string>>();
  for (const [name, colour] of pairs) out.set(name!, (out.get(name!) ?? new Set()).add(colour!));
  return out;
}

describe('colours of score components', () => {
  it('one colour per component on every card, named in the one legend of the page', async () => {
    const { page, problems } = await open('/?q=extract+tables+from+pdf+files&limit=5');
    await page.waitForSelector('li.result');
    const colours = await segmentColours(page);
    expect(colours.size).toBeGreaterThan(1);
    for (const [name, set] of colours) expect(set.size, name).toBe(1);
    expect(await page.locator('.page-legend').count()).toBe(1);
    const legend = await page.$$eval('.page-legend [data-component]', (els) =>
      els.map((e) => [
        e.getAttribute('data-component'),
        getComputedStyle(e.querySelector('.swatch')!).backgroundColor,
      ]),
    );
    expect(legend.map(([n]) => n).sort()).toEqual([...colours.keys()].sort());
    for (const [name, colour] of legend) expect(colours.get(name!)?.has(colour!)).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('compare: two policies, one legend for both columns, one colour per name across them', async () => {
    const { page, problems } = await open(
      '/compare?q=extract+tables+from+pdf&a=tf.skillrouter.bm25f.v4&b=compare:bm25f.v4-plain',
    );
    await page.waitForSelector('.col li.result');
    const colours = await segmentColours(page);
    for (const [name, set] of colours) expect(set.size, name).toBe(1);
    const legend = await page.$$eval('.page-legend [data-component]', (els) =>
      els.map((e) => e.getAttribute('data-component')),
    );
    expect(await page.locator('.page-legend').count()).toBe(1);
    // Two parameter sets over the same stored document (a catalog keeps one family's data): the
    // fields both score with appear once in the legend.
    expect(legend).toEqual(expect.arrayContaining(['name', 'description']));
    expect(new Set(legend).size).toBe(legend.length);
    expect(await page.locator('.col').count()).toBe(2);
    expect(legend.sort()).toEqual([...colours.keys()].sort());
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the skill page', () => {
  it("charts days within the data's range, with no '--' legend", async () => {
    const { page, problems } = await open('/skills/pdf-toolkit');
    await page.waitForSelector('#usage-chart[data-x-ticks]');
    const ticks = (await page.getAttribute('#usage-chart', 'data-x-ticks'))!.split(' ');
    expect(ticks.length).toBeGreaterThan(0);
    for (const t of ticks) expect(t).toBe(DAY);
    expect(await page.locator('.u-legend').count()).toBe(0);
    expect(
      await page.locator('.chart').evaluate((e) => e.parentElement!.textContent),
    ).not.toContain('--');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('never breaks a revision hash, size or date across lines, on a desktop and on a phone', async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 390, height: 844 },
    ]) {
      const { page } = await open('/skills/pdf-toolkit', viewport);
      const lines = await page.$$eval('#revisions td', (tds) =>
        tds.map((td) => {
          const range = document.createRange();
          range.selectNodeContents(td);
          // One line box per line of text the cell's contents take.
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          return [td.textContent, tops.size] as const;
        }),
      );
      expect(lines.length).toBeGreaterThanOrEqual(10);
      for (const [text, n] of lines) expect(n, `${text} at ${viewport.width}px`).toBe(1);
      await page.close();
    }
  });

  it('an unknown skill offers the ids it probably meant, and a search', async () => {
    const { page, problems } = await open('/skills/pdf-tolkit');
    const hrefs = await page.$$eval('#did-you-mean a', (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(hrefs).toEqual(['/skills/pdf-toolkit']);
    expect(await page.locator('#not-found a[href="/?q=pdf-tolkit"]').count()).toBe(1);
    // The only console line is the browser's own note of the 404 answer.
    expect(problems.every((p) => p.includes('404'))).toBe(true);
    await page.click('#did-you-mean a');
    await page.waitForSelector('#skill-body');
    await page.close();
  });
});

describe('the cascade view', () => {
  it('shows problems first and a collapsed tree, ready before the full audit, which fills the problems in', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const { page, problems } = await open('/cascade', undefined, async (p) => {
      await p.route('**/api/cascade/audit**', async (route) => {
        await held;
        await route.continue();
      });
    });
    // Ready while the audit is still held back.
    expect(await page.getAttribute('#cascade-problems', 'data-audit')).toBe('pending');
    const order = await page.$$eval('main > *', (els) => els.map((e) => e.id || e.tagName));
    expect(order.indexOf('cascade-problems')).toBeLessThan(order.indexOf('cascade-tree'));
    const early = await page.locator('#cascade-problems li').count();
    expect(early).toBeGreaterThanOrEqual(1); // the malformed line, from the fast walk
    // Collapsed: nothing opened, no keyword text built.
    expect(await page.locator('#cascade-tree details[open]').count()).toBe(0);
    expect(await page.locator('#cascade-tree').textContent()).not.toContain('extract tables');
    release();
    await page.waitForSelector('#cascade-problems[data-audit="done"]');
    expect(await page.locator('#cascade-problems li').count()).toBeGreaterThanOrEqual(early);
    // Opening an entry builds its keywords.
    await page.click('#cascade-tree details[data-node="pdf-toolkit"] > summary');
    // The keywords are built on the toggle event, after the click returns.
    await page.locator('#cascade-tree', { hasText: 'extract tables' }).waitFor();
    expect(await page.locator('#cascade-tree').textContent()).toContain('extract tables');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the overview', () => {
  it('says "1 suggestion", and holds "never in a top 5" back below the threshold, saying how much there is', async () => {
    const { page, problems } = await open('/overview');
    const never = (await page.locator('#never-fetched').textContent()) ?? '';
    expect(never).toContain('— 1 suggestion');
    expect(never).not.toMatch(/\b1 suggestions/);
    const top = page.locator('#never-top-five');
    expect(await top.locator('a').count()).toBe(0);
    expect(await top.textContent()).toContain(`${NEVER_IN_TOP_FIVE_MIN_SEARCHES} searches`);
    expect(await top.textContent()).toContain('it holds 2 searches');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('lists "never in a top 5" once enough searches are recorded', async () => {
    const other = makeLibrary();
    const router = new Router({ catalog: other.catalog });
    for (let i = 0; i < NEVER_IN_TOP_FIVE_MIN_SEARCHES; i++)
      router.search({ query: 'deploy kubernetes services', limit: 1 });
    router.close();
    const server = await startOver(other);
    const page = await browser.newPage();
    await page.goto(new URL('/overview', server.base).href);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('#never-top-five h2').textContent()).toMatch(
      /Never in a top 5 \(\d+\)/,
    );
    expect(await page.locator('#never-top-five a').count()).toBeGreaterThan(0);
    await page.close();
    await server.close();
  });
});

describe('the substrate page', () => {
  it('shows what the substrate holds before anything is typed, and again when the box is cleared', async () => {
    const { page, problems } = await open('/substrate');
    const types = await page.$$eval('#substrate-contents [data-type]', (els) =>
      els.map((e) => e.getAttribute('data-type')),
    );
    expect(types).toEqual(['anti-pattern', 'adr', 'solution', 'vocabulary', 'reviewer']);
    expect(await page.locator('#substrate-contents code').count()).toBeGreaterThan(3);
    await page.fill('#sq', 'caching');
    await page.press('#sq', 'Enter');
    await page.waitForSelector('text=Files opened');
    await page.fill('#sq', '');
    await page.waitForSelector('#substrate-contents');
    expect(problems).toEqual([]);
    await page.close();
  });
});
