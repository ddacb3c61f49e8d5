// The package where wallets run it, each with real tools: CommonJS require(), esbuild
// (ESM and IIFE for browsers, ESM and CJS for Node), Rollup and webpack bundles run in
// Chromium, a module worker that receives messages posted right after it starts, and an
// unpacked MV3 extension whose service worker and page verify. Each verifies a noble
// signature (true) and a flipped copy (false).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, mkdirSync, cpSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import { rollup } from 'rollup';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import webpack from 'webpack';
import { bundleEntry, check, launchPersistent, serve, verifyFixture } from './chromium.mjs';
import { POOL, POOL_EXPECTED } from './pool-cases.mjs';

const here = dirname(new URL(import.meta.url).pathname);
const require = createRequire(import.meta.url);
const packageDir = dirname(require.resolve('pqverify/package.json'));

/** A scratch directory inside this project, so that `pqverify` resolves through node_modules. */
function scratch(prefix) {
  return mkdtempSync(join(here, `.tmp-${prefix}-`));
}

/** Runs `node file` and parses the JSON line it prints. */
function runNode(file) {
  const out = spawnSync(process.execPath, [file], { encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout.trim());
}

/** A Node script (ESM or CJS) that verifies and prints the result. */
const nodeScript = (importLine) => `${importLine}
let result;
${verifyFixture('result')}
console.log(JSON.stringify(result));
`;

/**
 * In a scratch directory: writes the page entry, runs `build(dir)` (which fills
 * dir/dist and writes its HTML pages), then opens each of `pages` in Chromium and
 * expects the verdicts; `after(dir)` runs further checks before clean-up.
 */
async function bundled(prefix, build, pages, after = async () => {}) {
  const dir = scratch(prefix);
  try {
    writeFileSync(join(dir, 'page.js'), bundleEntry);
    await build(dir);
    const server = await serve(join(dir, 'dist'));
    try {
      for (const page of pages) expectVerdicts(await check(`${server.url}${page}`));
    } finally {
      server.close();
    }
    await after(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const modulePage = (src) => `<!doctype html><body><script type="module" src="${src}"></script></body>`;
const classicPage = (src) => `<!doctype html><body><script src="${src}"></script></body>`;

const expectVerdicts = (result) => {
  assert.equal(result.error, undefined, result.error);
  assert.equal(result.valid, 'true');
  assert.equal(result.flipped, 'false');
};

test('CommonJS: require("pqverify")', () => {
  const dir = scratch('cjs');
  try {
    const file = join(dir, 'main.cjs');
    writeFileSync(file, nodeScript("const { ml_dsa44, kernels } = require('pqverify');"));
    expectVerdicts(runNode(file));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('esbuild: ESM and IIFE bundles in Chromium, ESM and CJS bundles in Node', async () => {
  await bundled('esbuild', async (dir) => {
    writeFileSync(join(dir, 'node.mjs'), nodeScript("import { ml_dsa44, kernels } from 'pqverify';"));
    const common = { bundle: true, logLevel: 'warning', absWorkingDir: dir };
    const page = { ...common, entryPoints: [join(dir, 'page.js')], platform: 'browser' };
    const node = { ...common, entryPoints: [join(dir, 'node.mjs')], platform: 'node' };
    await esbuild.build({ ...page, format: 'esm', outfile: join(dir, 'dist/esm.js') });
    await esbuild.build({ ...page, format: 'iife', outfile: join(dir, 'dist/iife.js') });
    await esbuild.build({ ...node, format: 'esm', outfile: join(dir, 'dist/node.mjs') });
    await esbuild.build({ ...node, format: 'cjs', outfile: join(dir, 'dist/node.cjs') });
    writeFileSync(join(dir, 'dist/esm.html'), modulePage('esm.js'));
    writeFileSync(join(dir, 'dist/iife.html'), classicPage('iife.js'));
  }, ['esm.html', 'iife.html'], async (dir) => {
    expectVerdicts(runNode(join(dir, 'dist/node.mjs')));
    expectVerdicts(runNode(join(dir, 'dist/node.cjs')));
  });
});

test('Rollup (node-resolve) bundle in Chromium', async () => {
  await bundled('rollup', async (dir) => {
    const warnings = [];
    const bundle = await rollup({ input: join(dir, 'page.js'), plugins: [nodeResolve({ browser: true })], onwarn: (w) => warnings.push(w.message) });
    await bundle.write({ file: join(dir, 'dist/main.js'), format: 'es' });
    await bundle.close();
    assert.deepEqual(warnings, []);
    writeFileSync(join(dir, 'dist/index.html'), modulePage('main.js'));
  }, ['']);
});

test('webpack bundle in Chromium, with no warning', async () => {
  await bundled('webpack', async (dir) => {
    const stats = await new Promise((resolve, reject) => {
      webpack({
        mode: 'production',
        context: dir,
        entry: './page.js',
        output: { path: join(dir, 'dist'), filename: 'main.js' },
        resolve: { modules: [join(here, 'node_modules')] },
        performance: { hints: false },
      }, (err, s) => (err ? reject(err) : resolve(s)));
    });
    const info = stats.toJson({ all: false, errors: true, warnings: true });
    assert.deepEqual(info.errors.map((e) => e.message), []);
    assert.deepEqual(info.warnings.map((w) => w.message), []);
    writeFileSync(join(dir, 'dist/index.html'), classicPage('main.js'));
  }, ['']);
});

test('a module worker answers messages posted before its import finished', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pqverify-worker-'));
  try {
    cpSync(packageDir, join(dir, 'pqverify'), { recursive: true });
    writeFileSync(join(dir, 'worker.js'), `import { ml_dsa44, kernels } from './pqverify/index.js';
self.onmessage = (event) => {
  let result;
  ${verifyFixture('result')}
  self.postMessage({ n: event.data, ...result });
};`);
    writeFileSync(join(dir, 'index.html'), `<!doctype html><body><script type="module">
const worker = new Worker('worker.js', { type: 'module' });
const answers = [];
worker.onmessage = (event) => {
  answers.push(event.data);
  if (answers.length === 3) Object.assign(document.body.dataset, { answers: JSON.stringify(answers), done: '1' });
};
for (const n of [1, 2, 3]) worker.postMessage(n);
</script></body>`);
    const server = await serve(dir);
    try {
      const data = await check(server.url);
      const answers = JSON.parse(data.answers);
      assert.deepEqual(answers.map((a) => a.n), [1, 2, 3]);
      for (const a of answers) expectVerdicts(a);
    } finally {
      server.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Loads the unpacked extension in `dir`; returns its service worker's and page's results. */
async function runExtension(dir) {
  const profile = mkdtempSync(join(tmpdir(), 'pqverify-profile-'));
  const context = await launchPersistent(profile, [`--disable-extensions-except=${dir}`, `--load-extension=${dir}`]);
  try {
    let [worker] = context.serviceWorkers();
    worker ??= await context.waitForEvent('serviceworker', { timeout: 20000 });
    const fromWorker = await worker.evaluate(async () => {
      for (let i = 0; i < 200 && self.pqverifyResult === undefined; i++) await new Promise((r) => setTimeout(r, 50));
      return self.pqverifyResult;
    });
    const id = new URL(worker.url()).host;
    const page = await context.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`chrome-extension://${id}/page.html`);
    await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 20000 });
    const fromPage = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.deepEqual(errors, []);
    return { fromWorker, fromPage };
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

test('MV3 extension: the service worker and an extension page verify; the page runs pqverify/pool, the service worker is told it cannot', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'pqverify-extension-'));
  try {
    cpSync(packageDir, join(dir, 'pqverify'), { recursive: true });
    const manifest = JSON.parse(readFileSync(new URL('../js/README.md', import.meta.url), 'utf8').match(/```json\n(\{[^`]*"manifest_version"[^`]*\})\n```/)[1]);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    // A service worker cannot start workers: the pool says so at createPool.
    writeFileSync(join(dir, 'background.js'), `import { ml_dsa44, kernels } from './pqverify/index.js';
import { createPool } from './pqverify/pool.js';
let result;
${verifyFixture('result')}
try { createPool(); result.pool = 'made'; } catch (e) { result.pool = e.message; }
self.pqverifyResult = result;`);
    // An extension page can: the pool cases in its module workers.
    writeFileSync(join(dir, 'page.html'), '<!doctype html><body><script type="module" src="page.js"></script></body>');
    writeFileSync(join(dir, 'page.js'), `import { ml_dsa44, kernels } from './pqverify/index.js';
import { createPool } from './pqverify/pool.js';
let result;
${verifyFixture('result')}
${POOL()}
Object.assign(document.body.dataset, result, { outcome: JSON.stringify(outcome), done: '1' });`);
    const { fromWorker, fromPage } = await runExtension(dir);
    expectVerdicts(fromWorker);
    assert.match(fromWorker.pool, /^pqverify: this context has no Worker \(a service worker, such as an MV3 extension's background, cannot start one\), so the pool cannot start workers; verify here with the suites themselves/);
    expectVerdicts(fromPage);
    assert.deepEqual(JSON.parse(fromPage.outcome), POOL_EXPECTED(2));
    // Without the README's CSP line, Chromium refuses to compile the module: the error
    // says so instead of a wrong verdict.
    delete manifest.content_security_policy;
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
    const refused = await runExtension(dir);
    assert.match(refused.fromWorker.error, /CompileError|wasm-unsafe-eval|WebAssembly/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
