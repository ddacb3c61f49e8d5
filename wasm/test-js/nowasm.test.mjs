// pqverify/js, the build for engines without WebAssembly (wasm2js), in a Node whose
// WebAssembly global is removed: every NIST ACVP sigVer case (written by cargo xtask
// from pqverify-kats, as every other target runs them) and the package's bad-input
// suite (bad-input.mjs) through the package's API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { wrongCases } from './acvp.mjs';
import { badInputFailures } from './bad-input.mjs';
import { nobleFixtures } from './noble-fixture.mjs';

delete globalThis.WebAssembly;

const file = process.env.PQVERIFY_ACVP_CASES;
const pq = await import('pqverify/js');

test('pqverify/js without WebAssembly: every NIST ACVP sigVer case (684) has its expected verdict', () => {
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const cases = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(cases.length, 684);
  assert.deepEqual(wrongCases(pq, cases), []);
  assert.equal(typeof WebAssembly, 'undefined');
  assert.equal(pq.kernels(), 'portable');
  assert.ok(pq.memoryBytes() > 0);
});

test('pqverify/js without WebAssembly: the bad-input suite (each error class, false for bad signatures, freed keys)', () => {
  assert.deepEqual(badInputFailures(pq, nobleFixtures.find((f) => f.suite === 'ML-DSA-44')), []);
  assert.equal(typeof WebAssembly, 'undefined');
});

test('pqverify/js without WebAssembly: after its memory grows (a 4 MiB message), valid signatures still verify', () => {
  // wasm2js grows memory into a new ArrayBuffer: the glue must write into that one.
  const f = nobleFixtures.find((x) => x.suite === 'ML-DSA-44');
  const [pk, msg, sig] = [Buffer.from(f.publicKey, 'hex'), Buffer.from(f.message, 'hex'), Buffer.from(f.pure, 'hex')];
  const before = pq.memoryBytes();
  assert.equal(pq.ml_dsa44.verify(sig, new Uint8Array(4 << 20), pk), false);
  assert.ok(pq.memoryBytes() >= before + (4 << 20), `memory grew from ${before} to ${pq.memoryBytes()} bytes`);
  assert.equal(pq.ml_dsa44.verify(sig, msg, pk), true);
  const key = pq.ml_dsa44.prepare(pk);
  assert.equal(key.verify(sig, msg), true);
  key.free();
});
