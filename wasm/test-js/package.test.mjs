// The built `pqverify` npm package, imported as a user imports it, against
// @noble/post-quantum: noble's signatures for all 15 suites verify through exactly
// noble's call shape (pure, context, pre-hash, internal, external μ), then through
// prepared keys; flipped bits are rejected; every bad-input error class is checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

import * as pq from 'pqverify';
import * as nobleMl from '@noble/post-quantum/ml-dsa.js';
import * as nobleSlh from '@noble/post-quantum/slh-dsa.js';
import { sha224, sha256, sha384, sha512, sha512_224, sha512_256 } from '@noble/hashes/sha2.js';
import { sha3_224, sha3_256, sha3_384, sha3_512, shake128_32, shake256_64 } from '@noble/hashes/sha3.js';
import { SUITES } from './suites.mjs';
import { badInputFailures } from './bad-input.mjs';
import { nobleFixtures } from './noble-fixture.mjs';
import { ENGINE, isEngine } from './engine.mjs';

const noble = { ...nobleMl, ...nobleSlh };
const unhex = (h) => new Uint8Array(Buffer.from(h, 'hex'));
const fixtures = nobleFixtures;
const HASHES = [
  [sha224, 'SHA2-224'], [sha256, 'SHA2-256'], [sha384, 'SHA2-384'], [sha512, 'SHA2-512'],
  [sha512_224, 'SHA2-512/224'], [sha512_256, 'SHA2-512/256'], [sha3_224, 'SHA3-224'], [sha3_256, 'SHA3-256'],
  [sha3_384, 'SHA3-384'], [sha3_512, 'SHA3-512'], [shake128_32, 'SHAKE-128'], [shake256_64, 'SHAKE-256'],
];
const flip = (bytes, bit) => {
  const out = bytes.slice();
  out[bit >> 3] ^= 1 << (bit & 7);
  return out;
};

test('the package is ready on import, with every suite', () => {
  const require = createRequire(import.meta.url);
  const manifest = require('pqverify/package.json');
  assert.equal(manifest.name, 'pqverify');
  // The licenses it names ship with it; no placeholder metadata.
  const dir = require.resolve('pqverify/package.json').replace(/package\.json$/, '');
  for (const file of ['LICENSE-MIT', 'LICENSE-APACHE']) assert.ok(readFileSync(dir + file, 'utf8').length > 500, file);
  assert.equal(manifest.repository, undefined);
  assert.equal(pq.suites().length, 15);
  // The native build (its platform package is installed here), or with
  // PQVERIFY_ENGINE=wasm the simd128 build (Node has wasm SIMD).
  assert.ok(isEngine(pq.kernels()), `${ENGINE}: ${pq.kernels()}`);
  for (const { export: exportName, name } of SUITES) {
    const ours = pq[exportName];
    const theirs = noble[exportName];
    assert.equal(ours.name, name);
    // noble's verify-side fields: lengths, info, securityLevel, on the suite and its variants.
    assert.equal(ours.lengths.publicKey, theirs.lengths.publicKey, name);
    assert.equal(ours.lengths.signature, theirs.lengths.signature, name);
    assert.deepEqual(ours.info, theirs.info, name);
    assert.equal(ours.securityLevel, theirs.securityLevel, name);
    assert.deepEqual(ours.prehash('SHA2-512').info, theirs.info, name);
    assert.equal(ours.prehash('SHA2-512').securityLevel, theirs.securityLevel, name);
    assert.deepEqual(ours.internal.lengths, ours.lengths, name);
  }
  assert.equal(fixtures.length, 15);
});

