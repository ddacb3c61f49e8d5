// What every runtime test runs: a noble-made ML-DSA-44 and SLH-DSA-SHAKE-128s signature
// (true) and a copy with one bit flipped (false), inlined into a script for the runtime
// under test, and the runner that starts the runtime's real binary on it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nobleFixtures as fixtures } from './noble-fixture.mjs';

export const here = new URL('.', import.meta.url).pathname;
export const runtimes = join(here, 'runtimes/node_modules');
const SUITES = [['ml_dsa44', 'ML-DSA-44'], ['slh_dsa_shake_128s', 'SLH-DSA-SHAKE-128s']];

/** The cases, inlined into each script (Deno runs without read permission). */
export const CASES = JSON.stringify(SUITES.map(([name, suite]) => {
  const f = fixtures.find((x) => x.suite === suite);
  return { name, sig: f.pure, msg: f.message, pk: f.publicKey };
}));

/** Statements that verify every case through `pq` into `verdicts` ([name, valid, flipped]). */
export const VERDICTS = `
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const verdicts = [];
for (const c of ${CASES}) {
  const [sig, msg, pk] = [unhex(c.sig), unhex(c.msg), unhex(c.pk)];
  const flipped = sig.slice();
  flipped[flipped.length >> 1] ^= 1;
  verdicts.push([c.name, pq[c.name].verify(sig, msg, pk), pq[c.name].verify(flipped, msg, pk)]);
}`;

/** A script body that verifies every case through `pq` and prints the verdicts as JSON. */
export const VERIFY = `${VERDICTS}
console.log(JSON.stringify(verdicts));`;

export const EXPECTED = SUITES.map(([name]) => [name, true, false]);

export const ESM = `import * as pq from 'pqverify';${VERIFY}`;
export const CJS = `const pq = require('pqverify');${VERIFY}`;
// pqverify/manual: the .wasm read by the runtime and handed to initSync.
export const MANUAL = `import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as pq from 'pqverify/manual';
const require = createRequire(import.meta.url);
pq.initSync(readFileSync(require.resolve('pqverify/wasm-simd/pqverify_wasm_bg.wasm')));${VERIFY}`;

/**
 * Scripts that verify every NIST ACVP sigVer case (the file PQVERIFY_ACVP_CASES names)
 * through `pqverify` by import, by require, and through the per-scheme entries, and print
 * `{ kernels, count, wrong }` for each (acvp.mjs's wrongCases; the scripts run in a folder
 * beside acvp.mjs). The runtime needs to read that file and that variable.
 */
export const ACVP = {
  'acvp.mjs': `import * as pq from 'pqverify';
import { readFileSync } from 'node:fs';
import { wrongCases } from '../acvp.mjs';
const cases = JSON.parse(readFileSync(process.env.PQVERIFY_ACVP_CASES, 'utf8'));
console.log(JSON.stringify({ kernels: pq.kernels(), count: cases.length, wrong: wrongCases(pq, cases) }));`,
  'acvp.cjs': `const pq = require('pqverify');
const cases = JSON.parse(require('node:fs').readFileSync(process.env.PQVERIFY_ACVP_CASES, 'utf8'));
import('../acvp.mjs').then(({ wrongCases }) => {
  console.log(JSON.stringify({ kernels: pq.kernels(), count: cases.length, wrong: wrongCases(pq, cases) }));
});`,
  'acvp-schemes.mjs': `import { suites } from 'pqverify';
import * as mlDsa from 'pqverify/ml-dsa';
import * as slhDsa from 'pqverify/slh-dsa';
import { readFileSync } from 'node:fs';
import { wrongCases } from '../acvp.mjs';
const cases = JSON.parse(readFileSync(process.env.PQVERIFY_ACVP_CASES, 'utf8'));
const kernels = mlDsa.kernels() === slhDsa.kernels() ? mlDsa.kernels() : 'the two entries differ';
console.log(JSON.stringify({ kernels, count: cases.length, wrong: wrongCases({ ...mlDsa, ...slhDsa, suites }, cases) }));`,
};

/**
 * Runs the ACVP scripts with `binary args` (and `env`): asserts every case has its
 * expected verdict in each, and returns the kernels each reported.
 */
export function runAcvp(binary, args, env = {}) {
  return Object.entries(ACVP).map(([name, script]) => {
    const r = run(binary, args, name, script, env);
    assert.equal(r.count, 684, `${binary} ${name}: the ACVP cases`);
    assert.deepEqual(r.wrong, [], `${binary} ${name}: cases with the wrong verdict`);
    return r.kernels;
  });
}

/** Runs `script` (in a file named `name`) with `cmd args` in a directory beside this one. */
export function run(binary, args, name, script, env = {}) {
  assert.ok(existsSync(binary), `${binary} is missing; cargo xtask test installs it (wasm/test-js/runtimes, npm ci)`);
  const dir = mkdtempSync(join(here, '.tmp-rt-'));
  try {
    // The package as the test project installed it, the way an app's node_modules holds it.
    symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(join(dir, name), script);
    writeFileSync(join(dir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
    const out = spawnSync(binary, [...args, name], { cwd: dir, encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
    assert.equal(out.status, 0, `${binary} ${args.join(' ')} ${name}: ${out.stderr}${out.error ?? ''}`);
    return JSON.parse(out.stdout.trim().split('\n').pop());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}


/**
 * A script that times `pq` (pqverify/js) beside @noble/post-quantum on the same cases
 * and prints `[{ suite, pqverify, noble }]` in ms per verify: Date.now() (all Hermes
 * has), n calls after one checked call each. Printed by the tests, never asserted.
 */
export const SPEED = `import * as pq from 'pqverify/js';
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { slh_dsa_shake_128s } from '@noble/post-quantum/slh-dsa.js';
const noble = { ml_dsa44, slh_dsa_shake_128s };
const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
const rows = [];
for (const c of ${CASES}) {
  const [sig, msg, pk] = [unhex(c.sig), unhex(c.msg), unhex(c.pk)];
  const n = c.name === 'ml_dsa44' ? 20 : 3;
  const time = (v) => {
    if (v.verify(sig, msg, pk) !== true) throw new Error(c.name + ': not true');
    const t0 = Date.now();
    for (let i = 0; i < n; i++) v.verify(sig, msg, pk);
    return (Date.now() - t0) / n;
  };
  // Interleaved, twice each, best kept: the same machine state for both.
  const a = [time(pq[c.name]), time(noble[c.name]), time(pq[c.name]), time(noble[c.name])];
  rows.push({ suite: c.name, pqverify: Math.min(a[0], a[2]), noble: Math.min(a[1], a[3]) });
}
console.log(JSON.stringify(rows));`;

/** Prints the rows of SPEED as the test's diagnostics. */
export function reportSpeed(t, engine, rows) {
  assert.equal(rows.length, 2);
  for (const row of rows) {
    assert.ok(row.pqverify > 0 && row.noble > 0, JSON.stringify(row));
    t.diagnostic(`${engine}, ${row.suite}: pqverify/js ${row.pqverify.toFixed(1)} ms, noble ${row.noble.toFixed(1)} ms (noble / pqverify/js = ${(row.noble / row.pqverify).toFixed(2)})`);
  }
}
