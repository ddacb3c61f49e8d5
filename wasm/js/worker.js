// pqverify for edge Workers: Cloudflare's workerd, through the "workerd" and "worker"
// export conditions that wrangler resolves. A Worker may not compile WebAssembly from
// bytes at run time, so this entry imports the .wasm as a module, which the bundler
// hands over compiled (wrangler's rule for .wasm imports); it is instantiated at the
// first verify. Every suite, the simd128 build. Same API as "pqverify".
import * as glue from './wasm/pqverify_wasm.js';
import module from './wasm-simd/pqverify_wasm_bg.wasm';
import { makeEntry } from './entry.js';
import { makeInstance } from './core.js';

const instance = makeInstance(glue);
const entry = makeEntry(instance, () => {
  instance.initSync(module);
  return instance.bindings();
});

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
  /** Bytes of the wasm module's linear memory; 0 before the first verify. */
  memoryBytes,
  /** Which kernels run: "simd128". */
  kernels,
  /** The first name of `kernels`. */
  backend,
} = entry;
