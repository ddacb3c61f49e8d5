// pqverify initialised when the caller says: init() (async: the .wasm fetched with
// streaming compilation, best for pages) or initSync(bytes). Nothing is embedded.
import { makeApi } from './api.js';
import { bindings, linearMemoryBytes } from './core.js';

export { init, initSync } from './load.js';

const api = makeApi(bindings, linearMemoryBytes);

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  verify, suites, backend, memoryBytes,
} = api;
