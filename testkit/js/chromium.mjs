// Headless Chromium for the tests and the benchmark: Debian's Chromium (no browser
// download) through Playwright, with the flags every run uses.
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

/** Debian's Chromium, which the set-up installs. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags every test Chromium runs with (no sandbox as root; no network beside the page's). */
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run'];

/** Headless Chromium (Debian's, or `executablePath`), with `args` beside the usual flags. */
export function launch(args = [], { executablePath = CHROMIUM } = {}) {
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}

/** Headless Chromium with a profile folder (what an unpacked extension needs). */
export function launchPersistent(profile, args = []) {
  return chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS, ...args] });
}

/**
 * Serves `dir`, opens `query` in headless Chromium and waits until the page sets
 * `body[data-done]` ('1' or 'error'). Resolves to `{ state, page, errors, version, close }`:
 * the page stays open for the caller to read; `close()` ends the browser and the server.
 */
export async function openPage(dir, query, { timeoutMs = 30 * 60 * 1000, isolated = true, args = [] } = {}) {
  const server = await serve(dir, { isolated });
  const browser = await launch(args);
  const close = async () => {
    await browser.close();
    server.close();
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1100, height: 1400 }, acceptDownloads: true });
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && !m.text().includes('favicon') && errors.push(m.text()));
    await page.goto(`${server.url}${query}`);
    await page.waitForSelector('body[data-done="1"], body[data-done="error"]', { state: 'attached', timeout: timeoutMs });
    const state = await page.getAttribute('body', 'data-done');
    return { state, page, errors, version: `Chromium ${browser.version()}`, close };
  } catch (e) {
    await close();
    throw e;
  }
}
