// React Native's engine, Hermes (hermes-engine-cli 0.12.0, the newest Hermes VM on the
// npm registry that runs here, pinned in runtimes/package.json), on a bundle made as
// Metro makes one: the "react-native" export condition, then @react-native/babel-preset.
// Hermes has no WebAssembly and no TextDecoder: the condition picks pqverify/js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';

import { EXPECTED, SPEED, VERIFY, here, reportSpeed, runtimes } from './runtime-cases.mjs';

const hermes = join(runtimes, 'hermes-engine-cli/linux64-bin/hermes');
const babel = createRequire(join(runtimes, 'package.json'))('@babel/core');

// Metro runs Babel on each module, then bundles; so does this (once per file).
const transformed = new Map();
const preset = createRequire(join(runtimes, 'package.json')).resolve('@react-native/babel-preset');
const metroLike = {
  name: 'babel-per-module',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      if (!transformed.has(args.path)) {
        const { code } = babel.transformFileSync(args.path, {
          // The 'default' profile: everything Hermes 0.12 lacks (classes among it) is transformed.
          // Modules stay ES modules for esbuild, which honours "type": "module" as Metro does not.
          presets: [[preset, { unstable_transformProfile: 'default', disableImportExportTransform: true }]], babelrc: false, configFile: false, compact: true,
        });
        transformed.set(args.path, code);
      }
      return { contents: transformed.get(args.path), loader: 'js' };
    });
  },
};

/** Bundles `code` as Metro would for a device (react-native condition, Babel's RN preset) and runs it in Hermes. */
async function inHermes(code) {
  assert.ok(existsSync(hermes), `${hermes} is missing; cargo xtask test installs it (wasm/test-js/runtimes, npm ci)`);
  const dir = mkdtempSync(join(here, '.tmp-hermes-'));
  try {
    symlinkSync(join(here, 'node_modules'), join(dir, 'node_modules'));
    // Hermes's own shell has print(), not the console React Native provides.
    writeFileSync(join(dir, 'app.js'), `globalThis.console ??= { log: print };\n${code}`);
    await build({
      entryPoints: [join(dir, 'app.js')], bundle: true, outfile: join(dir, 'bundle.js'), format: 'iife', platform: 'neutral',
      mainFields: ['react-native', 'module', 'main'], conditions: ['react-native', 'require', 'import'], logLevel: 'error',
      // Babel's helpers (@babel/runtime) come with the preset, as in a React Native app.
      nodePaths: [runtimes], plugins: [metroLike],
    });
    const out = spawnSync(hermes, ['bundle.js'], { cwd: dir, encoding: 'utf8', timeout: 300_000, maxBuffer: 64 << 20 });
    assert.equal(out.status, 0, `hermes bundle.js: ${out.stderr.slice(0, 2000)}${out.stdout.slice(-2000)}${out.error ?? ''}`);
    return JSON.parse(out.stdout.trim().split('\n').pop());
  } finally {
    if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  }
}

test('Hermes: import "pqverify" (the react-native condition: pqverify/js) verifies (true, and false when flipped)', async () => {
  const engine = await inHermes(`console.log(JSON.stringify([typeof WebAssembly, typeof TextDecoder]));`);
  assert.deepEqual(engine, ['undefined', 'undefined'], 'the Hermes under test has no WebAssembly and no TextDecoder');
  assert.deepEqual(await inHermes(`import * as pq from 'pqverify';${VERIFY}`), EXPECTED);
  assert.deepEqual(await inHermes(`import * as ml from 'pqverify/ml-dsa';\nimport * as slh from 'pqverify/slh-dsa';
const pq = { ...ml, ...slh };${VERIFY}`), EXPECTED);
});

test('Hermes: a wasm entry imports without a crash; its first call is a pqverify: Error naming pqverify/js', async () => {
  const r = await inHermes(`import { ml_dsa44 } from 'pqverify/baseline';
let error = null;
try { ml_dsa44.verify(new Uint8Array(2420), new Uint8Array(1), new Uint8Array(1312)); } catch (e) { error = e.message; }
console.log(JSON.stringify({ imported: true, error }));`);
  assert.equal(r.imported, true);
  assert.match(r.error ?? '', /^pqverify: this engine has no WebAssembly .*import from "pqverify\/js"/);
});

test('Hermes: pqverify/js beside @noble/post-quantum, same inputs (ms per verify, printed; not asserted)', async (t) => {
  reportSpeed(t, 'Hermes 0.12', await inHermes(SPEED));
});

test('Hermes: pqverify/js on the NIST ACVP cases of ML-DSA (180) and SLH-DSA-SHA2-128s and -SHAKE-128s (84)', async (t) => {
  // All 684 run through pqverify/js in Node without WebAssembly (nowasm.test.mjs); here
  // the ones an interpreter gets through in seconds: every ML-DSA case and the small SLH-DSA sets.
  const file = process.env.PQVERIFY_ACVP_CASES;
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const suites = ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'SLH-DSA-SHA2-128s', 'SLH-DSA-SHAKE-128s'];
  const cases = JSON.parse(readFileSync(file, 'utf8')).filter((c) => suites.includes(c.suite));
  assert.equal(cases.length, 264);
  const acvp = join(here, 'acvp.mjs');
  const r = await inHermes(`import * as pq from 'pqverify';
import { wrongCases } from ${JSON.stringify(acvp)};
const cases = ${JSON.stringify(cases)};
console.log(JSON.stringify({ ran: cases.length, wrong: wrongCases(pq, cases) }));`);
  assert.deepEqual(r, { ran: 264, wrong: [] });
  t.diagnostic('Hermes 0.12: 264 ACVP cases, every verdict as expected');
});
