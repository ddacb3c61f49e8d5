// Drives the built page in Debian's Chromium through Playwright (no browser download).
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, serve } from './serve.mjs';

/** Serves `dist`, opens `query` in headless Chromium, waits for the run to finish. */
export async function runPage(dist, query, { timeoutMs = 30 * 60 * 1000 } = {}) {
  const server = await serve(dist);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, '--disable-quic'],
  });
  const page = await browser.newPage({ viewport: { width: 1100, height: 1400 }, acceptDownloads: true });
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && !m.text().includes('favicon') && errors.push(m.text()));
  await page.goto(`${server.url}${query}`);
  await page.waitForSelector('body[data-done="1"], body[data-done="error"]', { state: 'attached', timeout: timeoutMs });
  const state = await page.getAttribute('body', 'data-done');
  const current = await page.textContent('#current');
  if (state !== '1') throw new Error(`the run failed: ${current}`);
  const records = await page.evaluate(() => window.pqverifyRecords());
  return { server, browser, page, errors, records };
}
