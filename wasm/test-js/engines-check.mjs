// The package in the other two browser engines, for `cargo xtask test`: Firefox ESR
// (SpiderMonkey) and WebKitGTK (JavaScriptCore, Safari's engine), as a page imports it
// with no bundler: the default entry and pqverify/js, each on every NIST ACVP sigVer case
// (684), and on a page and in a module worker verifying noble-made ML-DSA-44 and
// SLH-DSA-SHAKE-128s signatures (true) and flipped copies (false); pqverify/pool's cases
// (module workers, a validator set, certificates). Prints `N passed, M failed` last.
//   PQVERIFY_ACVP_CASES=FILE node engines-check.mjs
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { openInEngine } from '../../testkit/js/engines.mjs';
import { tally } from '../../testkit/js/tally.mjs';
import { EXPECTED, VERDICTS } from './runtime-cases.mjs';
import { POOL, POOL_EXPECTED } from './pool-cases.mjs';

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
  cpSync(new URL('./acvp.mjs', import.meta.url), join(root, 'acvp.mjs'));
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
try {
  for (const engine of ['firefox', 'webkit']) {
    for (const entry of ['index', 'js']) {
      const what = `${engine}: ${entry === 'js' ? 'pqverify/js' : 'pqverify'}, the NIST ACVP sigVer cases`;
      try {
        const r = await openInEngine(engine, pages.root, `${entry}-acvp.html`, '{ acvp: document.body.dataset.acvp }', { timeoutMs: 10 * 60 * 1000 });
        check(r.state === '1' && r.acvp === JSON.stringify({ ran: 684, wrong: [] }), `${what}: all 684 as expected (${r.acvp?.slice(0, 300)})`);
      } catch (e) {
        check(false, `${what}: ${e.message}`);
      }
    }
    try {
      const r = await openInEngine(engine, pages.root, 'pool.html', '{ outcome: document.body.dataset.outcome }');
      check(r.state === '1' && r.errors.length === 0 && r.outcome === pages.pool,
        `${engine}: pqverify/pool on two module workers: verdicts in order, the errors verify throws, a certificate (${r.outcome?.slice(0, 300)}${r.errors.join('; ')})`);
    } catch (e) {
      check(false, `${engine}: pqverify/pool: ${e.message}`);
    }
    for (const page of ['index', 'index-worker', 'js', 'js-worker']) {
      const what = `${engine}: ${page.startsWith('js') ? 'pqverify/js' : 'pqverify'} ${page.endsWith('worker') ? 'in a module worker' : 'on a page'}`;
      try {
        const r = await openInEngine(engine, pages.root, `${page}.html`, '{ verdicts: document.body.dataset.verdicts }');
        check(r.state === '1' && r.errors.length === 0, `${what}: the page ran (${r.errors.join('; ')})`);
        check(r.verdicts === pages.expected, `${what}: true for the noble-made signatures, false for flipped copies (${r.verdicts})`);
      } catch (e) {
        check(false, `${what}: ${e.message}`);
      }
    }
  }
} finally {
  rmSync(pages.root, { recursive: true, force: true });
}

finish();
