// The boundary between JavaScript and the engine is hostile: typed arrays detached,
// resized or shared with other threads, changed while an asynchronous batch runs, huge
// or empty, arguments of any type sent straight to the engine's low-level calls, many
// worker threads calling at once, and a long loop. Each gets a clear error or the right
// answer — never a crash, a hang or a leak — through the native build and, with
// PQVERIFY_ENGINE=wasm, through WebAssembly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import * as pq from 'pqverify';
import { nobleFixtures } from './noble-fixture.mjs';
import { ENGINE, isEngine } from './engine.mjs';

const here = new URL('.', import.meta.url).pathname;
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const f = nobleFixtures[0];
const [PK, MSG, SIG] = [unhex(f.publicKey), unhex(f.message), unhex(f.pure)];

/** `bytes` in a fresh buffer made by `make(length)`. */
function inBuffer(bytes, make) {
  const view = new Uint8Array(make(bytes.length));
  view.set(bytes);
  return view;
}

/** A view whose ArrayBuffer has been detached (transferred away). */
function detached(bytes) {
  const view = inBuffer(bytes, (n) => new ArrayBuffer(n));
  structuredClone(view.buffer, { transfer: [view.buffer] });
  assert.equal(view.length, 0);
  return view;
}

test('detached, resizable and shared buffers: the bytes JavaScript sees, or the error for them', () => {
  assert.ok(isEngine(pq.kernels()), pq.kernels());
  const s = pq.ml_dsa44;
  // Shared memory: the same verdicts as from plain buffers.
  const shared = (b) => inBuffer(b, (n) => new SharedArrayBuffer(n));
  assert.equal(s.verify(shared(SIG), shared(MSG), shared(PK)), true);
  assert.equal(s.verify(shared(SIG), shared(MSG), shared(PK), { context: shared(new Uint8Array(0)) }), true);
  assert.equal(s.prepare(shared(PK)).verify(shared(SIG), shared(MSG)), true);
  // A detached view: a TypeError naming the argument (the engines would read it as empty).
  const gone = /^TypeError: pqverify: (signature|message|publicKey|context) is a Uint8Array whose ArrayBuffer was detached \(transferred\) or resized below it$/;
  assert.throws(() => s.verify(detached(SIG), MSG, PK), gone);
  assert.throws(() => s.verify(SIG, detached(MSG), PK), gone);
  assert.throws(() => s.verify(SIG, MSG, detached(PK)), gone);
  assert.throws(() => s.verify(SIG, MSG, PK, { context: detached(new Uint8Array(1)) }), gone);
  assert.throws(() => s.prepare(detached(PK)), gone);
  assert.throws(() => s.prepare(PK).verify(detached(SIG), MSG), gone);
  // A view that tracks a resizable buffer: its length now; shrunk past its start, empty.
  const buffer = new ArrayBuffer(PK.length, { maxByteLength: 2 * PK.length });
  const tracking = new Uint8Array(buffer);
  tracking.set(PK);
  assert.equal(s.verify(SIG, MSG, tracking), true);
  buffer.resize(PK.length + 1);
  assert.throws(() => s.verify(SIG, MSG, tracking), /public key is 1313 bytes/);
  buffer.resize(PK.length);
  assert.equal(s.verify(SIG, MSG, tracking), true);
  const offset = new Uint8Array(buffer, 100);
  buffer.resize(50);
  assert.equal(offset.length, 0);
  assert.throws(() => s.verify(SIG, MSG, PK, { context: offset }), gone, 'a view resized out of bounds');
  // An empty view of a live buffer is empty bytes.
  assert.equal(s.verify(SIG, MSG, PK, { context: new Uint8Array(buffer, 10, 0) }), true);
  // Huge and empty.
  const huge = new Uint8Array(64 << 20);
  assert.equal(s.verify(SIG, huge, PK), false);
  assert.equal(s.verify(huge, MSG, PK), false);
  assert.equal(s.verify(new Uint8Array(0), new Uint8Array(0), PK), false);
  assert.throws(() => s.verify(new Uint8Array(0), new Uint8Array(0), new Uint8Array(0)), RangeError);
});

