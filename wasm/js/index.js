// pqverify: ML-DSA (FIPS 204) and SLH-DSA (FIPS 205) signature verification in
// WebAssembly, with the API of @noble/post-quantum. Nothing to await and nothing to
// fetch: both builds are embedded, and the one this engine runs best is compiled
// synchronously on first use. Works unchanged in service workers (MV3 extensions),
// workers, bundles and under require() (index.cjs).
import { makeApi } from './api.js';
import { bindings, initSync, instance, linearMemoryBytes, simdSupported } from './core.js';
import { BASELINE, SIMD } from './embedded.js';

function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  // Node's atob is written in JS and slow on 150 KB; its Buffer decodes natively.
  const NodeBuffer = globalThis.Buffer;
  if (typeof NodeBuffer?.from === 'function') return new Uint8Array(NodeBuffer.from(text, 'base64'));
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

function embedded() {
  if (instance() === null) initSync(decodeBase64(simdSupported() ? SIMD : BASELINE));
  return bindings();
}

const api = makeApi(embedded, linearMemoryBytes);

export const {
  ml_dsa44, ml_dsa65, ml_dsa87,
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  verify, suites, backend, memoryBytes,
} = api;
