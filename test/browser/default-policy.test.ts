/**
 * What the default policy (bm25f.v5; v4 before it) adds to a search answer, on the explorer's search view in
 * headless Chromium (/usr/bin/chromium via playwright-core). Components that take points off
 * (`boundary`, the request's words in a skill's "do not use for" clause, and `exclusion`): the card
 * draws them striped over the end of its bar, so the solid part left of the stripes is the base; its
 * breakdown subtracts them ("− boundary 0.306"); the page's one legend names them with a striped
 * swatch of the same colour. Confidence: each card shows its candidate's confidence as the router
 * computed it, muted below the answer's floor, and an answer that abstains says so above the list.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Router } from '../../src/internal.js';
import {
  makeLibrary,
  reindex,
  startOver,
  writeSkill,
  type Library,
  type Running,
} from '../explorer/support.js';

// What the page callbacks below use of the browser (they run in the page, not in Node).
declare function getComputedStyle(e: unknown): { backgroundColor: string; backgroundImage: string };

const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';
const QUERY = 'extract pdf tables';
/** A request the fixture library ranks candidates for, none of them confidently. */
const ABSTAINS = 'write files';

let lib: Library;
let srv: Running;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: see test/browser/explorer.test.ts`);
  lib = makeLibrary();
  writeSkill(lib.skills, 'sheet-helper', {
    description:
      'Clean and format spreadsheet tables and csv files. Do NOT use for PDF tables (use pdf-toolkit).',
  });
  reindex(lib);
  srv = await startOver(lib);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

async function open(route: string): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(new URL(route, srv.base).href);
  await page.waitForSelector('body[data-ready="true"]');
  return { page, problems };
}

describe('components that take points off', () => {
  it('are striped over the end of the bar, subtracted in the breakdown and named in the legend', async () => {
    // The ranking the page shows: the skill whose boundary clause the request hits, and its points.
    const router = new Router({ catalog: lib.catalog, telemetry: false });
    const hit = router
      .search({ query: QUERY, limit: 8 })
      .candidates.find((c) => c.skill_id === 'sheet-helper')!;
    router.close();
    const components = (
      hit.explanation as unknown as { components: { name: string; points: number }[] }
    ).components;
    const boundary = components.find((c) => c.name === 'boundary')!.points;
    expect(boundary).toBeLessThan(0);
    const added = components.filter((c) => c.points > 0).reduce((s, c) => s + c.points, 0);

    const { page, problems } = await open(`/?q=${encodeURIComponent(QUERY)}`);
    await page.waitForSelector('li.result');
    const card = page.locator('li.result[data-skill-id="sheet-helper"]');
    const stripe = card.locator('.bar .seg.penalty[data-component="boundary"]');
    expect(await stripe.count()).toBe(1);
    expect(await card.locator('.breakdown').textContent()).toContain(
      `− boundary ${(-boundary).toFixed(3)}`,
    );

    // Geometry: the stripe ends where the solid segments end, and is as wide as its points.
    const solid = await card
      .locator('.bar .seg:not(.penalty)')
      .evaluateAll((els) =>
        els.map((e) => e.getBoundingClientRect()).map((r) => [r.left, r.right]),
      );
    const box = (await stripe.boundingBox())!;
    const solidLeft = Math.min(...solid.map(([l]) => l!));
    const solidRight = Math.max(...solid.map(([, r]) => r!));
    expect(Math.abs(box.x + box.width - solidRight)).toBeLessThan(1.5);
    expect(box.width / (solidRight - solidLeft)).toBeCloseTo(-boundary / added, 2);

    // The one legend names it with a striped swatch of the stripe's colour.
    const legend = page.locator('.page-legend [data-component="boundary"]');
    expect(await legend.textContent()).toContain('− boundary');
    const [swatchColour, swatchImage] = await legend
      .locator('.swatch')
      .evaluate((e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).backgroundImage]);
    expect(swatchImage).toContain('repeating-linear-gradient');
    expect(await stripe.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(swatchColour);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('confidence and abstention', () => {
  // The answer the page shows, from the router itself.
  function answer(query: string): {
    min_confidence: number;
    abstain: boolean;
    candidates: { skill_id: string; confidence: number }[];
  } {
    const router = new Router({ catalog: lib.catalog, telemetry: false });
    const r = router.search({ query });
    router.close();
    return r as unknown as ReturnType<typeof answer>;
  }

  for (const query of [QUERY, ABSTAINS]) {
    it(`shows each candidate's confidence, muted below the floor, and whether the answer abstains: "${query}"`, async () => {
      const want = answer(query);
      const { page, problems } = await open(`/?q=${encodeURIComponent(query)}`);
      await page.waitForSelector('li.result');
      const shown = await page.$$eval('li.result', (els) =>
        els.map((e) => {
          const badge = e.querySelector('.confidence');
          return [
            e.getAttribute('data-skill-id'),
            badge?.textContent ?? '',
            badge?.classList.contains('below') ?? false,
          ];
        }),
      );
      expect(shown).toEqual(
        want.candidates.map((c) => [
          c.skill_id,
          `confidence ${c.confidence.toFixed(2)}`,
          c.confidence < want.min_confidence,
        ]),
      );
      const note = page.locator('.abstain');
      expect(await note.count()).toBe(want.abstain ? 1 : 0);
      if (want.abstain) expect(await note.textContent()).toContain(want.min_confidence.toFixed(2));
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('abstains on a request nothing fits, and not on one a skill fits', () => {
    expect(answer(QUERY).abstain).toBe(false);
    expect(answer(ABSTAINS).abstain).toBe(true);
  });
});
