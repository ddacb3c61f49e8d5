// The package in a real headless Chromium: loaded as a plain ES module (no bundler)
// and through a Vite build, each page verifying a noble-made signature (true) and
// a flipped one (false). Pages are served from 127.0.0.1 with application/wasm.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync, cpSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, extname, dirname } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { chromium } from 'playwright-core';
import { build } from 'vite';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('pqverify/package.json'));
const [f] = JSON.parse(gunzipSync(readFileSync(new URL('./fixtures/noble.json.gz', import.meta.url))).toString());
const MIME = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json' };

/** Serves `root` on 127.0.0.1; resolves to { url, close }. */
function serve(root) {
  const server = createServer((req, res) => {
    const path = join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname));
    if (!path.startsWith(root) || !existsSync(path)) {
      res.writeHead(404).end();
      return;
    }
    const file = path.endsWith('/') ? join(path, 'index.html') : path;
    res.writeHead(200, { 'content-type': MIME[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${server.address().port}/`, close: () => server.close() }));
  });
}

/** The page script: verifies the fixture and a flipped copy, writes the results into the page. */
const pageScript = (importFrom) => `
import { ml_dsa44, backend } from '${importFrom}';
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const [pk, msg, sig] = [unhex('${f.publicKey}'), unhex('${f.message}'), unhex('${f.pure}')];
const bad = sig.slice(); bad[7] ^= 1;
document.body.dataset.valid = String(ml_dsa44.verify(sig, msg, pk));
document.body.dataset.flipped = String(ml_dsa44.verify(bad, msg, pk));
document.body.dataset.backend = backend();
document.body.dataset.done = '1';
`;

async function check(url) {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const wasm = page.waitForResponse((r) => r.url().endsWith('.wasm'));
    await page.goto(url);
    const response = await wasm;
    assert.equal(response.headers()['content-type'], 'application/wasm');
    await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 20000 });
    const data = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.deepEqual(errors, []);
    return data;
  } finally {
    await browser.close();
  }
}

test('plain ES module in Chromium, no bundler', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pqverify-esm-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  writeFileSync(join(root, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">${pageScript('./pqverify/index.js')}</script></body>`);
  const server = await serve(root);
  try {
    const data = await check(server.url);
    assert.equal(data.valid, 'true');
    assert.equal(data.flipped, 'false');
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('Vite build in Chromium', async () => {
  // Inside this project, so that `import 'pqverify'` resolves through node_modules as in a user's app.
  const root = mkdtempSync(join(dirname(new URL(import.meta.url).pathname), '.tmp-vite-'));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="/src/main.js"></script></body>');
  writeFileSync(join(root, 'src/main.js'), pageScript('pqverify'));
  await build({
    root,
    logLevel: 'warn',
    build: { target: 'es2022', outDir: join(root, 'dist'), emptyOutDir: true },
  });
  const server = await serve(join(root, 'dist'));
  try {
    const data = await check(server.url);
    assert.equal(data.valid, 'true');
    assert.equal(data.flipped, 'false');
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
