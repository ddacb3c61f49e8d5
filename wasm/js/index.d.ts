/** pqverify: ML-DSA and SLH-DSA verification in WebAssembly, ready on import (nothing to await). */
export * from './api.js';