test('fresh noble ML-DSA signatures verify through noble\'s call shape', () => {
  for (const exportName of ['ml_dsa44', 'ml_dsa65', 'ml_dsa87']) {
    const n = noble[exportName];
    const ours = pq[exportName];
    for (let round = 0; round < 3; round++) {
      const { secretKey, publicKey } = n.keygen();
      const msg = crypto.getRandomValues(new Uint8Array(round * 40));
      const context = crypto.getRandomValues(new Uint8Array(round * 100));
      const sig = n.sign(msg, secretKey, { context });
      assert.equal(ours.verify(sig, msg, publicKey, { context }), true);
      assert.equal(ours.verify(sig, msg, publicKey), n.verify(sig, msg, publicKey));
      assert.equal(ours.verify(sig, msg, publicKey), round === 0, 'empty context is a context');
      // Every approved pre-hash, as a noble hash function and by name.
      for (const [hash, name] of HASHES) {
        let preSig;
        try {
          preSig = n.prehash(hash).sign(msg, secretKey, { context });
        } catch {
          // noble refuses hashes weaker than the category; sign that case through internal.
          continue;
        }
        assert.equal(ours.prehash(hash).verify(preSig, msg, publicKey, { context }), true, `${exportName} ${name}`);
        assert.equal(ours.prehash(name).verify(preSig, msg, publicKey, { context }), true);
        assert.equal(ours.verify(preSig, msg, publicKey, { context }), false, 'pre-hash is not pure');
      }
      // internal: M′ and external μ.
      const mPrime = crypto.getRandomValues(new Uint8Array(50));
      const internalSig = n.internal.sign(mPrime, secretKey);
      assert.equal(ours.internal.verify(internalSig, mPrime, publicKey), true);
      const mu = crypto.getRandomValues(new Uint8Array(64));
      const muSig = n.internal.sign(mu, secretKey, { externalMu: true });
      assert.equal(ours.internal.verify(muSig, mu, publicKey, { externalMu: true }), true);
      assert.equal(ours.internal.verify(muSig, flip(mu, 3), publicKey, { externalMu: true }), false);
      // Prepared key: the same verdicts.
      const key = ours.prepare(publicKey);
      assert.equal(key.verify(sig, msg, { context }), true);
      assert.equal(key.verify(sig, msg), round === 0);
      assert.equal(key.internal.verify(muSig, mu, { externalMu: true }), true);
      assert.equal(key.internal.verify(internalSig, mPrime), true);
      for (let i = 0; i < 16; i++) {
        const bit = Math.floor(Math.random() * sig.length * 8);
        assert.equal(ours.verify(flip(sig, bit), msg, publicKey, { context }), false, `bit ${bit}`);
        assert.equal(key.verify(flip(sig, bit), msg, { context }), false);
      }
      key.free();
    }
  }
});

test('noble signatures for all 15 suites: pure, context, pre-hash, prepared, flipped bits', () => {
  for (const f of fixtures) {
    const { export: exportName } = SUITES.find(({ name }) => name === f.suite);
    const ours = pq[exportName];
    const n = noble[exportName];
    const [pk, msg, context] = [unhex(f.publicKey), unhex(f.message), unhex(f.context)];
    const [pure, withCtx, pre] = [unhex(f.pure), unhex(f.pureWithContext), unhex(f.prehashWithContext)];
    const [hashFn] = HASHES.find(([, name]) => name === f.prehash);
    // The fixtures are noble-valid (checked with noble itself) …
    assert.equal(n.verify(pure, msg, pk), true, f.suite);
    // … and pqverify agrees through noble's exact call shape.
    assert.equal(ours.verify(pure, msg, pk), true, f.suite);
    assert.equal(ours.verify(withCtx, msg, pk, { context }), true, f.suite);
    assert.equal(ours.verify(withCtx, msg, pk), false, f.suite);
    assert.equal(ours.prehash(hashFn).verify(pre, msg, pk, { context }), true, f.suite);
    assert.equal(ours.prehash(f.prehash).verify(pre, msg, pk, { context }), true, f.suite);
    assert.equal(pq.verify(f.suite, pre, msg, pk, { context, prehash: f.prehash }), true, f.suite);
    assert.equal(pq.verify(f.suite, pure, msg, pk), true, f.suite);
    const key = ours.prepare(pk);
    assert.equal(key.suite, f.suite);
    assert.equal(key.verify(pure, msg), true);
    assert.equal(key.verify(withCtx, msg, { context }), true);
    assert.equal(key.prehash(hashFn).verify(pre, msg, { context }), true);
    for (const bit of [0, 8 * 17 + 3, Math.floor(pure.length * 4), pure.length * 8 - 1]) {
      assert.equal(ours.verify(flip(pure, bit), msg, pk), false, `${f.suite} bit ${bit}`);
      assert.equal(key.verify(flip(pure, bit), msg), false);
    }
    assert.equal(ours.verify(pure, flip(msg, 5), pk), false);
    assert.equal(ours.verify(pure.subarray(1), msg, pk), false, 'one byte short');
    assert.equal(ours.verify(new Uint8Array([...pure, 0xaa]), msg, pk), false, 'one byte long');
    key.free();
  }
});