test('an asynchronous batch reads its bytes as they were at the call, whatever happens to them after', async () => {
  const item = () => ({ suite: 'ML-DSA-44', signature: SIG.slice(), message: MSG.slice(), publicKey: PK.slice() });
  const items = Array.from({ length: 64 }, item);
  const pending = pq.verifyMany(items);
  // Overwritten, detached and shared away before the batch settles.
  items.forEach((it, i) => {
    if (i % 2) it.signature.fill(0);
    else structuredClone(it.message.buffer, { transfer: [it.message.buffer] });
  });
  assert.deepEqual(await pending, items.map(() => true));
  const f = nobleFixtures[0];
  const set = await pq.prepareValidators('ML-DSA-44', [PK.slice()]);
  const message = MSG.slice();
  const signature = SIG.slice();
  const certificate = set.verify(message, [{ validator: 0, signature }]);
  message.fill(1);
  structuredClone(signature.buffer, { transfer: [signature.buffer] });
  assert.deepEqual(await certificate, { verdicts: [true], valid: 1 });
  assert.equal(f.suite, 'ML-DSA-44');
});

// The native build's own low-level calls, reached as the package reaches them, with
// arguments of every wrong type: each an error, never a crash (run in a child process,
// so a crash would be seen as one).
if (ENGINE === 'native') test('the native build\'s low-level calls: every wrong argument is an Error, never a crash', () => {
  const script = `import * as pq from 'pqverify';
const addon = pq.ml_dsa44[Symbol.for('pqverify.bindings')]();
const b = new Uint8Array(8);
const wrong = [undefined, null, 0, -1, 2 ** 32, NaN, 1e300, 'x', {}, [], b.buffer, new Uint16Array(4), new DataView(b.buffer), Symbol('s'), 10n, () => 1];
const outcomes = {};
const tally = (what, call) => {
  try {
    const r = call();
    if (r && typeof r.then === 'function') r.catch(() => {});
    outcomes.returned = (outcomes.returned ?? 0) + 1;
  } catch (e) {
    const kind = e instanceof Error ? 'Error' : typeof e;
    outcomes[kind] = (outcomes[kind] ?? 0) + 1;
  }
};
const good = [0, 0, 0, 0, new Uint8Array(2420), b, b, new Uint8Array(1312)];
for (let at = 0; at < good.length; at++) {
  for (const w of wrong) {
    const args = good.slice();
    args[at] = w;
    tally('verify', () => addon.verify(...args));
    tally('dual', () => new addon.DualVerifier(...args.slice(0, 5)));
  }
  tally('short', () => addon.verify(...good.slice(0, at)));
}
for (const w of wrong) {
  tally('prepared', () => new addon.PreparedKey(0, 0, w));
  tally('prepared', () => new addon.PreparedKey(w, 0, new Uint8Array(1312)));
  tally('many', () => addon.verifyMany(w, [], 0));
  tally('many', () => addon.verifyMany(new Uint32Array(4), [w, b, b, b], 0));
  tally('many', () => addon.verifyMany(new Uint32Array(4), w, 0));
  tally('many', () => addon.verifyMany(new Uint32Array(0), [], w));
  tally('validators', () => addon.prepareValidators(0, 0, w, 0));
  tally('validators', () => addon.prepareValidators(0, 0, [w], 0));
  tally('certificate', () => addon.checkCertificate(0, 4, w, b));
  tally('unbound', () => addon.PreparedKey.prototype.verify.call(w, 0, 0, b, b, b));
}
tally('many', () => addon.verifyMany(new Uint32Array(5), [b, b, b, b], 0));
tally('prepared', () => addon.PreparedKey(0, 0, new Uint8Array(1312)));
// Every promise settles before the process ends; a rejection is not a crash.
await new Promise((r) => setTimeout(r, 50));
console.log(JSON.stringify(outcomes));`;
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8' });
  assert.equal(out.status, 0, `exit ${out.status} ${out.signal ?? ''}: ${out.stderr}`);
  const outcomes = JSON.parse(out.stdout.trim());
  // Every call with a wrong argument threw an Error (a few wrong values are also valid ones).
  assert.deepEqual(Object.keys(outcomes).filter((k) => k !== 'Error' && k !== 'returned'), []);
  assert.ok(outcomes.Error > 300, JSON.stringify(outcomes));
});

