/** Every suite, in pqverify's order (generated from pqverify-core). */
export declare const SUITES: readonly {
  /** The suite's number at the wasm boundary (its index here). */
  readonly id: number;
  readonly export: string;
  readonly name: string;
  readonly type: 'ml-dsa' | 'slh-dsa';
  readonly publicKey: number;
  readonly signature: number;
  readonly securityLevel: number;
}[];
/** Every approved pre-hash function: its number at the wasm boundary, ACVP name and the DER encoding of its OID. */
export declare const PREHASHES: readonly { readonly id: number; readonly name: string; readonly oid: readonly number[] }[];
