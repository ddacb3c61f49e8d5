// pqverify/baseline: every suite in one build without wasm SIMD, for engines that run
// WebAssembly but not its SIMD extension (Safari before 16.4, Chrome before 91,
// Firefox before 89). Same API as "pqverify"; embedded, synchronous, nothing fetched.
import * as glue from './wasm/pqverify_wasm.js';
import { CODES, WASM } from './wasm/embedded.js';
import { makeSuites, suites, verifyByName } from './api.js';
import { embedded, makeInstance } from './core.js';

export { suites };

const instance = makeInstance(glue);
const bindings = embedded(instance, CODES, WASM, false);
const all = makeSuites(bindings);

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
} = all;

/** Verifies with the suite named `suiteName` (a FIPS name). */
export function verify(suiteName, sig, msg, pk, opts) {
  return verifyByName(all, suiteName, sig, msg, pk, opts);
}

/** Bytes of the wasm module's linear memory; 0 before its first verify. */
export function memoryBytes() {
  return instance.linearMemoryBytes();
}

/** Which wasm build runs: "portable" (scalar kernels). */
export function backend() {
  return bindings().backend();
}
