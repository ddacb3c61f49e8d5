// Runs the built page in the other two browser engines, from Debian's packages (no
// browser download): Firefox ESR (SpiderMonkey) over WebDriver BiDi with
// puppeteer-core, and WebKitGTK's MiniBrowser (JavaScriptCore, Safari's engine) over
// W3C WebDriver with selenium-webdriver, under a virtual X display. Chromium runs
// through Playwright (browser.mjs), which the page check also drives.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { serve } from './serve.mjs';
import { runPage } from './browser.mjs';

const FIREFOX = '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB_RUN = '/usr/bin/xvfb-run';

/** The engines, in report order. */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

const need = (path, what) => {
  if (!existsSync(path)) throw new Error(`${what} is missing: ${path} (cargo xtask test installs it from Debian's packages)`);
};

/** The version string Debian's package reports (e.g. "Mozilla Firefox 153.8.0esr"). */
function packageVersion(name) {
  const status = readFileSync('/var/lib/dpkg/status', 'utf8').split('\n\n').find((p) => p.startsWith(`Package: ${name}\n`));
  return status?.match(/^Version: (.+)$/m)?.[1] ?? 'unknown';
}

/** What a page says it is doing (the benchmark page's progress line), for a timeout's message. */
const STATUS = "document.getElementById('current')?.textContent ?? ''";

/**
 * Polls `done()` until it gives the page's state ('1' or 'error'), up to `timeoutMs`;
 * a page that does not finish fails with what `status()` last said it was doing.
 */
async function waitForDone(done, status, timeoutMs) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const state = await done();
    if (state === '1' || state === 'error') return state;
    if (Date.now() > until) {
      const doing = await status().catch((e) => `unknown: ${e.message}`);
      throw new Error(`the page did not finish within ${timeoutMs / 1000} s${doing ? ` (it was at: ${doing})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function firefox(url, timeoutMs, collect) {
  need(FIREFOX, 'Firefox ESR');
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e?.message ?? e)));
    await page.goto(url);
    const state = await waitForDone(() => page.evaluate(() => document.body.dataset.done), () => page.evaluate(STATUS), timeoutMs);
    return { state, ...(await page.evaluate(`(${collect})`)), errors, version: await browser.version() };
  } finally {
    await browser.close();
  }
}

/** A free TCP port on 127.0.0.1. */
const freePort = () => new Promise((ok, fail) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => ok(port));
  }).on('error', fail);
});

async function webkit(url, timeoutMs, collect) {
  for (const [path, what] of [[WEBKIT_DRIVER, 'WebKitWebDriver (webkit2gtk-driver)'], [MINIBROWSER, 'MiniBrowser (webkit2gtk)'], [XVFB_RUN, 'xvfb-run (xvfb)']]) need(path, what);
  const { Builder, Capabilities } = await import('selenium-webdriver');
  const port = await freePort();
  // MiniBrowser needs a display; --headless hangs it, so a virtual one.
  const driverProcess = spawn(XVFB_RUN, ['-a', WEBKIT_DRIVER, `--port=${port}`], { stdio: 'ignore', detached: true });
  const stop = () => {
    try {
      process.kill(-driverProcess.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
  };
  try {
    const caps = new Capabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
    });
    let driver;
    for (let attempt = 0; ; attempt++) {
      try {
        driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities(caps).build();
        break;
      } catch (e) {
        if (attempt >= 40) throw new Error(`WebKitWebDriver did not start: ${e.message}`);
        await new Promise((r) => setTimeout(r, 250));
      }
    }
    try {
      await driver.get(url);
      const state = await waitForDone(() => driver.executeScript('return document.body.dataset.done'), () => driver.executeScript(`return ${STATUS}`), timeoutMs);
      const data = await driver.executeScript(`return (${collect})`);
      return { state, ...data, errors: [], version: `WebKitGTK ${packageVersion('libwebkit2gtk-4.1-0')}` };
    } finally {
      await driver.quit();
    }
  } finally {
    stop();
  }
}

/**
 * Opens `url` in `engine` (firefox or webkit) until the page sets `body[data-done]`
 * ('1' or 'error'); resolves to `{ state, errors, version, ...data }`, where `data` is
 * the value of the expression `collect` in the page.
 */
export function openInEngine(engine, url, collect, { timeoutMs = 120_000 } = {}) {
  const run = engine === 'firefox' ? firefox : engine === 'webkit' ? webkit : null;
  if (!run) throw new Error(`unknown engine ${engine}: expected firefox or webkit`);
  return run(url, timeoutMs, collect);
}

/**
 * Serves `dist` and runs the page at `query` in `engine` until it is done; resolves to
 * `{ records, errors, version }` (the records as JSON lines), or throws with the page's
 * own message when the run failed.
 */
export async function runInEngine(engine, dist, query, { timeoutMs = 30 * 60 * 1000 } = {}) {
  if (engine === 'chromium') {
    const { server, browser, errors, records } = await runPage(dist, `${query}&target=chromium`, { timeoutMs });
    const version = browser.version();
    await browser.close();
    server.close();
    return { records, errors, version: `Chromium ${version}` };
  }
  const server = await serve(dist);
  try {
    const run = engine === 'firefox' ? firefox : engine === 'webkit' ? webkit : null;
    if (!run) throw new Error(`unknown engine ${engine}: expected one of ${ENGINES.join(', ')}`);
    // The runner knows the engine's release; the page cannot (WebKit's user agent is frozen).
    const probe = engine === 'webkit' ? `WebKitGTK/${packageVersion('libwebkit2gtk-4.1-0')}` : null;
    const url = `${server.url}${query}&target=${engine}${probe ? `&runtime=${encodeURIComponent(probe)}` : ''}`;
    const result = await run(url, timeoutMs, "{ current: document.getElementById('current').textContent, records: window.pqverifyRecords() }");
    if (result.state !== '1') throw new Error(`the run in ${engine} failed: ${result.current}`);
    return result;
  } finally {
    server.close();
  }
}
