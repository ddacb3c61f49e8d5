// The package's entries: pqverify/ml-dsa and pqverify/slh-dsa (one scheme each), the
// default entry over them (a bundler keeps only the schemes imported), pqverify/baseline
// (no wasm SIMD), each under import and require; and what an engine without WebAssembly
// or without its SIMD extension is told, at the first call, never at import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as esbuild from 'esbuild';
import * as pq from 'pqverify';
import * as mlDsa from 'pqverify/ml-dsa';
import * as slhDsa from 'pqverify/slh-dsa';
import * as baseline from 'pqverify/baseline';
import { SUITES } from 'pqverify/tables';
import { nobleFixtures } from './noble-fixture.mjs';
import { ENGINE, isEngine } from './engine.mjs';

const here = new URL('.', import.meta.url).pathname;
const require = createRequire(import.meta.url);
// noble-made signatures for every suite (pure, empty context).
const fixtures = nobleFixtures;
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));

/** Suite `s`'s noble-made key, message and valid signature, and that signature with a bit flipped. */
function signed(s) {
  const f = fixtures.find((x) => x.suite === s.name);
  const [pk, msg, sig] = [unhex(f.publicKey), unhex(f.message), unhex(f.pure)];
  const bad = sig.slice();
  bad[9] ^= 4;
  return { pk, msg, sig, bad };
}

test('each entry verifies its suites as the default entry does, import and require', () => {
  const entries = [
    ['pqverify/ml-dsa', mlDsa, require('pqverify/ml-dsa'), 'ml-dsa'],
    ['pqverify/slh-dsa', slhDsa, require('pqverify/slh-dsa'), 'slh-dsa'],
    ['pqverify/baseline', baseline, require('pqverify/baseline'), undefined],
  ];
  let checked = 0;
  for (const [name, esm, cjs, family] of entries) {
    const suites = SUITES.filter((s) => family === undefined || s.type === family);
    // Exactly the family's suites, nothing else of the other family.
    for (const s of SUITES) assert.equal(s.export in esm, suites.includes(s), `${name} ${s.export}`);
    for (const s of suites) {
      const { pk, msg, sig, bad } = signed(s);
      for (const entry of [esm, cjs]) {
        assert.equal(entry[s.export].verify(sig, msg, pk), true, `${name} ${s.name}`);
        assert.equal(entry[s.export].verify(bad, msg, pk), false, `${name} ${s.name} flipped`);
        checked++;
      }
      assert.equal(pq[s.export].verify(sig, msg, pk), true);
    }
  }
  assert.equal(checked, 2 * (3 + 12 + 15));
  // The per-scheme entries are the run's engine under import and require; pqverify/baseline
  // is always the WebAssembly build without SIMD.
  for (const entry of [mlDsa, slhDsa, require('pqverify/ml-dsa'), require('pqverify/slh-dsa')]) {
    assert.ok(isEngine(entry.kernels()), `${ENGINE}: ${entry.kernels()}`);
    // backend(): the deprecated first name.
    assert.equal(entry.backend(), entry.kernels());
  }
  assert.equal(baseline.kernels(), 'portable');
  assert.equal(baseline.backend(), 'portable');
  assert.ok(baseline.memoryBytes() > 0);
  if (ENGINE === 'wasm') {
    assert.ok(mlDsa.memoryBytes() > 0);
    assert.ok(pq.memoryBytes() > mlDsa.memoryBytes(), 'the default entry counts both schemes\' modules');
  } else {
    // The heap the native build holds: a prepared ML-DSA-44 key's expanded matrix, until freed.
    const { pk } = signed(SUITES[0]);
    const before = pq.memoryBytes();
    const key = mlDsa.ml_dsa44.prepare(pk);
    const held = pq.memoryBytes() - before;
    assert.ok(held > 16 * 1024 && held < 64 * 1024, `a prepared ML-DSA-44 key holds ${held} bytes`);
    key.free();
    // Freed: the expanded key; what stays until the collector takes the object is its wrapper.
    assert.ok(pq.memoryBytes() - before < 2048, `${pq.memoryBytes() - before} bytes held after free()`);
    assert.equal(mlDsa.memoryBytes(), pq.memoryBytes(), 'one native build behind every entry');
  }
});

async function bundleBytes(code, platform = 'browser') {
  const result = await esbuild.build({
    stdin: { contents: code, resolveDir: here, loader: 'js' }, bundle: true, minify: true, format: 'esm',
    platform, write: false, logLevel: 'error',
  });
  return result.outputFiles[0].contents.length;
}

test('a bundler keeps only the schemes imported from the default entry (for browsers and for Node)', async () => {
  for (const platform of ['browser', 'node']) {
    const fromDefault = await bundleBytes("import { ml_dsa44 } from 'pqverify'; globalThis.x = ml_dsa44;", platform);
    const fromEntry = await bundleBytes("import { ml_dsa44 } from 'pqverify/ml-dsa'; globalThis.x = ml_dsa44;", platform);
    const slh = await bundleBytes("import * as m from 'pqverify/slh-dsa'; globalThis.x = m;", platform);
    const all = await bundleBytes("import * as m from 'pqverify'; globalThis.x = m;", platform);
    // The default entry's own code is a few hundred bytes; no SLH-DSA module rides along
    // (bundlers take the `module` condition: index.js over the two scheme files).
    assert.ok(fromDefault - fromEntry < 2000, `${platform}: ${fromDefault} against ${fromEntry}`);
    assert.ok(all > fromEntry + slh * 0.9, `${platform}: all suites ${all}: both modules`);
  }
});

