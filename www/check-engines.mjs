// The package and the page in the other two browser engines, for `cargo xtask test`:
// Firefox ESR (SpiderMonkey) and WebKitGTK (JavaScriptCore, Safari's engine).
// * The package as a page imports it, with no bundler: the default entry and pqverify/js,
//   each on every NIST ACVP sigVer case (684), and on the page and in a module worker
//   verifying noble-made ML-DSA-44 and SLH-DSA-SHAKE-128s signatures (true) and flipped
//   copies (false); pqverify/pool's cases (module workers, a validator set, certificates).
// * A quick run of the benchmark page, checked for the package's simd128 build, a
//   correct verdict on every valid and flipped signature of every way, the engine as
//   the records' target, section 7's first-call records and section 8's certificates.
// node check-engines.mjs DIST
import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openInEngine, runInEngine } from './engines.mjs';
import { serve } from './serve.mjs';
import { tally } from './tally.mjs';
import { EXPECTED, VERDICTS } from '../wasm/test-js/runtime-cases.mjs';
import { POOL, POOL_EXPECTED } from '../wasm/test-js/pool-cases.mjs';

const [dist = 'dist'] = process.argv.slice(2);
const SUITES = ['ML-DSA-44', 'SLH-DSA-SHAKE-128f'];
const WAYS = ['pqverify', 'pqverify-prepared', 'noble'];
// ox's MlDsa44 on both its engines (ML-DSA-44 only).
const OX = ['ox', 'ox-wasm'];
const digest = `sha256:${createHash('sha256').update(readFileSync(new URL('../benches/fixtures/fixtures.json', import.meta.url))).digest('hex')}`;
// The committee the page was built with (`generated/certificates.json`).
const validators = JSON.parse(readFileSync(new URL('./generated/certificates.json', import.meta.url), 'utf8')).validators;
const { check, finish } = tally();

