// pqverify/js: every suite compiled to JavaScript, for engines without WebAssembly —
// React Native's Hermes (its bundler, Metro, picks this entry by the "react-native"
// export condition), jitless V8, Safari's Lockdown Mode, CSPs without
// 'wasm-unsafe-eval'. The same Rust as the wasm builds (portable kernels, MVP
// features), compiled by binaryen's wasm2js; not a second implementation. Same API.
// Where WebAssembly runs, the other entries are many times faster.
import * as glue from './js/pqverify_wasm_bg.js';
import { instantiate } from './js/pqverify_wasm_bg.wasm.js';
import { makeEntry } from './entry.js';

// The compiled module's exports (its memory among them), made at the first call.
let exports = null;

function bindings() {
  if (exports === null) {
    const made = instantiate();
    glue.__wbg_set_wasm(made);
    exports = made;
  }
  return glue;
}

const entry = makeEntry({ linearMemoryBytes: () => exports?.memory.buffer.byteLength ?? 0 }, bindings);

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
  /** Bytes of the compiled module's memory (64 KiB pages); 0 before the first verify. */
  memoryBytes,
  /** Which kernels run: "portable". */
  kernels,
  /** The first name of `kernels`. */
  backend,
} = entry;
