/** pqverify/baseline: every suite in the build without wasm SIMD (older engines), ready on import. */
export * from './api.js';
