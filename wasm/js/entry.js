// The API of an entry holding every suite in one wasm instance (pqverify/baseline,
// pqverify/manual, pqverify/js, the workerd entry): the suites, `verify(suiteName, …)`,
// `suites()`, the server calls (server.js, in order on the calling thread),
// `memoryBytes()` and `kernels()` (and its first name, `backend()`).

import { makeSuites, suites, verifyByName } from './api.js';
import { makeServer, wasmEngine } from './server.js';

/**
 * @param {{ linearMemoryBytes: () => number }} instance - the entry's wasm instance
 * @param {() => object} bindings - its initialised exports (initialising them if the entry embeds its build)
 */
export function makeEntry(instance, bindings) {
  const all = makeSuites(bindings);
  return Object.freeze({
    ...all,
    suites,
    verify: (suiteName, sig, msg, pk, opts) => verifyByName(all, suiteName, sig, msg, pk, opts),
    ...makeServer(wasmEngine(all, 'this is a WebAssembly entry')),
    memoryBytes: () => instance.linearMemoryBytes(),
    kernels: () => bindings().kernels(),
    backend: () => bindings().kernels(),
  });
}
