// pqverify initialised when the caller says: init() (async: the .wasm fetched with
// streaming compilation, best for pages) or initSync(bytes or a WebAssembly.Module,
// as edge runtimes give an imported .wasm). Nothing is embedded; every suite, either
// build (wasm/ baseline or wasm-simd/ simd128: one glue).
import * as glue from './wasm/pqverify_wasm.js';
import { makeSuites, suites, verifyByName } from './api.js';
import { makeInstance } from './core.js';
import { makeInit } from './load.js';

export { simdSupported } from './core.js';
export { suites };

const instance = makeInstance(glue);
const all = makeSuites(instance.bindings);

/** Initialises asynchronously (by default from the .wasm shipped with the package). */
export const init = makeInit(instance);
/** Initialises synchronously from the .wasm bytes (or a compiled WebAssembly.Module). */
export const initSync = instance.initSync;

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
} = all;

/** Verifies with the suite named `suiteName` (a FIPS name). */
export function verify(suiteName, sig, msg, pk, opts) {
  return verifyByName(all, suiteName, sig, msg, pk, opts);
}

/** Bytes of the wasm module's linear memory; 0 before initialisation. */
export function memoryBytes() {
  return instance.linearMemoryBytes();
}

/** Which wasm build is running: "simd128" or "portable". */
export function backend() {
  return instance.bindings().backend();
}
