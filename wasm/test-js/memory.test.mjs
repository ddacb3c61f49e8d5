// The wasm memory stays flat: many verifies through the package's wasm, and prepared
// keys created and dropped (freed explicitly, or left to the garbage collector), do
// not grow the module's linear memory once warm. PQVERIFY_MEMORY_COUNT sets the count
// (default 20,000; the 1,000,000 run is done by hand: see the README).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { nobleFixture } from './noble-fixture.mjs';
import { INTERFACES, SUITES } from './suites.mjs';

const require = createRequire(import.meta.url);
const pkgDir = require.resolve('pqverify/package.json').replace(/package\.json$/, '');
const unhex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const ML_DSA_44 = SUITES.find((s) => s.name === 'ML-DSA-44').id;

test('wasm memory is flat over many verifies and prepared keys', async () => {
  // Our own instance of the glue (the query string gives a separate module), to read its memory.
  const glue = await import(`file://${pkgDir}wasm/pqverify_wasm.js?memory-test`);
  const wasm = glue.initSync({ module: readFileSync(`${pkgDir}wasm-simd/pqverify_wasm_bg.wasm`) });
  const [pk, msg, sig] = [unhex(nobleFixture.publicKey), unhex(nobleFixture.message), unhex(nobleFixture.pure)];
  const empty = new Uint8Array(0);
  const count = Number(process.env.PQVERIFY_MEMORY_COUNT ?? 20000);
  const settle = async () => {
    // Let the garbage collector run and the FinalizationRegistry callbacks free the keys.
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 10));
    globalThis.gc?.();
    await new Promise((r) => setTimeout(r, 10));
  };
  const round = async (n) => {
    for (let i = 0; i < n; i++) {
      assert.equal(glue.verify(ML_DSA_44, glue.KeyFormat.Raw, INTERFACES.pure, 0, sig, msg, empty, pk), true);
      if (i % 10 === 0) {
        const key = new glue.PreparedKey(ML_DSA_44, glue.KeyFormat.Raw, pk);
        assert.equal(key.verify(INTERFACES.pure, 0, sig, msg, empty), true);
        if (i % 20 === 0) key.free(); // the others are left to the garbage collector
      }
    }
    await settle();
  };
  // Warm-up: the allocator reaches its working size (linear memory never shrinks).
  await round(Math.min(5000, count));
  await round(Math.min(5000, count));
  const warm = wasm.memory.buffer.byteLength;
  for (let done = 0; done < count; done += 5000) await round(Math.min(5000, count - done));
  await round(100);
  const end = wasm.memory.buffer.byteLength;
  console.log(`wasm memory: ${warm} bytes warm, ${end} bytes after ${count} verifies and ${count / 10} prepared keys`);
  assert.equal(end, warm, 'linear memory grew');
});
