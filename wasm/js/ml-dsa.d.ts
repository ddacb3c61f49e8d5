/** pqverify/ml-dsa: ML-DSA (FIPS 204) verification only, ready on import. */
export type * from './api.js';
export {
  // xtask tables: names ml-dsa
  ml_dsa44, ml_dsa65, ml_dsa87,
  // xtask tables: end
} from './api.js';
/** Bytes of this entry's wasm linear memory; 0 before its first verify. */
export declare function memoryBytes(): number;
/** Which kernels run: "simd128". */
export declare function kernels(): import('./api.js').Kernels;

/** @deprecated The first name of {@link kernels}. */
export declare function backend(): import('./api.js').Kernels;
