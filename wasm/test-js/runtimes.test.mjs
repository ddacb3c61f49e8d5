// The package in the other JavaScript runtimes a wallet or a service runs: Node 22, 24
// and 26 (import, require and pqverify/manual), Deno (no permissions, no network), Bun,
// and Node without WebAssembly (--jitless: pqverify/js), each the real binary pinned in
// runtimes/package.json. Every one verifies a noble-made ML-DSA-44 and
// SLH-DSA-SHAKE-128s signature (true) and a copy with one bit flipped (false).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { CJS, ESM, EXPECTED, MANUAL, SPEED, VERDICTS, reportSpeed, run, runAcvp, runtimes } from './runtime-cases.mjs';
import { POOL, POOL_EXPECTED } from './pool-cases.mjs';
import { ENGINE, isEngine } from './engine.mjs';

// Which file of the package 'pqverify' resolves to (Deno and Bun take the `node` condition).
const RESOLVED = "console.log(JSON.stringify(import.meta.resolve('pqverify').split('/').pop()));";

const POOL_SCRIPT = `import { createPool } from 'pqverify/pool';${POOL()}\nconsole.log(JSON.stringify(outcome));`;

/** Asserts that every entry reported this run's engine (`kernels`, one per ACVP script). */
function assertEngine(kernels, where) {
  for (const k of kernels) assert.ok(isEngine(k), `${where}: ${ENGINE} run, but the entries answered with ${k}`);
}

