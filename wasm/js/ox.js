// pqverify/ox: pqverify as the ML-DSA-44 engine of ox (viem's core). ox routes
// `MlDsa44.verify` through an engine registry whose `MlDsa44` slot may hold a `verify`
// of its own; this entry fills that slot with pqverify's ML-DSA-44 (the per-scheme
// module, ready on import) and nothing else: key generation and signing stay ox's.
//
//   import { Engine, MlDsa44 } from 'ox';
//   import * as pqverify from 'pqverify/ox';
//   Engine.set({ MlDsa44: pqverify.MlDsa44.engine() });
//   MlDsa44.verify({ payload, publicKey, signature }); // now verified by pqverify
import { ml_dsa44 } from './ml-dsa.js';

/**
 * The `MlDsa44` slot, verify only, with the slot's semantics: `context` up to 255 bytes
 * (a longer one throws a RangeError), a signature of the wrong length is `false` (as
 * ox's own engines answer), a public key of the wrong length throws a RangeError that
 * says the length expected; otherwise the verdict of ML-DSA.Verify (FIPS 204).
 */
function verify(signature, payload, publicKey, options) {
  const context = options?.context;
  return ml_dsa44.verify(signature, payload, publicKey, context === undefined ? undefined : { context });
}

/** pqverify's engine for ox's `MlDsa44` slot. */
export const MlDsa44 = Object.freeze({
  /** The slot object for `Engine.set({ MlDsa44: … })` (or `Engine.install`): `{ verify }`. */
  engine: () => Object.freeze({ verify }),
});
