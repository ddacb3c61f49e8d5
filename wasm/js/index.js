// pqverify: ML-DSA (FIPS 204) and SLH-DSA (FIPS 205) signature verification in
// WebAssembly, with the API of @noble/post-quantum. Nothing to await and nothing to
// fetch. Each scheme is its own module (pqverify/ml-dsa, pqverify/slh-dsa), with its
// build embedded and compiled synchronously on first use; a bundler keeps only the
// schemes a wallet imports. Works unchanged in service workers (MV3 extensions),
// workers, bundles and under require() (index.cjs).
import {
  // xtask tables: names ml-dsa
  ml_dsa44, ml_dsa65, ml_dsa87,
  // xtask tables: end
  memoryBytes as mlDsaMemory, kernels as mlDsaKernels,
} from './ml-dsa.js';
import {
  // xtask tables: names slh-dsa
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  // xtask tables: end
  memoryBytes as slhDsaMemory,
} from './slh-dsa.js';
import { verifyByName } from './api.js';
import { makeServer, wasmEngine } from './server.js';

export { suites } from './api.js';
export {
  // xtask tables: names all
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  // xtask tables: end
};

/** Every suite by export name (an object of the imported bindings: nothing is made). */
function all() {
  return {
    // xtask tables: names all
    ml_dsa44, ml_dsa65, ml_dsa87,
    slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
    slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
    // xtask tables: end
  };
}

/** Verifies with the suite named `suiteName` (a FIPS name such as "SLH-DSA-SHAKE-128s"). */
export function verify(suiteName, sig, msg, pk, opts) {
  return verifyByName(all(), suiteName, sig, msg, pk, opts);
}

/** The server calls over the WebAssembly build (server.js), made on first use. */
let server = null;
const serverCalls = () => (server ??= makeServer(wasmEngine(all(), 'this is the WebAssembly entry (browsers, bundles, workers)')));

/** Verifies many signatures, any suites; resolves to their verdicts in order (here in order, on this thread). */
export function verifyMany(items, opts) {
  return serverCalls().verifyMany(items, opts);
}

/** Prepares a validator set's keys once, for its quorum certificates. */
export function prepareValidators(suiteName, publicKeys, opts) {
  return serverCalls().prepareValidators(suiteName, publicKeys, opts);
}

/** The dual check: only in the native build (Node, Bun, Deno); here it throws, saying so. */
export function createDualVerifier(opts) {
  return serverCalls().createDualVerifier(opts);
}

/** Bytes of the wasm linear memory of both schemes' modules (64 KiB pages; never shrinks). */
export function memoryBytes() {
  return mlDsaMemory() + slhDsaMemory();
}

/** Which kernels run: "simd128" (the baseline build, pqverify/baseline, runs "portable"). */
export function kernels() {
  return mlDsaKernels();
}

/** The first name of {@link kernels}. */
export const backend = kernels;
