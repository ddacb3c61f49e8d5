// pqverify/ml-dsa for Node, Bun and Deno: the native build where its platform package is
// installed and loads, else the WebAssembly build of ml-dsa.cjs (node-entry.js).
import { createRequire } from 'node:module';
import { nodeEntry } from './node-entry.js';

const suites = nodeEntry(createRequire(import.meta.url), 'ml-dsa', './ml-dsa.cjs');

// xtask tables: exports ml-dsa
export const ml_dsa44 = suites.ml_dsa44;
export const ml_dsa65 = suites.ml_dsa65;
export const ml_dsa87 = suites.ml_dsa87;
// xtask tables: end
export const memoryBytes = suites.memoryBytes;
export const kernels = suites.kernels;
export const backend = suites.backend;
