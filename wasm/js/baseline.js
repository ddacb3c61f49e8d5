// pqverify/baseline: every suite in one build without wasm SIMD, for engines that run
// WebAssembly but not its SIMD extension (Safari before 16.4, Chrome before 91,
// Firefox before 89). Same API as "pqverify"; embedded, synchronous, nothing fetched.
import * as glue from './wasm/pqverify_wasm.js';
import { CODES, WASM } from './wasm/embedded.js';
import { makeEntry } from './entry.js';
import { embedded, makeInstance } from './core.js';

const instance = makeInstance(glue);
const entry = makeEntry(instance, embedded(instance, CODES, WASM, false));

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
