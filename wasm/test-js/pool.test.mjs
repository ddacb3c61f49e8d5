// pqverify/pool in Node (worker_threads): the shared pool cases, on workers and on the
// calling thread; workers that exit, throw or never answer (their work fails with an
// Error, the pool replaces them and goes on; never a hang); a worker script that does
// not load (the pool closes after three tries); an idle pool does not keep Node alive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPool } from 'pqverify/pool';
import { POOL, POOL_EXPECTED } from './pool-cases.mjs';
import { nobleFixtures as fixtures } from './noble-fixture.mjs';
import { here, run } from './runtime-cases.mjs';

const unhex = (h) => Uint8Array.from(Buffer.from(h, 'hex'));
const f = fixtures.find((x) => x.suite === 'ML-DSA-44');
const good = { suite: 'ML-DSA-44', signature: unhex(f.pure), message: unhex(f.message), publicKey: unhex(f.publicKey) };
/** An item whose message tells the hostile worker what to do. */
const order = (what) => ({ ...good, message: new TextEncoder().encode(`pqverify-test:${what}`) });

/** A directory with the test project's node_modules and the hostile worker scripts. */
function hostile() {
  const dir = mkdtempSync(join(here, '.tmp-pool-'));
  symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
  // Imported before the real worker, so its listener runs first; "throw" stops the real one.
  writeFileSync(join(dir, 'orders.mjs'), `import { parentPort } from 'node:worker_threads';
parentPort.addEventListener('message', (event) => {
  const m = event.data;
  // A certificate on this message: the worker says it could not check the signatures.
  if (m?.op === 'certificate' && new TextDecoder().decode(m.message) === 'pqverify-test:fault') {
    event.stopImmediatePropagation();
    parentPort.postMessage({ id: m.id, verdicts: new Uint8Array(m.ends.length).fill(2), errors: { 0: ['Error', 'pqverify: told to fail'] } });
    return;
  }
  if (m?.op !== 'verify') return;
  const what = new TextDecoder().decode(m.data.subarray(m.ends[0], m.ends[1]));
  if (what === 'pqverify-test:exit') process.exit(7);
  if (what === 'pqverify-test:throw') {
    event.stopImmediatePropagation();
    throw new Error('told to throw');
  }
  if (what === 'pqverify-test:hang') for (;;);
});`);
  writeFileSync(join(dir, 'worker.mjs'), "import './orders.mjs';\nimport 'pqverify/pool-worker';\n");
  return { dir, url: pathToFileURL(join(dir, 'worker.mjs')), close: () => rmSync(dir, { recursive: true, force: true }) };
}

test('pool of 2 worker threads and on the calling thread: verdicts in order, the errors verify throws, certificates', () => {
  const script = (o) => `import { createPool } from 'pqverify/pool';${POOL(o)}\nconsole.log(JSON.stringify(outcome));`;
  assert.deepEqual(run(process.execPath, [], 'pool.mjs', script('{ size: 2 }')), POOL_EXPECTED(2));
  assert.deepEqual(run(process.execPath, [], 'pool0.mjs', script('{ size: 0 }')), POOL_EXPECTED(0));
});

test('a worker that exits, throws or never answers fails only its own job; the pool replaces it; a fault is never a false', async () => {
  const h = hostile();
  const pool = createPool({ size: 2, timeout: 2000, workerUrl: h.url });
  try {
    for (const [what, why] of [['exit', /^pqverify: a verifier worker exited \(code 7\)/], ['throw', /^pqverify: a verifier worker threw "told to throw"/],
      ['hang', /^pqverify: a verifier worker did not answer within 2000 ms/]]) {
      // Two jobs of three: the second begins with the order.
      const results = await pool.verifyMany([good, good, good, order(what), good, good]);
      assert.deepEqual(results.slice(0, 3), [{ valid: true }, { valid: true }, { valid: true }], what);
      for (const r of results.slice(3)) {
        assert.equal(r.valid, false, what);
        assert.match(r.error.message, why);
      }
      // The replacement answers.
      assert.deepEqual((await pool.verifyMany([good, good])).map((r) => r.valid), [true, true], `${what}: after`);
    }
    // A validator set survives its workers: the replacement has it too.
    const set = await pool.prepare('ML-DSA-44', [good.publicKey]);
    await pool.verifyMany([order('exit'), order('exit')]);
    const again = await set.verify(good.message, [{ validator: 0, signature: good.signature }]);
    assert.deepEqual(again, { verdicts: [true], valid: 1 });
    // A signature a worker could not check rejects the certificate: never a quiet false.
    await assert.rejects(set.verify(new TextEncoder().encode('pqverify-test:fault'), [{ validator: 0, signature: good.signature }]), /^Error: pqverify: told to fail$/);
  } finally {
    pool.close();
    h.close();
  }
  await assert.rejects(pool.verifyMany([good]), /^Error: pqverify: this pool is closed$/);
});

