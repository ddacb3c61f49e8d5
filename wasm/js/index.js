// pqverify: ML-DSA (FIPS 204) and SLH-DSA (FIPS 205) signature verification in
// WebAssembly, with the API of @noble/post-quantum. Ready to use on import.
import { makeApi } from './api.js';
import { bindings, init } from './load.js';

await init();

const api = makeApi(bindings);

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  verify, suites, backend,
} = api;
