// pqverify/slh-dsa: SLH-DSA (FIPS 205) verification, ready on import (nothing to await,
// nothing to fetch): its own simd128 build, embedded, compiled synchronously on the
// first verify. The module holds only SLH-DSA's code.
import * as glue from './wasm-slh-dsa/pqverify_wasm.js';
import { CODES, WASM } from './wasm-slh-dsa/embedded.js';
import { makeSuites } from './api.js';
import { embedded, makeInstance } from './core.js';

const instance = /* @__PURE__ */ makeInstance(glue);
const bindings = /* @__PURE__ */ embedded(instance, CODES, WASM, true);
const suites = /* @__PURE__ */ makeSuites(bindings, 'slh-dsa');

// xtask tables: exports slh-dsa
export const slh_dsa_sha2_128s = suites.slh_dsa_sha2_128s;
export const slh_dsa_sha2_128f = suites.slh_dsa_sha2_128f;
export const slh_dsa_sha2_192s = suites.slh_dsa_sha2_192s;
export const slh_dsa_sha2_192f = suites.slh_dsa_sha2_192f;
export const slh_dsa_sha2_256s = suites.slh_dsa_sha2_256s;
export const slh_dsa_sha2_256f = suites.slh_dsa_sha2_256f;
export const slh_dsa_shake_128s = suites.slh_dsa_shake_128s;
export const slh_dsa_shake_128f = suites.slh_dsa_shake_128f;
export const slh_dsa_shake_192s = suites.slh_dsa_shake_192s;
export const slh_dsa_shake_192f = suites.slh_dsa_shake_192f;
export const slh_dsa_shake_256s = suites.slh_dsa_shake_256s;
export const slh_dsa_shake_256f = suites.slh_dsa_shake_256f;
// xtask tables: end

/** Bytes of this module's wasm linear memory; 0 before its first verify. */
export function memoryBytes() {
  return instance.linearMemoryBytes();
}

/** Which kernels run: "simd128". */
export function kernels() {
  return bindings().kernels();
}

/** The first name of {@link kernels}. */
export const backend = kernels;
