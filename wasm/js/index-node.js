// pqverify for Node, Bun and Deno: `import … from 'pqverify'` there (and `require`,
// bundled as index.node.cjs) verifies with the native build where its platform package
// is installed and loads, and with the WebAssembly build (index.cjs) otherwise
// (node-entry.js). Bundlers take index.js, the WebAssembly build, by the `module`
// condition: a .node file does not belong in a bundle.
import { createRequire } from 'node:module';
import { nodeEntry } from './node-entry.js';

const suites = nodeEntry(createRequire(import.meta.url), undefined, './index.cjs');

// xtask tables: exports all
export const ml_dsa44 = suites.ml_dsa44;
export const ml_dsa65 = suites.ml_dsa65;
export const ml_dsa87 = suites.ml_dsa87;
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
const suiteList = suites.suites;
export { suiteList as suites };
export const verify = suites.verify;
export const verifyMany = suites.verifyMany;
export const prepareValidators = suites.prepareValidators;
export const createDualVerifier = suites.createDualVerifier;
export const memoryBytes = suites.memoryBytes;
export const kernels = suites.kernels;
export const backend = suites.backend;
