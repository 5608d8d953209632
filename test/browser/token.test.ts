/**
 * The explorer page with a token, in a real browser (issue 25): the URL `skilldex serve` prints
 * (`#token=…`) opens the page, which moves the token into this tab's sessionStorage, removes it
 * from the address bar, and sends it as a bearer header: searches work, no cookie is ever set, and
 * the same page opened without the token gets UNAUTHORIZED from the API.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLibrary, startOver, type Running } from '../explorer/support.js';

const CHROMIUM = process.env['SKILLDEX_CHROMIUM'] ?? '/usr/bin/chromium';
const TOKEN = 'browser-token-0123456789abcdef';

let srv: Running;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}`);
  srv = await startOver(makeLibrary(), { token: TOKEN });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  await srv?.close();
});

describe('explorer page with a token', () => {
  it('takes the token from the printed URL into sessionStorage and sends it as a bearer header', async () => {
    expect(srv.handle.url).toContain(`#token=${TOKEN}`);
    const page = await browser.newPage();
    const authorization: (string | undefined)[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname.startsWith('/api/'))
        authorization.push(r.headers()['authorization']);
    });
    await page.goto(srv.handle.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('#q', 'deploy kubernetes services');
    await page.waitForSelector('li.result');
    expect(page.url()).not.toContain(TOKEN);
    expect(await page.evaluate("sessionStorage.getItem('skilldex_token')")).toBe(TOKEN);
    expect(await page.context().cookies()).toEqual([]);
    expect(authorization.length).toBeGreaterThan(0);
    expect(authorization.every((a) => a === `Bearer ${TOKEN}`)).toBe(true);
    await page.close();
  });

  it('without the token the API answers UNAUTHORIZED and the page says so', async () => {
    const page = await browser.newPage();
    await page.goto(new URL('/overview', srv.base).href);
    await page.waitForSelector('body[data-ready="true"]');
    expect(await page.locator('[role="alert"]').first().innerText()).toContain('UNAUTHORIZED');
    await page.close();
  });
});
