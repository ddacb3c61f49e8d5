// A page in any of the three browser engines, from Debian's packages (no browser
// download): Chromium through Playwright (chromium.mjs), Firefox ESR (SpiderMonkey)
// over WebDriver BiDi with puppeteer-core, and WebKitGTK's MiniBrowser (JavaScriptCore,
// Safari's engine) over W3C WebDriver with selenium-webdriver, under a virtual X display.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { serve } from './serve.mjs';
import { openPage } from './chromium.mjs';

const FIREFOX = '/usr/bin/firefox-esr';
const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
const MINIBROWSER = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const XVFB_RUN = '/usr/bin/xvfb-run';

/** The engines, in report order. */
export const ENGINES = ['chromium', 'firefox', 'webkit'];

const need = (path, what) => {
  if (!existsSync(path)) throw new Error(`${what} is missing: ${path} (cargo xtask test installs it from Debian's packages)`);
};

/** The version Debian's package reports. */
function packageVersion(name) {
  const status = readFileSync('/var/lib/dpkg/status', 'utf8').split('\n\n').find((p) => p.startsWith(`Package: ${name}\n`));
  return status?.match(/^Version: (.+)$/m)?.[1] ?? 'unknown';
}

/** WebKitGTK's release, from its Debian package (a page cannot tell: WebKit's user agent is frozen). */
export const webkitVersion = () => `WebKitGTK ${packageVersion('libwebkit2gtk-4.1-0')}`;

/**
 * Polls `done()` until it gives the page's state ('1' or 'error'), up to `timeoutMs`;
 * a page that does not finish fails with what `status()` (the page's expression
 * `status`, if given) last said it was doing.
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

async function firefox(url, { timeoutMs, collect, status }) {
  need(FIREFOX, 'Firefox ESR');
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(String(e?.message ?? e)));
    await page.goto(url);
    const state = await waitForDone(() => page.evaluate(() => document.body.dataset.done), () => page.evaluate(status), timeoutMs);
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

async function webkit(url, { timeoutMs, collect, status }) {
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
      const state = await waitForDone(() => driver.executeScript('return document.body.dataset.done'), () => driver.executeScript(`return ${status}`), timeoutMs);
      const data = await driver.executeScript(`return (${collect})`);
      return { state, ...data, errors: [], version: webkitVersion() };
    } finally {
      await driver.quit();
    }
  } finally {
    stop();
  }
}

/**
 * Serves `dir` and opens `query` in `engine` until the page sets `body[data-done]`
 * ('1' or 'error'); resolves to `{ state, errors, version, ...data }`, where `data` is
 * the value of the expression `collect` in the page (an object literal). A page that
 * does not finish within `timeoutMs` fails with the value of the expression `status`.
 * @param isolated - serve with cross-origin isolation (the benchmark page wants it)
 */
export async function openInEngine(engine, dir, query, collect, { timeoutMs = 120_000, status = "''", isolated = true } = {}) {
  if (engine === 'chromium') {
    const { state, page, errors, version, close } = await openPage(dir, query, { timeoutMs, isolated });
    try {
      return { state, ...(await page.evaluate(`(${collect})`)), errors, version };
    } finally {
      await close();
    }
  }
  const run = engine === 'firefox' ? firefox : engine === 'webkit' ? webkit : null;
  if (!run) throw new Error(`unknown engine ${engine}: expected one of ${ENGINES.join(', ')}`);
  const server = await serve(dir, { isolated });
  try {
    return await run(`${server.url}${query}`, { timeoutMs, collect, status });
  } finally {
    server.close();
  }
}