// What Deno needs to read the ACVP cases, and PQVERIFY_ENGINE (which the package reads
// only where Deno already grants it: it never prompts).
const DENO_ACVP = [`--allow-read=${process.env.PQVERIFY_ACVP_CASES}`, '--allow-env=PQVERIFY_ACVP_CASES,PQVERIFY_ENGINE'];
const DENO_RUN = ['run', '--no-prompt', '--no-remote', '--cached-only'];
const DENO_ENV = { NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/', DENO_NO_UPDATE_CHECK: '1' };

for (const node of ['node22', 'node24', 'node26']) {
  test(`${node}: every NIST ACVP case through import, require and the per-scheme entries, on this run's engine`, () => {
    assertEngine(runAcvp(join(runtimes, node, 'bin/node'), []), node);
  });
}

test('Bun: every NIST ACVP case through import, require and the per-scheme entries, on this run\'s engine', () => {
  assertEngine(runAcvp(join(runtimes, '.bin/bun'), ['run', '--no-install']), 'Bun');
});

test('Deno with --allow-ffi: every NIST ACVP case on this run\'s engine; without it, WebAssembly, silently (no prompt)', () => {
  const deno = join(runtimes, '.bin/deno');
  assertEngine(runAcvp(deno, [...DENO_RUN, '--allow-ffi', ...DENO_ACVP], DENO_ENV), 'Deno --allow-ffi');
  // Without FFI permission (and --no-prompt, so a request for it would throw): WebAssembly.
  for (const kernels of runAcvp(deno, [...DENO_RUN, ...DENO_ACVP], DENO_ENV)) assert.equal(kernels, 'simd128', 'Deno without --allow-ffi');
});

test('Node 24\'s permission model: without --allow-addons, WebAssembly, silently; with it, the native build', () => {
  const bin = join(runtimes, 'node24/bin/node');
  const script = `import * as pq from 'pqverify';${VERDICTS}\nconsole.log(JSON.stringify({ verdicts, kernels: pq.kernels() }));`;
  const without = run(bin, ['--permission', '--allow-fs-read=*'], 'permission.mjs', script);
  assert.deepEqual(without, { verdicts: EXPECTED, kernels: 'simd128' });
  const allowed = run(bin, ['--permission', '--allow-fs-read=*', '--allow-addons'], 'permission.mjs', script);
  assert.deepEqual(allowed.verdicts, EXPECTED);
  assert.ok(isEngine(allowed.kernels), allowed.kernels);
});

for (const node of ['node22', 'node24', 'node26']) {
  test(`${node}: import, require and pqverify/manual verify (true, and false when flipped)`, () => {
    const bin = join(runtimes, node, 'bin/node');
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout?.trim();
    assert.match(version ?? '', new RegExp(`^v${node.slice(4)}\\.`), `${node} is ${version}`);
    assert.deepEqual(run(bin, [], 'esm.mjs', ESM), EXPECTED, `${version} import`);
    assert.deepEqual(run(bin, [], 'cjs.cjs', CJS), EXPECTED, `${version} require`);
    assert.deepEqual(run(bin, [], 'manual.mjs', MANUAL), EXPECTED, `${version} pqverify/manual`);
  });
}

test('Deno, without permissions or network: import verifies (true, and false when flipped), from index.node.js', () => {
  const bin = join(runtimes, '.bin/deno');
  // No --allow-*: reading the package from node_modules is all Deno grants a local import.
  // A registry on a closed port: were anything fetched, the run would fail.
  const env = { NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/', DENO_NO_UPDATE_CHECK: '1' };
  const flags = ['run', '--no-prompt', '--no-remote', '--cached-only'];
  assert.deepEqual(run(bin, flags, 'esm.mjs', ESM, env), EXPECTED);
  assert.equal(run(bin, flags, 'resolve.mjs', RESOLVED, env), 'index.node.js');
});

// The pool's workers run the WebAssembly build whatever the engine: once, in the native run.
if (ENGINE === 'native') test('pqverify/pool in Node 24, Deno and Bun: worker threads verify, certificates check', () => {
  assert.deepEqual(run(join(runtimes, 'node24/bin/node'), [], 'pool.mjs', POOL_SCRIPT), POOL_EXPECTED(2), 'Node 24');
  const env = { NPM_CONFIG_REGISTRY: 'http://127.0.0.1:9/', DENO_NO_UPDATE_CHECK: '1' };
  assert.deepEqual(run(join(runtimes, '.bin/deno'), ['run', '--no-prompt', '--no-remote', '--cached-only'], 'pool.mjs', POOL_SCRIPT, env), POOL_EXPECTED(2), 'Deno');
  assert.deepEqual(run(join(runtimes, '.bin/bun'), ['run', '--no-install'], 'pool.mjs', POOL_SCRIPT), POOL_EXPECTED(2), 'Bun');
});

test('Bun: import and require verify (true, and false when flipped), import from index.node.js', () => {
  const bin = join(runtimes, '.bin/bun');
  const flags = ['run', '--no-install'];
  assert.deepEqual(run(bin, flags, 'esm.mjs', ESM), EXPECTED);
  assert.deepEqual(run(bin, flags, 'cjs.cjs', CJS), EXPECTED);
  assert.equal(run(bin, flags, 'resolve.mjs', RESOLVED), 'index.node.js');
});

test('node --jitless (no WebAssembly): import "pqverify" does not throw, its first call names pqverify/js, which verifies (the native build needs no WebAssembly)', () => {
  const bin = join(runtimes, 'node24/bin/node');
  const first = `import * as pq from 'pqverify';
let error = null;
try { pq.ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312)); } catch (e) { error = e.message; }
console.log(JSON.stringify({ wasm: typeof WebAssembly, error, kernels: error === null ? pq.kernels() : null }));`;
  const r = run(bin, ['--jitless'], 'first.mjs', first);
  assert.equal(r.wasm, 'undefined', 'node --jitless has no WebAssembly');
  if (ENGINE === 'native') {
    assert.equal(r.error, null);
    assert.ok(isEngine(r.kernels), r.kernels);
    assert.deepEqual(run(bin, ['--jitless'], 'esm.mjs', ESM), EXPECTED);
  } else {
    assert.match(r.error ?? '', /^pqverify: this engine has no WebAssembly .*import from "pqverify\/js"/);
  }
  assert.deepEqual(run(bin, ['--jitless'], 'js.mjs', ESM.replace("from 'pqverify'", "from 'pqverify/js'")), EXPECTED);
  assert.deepEqual(run(bin, ['--jitless'], 'js.cjs', CJS.replace("require('pqverify')", "require('pqverify/js')")), EXPECTED);
});

// pqverify/js is the same whatever the engine: once, in the native run.
if (ENGINE === 'native') test('node --jitless: pqverify/js beside @noble/post-quantum, same inputs (ms per verify, printed; not asserted)', (t) => {
  reportSpeed(t, 'Node 24 --jitless', run(join(runtimes, 'node24/bin/node'), ['--jitless'], 'speed.mjs', SPEED));
});
