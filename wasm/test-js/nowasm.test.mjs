// pqverify/js, the build for engines without WebAssembly (wasm2js), in a Node whose
// WebAssembly global is removed: every NIST ACVP sigVer case (written by cargo xtask
// from pqverify-kats, as every other target runs them) through the package's API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { wrongCases } from './acvp.mjs';

delete globalThis.WebAssembly;

const file = process.env.PQVERIFY_ACVP_CASES;
const pq = await import('pqverify/js');

test('pqverify/js without WebAssembly: every NIST ACVP sigVer case (684) has its expected verdict', () => {
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const cases = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(cases.length, 684);
  assert.deepEqual(wrongCases(pq, cases), []);
  assert.equal(typeof WebAssembly, 'undefined');
  assert.equal(pq.backend(), 'portable');
  assert.ok(pq.memoryBytes() > 0);
});
