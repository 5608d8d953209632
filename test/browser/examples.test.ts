/**
 * The skill page's "Usage examples" card in a real browser (issue 23 §3): Debian's headless
 * Chromium through playwright-core, as test/browser/explorer.test.ts. The card lists the skill's
 * examples with their source and weight; a request carrying markup shows as text and runs nothing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addUsageExamples, openUsageForWrite, telemetryPathFor } from '../../src/catalog/index.js';
import { makeLibrary, startOver, type Running } from '../explorer/support.js';

const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';
const HOSTILE = '<img src=x onerror="window.__pwned = 1"> merge two pdf files';

let srv: Running;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM} (set SKILLDEX_CHROMIUM)`);
  const lib = makeLibrary();
  const db = openUsageForWrite(telemetryPathFor(lib.catalog));
  try {
    addUsageExamples(
      db,
      [{ skill_id: 'pdf-toolkit', query: 'split a pdf by chapter' }],
      'import',
      '2025-01-01T00:00:00.000Z',
    );
    addUsageExamples(
      db,
      [{ skill_id: 'pdf-toolkit', query: HOSTILE }],
      'fetch',
      '2025-02-01T00:00:00.000Z',
      {
        client: 'mcp:agent',
        session: 's1',
      },
    );
  } finally {
    db.close();
  }
  srv = await startOver(lib);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe('skill page: usage examples', () => {
  it('lists the examples with their sources and weights, text as text', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    await page.goto(new URL('/skills/pdf-toolkit', srv.base).href);
    await page.waitForSelector('#skill-examples tr[data-source]');
    const rows = await page.$$eval('#skill-examples tr[data-source]', (trs) =>
      trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
    // Columns: id, source, polarity, request, sessions, weight, clients, last.
    expect(rows.map((r) => [r[1], r[3], r[5]])).toEqual([
      ['fetch', HOSTILE, '0.25'],
      ['import', 'split a pdf by chapter', '1.00'],
    ]);
    expect(await page.locator('#skill-examples img').count()).toBe(0);
    expect(
      await page.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned),
    ).toBeUndefined();
    expect(problems).toEqual([]);
    await page.close();
  });
});