test('many worker threads verify at once through the package, each with the right verdicts', async () => {
  const workers = 8;
  const code = `
const { parentPort, workerData } = require('node:worker_threads');
(async () => {
  const pq = await import('pqverify');
  const { sig, msg, pk } = workerData;
  const bad = sig.slice(); bad[7] ^= 1;
  const key = pq.ml_dsa44.prepare(pk);
  let wrong = 0;
  for (let i = 0; i < 300; i++) {
    if (pq.ml_dsa44.verify(sig, msg, pk) !== true || key.verify(bad, msg) !== false) wrong++;
  }
  const many = await pq.verifyMany(Array.from({ length: 40 }, (_, i) => ({ suite: 'ML-DSA-44', signature: i % 2 ? bad : sig, message: msg, publicKey: pk })));
  if (many.some((v, i) => v !== (i % 2 === 0))) wrong++;
  key.free();
  parentPort.postMessage({ wrong, kernels: pq.kernels() });
})().catch((e) => parentPort.postMessage({ error: String(e?.stack ?? e) }));`;
  const results = await Promise.all(Array.from({ length: workers }, () => new Promise((resolve, reject) => {
    const w = new Worker(code, { eval: true, workerData: { sig: SIG, msg: MSG, pk: PK } });
    w.once('message', (m) => { resolve(m); w.terminate(); });
    w.once('error', reject);
    w.once('exit', (c) => c !== 0 && c !== 1 && reject(new Error(`worker exited ${c}`)));
  })));
  for (const r of results) {
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.wrong, 0);
    assert.ok(isEngine(r.kernels), r.kernels);
  }
});

test('memory stays flat over a long loop of verifies, prepared keys and batches (RSS, in a fresh process)', (t) => {
  const script = `import * as pq from 'pqverify';
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const [pk, msg, sig] = [unhex('${f.publicKey}'), unhex('${f.message}'), unhex('${f.pure}')];
const items = Array.from({ length: 16 }, () => ({ suite: 'ML-DSA-44', signature: sig, message: msg, publicKey: pk }));
// Every other prepared key is left to the garbage collector; the loop lets it run now
// and then (as a server's event loop does between requests), so the keys it holds stay
// bounded and what the test sees is what the package keeps, not the collector's lag.
async function round(n) {
  for (let i = 0; i < n; i++) {
    if (!pq.ml_dsa44.verify(sig, msg, pk)) throw new Error('verify');
    const key = pq.ml_dsa44.prepare(pk);
    if (!key.verify(sig, msg)) throw new Error('prepared');
    if (i % 2) key.free();
    if (i % 50 === 0) await pq.verifyMany(items);
    if (i % 500 === 0) {
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 1));
    }
  }
  globalThis.gc();
  await new Promise((r) => setTimeout(r, 20));
  globalThis.gc();
  return process.memoryUsage().rss;
}
await round(5000);
const warm = await round(5000);
const after = await round(20000);
console.log(JSON.stringify({ warm, after }));`;
  const out = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { cwd: here, encoding: 'utf8', timeout: 300_000 });
  assert.equal(out.status, 0, out.stderr);
  const { warm, after } = JSON.parse(out.stdout.trim());
  // Four times the warm round's work again (60,000 calls): a leak of 150 bytes a call would be 8.6 MiB.
  const grown = after - warm;
  t.diagnostic(`RSS ${(warm / 2 ** 20).toFixed(1)} MiB warm, ${(after / 2 ** 20).toFixed(1)} MiB after`);
  assert.ok(grown < 8 * 2 ** 20, `RSS grew by ${(grown / 2 ** 20).toFixed(1)} MiB (${warm} → ${after})`);
});