test('bad input: TypeError for types and options, RangeError for values', () => {
  assert.deepEqual(badInputFailures(pq, fixtures[0]), []);
  // Node's Buffer is a Uint8Array and is accepted.
  const [pk, msg, sig] = [unhex(fixtures[0].publicKey), unhex(fixtures[0].message), unhex(fixtures[0].pure)];
  assert.equal(pq.ml_dsa44.verify(Buffer.from(sig), Buffer.from(msg), Buffer.from(pk)), true);
});

test('hostile environments: other realms\' bytes, a polluted Object.prototype, strict option types', async () => {
  const { runInNewContext } = await import('node:vm');
  const f = fixtures[0];
  const [pk, msg, sig] = [unhex(f.publicKey), unhex(f.message), unhex(f.pure)];
  const s = pq.ml_dsa44;
  // Bytes made in another realm (what Jest, Vitest with jsdom, iframes hand over).
  const foreign = (b) => runInNewContext('Uint8Array.from(src)', { src: Array.from(b) });
  assert.equal(foreign(pk) instanceof Uint8Array, false, 'really another realm');
  assert.equal(s.verify(foreign(sig), foreign(msg), foreign(pk)), true);
  assert.equal(s.verify(foreign(sig), foreign(msg), foreign(pk), { context: foreign(new Uint8Array(0)) }), true);
  assert.equal(s.prepare(foreign(pk)).verify(foreign(sig), foreign(msg)), true);
  // Prototype pollution of every option name changes no verdict.
  for (const [key, value] of [['context', new Uint8Array([1, 2, 3])], ['externalMu', true], ['prehash', 'SHA2-256']]) {
    Object.prototype[key] = value;
    try {
      assert.equal(s.verify(sig, msg, pk), true, `polluted ${key}`);
      assert.equal(s.verify(sig, msg, pk, {}), true, `polluted ${key}, empty options`);
      assert.equal(pq.verify('ML-DSA-44', sig, msg, pk, {}), true, `polluted ${key}, generic verify`);
      assert.equal(s.prepare(pk).verify(sig, msg, {}), true, `polluted ${key}, prepared`);
      const mPrime = new Uint8Array([0, 0, ...msg]);
      assert.equal(s.internal.verify(sig, mPrime, pk, {}), true, `polluted ${key}, internal`);
    } finally {
      delete Object.prototype[key];
    }
  }
  // Option values: undefined is absent; externalMu must be a boolean.
  assert.equal(s.verify(sig, msg, pk, { context: undefined }), true);
  assert.throws(() => s.internal.verify(sig, msg, pk, { externalMu: 'false' }), TypeError);
  assert.throws(() => s.internal.verify(sig, msg, pk, { externalMu: 1 }), TypeError);
  // One prefix on errors from the wasm side.
  assert.throws(() => s.verify(sig, msg, pk, { context: new Uint8Array(256) }), (e) => !/pqverify: pqverify:/.test(e.message));
});