/** The package's pages: each entry on the page and in a module worker. */
function packagePages() {
  const root = mkdtempSync(join(dirname(new URL(import.meta.url).pathname), '.tmp-package-'));
  cpSync(dirname(createRequire(import.meta.url).resolve('pqverify/package.json')), join(root, 'pqverify'), { recursive: true });
  // The runtime tests' cases and verdict script (noble-made signatures, flipped copies).
  const verify = (entry) => `import * as pq from './pqverify/${entry}.js';
export function verdicts() {
  try {
    ${VERDICTS}
    return JSON.stringify(verdicts);
  } catch (e) {
    return String(e);
  }
}`;
  const done = "document.body.dataset.done = '1'";
  for (const entry of ['index', 'js']) {
    writeFileSync(join(root, `${entry}.mjs`), verify(entry));
    writeFileSync(join(root, `${entry}-worker.mjs`), `import { verdicts } from './${entry}.mjs';\npostMessage(verdicts());`);
    writeFileSync(join(root, `${entry}.html`), `<!doctype html><meta charset="utf-8"><body><script type="module">
import { verdicts } from './${entry}.mjs';
document.body.dataset.verdicts = verdicts(); ${done};</script></body>`);
    writeFileSync(join(root, `${entry}-worker.html`), `<!doctype html><meta charset="utf-8"><body><script type="module">
const worker = new Worker('./${entry}-worker.mjs', { type: 'module' });
worker.onmessage = (e) => { document.body.dataset.verdicts = e.data; ${done}; };
worker.onerror = (e) => { document.body.dataset.verdicts = 'the worker failed: ' + (e.message ?? e); ${done}; };</script></body>`);
  }
  // pqverify/pool: the cases of the package tests, on two module workers.
  writeFileSync(join(root, 'pool.html'), `<!doctype html><meta charset="utf-8"><body><script type="module">
import { createPool } from './pqverify/pool.js';
${POOL()}
document.body.dataset.outcome = JSON.stringify(outcome); ${done};</script></body>`);
  // Every NIST ACVP sigVer case through each entry (the cases cargo xtask writes from pqverify-kats).
  const acvpCases = process.env.PQVERIFY_ACVP_CASES;
  if (!acvpCases) throw new Error('PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  cpSync(acvpCases, join(root, 'acvp-cases.json'));
  cpSync(new URL('../wasm/test-js/acvp.mjs', import.meta.url), join(root, 'acvp.mjs'));
  for (const entry of ['index', 'js']) {
    writeFileSync(join(root, `${entry}-acvp.html`), `<!doctype html><meta charset="utf-8"><body><script type="module">
import * as pq from './pqverify/${entry}.js';
import { wrongCases } from './acvp.mjs';
try {
  const cases = await (await fetch('./acvp-cases.json')).json();
  document.body.dataset.acvp = JSON.stringify({ ran: cases.length, wrong: wrongCases(pq, cases) });
} catch (e) {
  document.body.dataset.acvp = String(e);
}
${done};</script></body>`);
  }
  return { root, expected: JSON.stringify(EXPECTED), pool: JSON.stringify(POOL_EXPECTED(2)) };
}

const pages = packagePages();
const server = await serve(pages.root);
try {
  for (const engine of ['firefox', 'webkit']) {
    for (const entry of ['index', 'js']) {
      const what = `${engine}: ${entry === 'js' ? 'pqverify/js' : 'pqverify'}, the NIST ACVP sigVer cases`;
      try {
        const r = await openInEngine(engine, `${server.url}${entry}-acvp.html`, '{ acvp: document.body.dataset.acvp }', { timeoutMs: 10 * 60 * 1000 });
        check(r.state === '1' && r.acvp === JSON.stringify({ ran: 684, wrong: [] }), `${what}: all 684 as expected (${r.acvp?.slice(0, 300)})`);
      } catch (e) {
        check(false, `${what}: ${e.message}`);
      }
    }
    try {
      const r = await openInEngine(engine, `${server.url}pool.html`, '{ outcome: document.body.dataset.outcome }');
      check(r.state === '1' && r.errors.length === 0 && r.outcome === pages.pool,
        `${engine}: pqverify/pool on two module workers: verdicts in order, the errors verify throws, a certificate (${r.outcome?.slice(0, 300)}${r.errors.join('; ')})`);
    } catch (e) {
      check(false, `${engine}: pqverify/pool: ${e.message}`);
    }
    for (const page of ['index', 'index-worker', 'js', 'js-worker']) {
      const what = `${engine}: ${page.startsWith('js') ? 'pqverify/js' : 'pqverify'} ${page.endsWith('worker') ? 'in a module worker' : 'on a page'}`;
      try {
        const r = await openInEngine(engine, `${server.url}${page}.html`, '{ verdicts: document.body.dataset.verdicts }');
        check(r.state === '1' && r.errors.length === 0, `${what}: the page ran (${r.errors.join('; ')})`);
        check(r.verdicts === pages.expected, `${what}: true for the noble-made signatures, false for flipped copies (${r.verdicts})`);
      } catch (e) {
        check(false, `${what}: ${e.message}`);
      }
    }
  }
} finally {
  server.close();
  rmSync(pages.root, { recursive: true, force: true });
}

for (const engine of ['firefox', 'webkit']) {
  let result;
  try {
    // WebCrypto is asked for too: the page must find that the engine lacks ML-DSA, not fail.
    result = await runInEngine(engine, dist, `?quick=1&rounds=1&suites=${SUITES.join(',')}&ways=${[...WAYS, ...OX, 'webcrypto'].join(',')}&autorun=1`, { timeoutMs: 10 * 60 * 1000 });
  } catch (e) {
    check(false, `${engine}: the page ran (${e.message})`);
    continue;
  }
  check(true, `${engine} (${result.version}): the page ran`);
  check(result.errors.length === 0, `${engine}: no page errors (${result.errors.join('; ')})`);
  const lines = result.records.trim().split('\n').map((l) => JSON.parse(l));
  const env = lines[0];
  check(env.type === 'env' && env.target === engine && env.fixtures === digest, `${engine}: the environment record names the engine and the shared fixtures`);
  check(env.backend === 'simd128' && env.extra.simd128 === true, `${engine}: the package chose its simd128 build (${env.backend})`);
  check(Array.isArray(env.extra['webcrypto-suites']), `${engine}: WebCrypto ML-DSA detected at run time (${JSON.stringify(env.extra['webcrypto-suites'])})`);
  const samples = lines.filter((r) => r.type === 'sample');
  for (const suite of SUITES) {
    for (const way of suite === 'ML-DSA-44' ? [...WAYS, ...OX] : WAYS) {
      for (const c of ['valid', 'invalid']) {
        const s = samples.find((r) => r.suite === suite && r.way === way && r.case === c);
        check(s && s.target === engine && s.checks > 0 && s.disagreements === 0 && s.median_ns > 0, `${engine}: ${suite} ${way} ${c}: every verdict correct`);
      }
    }
    for (const way of ['pqverify', 'pqverify-prepared']) {
      const first = samples.find((r) => r.case === 'first-call' && r.suite === suite && r.way === way);
      check(first && first.disagreements === 0, `${engine}: first call of ${way} ${suite} in a fresh worker`);
    }
  }
  // Section 8: the certificate of every validator through pqverify/pool, one worker and all cores.
  const certificates = lines.filter((r) => r.type === 'certificate');
  for (const suite of ['ML-DSA-44', 'ML-DSA-65', 'ML-DSA-87', 'SLH-DSA-SHAKE-128s']) {
    for (const threads of [...new Set([1, env.cores])]) {
      for (const way of ['pool-prepared', 'pool']) {
        const c = certificates.find((r) => r.suite === suite && r.way === way && r.threads === threads);
        check(c && c.target === engine && c.validators === validators && c.certificates > 0 && c.median_ns > 0 && c.wrong === 0,
          `${engine}: certificate record for ${way} ${suite} on ${threads} workers, every certificate valid`);
      }
    }
  }
}
finish();
