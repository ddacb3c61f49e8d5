// Every NIST ACVP sigVer case (684) through every wasm entry of the installed package, as
// a wallet imports it: the default entry (the per-scheme builds), pqverify/baseline and
// pqverify/manual (the simd128 build of every suite). pqverify/js runs them in
// nowasm.test.mjs, the engines in browser.test.mjs and engines-check.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as pq from 'pqverify';
import * as baseline from 'pqverify/baseline';
import * as manual from 'pqverify/manual';
import { wrongCases } from './acvp.mjs';

const file = process.env.PQVERIFY_ACVP_CASES;

for (const [name, entry] of [['pqverify', pq], ['pqverify/baseline', baseline], ['pqverify/manual', manual]]) {
  test(`${name}: every NIST ACVP sigVer case (684) has its expected verdict`, () => {
    assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
    if (entry === manual) manual.initSync(readFileSync(createRequire(import.meta.url).resolve('pqverify/wasm-simd/pqverify_wasm_bg.wasm')));
    const cases = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(cases.length, 684);
    assert.deepEqual(wrongCases(entry, cases), []);
  });
}
