// One verification of a batch as an engine takes it: four numbers (suite, interface,
// pre-hash, key format: the ids of the generated tables.js) and four byte fields
// (signature, message, public key, context); and a quorum certificate's signatures as
// validator indices and bytes. Made on the calling thread, with the type and name checks
// `verify(suiteName, …)` makes, by verifyMany and validator sets (server.js) and the
// verifier pool (pool-core.js); values are pqverify-core's to check, in the engine.
// A batch's items are written straight into its arrays: no object per item, so that a
// batch of thousands costs the calling thread little.

import { checkKeyFormat, hashId, publicKey, suiteByName } from './api.js';
import { bytes, describe } from './check.js';
import { INTERFACES } from './tables.js';

/** Key encodings: the engines' KeyFormat numbers (the wasm module's and the native build's). */
export const FORMAT = Object.freeze({ Raw: 0, Spki: 1 });

/** The options of a verification item, beside its suite and three byte fields. */
const ITEM_KEYS = ['suite', 'signature', 'message', 'publicKey', 'context', 'prehash', 'keyFormat'];

const NO_BYTES = new Uint8Array(0);

/**
 * Writes item `{ suite, signature, message, publicKey, context?, prehash?, keyFormat? }`
 * at position `at` of a batch: `heads[4at…]` = suite, interface, pre-hash, key format;
 * `fields[4at…]` = signature, message, key, context. Only the item's own properties are
 * read (nothing through the prototype chain), `undefined` counts as absent, unknown
 * keys are refused. Throws the TypeError or RangeError `verify(suiteName, …)` would
 * throw for the item's types and names.
 */
export function writeItem(item, heads, fields, at, where = 'verifyMany item') {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new TypeError(`pqverify: a ${where} must be an object { suite, signature, message, publicKey, … }, got ${describe(item)}`);
  }
  let suiteName, sig, msg, pk, ctx, prehash, keyFormat;
  for (const key of Object.keys(item)) {
    const value = item[key];
    switch (key) {
      case 'suite': suiteName = value; break;
      case 'signature': sig = value; break;
      case 'message': msg = value; break;
      case 'publicKey': pk = value; break;
      case 'context': ctx = value; break;
      case 'prehash': prehash = value; break;
      case 'keyFormat': keyFormat = value; break;
      default: throw new TypeError(`pqverify: unknown option "${key}" for ${where}; allowed: ${ITEM_KEYS.join(', ')}`);
    }
  }
  if (keyFormat !== undefined) checkKeyFormat(keyFormat);
  const suite = suiteByName(suiteName);
  const h = 4 * at;
  fields[h] = bytes('signature', sig);
  fields[h + 1] = bytes('message', msg);
  fields[h + 3] = ctx === undefined ? NO_BYTES : bytes('context', ctx);
  heads[h] = suite.id;
  if (prehash === undefined) {
    heads[h + 1] = INTERFACES.pure;
    heads[h + 2] = 0;
  } else {
    heads[h + 1] = INTERFACES.prehash;
    heads[h + 2] = hashId(prehash);
  }
  const [format, key] = publicKey(pk, keyFormat, suite.name, suite.type === 'ml-dsa');
  heads[h + 3] = FORMAT[format];
  fields[h + 2] = key;
}

/**
 * One item as `{ head: [suite, interface, pre-hash, key format], fields: [signature,
 * message, key, context] }` (writeItem's checks).
 */
export function request(item, where) {
  const head = [0, 0, 0, 0];
  const fields = [null, null, null, null];
  writeItem(item, head, fields, 0, where);
  return { head, fields };
}

/**
 * A certificate's signatures (`[{ validator, signature }]`) for a set of `size`
 * validators, as `{ signers: Uint32Array, signatures: Uint8Array[] }`. An index crosses
 * as a u32; which indices the set has (and that none signs twice) is pqverify-core's rule.
 */
export function certificateSignatures(signatures, size) {
  if (!Array.isArray(signatures)) {
    throw new TypeError(`pqverify: a certificate's signatures must be an array of { validator, signature }, got ${describe(signatures)}`);
  }
  const signers = new Uint32Array(signatures.length);
  const sigs = signatures.map((entry, k) => {
    if (entry === null || typeof entry !== 'object') {
      throw new TypeError(`pqverify: certificate signature ${k} must be { validator, signature }, got ${describe(entry)}`);
    }
    const { validator } = entry;
    if (!Number.isInteger(validator) || validator < 0 || validator > 0xffffffff) {
      throw new RangeError(`pqverify: certificate signature ${k} names validator ${String(validator)}, not in the set of ${size} (indices 0 to ${size - 1})`);
    }
    signers[k] = validator;
    return bytes(`certificate signature ${k}`, entry.signature);
  });
  return { signers, signatures: sigs };
}
