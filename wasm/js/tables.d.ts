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
  /** The DER encoding of the suite's OID 2.16.840.1.101.3.4.3.*, as an SPKI names it. */
  readonly oid: readonly number[];
}[];
/** Every approved pre-hash function: its number at the wasm boundary, ACVP name and the DER encoding of its OID. */
export declare const PREHASHES: readonly { readonly id: number; readonly name: string; readonly oid: readonly number[] }[];
/** Every interface by its name in pqverify-core: its number at the wasm boundary. */
export declare const INTERFACES: { readonly pure: number; readonly prehash: number; readonly internal: number; readonly 'external-mu': number };
