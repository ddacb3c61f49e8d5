// The entries Node, Bun and Deno import (the `node` condition): index.node.js,
// ml-dsa.node.js and slh-dsa.node.js, and their CommonJS twins (.node.cjs). Each answers
// with the native build where its platform package is installed and loads (native.js),
// and otherwise is the WebAssembly entry of the same name, loaded only then. Same API,
// same answers, same errors; `kernels()` tells them apart ("native-avx2", "simd128").

import { makeSuites, suites as suiteList, verifyByName } from './api.js';
import { ENGINE_ENV, loadNative, nativeEngine } from './native.js';
import { makeServer, wasmEngine } from './server.js';

/**
 * The entry for `family` ('ml-dsa', 'slh-dsa', or undefined for every suite and the
 * server calls). `require`: a CommonJS require from the entry's own file, which loads
 * the platform package, or else the WebAssembly entry `wasmFile` beside it.
 */
export function nodeEntry(require, family, wasmFile) {
  const { addon, why, required } = loadNative(require);
  if (addon === null && !required) {
    const wasm = require(wasmFile);
    // The WebAssembly entry, whose dual check says why this process has no native build.
    return family === undefined ? { ...wasm, createDualVerifier: makeServer(wasmEngine(wasm, why)).createDualVerifier } : wasm;
  }
  // PQVERIFY_ENGINE=native without a native build: every call says so.
  const unavailable = () => {
    throw new Error(`pqverify: ${ENGINE_ENV}=native, but the native build is not available: ${why}`);
  };
  const bindings = addon === null ? unavailable : () => addon;
  const all = makeSuites(bindings, family);
  const entry = {
    ...all,
    /** The heap the native build holds (its prepared keys, sets and batches). */
    memoryBytes: () => bindings().memoryBytes(),
    kernels: () => bindings().kernels(),
    backend: () => bindings().kernels(),
  };
  if (family !== undefined) return entry;
  const engine = addon === null ? { verifyMany: unavailable, prepareValidators: unavailable, dual: unavailable } : nativeEngine(addon);
  return {
    ...entry,
    suites: suiteList,
    verify: (suiteName, sig, msg, pk, opts) => verifyByName(all, suiteName, sig, msg, pk, opts),
    ...makeServer(engine),
  };
}
