/** An approved pre-hash function by ACVP name (matched ignoring case at run time). */
export type PreHashName =
  // xtask tables: prehash-names
  | 'SHA2-224' | 'SHA2-256' | 'SHA2-384' | 'SHA2-512' | 'SHA2-512/224' | 'SHA2-512/256'
  | 'SHA3-224' | 'SHA3-256' | 'SHA3-384' | 'SHA3-512' | 'SHAKE-128' | 'SHAKE-256';
  // xtask tables: end

/** A pre-hash function: an ACVP name or a `@noble/hashes` hash function (identified by its OID). */
export type PreHash = PreHashName | { oid?: Uint8Array };

/**
 * How the public key argument is encoded (as WebCrypto names the formats): `'raw'`
 * (the default; or `'raw-public'`) the FIPS 204/205 encoding, `'spki'` an X.509
 * SubjectPublicKeyInfo in DER (RFC 9881; NIST's SLH-DSA OIDs), `'jwk'` a WebCrypto
 * JSON Web Key (`kty: "AKP"`, ML-DSA). Never guessed from the length.
 */
export type KeyFormat = 'raw' | 'raw-public' | 'spki' | 'jwk';

/** A public ML-DSA key as WebCrypto's `exportKey('jwk', …)` gives it. */
export interface AkpJsonWebKey {
  readonly kty: 'AKP';
  /** The suite's FIPS name, e.g. "ML-DSA-44". */
  readonly alg: string;
  /** The raw public key, base64url without padding. */
  readonly pub: string;
  readonly use?: string;
  readonly key_ops?: readonly string[];
  readonly ext?: boolean;
}

/** A public key: bytes (`'raw'` or `'spki'`) or, with `keyFormat: 'jwk'`, a JWK. */
export type PublicKeyInput = Uint8Array | AkpJsonWebKey;

/** Options of `verify`: the context string, at most 255 bytes (default empty), and the key's format. */
export interface VerifyOpts {
  context?: Uint8Array;
  keyFormat?: KeyFormat;
}

/** Options of `internal.verify`. */
export interface InternalOpts {
  /** The message argument is a 64-byte μ (ML-DSA only). */
  externalMu?: boolean;
  keyFormat?: KeyFormat;
}

/** Options of `prepare`: the key's format. */
export interface PrepareOpts {
  keyFormat?: KeyFormat;
}

/** HashML-DSA / HashSLH-DSA verification with one pre-hash function. */
export interface PreHashVerifier {
  readonly info: Info;
  readonly securityLevel: number;
  readonly lengths: Lengths;
  /** HashML-DSA.Verify / hash_slh_verify: the message is hashed here. */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: PublicKeyInput, opts?: VerifyOpts): boolean;
}

/**
 * Byte lengths of a suite's public key and signature. The signing-side lengths of
 * noble's type (secretKey, seed, signRand) are never present: pqverify only verifies.
 */
export interface Lengths {
  readonly publicKey: number;
  readonly signature: number;
  readonly secretKey?: number;
  readonly seed?: number;
  readonly signRand?: number;
}

/** As noble's `info`: the family. */
export interface Info {
  readonly type: 'ml-dsa' | 'slh-dsa';
}

/** A public key decoded and expanded once (ML-DSA: tr, Â, NTT(t1·2^d)). */
export interface PreparedKey {
  readonly suite: string;
  /** Same verdicts as the suite's `verify` with this key. */
  verify(signature: Uint8Array, message: Uint8Array, opts?: VerifyOpts): boolean;
  prehash(hash: PreHash): { verify(signature: Uint8Array, message: Uint8Array, opts?: VerifyOpts): boolean };
  readonly internal: { verify(signature: Uint8Array, message: Uint8Array, opts?: InternalOpts): boolean };
  /** Releases the expanded key now; otherwise it is released when garbage-collected. */
  free(): void;
}

/** One suite, shaped like `@noble/post-quantum`'s objects (verification only). */
export interface Suite {
  /** FIPS name, e.g. "ML-DSA-65". */
  readonly name: string;
  readonly info: Info;
  /** Security strength in bits, as noble: 128, 192 or 256. */
  readonly securityLevel: number;
  readonly lengths: Lengths;
  /**
   * ML-DSA.Verify / slh_verify. Returns false for any signature that is not valid,
   * including one of the wrong length.
   * @throws TypeError if an argument is not a Uint8Array or an option is unknown
   * @throws RangeError if the public key has the wrong length or a malformed encoding, or the context is over 255 bytes
   */
  verify(signature: Uint8Array, message: Uint8Array, publicKey: PublicKeyInput, opts?: VerifyOpts): boolean;
  /** HashML-DSA / HashSLH-DSA with `hash`. */
  prehash(hash: PreHash): PreHashVerifier;
  /** Verify_internal on M′, or (ML-DSA, `externalMu: true`) on a 64-byte μ. */
  readonly internal: {
    readonly info: Info;
    readonly lengths: Lengths;
    verify(signature: Uint8Array, message: Uint8Array, publicKey: PublicKeyInput, opts?: InternalOpts): boolean;
  };
  /** Decodes and expands `publicKey` once for many verifications. */
  prepare(publicKey: PublicKeyInput, opts?: PrepareOpts): PreparedKey;
}

// xtask tables: declarations all
export declare const ml_dsa44: Suite;
export declare const ml_dsa65: Suite;
export declare const ml_dsa87: Suite;
export declare const slh_dsa_sha2_128s: Suite;
export declare const slh_dsa_sha2_128f: Suite;
export declare const slh_dsa_sha2_192s: Suite;
export declare const slh_dsa_sha2_192f: Suite;
export declare const slh_dsa_sha2_256s: Suite;
export declare const slh_dsa_sha2_256f: Suite;
export declare const slh_dsa_shake_128s: Suite;
export declare const slh_dsa_shake_128f: Suite;
export declare const slh_dsa_shake_192s: Suite;
export declare const slh_dsa_shake_192f: Suite;
export declare const slh_dsa_shake_256s: Suite;
export declare const slh_dsa_shake_256f: Suite;
// xtask tables: end

/** Verifies with the suite named `suiteName` (FIPS name). `opts.prehash` selects the pre-hash variant. */
export declare function verify(
  suiteName: string,
  signature: Uint8Array,
  message: Uint8Array,
  publicKey: PublicKeyInput,
  opts?: VerifyOpts & { prehash?: PreHash },
): boolean;

/** Every suite with its FIPS name, export name and byte lengths. */
export declare function suites(): { name: string; export: string; publicKey: number; signature: number }[];

/** Bytes of the wasm module's linear memory (grows by 64 KiB pages, never shrinks); 0 before it is initialised. */
export declare function memoryBytes(): number;

/** Which kernels run: "simd128" or "portable". */
export declare function kernels(): 'simd128' | 'portable';

/** @deprecated The first name of {@link kernels}. */
export declare function backend(): 'simd128' | 'portable';
