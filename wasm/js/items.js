// One verification of a batch as an engine takes it: four numbers (suite, interface,
// pre-hash, key format: the ids of the generated tables.js) and four byte fields
// (signature, message, public key, context). Made on the calling thread, with the type
// and name checks `verify(suiteName, …)` makes, by verifyMany (server.js) and the
// verifier pool (pool-core.js); values are pqverify-core's to check, in the engine.

import { context, hashId, options, publicKey, suiteByName } from './api.js';
import { bytes, describe } from './check.js';
import { INTERFACES } from './tables.js';

/** Key encodings: the engines' KeyFormat numbers (the wasm module's and the native build's). */
export const FORMAT = Object.freeze({ Raw: 0, Spki: 1 });

/** The options of a verification item, beside its suite and three byte fields. */
const ITEM_KEYS = ['suite', 'signature', 'message', 'publicKey', 'context', 'prehash', 'keyFormat'];

/**
 * Item `{ suite, signature, message, publicKey, context?, prehash?, keyFormat? }` as
 * `{ head: [suite, interface, pre-hash, key format], fields: [signature, message, key,
 * context] }`. Throws the TypeError or RangeError `verify(suiteName, …)` would throw
 * for the item's types and names.
 */
export function request(item, where = 'verifyMany item') {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) {
    throw new TypeError(`pqverify: a ${where} must be an object { suite, signature, message, publicKey, … }, got ${describe(item)}`);
  }
  const o = options(item, ITEM_KEYS, where);
  const suite = suiteByName(o.suite);
  const sig = bytes('signature', o.signature);
  const msg = bytes('message', o.message);
  const ctx = context(o);
  const head = o.prehash === undefined ? [INTERFACES.pure, 0] : [INTERFACES.prehash, hashId(o.prehash)];
  const [format, key] = publicKey(o.publicKey, o.keyFormat, suite.name, suite.type === 'ml-dsa');
  return { head: [suite.id, ...head, FORMAT[format]], fields: [sig, msg, key, ctx] };
}
