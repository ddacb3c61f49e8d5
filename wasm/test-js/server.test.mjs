// The server calls of `pqverify` in Node: verifyMany (a batch of any suites, verdicts in
// order), prepareValidators (quorum certificates against a prepared validator set) and
// createDualVerifier (liboqs 0.16 and pqverify, every disagreement in the log before the
// call returns). The native build runs batches on its thread pool, never blocking the
// event loop; with PQVERIFY_ENGINE=wasm the same calls give the same answers and errors
// on the calling thread, and the dual check says why it is not there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as pq from 'pqverify';
import { nobleFixtures } from './noble-fixture.mjs';
import { ENGINE, isEngine } from './engine.mjs';

const here = new URL('.', import.meta.url).pathname;
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const flip = (bytes) => {
  const out = bytes.slice();
  out[out.length >> 1] ^= 1;
  return out;
};

/** Every fixture as verifyMany items with their expected verdicts: pure, with a context, pre-hash, flipped, SPKI-free. */
function items() {
  const out = [];
  for (const f of nobleFixtures) {
    const [publicKey, message, context] = [unhex(f.publicKey), unhex(f.message), unhex(f.context)];
    const pure = unhex(f.pure);
    out.push([{ suite: f.suite, signature: pure, message, publicKey }, true]);
    out.push([{ suite: f.suite, signature: flip(pure), message, publicKey }, false]);
    out.push([{ suite: f.suite, signature: unhex(f.pureWithContext), message, publicKey, context }, true]);
    out.push([{ suite: f.suite, signature: unhex(f.prehashWithContext), message, publicKey, context, prehash: f.prehash }, true]);
    // The pre-hash signature through the pure interface: not valid.
    out.push([{ suite: f.suite, signature: unhex(f.prehashWithContext), message, publicKey, context }, false]);
  }
  return out;
}

test('the engine: native where the platform package is installed, WebAssembly when PQVERIFY_ENGINE=wasm', () => {
  assert.ok(isEngine(pq.kernels()), `${ENGINE}: ${pq.kernels()}`);
});

test('verifyMany: every suite and interface in one batch, verdicts in order, the same as verify one by one', async () => {
  const batch = items();
  const expected = batch.map(([, v]) => v);
  for (const item of batch) {
    const { suite, signature, message, publicKey, context, prehash } = item[0];
    assert.equal(pq.verify(suite, signature, message, publicKey, { context, prehash }), item[1], suite);
  }
  for (const threads of [undefined, 1, availableParallelism()]) {
    assert.deepEqual(await pq.verifyMany(batch.map(([i]) => i), threads === undefined ? undefined : { threads }), expected, `threads ${threads}`);
  }
  assert.deepEqual(await pq.verifyMany([]), []);
});

