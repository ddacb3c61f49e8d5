// pqverify/ml-dsa: ML-DSA (FIPS 204) verification, ready on import (nothing to await,
// nothing to fetch): its own simd128 build, embedded, compiled synchronously on the
// first verify. The module holds only ML-DSA's code.
import * as glue from './wasm-ml-dsa/pqverify_wasm.js';
import { CODES, WASM } from './wasm-ml-dsa/embedded.js';
import { makeSuites } from './api.js';
import { embedded, makeInstance } from './core.js';

const instance = /* @__PURE__ */ makeInstance(glue);
const bindings = /* @__PURE__ */ embedded(instance, CODES, WASM, true);
const suites = /* @__PURE__ */ makeSuites(bindings, 'ml-dsa');

// xtask tables: exports ml-dsa
export const ml_dsa44 = suites.ml_dsa44;
export const ml_dsa65 = suites.ml_dsa65;
export const ml_dsa87 = suites.ml_dsa87;
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
