// The package in a real headless Chromium: loaded as a plain ES module (no bundler;
// the default entry, which fetches nothing, and "pqverify/manual", which fetches the
// .wasm with streaming compilation), through a Vite build, without WebAssembly (jitless:
// pqverify/js) and under a CSP without 'wasm-unsafe-eval', each page verifying a
// noble-made signature (true) and a flipped one (false); and every ACVP case on a page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync, cpSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'vite';
import { build as esbuild } from 'esbuild';
import { check, launch, pageScript, serve } from './chromium.mjs';
import { nobleFixtures as fixtures } from './noble-fixture.mjs';
import { SPEED, reportSpeed } from './runtime-cases.mjs';
import { POOL, POOL_EXPECTED } from './pool-cases.mjs';

const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('pqverify/package.json'));

test('plain ES module in Chromium, no bundler', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pqverify-esm-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  // On the page's main thread: the default entry compiles its embedded module synchronously.
  writeFileSync(join(root, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">${pageScript('./pqverify/index.js')}</script></body>`);
  const manual = `import { init } from './pqverify/manual.js'; await init();\n${pageScript('./pqverify/manual.js')}`;
  writeFileSync(join(root, 'manual.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">${manual}</script></body>`);
  const server = await serve(root);
  try {
    const data = await check(server.url);
    assert.equal(data.valid, 'true');
    assert.equal(data.flipped, 'false');
    assert.equal(data.kernels, 'simd128');
    const streamed = await check(`${server.url}manual.html`, { wasmFetched: true });
    assert.equal(streamed.valid, 'true');
    assert.equal(streamed.flipped, 'false');
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

test('Chromium without WebAssembly (--js-flags=--jitless): the default entry names pqverify/js, which verifies', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pqverify-jitless-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  writeFileSync(join(root, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">
import { ml_dsa44 } from './pqverify/index.js';
let error = 'none';
try { ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312)); } catch (e) { error = e.message; }
Object.assign(document.body.dataset, { wasm: typeof WebAssembly, firstCall: error, done: '1' });</script></body>`);
  writeFileSync(join(root, 'js.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">${pageScript('./pqverify/js.js')}</script></body>`);
  const server = await serve(root);
  const jitless = { args: ['--js-flags=--jitless'] };
  try {
    const first = await check(server.url, jitless);
    assert.equal(first.wasm, 'undefined', 'Chromium with --jitless has no WebAssembly');
    assert.match(first.firstCall, /^pqverify: this engine has no WebAssembly .*import from "pqverify\/js"/);
    const data = await check(`${server.url}js.html`, jitless);
    assert.equal(data.valid, 'true');
    assert.equal(data.flipped, 'false');
    assert.equal(data.kernels, 'portable');
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('Chromium --jitless: pqverify/js beside @noble/post-quantum, same inputs (ms per verify, printed; not asserted)', async (t) => {
  const root = mkdtempSync(join(dirname(new URL(import.meta.url).pathname), '.tmp-jitless-'));
  try {
    // One bundle (the page cannot resolve bare imports), printing into the page.
    writeFileSync(join(root, 'speed.js'), SPEED.replace('console.log(', 'document.body.dataset.rows = (') + "\ndocument.body.dataset.done = '1';");
    await esbuild({ entryPoints: [join(root, 'speed.js')], bundle: true, format: 'esm', outfile: join(root, 'dist/speed.js'), logLevel: 'error' });
    writeFileSync(join(root, 'dist/index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="./speed.js"></script></body>');
    const server = await serve(join(root, 'dist'));
    const browser = await launch(['--js-flags=--jitless']);
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => { errors.push(e.message); });
      // The timing holds the page's thread for many seconds: do not wait for 'load'.
      await page.goto(server.url, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.body?.dataset.done === '1', null, { timeout: 300_000, polling: 1000 })
        .catch((e) => { throw new Error(`${e.message}; page errors: ${errors.join('; ')}`); });
      reportSpeed(t, 'Chromium --jitless', JSON.parse(await page.evaluate(() => document.body.dataset.rows)));
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test("Chromium, a page whose CSP lacks 'wasm-unsafe-eval': the default entry's first call says so; pqverify/js verifies", async () => {
  const root = mkdtempSync(join(tmpdir(), 'pqverify-csp-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  const csp = `<meta http-equiv="Content-Security-Policy" content="script-src 'self'">`;
  writeFileSync(join(root, 'first.js'), `import { ml_dsa44 } from './pqverify/index.js';
let error = 'none';
try { ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312)); } catch (e) { error = e.message; }
Object.assign(document.body.dataset, { firstCall: error, done: '1' });`);
  writeFileSync(join(root, 'js.js'), pageScript('./pqverify/js.js'));
  for (const name of ['first', 'js']) {
    writeFileSync(join(root, `${name}.html`), `<!doctype html><meta charset="utf-8">${csp}<body><script type="module" src="./${name}.js"></script></body>`);
  }
  const server = await serve(root);
  try {
    const first = await check(`${server.url}first.html`);
    assert.match(first.firstCall, /^pqverify: this engine did not compile the embedded WebAssembly .*'wasm-unsafe-eval'.*"pqverify\/js"/);
    const data = await check(`${server.url}js.html`);
    assert.equal(data.valid, 'true');
    assert.equal(data.flipped, 'false');
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('Chromium: every NIST ACVP sigVer case (684) through the default entry and pqverify/js, on a page', async () => {
  const file = process.env.PQVERIFY_ACVP_CASES;
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const root = mkdtempSync(join(tmpdir(), 'pqverify-acvp-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  cpSync(file, join(root, 'acvp-cases.json'));
  cpSync(new URL('./acvp.mjs', import.meta.url), join(root, 'acvp.mjs'));
  for (const entry of ['index', 'js']) {
    writeFileSync(join(root, `${entry}.html`), `<!doctype html><meta charset="utf-8"><body><script type="module">
import * as pq from './pqverify/${entry}.js';
import { wrongCases } from './acvp.mjs';
const cases = await (await fetch('./acvp-cases.json')).json();
Object.assign(document.body.dataset, { acvp: JSON.stringify({ ran: cases.length, wrong: wrongCases(pq, cases) }), done: '1' });</script></body>`);
  }
  const server = await serve(root);
  const browser = await launch();
  try {
    for (const entry of ['index', 'js']) {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`${server.url}${entry}.html`, { waitUntil: 'commit' });
      await page.waitForFunction(() => document.body?.dataset.done === '1', null, { timeout: 300_000, polling: 500 });
      assert.deepEqual(errors, []);
      assert.equal(await page.evaluate(() => document.body.dataset.acvp), JSON.stringify({ ran: 684, wrong: [] }), entry);
      await page.close();
    }
  } finally {
    await browser.close();
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});

/** A page module that runs the pool cases with `createPool` from `from` and writes the outcome into the page. */
const poolPage = (from, options) => `import { createPool } from '${from}';
${POOL(options)}
document.body.dataset.outcome = JSON.stringify(outcome);
document.body.dataset.done = '1';`;

test('pqverify/pool in Chromium: a plain-module page and a Vite build (which bundles the worker) verify and check certificates', async () => {
  const root = mkdtempSync(join(dirname(new URL(import.meta.url).pathname), '.tmp-pool-'));
  cpSync(packageDir, join(root, 'plain/pqverify'), { recursive: true });
  writeFileSync(join(root, 'plain/index.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">${poolPage('./pqverify/pool.js')}</script></body>`);
  mkdirSync(join(root, 'vite/src'), { recursive: true });
  writeFileSync(join(root, 'vite/index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="/src/main.js"></script></body>');
  writeFileSync(join(root, 'vite/src/main.js'), poolPage('pqverify/pool'));
  await build({ root: join(root, 'vite'), logLevel: 'warn', build: { target: 'es2022', outDir: join(root, 'vite/dist'), emptyOutDir: true } });
  try {
    // Each at its own origin's root (Vite's asset paths are absolute).
    for (const page of ['plain', 'vite/dist']) {
      const server = await serve(join(root, page));
      try {
        const data = await check(server.url);
        assert.deepEqual(JSON.parse(data.outcome), POOL_EXPECTED(2), page);
      } finally {
        server.close();
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('pqverify/pool in Chromium: a worker that throws, closes itself or never answers fails only its own job', async () => {
  const root = mkdtempSync(join(tmpdir(), 'pqverify-pool-'));
  cpSync(packageDir, join(root, 'pqverify'), { recursive: true });
  // Imported before the real worker, so its listener runs first; "throw" stops the real one.
  writeFileSync(join(root, 'orders.js'), `self.addEventListener('message', (event) => {
  const m = event.data;
  if (m?.op !== 'verify') return;
  const what = new TextDecoder().decode(m.data.subarray(m.ends[0], m.ends[1]));
  if (what === 'pqverify-test:throw') { event.stopImmediatePropagation(); throw new Error('told to throw'); }
  if (what === 'pqverify-test:close') { event.stopImmediatePropagation(); self.close(); }
  if (what === 'pqverify-test:hang') for (;;);
});`);
  writeFileSync(join(root, 'worker.js'), "import './orders.js';\nimport './pqverify/pool-worker.js';\n");
  const f = fixtures.find((x) => x.suite === 'ML-DSA-44');
  writeFileSync(join(root, 'index.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">
import { createPool } from './pqverify/pool.js';
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const good = { suite: 'ML-DSA-44', signature: unhex('${f.pure}'), message: unhex('${f.message}'), publicKey: unhex('${f.publicKey}') };
const order = (what) => ({ ...good, message: new TextEncoder().encode('pqverify-test:' + what) });
const pool = createPool({ size: 2, timeout: 2000, workerUrl: new URL('./worker.js', import.meta.url) });
const outcome = {};
for (const what of ['throw', 'close', 'hang']) {
  const results = await pool.verifyMany([good, good, good, order(what), good, good]);
  const after = await pool.verifyMany([good, good]);
  outcome[what] = { results: results.map((r) => r.error?.message ?? r.valid), after: after.map((r) => r.valid) };
}
pool.close();
document.body.dataset.outcome = JSON.stringify(outcome);
document.body.dataset.done = '1';
</script></body>`);
  const server = await serve(root);
  try {
    const outcome = JSON.parse((await check(server.url)).outcome);
    const why = { throw: /^pqverify: a verifier worker threw "(Uncaught Error: )?told to throw"/, close: /did not answer within 2000 ms/, hang: /did not answer within 2000 ms/ };
    for (const [what, { results, after }] of Object.entries(outcome)) {
      assert.deepEqual(results.slice(0, 3), [true, true, true], what);
      for (const r of results.slice(3)) assert.match(String(r), why[what], what);
      assert.deepEqual(after, [true, true], `${what}: the replacement answers`);
    }
    assert.deepEqual(Object.keys(outcome), ['throw', 'close', 'hang']);
  } finally {
    server.close();
    rmSync(root, { recursive: true, force: true });
  }
});
