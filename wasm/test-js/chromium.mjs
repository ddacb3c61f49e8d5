// The package's tests in a real headless Chromium: plain pages served on 127.0.0.1, and
// the page script that verifies a noble fixture (true) and a flipped copy (false),
// writing the results into the page.
import assert from 'node:assert/strict';
import { launch } from '../../testkit/js/chromium.mjs';
import { serve as serveDir } from '../../testkit/js/serve.mjs';
import { nobleFixture as fixture } from './noble-fixture.mjs';

export { launch, launchPersistent } from '../../testkit/js/chromium.mjs';

/** Serves `root` on 127.0.0.1 (plain pages, not cross-origin isolated); resolves to { url, close }. */
export const serve = (root) => serveDir(root, { isolated: false });

/** A statement verifying the fixture and a flipped copy with `ml_dsa44`, into `result`. */
export const verifyFixture = (result) => `
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const [pk, msg, sig] = [unhex('${fixture.publicKey}'), unhex('${fixture.message}'), unhex('${fixture.pure}')];
const bad = sig.slice(); bad[7] ^= 1;
try {
  ${result} = { valid: String(ml_dsa44.verify(sig, msg, pk)), flipped: String(ml_dsa44.verify(bad, msg, pk)), kernels: kernels() };
} catch (e) {
  ${result} = { error: String(e) };
}
`;

/** A page module script: imports from `importFrom`, verifies, writes into the body's dataset. */
export const pageScript = (importFrom) => `
import { ml_dsa44, kernels } from '${importFrom}';
let result;
${verifyFixture('result')}
Object.assign(document.body.dataset, result, { done: '1' });
`;

/** A page script for a bundle (the imports already resolved by the bundler). */
export const bundleEntry = pageScript('pqverify');

/**
 * Opens `url`, waits for the page's result and returns it. `wasmFetched` says
 * whether the page must fetch a .wasm file (served as application/wasm) or none.
 */
export async function check(url, { wasmFetched = false, args = [] } = {}) {
  const browser = await launch(args);
  try {
    const page = await browser.newPage();
    const errors = [];
    const wasm = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r); });
    await page.goto(url);
    await page.waitForSelector('body[data-done="1"]', { state: 'attached', timeout: 20000 });
    const data = await page.evaluate(() => ({ ...document.body.dataset }));
    assert.deepEqual(errors, []);
    assert.equal(data.error, undefined, data.error);
    if (wasmFetched) {
      assert.ok(wasm.length > 0, 'a .wasm was fetched');
      assert.equal(wasm[0].headers()['content-type'], 'application/wasm');
    } else {
      assert.deepEqual(wasm.map((r) => r.url()), [], 'nothing fetched: the wasm is embedded');
    }
    return data;
  } finally {
    await browser.close();
  }
}
