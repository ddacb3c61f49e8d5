// pqverify without automatic initialisation: call init() (async) or initSync(bytes)
// first. For wallet extensions, workers and bundler set-ups without top-level await.
import { makeApi } from './api.js';
import { bindings } from './load.js';

export { init, initSync } from './load.js';

const api = makeApi(bindings);

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  verify, suites, backend,
} = api;
