// The verifier pool's cases, inlined into a script that runs wherever the pool does
// (Node, Deno, Bun, a Chromium page, an extension page): verifyMany over noble-made
// signatures (valid, flipped, a key of the wrong length), a validator set of eight
// ML-DSA-44 keys made by noble and a certificate with one signature swapped.
import { ml_dsa44 } from '@noble/post-quantum/ml-dsa.js';
import { CASES } from './runtime-cases.mjs';

const hex = (b) => Buffer.from(b).toString('hex');
const message = new Uint8Array(32).fill(0x42);
const validators = Array.from({ length: 8 }, (_, i) => {
  const { publicKey, secretKey } = ml_dsa44.keygen(new Uint8Array(32).fill(i + 1));
  return { pk: hex(publicKey), sig: hex(ml_dsa44.sign(message, secretKey)) };
});

/** The validator set and certificate message, as hex. */
export const VALIDATORS = JSON.stringify({ message: hex(message), validators });

/**
 * Statements that use `createPool` (in scope) with `options` and leave the outcome in
 * `outcome`: `{ many, certificate, errors }`.
 */
export const POOL = (options = '{ size: 2 }') => `
let outcome;
try {
  const unhex = (h) => new Uint8Array(h.match(/../g).map((b) => parseInt(b, 16)));
  const cases = ${CASES};
  const names = { ml_dsa44: 'ML-DSA-44', slh_dsa_shake_128s: 'SLH-DSA-SHAKE-128s' };
  const pool = createPool(${options});
  const items = [];
  for (const c of cases) {
    const [signature, message, publicKey] = [unhex(c.sig), unhex(c.msg), unhex(c.pk)];
    const flipped = signature.slice();
    flipped[flipped.length >> 1] ^= 1;
    items.push({ suite: names[c.name], signature, message, publicKey }, { suite: names[c.name], signature: flipped, message, publicKey });
  }
  items.push({ ...items[0], publicKey: new Uint8Array(5) }, { ...items[0], signature: 'not bytes' });
  const many = (await pool.verifyMany(items)).map((r) => (r.error ? r.error.constructor.name + ': ' + r.error.message : r.valid));
  const v = ${VALIDATORS};
  const message = unhex(v.message);
  const set = await pool.prepare('ML-DSA-44', v.validators.map((x) => unhex(x.pk)));
  const signatures = v.validators.map((x, validator) => ({ validator, signature: unhex(x.sig) }));
  signatures[5] = { validator: 5, signature: signatures[6].signature };
  const certificate = await set.verify(message, signatures);
  const errors = [];
  for (const bad of [[{ validator: 8, signature: signatures[0].signature }], [signatures[0], signatures[0]]]) {
    try { await set.verify(message, bad); errors.push('no error'); } catch (e) { errors.push(e.constructor.name + ': ' + e.message); }
  }
  set.release();
  try { await set.verify(message, signatures); errors.push('no error'); } catch (e) { errors.push(e.message); }
  pool.close();
  outcome = { size: pool.size, many, certificate, errors };
} catch (e) {
  outcome = { error: String(e) };
}`;

/** What POOL leaves in `outcome` (with `size` as asked). */
export const POOL_EXPECTED = (size) => ({
  size,
  many: [true, false, true, false,
    'RangeError: pqverify: public key is 5 bytes; ML-DSA-44 public keys are 1312 bytes',
    'TypeError: pqverify: signature must be a Uint8Array, got a string'],
  certificate: { verdicts: [true, true, true, true, true, false, true, true], valid: 7 },
  errors: [
    'RangeError: pqverify: certificate signature 0 names validator 8, not in the set of 8 (indices 0 to 7)',
    'RangeError: pqverify: validator 0 signs twice; a certificate counts each validator once',
    'pqverify: this ML-DSA-44 validator set was released',
  ],
});
