/** pqverify: ML-DSA and SLH-DSA verification in WebAssembly, initialised on import. */
export * from './api.js';