test('a worker script that does not load: the pool stops after three and every call gets an Error', async () => {
  const pool = createPool({ size: 1, workerUrl: pathToFileURL(join(here, 'no-such-worker.mjs')) });
  // Each job fails with its worker's own reason; after the third failed start the pool closes.
  const seen = [];
  for (let i = 0; i < 4; i++) {
    const [r] = await pool.verifyMany([good]).catch((e) => [{ error: e }]);
    seen.push(r.error.message);
  }
  assert.match(seen[0], /^pqverify: a verifier worker threw "Cannot find module .*no-such-worker\.mjs/);
  for (const m of seen) assert.match(m, /^pqverify: (a verifier worker threw "Cannot find module|3 verifier workers in a row stopped before answering|this pool is closed)/);
  assert.equal(seen[3], 'pqverify: this pool is closed');
  await assert.rejects(pool.prepare('ML-DSA-44', [good.publicKey]), /^Error: pqverify: this pool is closed$/);
});

test('bad arguments: pool options, prepare and certificates say what was wrong', async () => {
  assert.throws(() => createPool({ size: -1 }), /^RangeError: pqverify: pool option size must be an integer ≥ 0, got -1$/);
  assert.throws(() => createPool({ threads: 2 }), /^TypeError: pqverify: unknown option "threads" for createPool/);
  assert.throws(() => createPool({ timeout: 0 }), /pool option timeout must be an integer ≥ 1/);
  const pool = createPool({ size: 1 });
  try {
    await assert.rejects(pool.verifyMany('x'), /^TypeError: pqverify: verifyMany takes an array of items, got a string$/);
    await assert.rejects(pool.prepare('ML-DSA-44', []), /non-empty array/);
    await assert.rejects(pool.prepare('ML-DSA-44', [good.publicKey, new Uint8Array(3)]),
      /^RangeError: pqverify: validator 1: public key is 3 bytes; ML-DSA-44 public keys are 1312 bytes$/);
    // SPKI is decoded in the workers: its error names the validator too.
    await assert.rejects(pool.prepare('ML-DSA-44', [new Uint8Array(40)], { keyFormat: 'spki' }), /^RangeError: pqverify: validator 0: /);
    const set = await pool.prepare('ML-DSA-44', [good.publicKey]);
    await assert.rejects(set.verify(good.message, [{ validator: 0.5, signature: good.signature }]), /names validator 0.5, not in the set of 1/);
    await assert.rejects(set.verify(good.message, [{ validator: 0, signature: [1, 2] }]), /^TypeError: pqverify: certificate signature 0 must be a Uint8Array, got an Array$/);
    await assert.rejects(set.verify(good.message, [], { context: new Uint8Array(256) }), /context is 256 bytes/);
    // A short signature is not valid, as with verify: false, not an error.
    assert.deepEqual(await set.verify(good.message, [{ validator: 0, signature: new Uint8Array(7) }]), { verdicts: [false], valid: 0 });
  } finally {
    pool.close();
  }
});

test('an idle pool that was never closed does not keep Node running', () => {
  const script = `import { createPool } from 'pqverify/pool';
const pool = createPool({ size: 2 });
const r = await pool.verifyMany([]);
console.log(JSON.stringify(r));`;
  const start = Date.now();
  assert.deepEqual(run(process.execPath, [], 'idle.mjs', script), []);
  assert.ok(Date.now() - start < 60_000);
});
