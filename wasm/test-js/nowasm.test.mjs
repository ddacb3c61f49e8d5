// pqverify/js, the build for engines without WebAssembly (wasm2js), in a Node whose
// WebAssembly global is removed: every NIST ACVP sigVer case (written by cargo xtask
// from pqverify-kats, as every other target runs them) through the package's API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

delete globalThis.WebAssembly;

const file = process.env.PQVERIFY_ACVP_CASES;
const pq = await import('pqverify/js');

const unhex = (h) => new Uint8Array(h.length / 2).map((_, i) => parseInt(h.substr(2 * i, 2), 16));

/** The verdict of one ACVP case through the API a wallet calls. */
function verdict(c) {
  const suite = pq[pq.suites().find((s) => s.name === c.suite).export];
  const [sig, msg, pk, context] = [unhex(c.signature), unhex(c.message), unhex(c.publicKey), unhex(c.context)];
  switch (c.interface) {
    case 'pure': return suite.verify(sig, msg, pk, { context });
    case 'prehash': return suite.prehash(c.prehash).verify(sig, msg, pk, { context });
    case 'internal': return suite.internal.verify(sig, msg, pk);
    case 'external-mu': return suite.internal.verify(sig, msg, pk, { externalMu: true });
    default: throw new Error(`unknown interface ${c.interface}`);
  }
}

test('pqverify/js without WebAssembly: every NIST ACVP sigVer case (684) has its expected verdict', () => {
  assert.ok(file, 'PQVERIFY_ACVP_CASES is not set: cargo xtask test writes the cases and sets it');
  const cases = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(cases.length, 684);
  const wrong = cases.filter((c) => {
    try {
      return verdict(c) !== c.expected;
    } catch (e) {
      return !(c.expected === false && e instanceof RangeError);
    }
  });
  assert.deepEqual(wrong.map((c) => `${c.suite} tg ${c.tgId} tc ${c.tcId}`), []);
  assert.equal(typeof WebAssembly, 'undefined');
  assert.equal(pq.backend(), 'portable');
  assert.ok(pq.memoryBytes() > 0);
});
