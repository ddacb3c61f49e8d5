// Argument validation against @noble/post-quantum, case by case: for each call, both
// return the same value or throw the same error class (messages differ in wording).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ml_dsa44 as noble44 } from '@noble/post-quantum/ml-dsa.js';
import { slh_dsa_shake_128f as nobleSlh } from '@noble/post-quantum/slh-dsa.js';
import { sha256 } from '@noble/hashes/sha2.js';
import * as pq from 'pqverify';

const { publicKey, secretKey } = noble44.keygen(new Uint8Array(32).fill(7));
const msg = new Uint8Array([1, 2, 3]);
const sig = noble44.sign(msg, secretKey, { context: new Uint8Array([9]) });
const slhKeys = nobleSlh.keygen(new Uint8Array(48).fill(3));
const slhSig = nobleSlh.sign(msg, slhKeys.secretKey);

/** (name, call on a noble-shaped suite object pair) */
const CASES = [
  ['valid with context', (s) => s.verify(sig, msg, publicKey, { context: new Uint8Array([9]) })],
  ['wrong context', (s) => s.verify(sig, msg, publicKey, { context: new Uint8Array([8]) })],
  ['context undefined', (s) => s.verify(sig, msg, publicKey, { context: undefined })],
  ['empty options', (s) => s.verify(sig, msg, publicKey, {})],
  ['public key one byte short', (s) => s.verify(sig, msg, publicKey.slice(1))],
  ['public key not bytes', (s) => s.verify(sig, msg, Array.from(publicKey))],
  ['signature one byte short', (s) => s.verify(sig.slice(1), msg, publicKey)],
  ['signature one byte long', (s) => s.verify(new Uint8Array([...sig, 0]), msg, publicKey)],
  ['signature a string', (s) => s.verify('sig', msg, publicKey)],
  ['message a string', (s) => s.verify(sig, 'msg', publicKey)],
  ['context 256 bytes', (s) => s.verify(sig, msg, publicKey, { context: new Uint8Array(256) })],
  ['context 255 bytes', (s) => s.verify(sig, msg, publicKey, { context: new Uint8Array(255) })],
  ['context not bytes', (s) => s.verify(sig, msg, publicKey, { context: 'ctx' })],
  ['unknown option', (s) => s.verify(sig, msg, publicKey, { foo: 1 })],
  ['options null', (s) => s.verify(sig, msg, publicKey, null)],
  ['options an array', (s) => s.verify(sig, msg, publicKey, [])],
  ['options a string', (s) => s.verify(sig, msg, publicKey, 'context')],
  ['externalMu a string', (s) => s.internal.verify(sig, new Uint8Array(64), publicKey, { externalMu: 'false' })],
  ['externalMu with 63 bytes', (s) => s.internal.verify(sig, new Uint8Array(63), publicKey, { externalMu: true })],
  ['externalMu with 64 bytes', (s) => s.internal.verify(sig, new Uint8Array(64), publicKey, { externalMu: true })],
  ['internal: context not an option', (s) => s.internal.verify(sig, msg, publicKey, { context: new Uint8Array(1) })],
  ['prehash with a noble hash', (s) => s.prehash(sha256).verify(sig, msg, publicKey)],
  ['prehash with a non-hash object', (s) => s.prehash({})],
  ['prehash with a number', (s) => s.prehash(5)],
];

function outcome(call) {
  try {
    return { value: call() };
  } catch (e) {
    return { error: e.constructor.name };
  }
}

test('argument validation matches noble, case by case (ML-DSA-44)', () => {
  for (const [name, call] of CASES) {
    assert.deepEqual(outcome(() => call(pq.ml_dsa44)), outcome(() => call(noble44)), name);
  }
});

test('SLH-DSA: verdicts and error classes match noble', () => {
  const cases = [
    ['valid', (s) => s.verify(slhSig, msg, slhKeys.publicKey)],
    ['flipped', (s) => s.verify(slhSig.map((b, i) => (i === 100 ? b ^ 1 : b)), msg, slhKeys.publicKey)],
    ['public key short', (s) => s.verify(slhSig, msg, slhKeys.publicKey.slice(1))],
    ['context 256 bytes', (s) => s.verify(slhSig, msg, slhKeys.publicKey, { context: new Uint8Array(256) })],
    ['unknown option', (s) => s.verify(slhSig, msg, slhKeys.publicKey, { bar: true })],
  ];
  for (const [name, call] of cases) {
    assert.deepEqual(outcome(() => call(pq.slh_dsa_shake_128f)), outcome(() => call(nobleSlh)), name);
  }
});
