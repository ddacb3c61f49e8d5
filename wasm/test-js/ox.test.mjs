// pqverify/ox as the ML-DSA-44 engine of ox (viem's core, pinned in package.json): in
// Node 24 and on a Chromium page bundled by esbuild, keys and signatures made by ox's
// own `sign` through both its engines verify through `MlDsa44.verify` with pqverify in
// the slot, with the verdicts of ox's own engines; a wrong-length key throws, a
// wrong-length signature is false, ox's other slots stay its own (`ox-cases.mjs`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import * as esbuild from 'esbuild';
import { OX_EXPECTED } from './ox-cases.mjs';
import { launch, serve } from './chromium.mjs';

const here = dirname(new URL(import.meta.url).pathname);
/** Node 24, installed by `cargo xtask` in runtimes/. */
const NODE24 = join(here, 'runtimes/node_modules/node24/bin/node');
const RUN = "import { runOxCases } from './ox-cases.mjs'; console.log(JSON.stringify(await runOxCases()));";

test('ox MlDsa44.verify with pqverify/ox installed, in Node 24', () => {
  assert.ok(existsSync(NODE24), `Node 24 is missing at ${NODE24}; cargo xtask test installs it (wasm/test-js/runtimes)`);
  const out = spawnSync(NODE24, ['--no-warnings', '--input-type=module', '-e', RUN], { cwd: here, encoding: 'utf8' });
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), OX_EXPECTED);
});

test('ox MlDsa44.verify with pqverify/ox installed, on a bundled Chromium page', async () => {
  const root = mkdtempSync(join(here, '.tmp-ox-'));
  try {
    writeFileSync(
      join(root, 'page.js'),
      `import { runOxCases } from '../ox-cases.mjs';
runOxCases().then((r) => { document.body.dataset.result = JSON.stringify(r); }, (e) => { document.body.dataset.result = JSON.stringify({ error: String(e) }); })
  .finally(() => { document.body.dataset.done = '1'; });`,
    );
    await esbuild.build({
      entryPoints: [join(root, 'page.js')],
      bundle: true,
      format: 'esm',
      platform: 'browser',
      target: 'es2022',
      outfile: join(root, 'dist/page.js'),
      logLevel: 'error',
    });
    writeFileSync(join(root, 'dist/index.html'), '<!doctype html><meta charset="utf-8"><body><script type="module" src="./page.js"></script></body>');
    const server = await serve(join(root, 'dist'));
    const browser = await launch();
    try {
      const page = await browser.newPage();
      const errors = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(server.url);
      await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 60_000 });
      assert.deepEqual(errors, []);
      assert.deepEqual(JSON.parse(await page.evaluate(() => document.body.dataset.result)), OX_EXPECTED);
    } finally {
      await browser.close();
      server.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
