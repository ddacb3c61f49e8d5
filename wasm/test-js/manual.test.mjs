// "pqverify/manual": nothing runs before init; initSync takes the .wasm bytes (for
// wallet extensions and workers that cannot await); init() is idempotent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import * as manual from 'pqverify/manual';
import { nobleFixtures } from './noble-fixture.mjs';

const here = new URL('.', import.meta.url).pathname;
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const [f] = nobleFixtures;

test('a clear error before initialisation, then initSync from bytes', async () => {
  const [sig, msg, pk] = [unhex(f.pure), unhex(f.message), unhex(f.publicKey)];
  assert.equal(manual.ml_dsa44.lengths.publicKey, 1312, 'lengths need no wasm');
  // Not being initialised is an environment problem: Error, not an argument error.
  assert.throws(() => manual.ml_dsa44.verify(sig, msg, pk), (e) => e.constructor === Error && /not initialised; call init\(\) or initSync\(\)/.test(e.message));
  assert.throws(() => manual.initSync('not bytes'), TypeError);
  const require = createRequire(import.meta.url);
  // The .wasm files are in the exports map, so initSync users can resolve them.
  const wasmPath = require.resolve('pqverify/wasm/pqverify_wasm_bg.wasm');
  manual.initSync(readFileSync(wasmPath));
  assert.equal(manual.ml_dsa44.verify(sig, msg, pk), true);
  await manual.init(); // already initialised: a no-op
  assert.equal(manual.verify('ML-DSA-44', sig, msg, pk), true);
});

test('init() in Node reads and compiles the .wasm without loading Node\'s fetch', () => {
  // A fresh process. Node loads its fetch implementation (undici, 17–25 ms) the first
  // time Request, Response or fetch is read; wasm-bindgen's async loader reads Request
  // and Response to tell a URL or Response from bytes, which init() never hands it.
  const script = `
    const fetchLoaded = () => process.moduleLoadList.some((m) => m.includes('undici'));
    const before = fetchLoaded();
    const m = await import('pqverify/manual');
    await m.init();
    const ok = m.ml_dsa44.verify(...${JSON.stringify([f.pure, f.message, f.publicKey])}.map((h) => new Uint8Array(Buffer.from(h, 'hex'))));
    console.log(JSON.stringify({ before, ok, after: fetchLoaded() }));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: here });
  assert.equal(out.status, 0, out.stderr);
  assert.deepEqual(JSON.parse(out.stdout), { before: false, ok: true, after: false });
});
