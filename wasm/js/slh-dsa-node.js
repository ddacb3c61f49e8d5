// pqverify/slh-dsa for Node, Bun and Deno: the native build where its platform package is
// installed and loads, else the WebAssembly build of slh-dsa.cjs (node-entry.js).
import { createRequire } from 'node:module';
import { nodeEntry } from './node-entry.js';

const suites = nodeEntry(createRequire(import.meta.url), 'slh-dsa', './slh-dsa.cjs');

// xtask tables: exports slh-dsa
export const slh_dsa_sha2_128s = suites.slh_dsa_sha2_128s;
export const slh_dsa_sha2_128f = suites.slh_dsa_sha2_128f;
export const slh_dsa_sha2_192s = suites.slh_dsa_sha2_192s;
export const slh_dsa_sha2_192f = suites.slh_dsa_sha2_192f;
export const slh_dsa_sha2_256s = suites.slh_dsa_sha2_256s;
export const slh_dsa_sha2_256f = suites.slh_dsa_sha2_256f;
export const slh_dsa_shake_128s = suites.slh_dsa_shake_128s;
export const slh_dsa_shake_128f = suites.slh_dsa_shake_128f;
export const slh_dsa_shake_192s = suites.slh_dsa_shake_192s;
export const slh_dsa_shake_192f = suites.slh_dsa_shake_192f;
export const slh_dsa_shake_256s = suites.slh_dsa_shake_256s;
export const slh_dsa_shake_256f = suites.slh_dsa_shake_256f;
// xtask tables: end
export const memoryBytes = suites.memoryBytes;
export const kernels = suites.kernels;
export const backend = suites.backend;