test('verifyMany: an item that cannot be checked rejects, naming it, with the error verify throws', async () => {
  const [good] = items()[0];
  const cases = [
    [[good, null], TypeError, /^pqverify: item 1: a verifyMany item must be an object/],
    [[good, { ...good, signature: 'x' }], TypeError, /^pqverify: item 1: signature must be a Uint8Array, got a string$/],
    [[good, { ...good, suite: 'ML-DSA-99' }], RangeError, /^pqverify: item 1: unknown suite "ML-DSA-99"/],
    [[good, good, { ...good, publicKey: new Uint8Array(5) }], RangeError, /^pqverify: item 2: public key is 5 bytes; ML-DSA-44 public keys are 1312 bytes$/],
    [[{ ...good, context: new Uint8Array(256) }], RangeError, /^pqverify: item 0: context is 256 bytes/],
    [[{ ...good, extra: 1 }], TypeError, /^pqverify: item 0: unknown option "extra"/],
  ];
  for (const [batch, Class, pattern] of cases) {
    await assert.rejects(pq.verifyMany(batch), (e) => e instanceof Class && pattern.test(e.message), pattern.source);
  }
  await assert.rejects(pq.verifyMany('items'), TypeError);
  for (const threads of [0, -1, 1.5, '2', null]) {
    await assert.rejects(pq.verifyMany([good], { threads }), RangeError, String(threads));
  }
  if (ENGINE === 'native') {
    await assert.rejects(pq.verifyMany([good], { threads: availableParallelism() + 1 }), /^RangeError: pqverify: threads must be 1 to \d+ \(this machine's parallelism\)/);
  }
});

// The native build only: WebAssembly verifies on the calling thread.
if (ENGINE === 'native') test('verifyMany runs off the JavaScript thread: the event loop keeps turning while 2,000 signatures verify', async () => {
  const f = nobleFixtures[0];
  const item = { suite: f.suite, signature: unhex(f.pure), message: unhex(f.message), publicKey: unhex(f.publicKey) };
  const batch = Array.from({ length: 2000 }, () => item);
  let ticks = 0;
  const timer = setInterval(() => { ticks++; }, 1);
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const started = performance.now();
  const verdicts = await pq.verifyMany(batch);
  const took = performance.now() - started;
  delay.disable();
  clearInterval(timer);
  assert.ok(verdicts.every((v) => v === true));
  // The timer fired while the batch ran (it takes tens of milliseconds): the loop was free.
  assert.ok(ticks > 0, `no timer tick in ${took.toFixed(1)} ms`);
});

test('prepareValidators: certificates verify in order against the prepared set; the rule and released sets are errors', async () => {
  const { suite } = nobleFixtures[0];
  // Validators 0..3: the ML-DSA-44 fixture's key at 1 and 3, other suites' keys are refused.
  const f = nobleFixtures[0];
  const [pk, msg, sig] = [unhex(f.publicKey), unhex(f.message), unhex(f.pure)];
  const other = new Uint8Array(1312).fill(7);
  const set = await pq.prepareValidators(suite, [other, pk, other, pk]);
  assert.equal(set.suite, 'ML-DSA-44');
  assert.equal(set.size, 4);
  for (const threads of [undefined, 1]) {
    const result = await set.verify(msg, [{ validator: 3, signature: sig }, { validator: 0, signature: sig }, { validator: 1, signature: sig }, { validator: 2, signature: flip(sig) }], { threads });
    assert.deepEqual(result, { verdicts: [true, false, true, false], valid: 2 });
  }
  assert.deepEqual(await set.verify(msg, []), { verdicts: [], valid: 0 });
  await assert.rejects(set.verify(msg, [{ validator: 1, signature: sig }, { validator: 1, signature: sig }]), /^RangeError: pqverify: validator 1 signs twice/);
  await assert.rejects(set.verify(msg, [{ validator: 4, signature: sig }]), /^RangeError: pqverify: certificate signature 0 names validator 4, not in the set of 4 \(indices 0 to 3\)/);
  await assert.rejects(set.verify(msg, [{ validator: 0, signature: sig }], { context: new Uint8Array(256) }), /^RangeError: pqverify: context is 256 bytes/);
  await assert.rejects(set.verify(msg, [{ validator: 0, signature: 'x' }]), TypeError);
  set.release();
  await assert.rejects(set.verify(msg, []), /^Error: pqverify: this ML-DSA-44 validator set was released/);
  await assert.rejects(pq.prepareValidators(suite, [pk, new Uint8Array(3)]), /^RangeError: pqverify: validator 1: public key is 3 bytes/);
  await assert.rejects(pq.prepareValidators(suite, []), TypeError);
  await assert.rejects(pq.prepareValidators('ML-DSA-99', [pk]), RangeError);
});

/** The liboqs 0.16 shared library cargo xtask built, and the stand-in that lies once (see fixtures/lying-liboqs.c). */
function libraries() {
  const liboqs = process.env.PQVERIFY_TEST_LIBOQS;
  const liar = process.env.PQVERIFY_TEST_LYING_LIBOQS;
  assert.ok(liboqs && existsSync(liboqs), `PQVERIFY_TEST_LIBOQS names no liboqs 0.16 (${liboqs}): cargo xtask test builds it and sets it`);
  assert.ok(liar && existsSync(liar), `PQVERIFY_TEST_LYING_LIBOQS names no library (${liar}): cargo xtask test builds it and sets it`);
  return { liboqs, liar };
}

if (ENGINE === 'native') test('createDualVerifier: liboqs 0.16 and pqverify agree on every suite and interface; rejections are audited', () => {
  const { liboqs } = libraries();
  const dir = mkdtempSync(join(here, '.tmp-dual-'));
  try {
    const log = join(dir, 'disagreements.jsonl');
    for (const mode of ['enforce', 'shadow']) {
      const dual = pq.createDualVerifier({ liboqs, mode, log });
      assert.match(dual.describe(), new RegExp(`^dual-${mode}: primary liboqs 0\\.16\\.\\d+ \\(.*liboqs\\.so\\) then rustcrypto .* / secondary pqverify`));
      for (const [{ suite, signature, message, publicKey, context, prehash }, expected] of items()) {
        assert.equal(dual.verify(suite, signature, message, publicKey, { context, prehash }), expected, `${mode} ${suite}`);
      }
      assert.deepEqual(dual.stats(), { disagreements: 0, faults: 0, sinkFailures: 0 });
      assert.throws(() => dual.verify('ML-DSA-44', new Uint8Array(1), new Uint8Array(1), new Uint8Array(3)), /^RangeError: pqverify: public key is 3 bytes/);
    }
    assert.equal(existsSync(log), true);
    assert.equal(readFileSync(log, 'utf8'), '', 'no disagreement, nothing logged');
    assert.throws(() => pq.createDualVerifier({ liboqs, log, mode: 'both' }), /^RangeError: pqverify: mode must be "enforce" or "shadow"/);
    assert.throws(() => pq.createDualVerifier({ liboqs: join(dir, 'missing.so'), log }), /^Error: pqverify: cannot load the liboqs shared library .*missing\.so/);
    assert.throws(() => pq.createDualVerifier({ liboqs, log: join(dir, 'no-such-dir', 'log') }), /^Error: pqverify: disagreement log: cannot open/);
    assert.throws(() => pq.createDualVerifier({ liboqs }), /^TypeError: pqverify: the dual check needs a disagreement log/);
    assert.throws(() => pq.createDualVerifier({ liboqs, log, auditRejections: -1 }), RangeError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

if (ENGINE === 'native') test('createDualVerifier: an injected disagreement is in the log after an immediate process.exit', () => {
  const { liboqs, liar } = libraries();
  const dir = mkdtempSync(join(here, '.tmp-dual-'));
  try {
    const log = join(dir, 'disagreements.jsonl');
    const f = nobleFixtures[0];
    // The stand-in forwards every call to liboqs 0.16 but calls this message's signature valid.
    const script = `import { createDualVerifier } from 'pqverify';
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const dual = createDualVerifier({ liboqs: ${JSON.stringify(liar)}, log: ${JSON.stringify(log)} });
const message = new TextEncoder().encode('inject a disagreement');
const honest = dual.verify('ML-DSA-44', unhex('${f.pure}'), unhex('${f.message}'), unhex('${f.publicKey}'));
const lied = dual.verify('ML-DSA-44', unhex('${f.pure}'), message, unhex('${f.publicKey}'));
console.log(JSON.stringify({ honest, lied, stats: dual.stats() }));
process.exit(0);`;
    const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: here, encoding: 'utf8', env: { ...process.env, PQVERIFY_LIAR_TARGET: liboqs } });
    assert.equal(out.status, 0, out.stderr);
    const printed = JSON.parse(out.stdout.trim());
    // Enforce: liboqs (lying) accepts, pqverify rejects: the answer is false, and logged.
    assert.deepEqual(printed, { honest: true, lied: false, stats: { disagreements: 1, faults: 0, sinkFailures: 0 } });
    const lines = readFileSync(log, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines.length, 1);
    const [d] = lines;
    assert.equal(d.suite, 'ML-DSA-44');
    assert.equal(d.interface, 'pure');
    assert.equal(d.mode, 'enforce');
    assert.equal(d.msg_sha256, createHash('sha256').update('inject a disagreement').digest('hex'));
    assert.equal(d.pk_sha256, createHash('sha256').update(unhex(f.publicKey)).digest('hex'));
    assert.deepEqual([d.primary.backend, d.primary.outcome, d.secondary.backend, d.secondary.outcome, d.verdict], ['liboqs', 'valid', 'pqverify', 'invalid', false]);
    assert.match(d.primary.version, /^0\.16\./);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

if (ENGINE === 'wasm') test('createDualVerifier with WebAssembly: an Error saying why the dual check is not there', () => {
  assert.throws(() => pq.createDualVerifier({ liboqs: '/x/liboqs.so', log: '-' }), /^Error: pqverify: the dual check runs only in the native build .*: PQVERIFY_ENGINE=wasm chose it$/);
});
