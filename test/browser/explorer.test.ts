/**
 * The explorer page in a real browser (issue 15): Debian's headless Chromium (/usr/bin/chromium,
 * installed by .ci/run when missing) driven by playwright-core, never its own browser download.
 * Typing a query shows ranked results with explanation bars; a deep link renders its search; a
 * skill page renders its body; a skill whose text carries <script>, <img onerror> and javascript:
 * links shows them as text and runs none of them; no page logs a console error; a screenshot is
 * written into the test's temp folder.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../support/cli.js';
import {
  HOSTILE_ID,
  SKILLS,
  makeLibrary,
  reindex,
  startOver,
  writeSkill,
  type Library,
  type Running,
} from '../explorer/support.js';

/** The system Chromium (Debian package `chromium`). */
const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';

let lib: Library;
let srv: Running;
let browser: Browser;
let shots: string;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no Chromium at ${CHROMIUM}: apt-get install -y --no-install-recommends chromium (or set SKILLDEX_CHROMIUM)`,
    );
  }
  lib = makeLibrary();
  srv = await startOver(lib);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  shots = tmpDir('skilldex-browser-');
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

/** Opens `route` in a fresh page that records console errors, page errors and failed requests. */
async function open(
  route: string,
  viewport = { width: 1280, height: 900 },
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`requestfailed: ${r.url()}`));
  await page.goto(new URL(route, srv.base).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

describe('explorer page', () => {
  it('lands on the library, not a blank box: the first skills, each linked to its page', async () => {
    const { page, problems } = await open('/');
    const links = page.locator('ul.landing-skills li a');
    expect(await links.count()).toBeGreaterThanOrEqual(Object.keys(SKILLS).length);
    const hrefs = await links.evaluateAll((els) => els.map((e) => e.getAttribute('href')));
    expect(hrefs).toContain('/skills/kubernetes-deploy');
    expect(await page.locator('section.landing .meta').textContent()).toMatch(/^Policy tf\./);
    // Typing replaces the landing with results.
    await page.fill('#q', 'deploy kubernetes services');
    await page.waitForSelector('li.result');
    expect(await page.locator('section.landing').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows ranked results with explanation bars as a query is typed', async () => {
    const { page, problems } = await open('/');
    await page.fill('#q', 'deploy kubernetes services');
    await page.waitForSelector('li.result');
    const ids = await page.$$eval('li.result', (els) =>
      els.map((e) => e.getAttribute('data-skill-id')),
    );
    expect(ids[0]).toBe('kubernetes-deploy');
    expect(await page.locator('li.result').first().locator('.bar .seg').count()).toBeGreaterThan(0);
    expect(await page.locator('li.result').first().locator('mark').count()).toBeGreaterThan(0);
    expect(new URL(page.url()).searchParams.get('q')).toBe('deploy kubernetes services');
    const file = path.join(shots, 'search.png');
    await page.screenshot({ path: file, fullPage: true });
    expect(statSync(file).size).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('runs the search of a deep link on load', async () => {
    const { page, problems } = await open('/?q=extract+tables+from+pdf');
    await page.waitForSelector('li.result');
    expect(await page.inputValue('#q')).toBe('extract tables from pdf');
    expect(await page.locator('li.result').first().getAttribute('data-skill-id')).toBe(
      'pdf-toolkit',
    );
    expect(await page.locator('.rank').first().textContent()).toBe('#1');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders a skill page with its body from Markdown', async () => {
    const { page, problems } = await open('/skills/pdf-toolkit');
    expect(await page.locator('h1').first().textContent()).toContain('pdf-toolkit');
    expect(await page.locator('#skill-body h1').textContent()).toBe('pdf-toolkit');
    expect(await page.locator('#skill-body p').first().textContent()).toBe('Body of pdf-toolkit.');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows hostile skill text as text and runs none of it', async () => {
    const search = await open('/?q=convert+widgets');
    await search.page.waitForSelector(`li.result[data-skill-id="${HOSTILE_ID}"]`);
    const desc = await search.page
      .locator(`li.result[data-skill-id="${HOSTILE_ID}"] .desc`)
      .textContent();
    expect(desc).toContain('<script>window.__pwned = 1</script>');
    expect(desc).toContain('<img src=x onerror="window.__pwned = 2">');
    expect(await search.page.locator('li.result script, li.result img').count()).toBe(0);
    expect(await search.page.evaluate('typeof window.__pwned')).toBe('undefined');
    await search.page.close();

    const { page, problems } = await open(`/skills/${HOSTILE_ID}`);
    const body = page.locator('#skill-body');
    const text = (await body.textContent()) ?? '';
    expect(text).toContain('<script>window.__pwned = 4</script>');
    expect(text).toContain('<img src=x onerror="window.__pwned = 5">');
    expect(text).toContain('<a href="javascript:window.__pwned=7">raw anchor</a>');
    expect(
      await page.locator('#skill-body script, #skill-body img, #skill-body [onerror]').count(),
    ).toBe(0);
    // The javascript: link is not a link (its Markdown stays text); the https one is.
    const hrefs = await body
      .locator('a')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual(['https://example.com/docs']);
    expect(text).toContain('click me');
    await body.getByText('click me', { exact: false }).click();
    expect(await page.locator('#skill-description').textContent()).toContain('<script>');
    expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
    await page.screenshot({ path: path.join(shots, 'hostile.png'), fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('loads the overview, compare, cascade and substrate views without console errors, on a phone too', async () => {
    for (const [route, viewport] of [
      ['/overview', { width: 1280, height: 900 }],
      ['/compare?q=pdf', { width: 1280, height: 900 }],
      ['/cascade', { width: 390, height: 844 }],
      ['/substrate', { width: 390, height: 844 }],
      ['/?q=pdf', { width: 390, height: 844 }],
    ] as const) {
      const { page, problems } = await open(route, viewport);
      expect(await page.locator('main').count()).toBe(1);
      // On a phone the page never scrolls sideways.
      expect(
        await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1'),
      ).toBe(true);
      expect(problems, route).toEqual([]);
      await page.close();
    }
  });

  // Last: it publishes a second generation.
  it('links a generation to its diff, which lists what changed (issue 28)', async () => {
    writeSkill(lib.skills, 'added-later', { description: 'A skill added after the first index.' });
    reindex(lib);
    const { page, problems } = await open('/overview');
    await page.getByRole('link', { name: 'diff' }).first().click();
    await page.waitForURL(/\/generations\/diff\?from=1&to=2$/);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('h1').textContent()).toMatch(/^generation #1 .* → generation #2 /);
    expect(await page.locator('ul.add li').allTextContents()).toEqual([
      expect.stringMatching(/^added-later /),
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