test('Node imports the default entry as one file (index.node.js), which answers as index.js does', async () => {
  const dir = new URL('.', import.meta.resolve('pqverify/package.json'));
  assert.equal(import.meta.resolve('pqverify'), new URL('index.node.js', dir).href);
  assert.equal(require.resolve('pqverify'), new URL('index.node.cjs', dir).pathname);
  // One file: it imports only Node's own modules (node:module, to require the native
  // build or else index.cjs, the WebAssembly build, beside it).
  const text = readFileSync(new URL('index.node.js', dir), 'utf8');
  const imported = [...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
  assert.deepEqual(imported.filter((m) => !m.startsWith('node:')), [], 'imports');
  const files = await import(new URL('index.js', dir).href);
  assert.deepEqual(Object.keys(pq).sort(), Object.keys(files).sort());
  assert.deepEqual(Object.keys(require('pqverify')).sort(), Object.keys(files).sort());
  for (const s of SUITES) {
    const { pk, msg, sig, bad } = signed(s);
    for (const entry of [pq, files, require('pqverify')]) {
      assert.equal(entry[s.export].verify(sig, msg, pk), true, s.name);
      assert.equal(entry[s.export].verify(bad, msg, pk), false, `${s.name} flipped`);
      assert.equal(entry.verify(s.name, sig, msg, pk), true, `verify('${s.name}', …)`);
    }
  }
  assert.equal(files.kernels(), 'simd128', 'index.js is the WebAssembly build');
  assert.ok(isEngine(pq.kernels()), `${ENGINE}: ${pq.kernels()}`);
  assert.equal(require('pqverify').kernels(), pq.kernels());
});

/** Runs `script` (ESM) in a fresh Node process; returns what it printed as JSON. */
function fresh(script) {
  const out = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', cwd: here });
  assert.equal(out.status, 0, out.stderr);
  return JSON.parse(out.stdout.trim());
}

const FIRST_CALL = (entry) => `
const m = await import('${entry}');
const { ml_dsa44 } = m;
let error = null;
try { ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312)); } catch (e) { error = { type: e.constructor.name, message: e.message }; }
console.log(JSON.stringify({ imported: true, error }));
`;

/** Whether `entry` answers with the native build in this run (the Node entries do when it loaded). */
const nativeHere = (entry) => ENGINE === 'native' && ['pqverify', 'pqverify/ml-dsa'].includes(entry);

test('without WebAssembly: the import succeeds, the first call is a pqverify: Error (the native build verifies)', () => {
  for (const entry of ['pqverify', 'pqverify/ml-dsa', 'pqverify/baseline', 'pqverify/manual']) {
    const r = fresh(`delete globalThis.WebAssembly;\n${FIRST_CALL(entry)}`);
    assert.equal(r.imported, true, entry);
    if (nativeHere(entry)) {
      assert.equal(r.error, null, entry);
      continue;
    }
    assert.equal(r.error?.type, 'Error', entry);
    assert.match(r.error.message, entry === 'pqverify/manual' ? /^pqverify: not initialised/ : /^pqverify: this engine has no WebAssembly .*import from "pqverify\/js"/, entry);
  }
});

test('without TextDecoder (as in Hermes): the import succeeds; verdicts and the messages from Rust are intact', () => {
  const f = fixtures.find((x) => x.suite === 'ML-DSA-44');
  const script = (deleted) => `${deleted ? 'delete globalThis.TextDecoder;' : ''}
const { ml_dsa44 } = await import('pqverify');
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const [sig, msg, pk] = [unhex('${f.pure}'), unhex('${f.message}'), unhex('${f.publicKey}')];
// An SPKI with a NULL parameter: refused by the core's DER decoder, its message a Rust string.
const spki = new Uint8Array([0x30, 0x82, 0x05, 0x34, 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, 0x11, 0x05, 0x00, 0x03, 0x82, 0x05, 0x21, 0x00, ...pk]);
let message = null;
try { ml_dsa44.verify(sig, msg, spki, { keyFormat: 'spki' }); } catch (e) { message = e.message; }
console.log(JSON.stringify({ decoder: typeof TextDecoder, valid: ml_dsa44.verify(sig, msg, pk), message }));`;
  const without = fresh(script(true));
  const within = fresh(script(false));
  assert.equal(without.decoder, 'undefined');
  assert.equal(without.valid, true);
  assert.match(within.message, /^pqverify: /);
  assert.equal(without.message, within.message);
});

test('without wasm SIMD: the SIMD entries name pqverify/baseline, which verifies', () => {
  const noSimd = `const validate = WebAssembly.validate; WebAssembly.validate = (bytes) => (bytes.length === 31 ? false : validate(bytes));`;
  for (const entry of ['pqverify', 'pqverify/ml-dsa']) {
    const r = fresh(`${noSimd}\n${FIRST_CALL(entry)}`);
    if (nativeHere(entry)) {
      assert.equal(r.error, null, entry);
      continue;
    }
    assert.equal(r.error?.type, 'Error', entry);
    assert.match(r.error.message, /^pqverify: this engine runs WebAssembly without its SIMD extension .*import from "pqverify\/baseline"/, entry);
  }
  const f = fixtures.find((x) => x.suite === 'ML-DSA-44');
  const r = fresh(`${noSimd}
const { ml_dsa44, kernels } = await import('pqverify/baseline');
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
console.log(JSON.stringify({ ok: ml_dsa44.verify(unhex('${f.pure}'), unhex('${f.message}'), unhex('${f.publicKey}')), kernels: kernels() }));`);
  assert.deepEqual(r, { ok: true, kernels: 'portable' });
});
