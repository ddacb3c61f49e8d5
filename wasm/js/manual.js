// pqverify initialised when the caller says: init() (async: the .wasm fetched with
// streaming compilation, best for pages) or initSync(bytes or a WebAssembly.Module,
// as edge runtimes give an imported .wasm). Nothing is embedded; every suite, either
// build (wasm/ baseline or wasm-simd/ simd128: one glue).
import * as glue from './wasm/pqverify_wasm.js';
import { makeEntry } from './entry.js';
import { makeInstance } from './core.js';
import { makeInit } from './load.js';

export { simdSupported } from './core.js';

const instance = makeInstance(glue);
const entry = makeEntry(instance, instance.bindings);

/** Initialises asynchronously (by default from the .wasm shipped with the package). */
export const init = makeInit(instance);
/** Initialises synchronously from the .wasm bytes (or a compiled WebAssembly.Module). */
export const initSync = instance.initSync;

export const {
  // xtask tables: names all
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  // xtask tables: end
  /** Verifies with the suite named `suiteName` (a FIPS name). */
  verify,
  /** Every suite with its FIPS name, export name and byte lengths. */
  suites,
  /** Verifies many signatures, any suites: a promise of their verdicts in order (in order, on this thread). */
  verifyMany,
  /** Prepares a validator set's keys once, for its quorum certificates. */
  prepareValidators,
  /** The dual check: only in the native build; here it throws, saying so. */
  createDualVerifier,
  /** Bytes of the wasm module's linear memory; 0 before it is initialised. */
  memoryBytes,
  /** Which kernels run: "simd128" or "portable". */
  kernels,
  /** The first name of `kernels`. */
  backend,
} = entry;
