// The engine the package's Node entries must answer with in this run. cargo xtask test
// runs the Node tests through the native build (its platform package installed) and
// again with PQVERIFY_ENGINE=wasm; tests assert the engine they get, so a native build
// that silently failed to load fails the run instead of testing WebAssembly twice.
export const ENGINE = process.env.PQVERIFY_ENGINE === 'wasm' ? 'wasm' : 'native';

/** Whether `kernels` (what an entry's kernels() says) names this run's engine. */
export function isEngine(kernels) {
  return ENGINE === 'native' ? /^native-[a-z0-9-]+$/.test(kernels) : kernels === 'simd128';
}
