/** pqverify/slh-dsa: SLH-DSA (FIPS 205) verification only, ready on import. */
export type * from './api.js';
export {
  // xtask tables: names slh-dsa
  slh_dsa_sha2_128s, slh_dsa_sha2_128f, slh_dsa_sha2_192s, slh_dsa_sha2_192f, slh_dsa_sha2_256s, slh_dsa_sha2_256f,
  slh_dsa_shake_128s, slh_dsa_shake_128f, slh_dsa_shake_192s, slh_dsa_shake_192f, slh_dsa_shake_256s, slh_dsa_shake_256f,
  // xtask tables: end
} from './api.js';
/** Bytes of this entry's wasm linear memory; 0 before its first verify. */
export declare function memoryBytes(): number;
/** Which kernels run: "simd128". */
export declare function kernels(): import('./api.js').Kernels;

/** @deprecated The first name of {@link kernels}. */
export declare function backend(): import('./api.js').Kernels;
