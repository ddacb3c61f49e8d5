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

/** One verification of `verifyMany`: the arguments of `verify(suite, signature, message, publicKey, opts)`. */
export interface VerifyItem {
  /** FIPS name, e.g. "ML-DSA-44". */
  suite: string;
  signature: Uint8Array;
  message: Uint8Array;
  publicKey: PublicKeyInput;
  /** At most 255 bytes (default empty). */
  context?: Uint8Array;
  /** HashML-DSA / HashSLH-DSA with this pre-hash. */
  prehash?: PreHash;
  keyFormat?: KeyFormat;
}

/** Where the native build runs a call: how many of its threads (default: every core; at most that). */
export interface ThreadsOpts {
  /** An integer from 1 to the machine's parallelism. WebAssembly runs every call on the calling thread. */
  threads?: number;
}

/**
 * Verifies many signatures, any mix of suites: resolves to their verdicts, in order. The
 * native build verifies on its thread pool, off the JavaScript thread; WebAssembly in
 * order, on the calling thread (pqverify/pool spreads work over workers there). Rejects
 * (TypeError, RangeError) naming the first item that cannot be checked, as `verify` throws.
 */
export declare function verifyMany(items: VerifyItem[], opts?: ThreadsOpts): Promise<boolean[]>;

/** A certificate's signature: the validator's index in the set and its signature. */
export interface CertificateSignature {
  validator: number;
  signature: Uint8Array;
}

/** A certificate's verdicts, in the order of its signatures, and how many verify. */
export interface CertificateResult {
  readonly verdicts: boolean[];
  readonly valid: number;
}

/** A validator set, its keys decoded and expanded once (`prepareValidators`). */
export interface ValidatorSet {
  /** FIPS name of every key. */
  readonly suite: string;
  /** Validators in the set. */
  readonly size: number;
  /**
   * Verifies a certificate: each signature on `message` (pure interface, `context`) by the
   * validator it names. Rejects (RangeError) when a validator is outside the set or signs twice.
   */
  verify(message: Uint8Array, signatures: CertificateSignature[], opts?: { context?: Uint8Array } & ThreadsOpts): Promise<CertificateResult>;
  /** Frees the prepared keys now. */
  release(): void;
}

/** Prepares a validator set (validator i is `publicKeys[i]`); rejects naming the first unusable key. */
export declare function prepareValidators(suite: string, publicKeys: PublicKeyInput[], opts?: { keyFormat?: KeyFormat } & ThreadsOpts): Promise<ValidatorSet>;

/** Options of `createDualVerifier`. */
export interface DualVerifierOptions {
  /** The liboqs shared library (≥ 0.12) the primary verifier loads; default: PQVERIFY_LIBOQS. */
  liboqs?: string;
  /** "enforce" (default: both must accept; the secondary audits rejections) or "shadow" (the primary's verdict stands). */
  mode?: 'enforce' | 'shadow';
  /** The disagreement log: JSON lines appended to this file ("-": standard error), each written before the call returns. */
  log: string;
  /** Enforce mode: audit one primary rejection in N (default 1: all; 0: none). */
  auditRejections?: number;
  /** Prepared keys pqverify keeps (default 1024; 0: none). */
  keyCache?: number;
}

/** What a dual verifier has seen. */
export interface DualStats {
  readonly disagreements: number;
  readonly faults: number;
  readonly sinkFailures: number;
}

/** Every signature checked by liboqs (then the RustCrypto reference) and by pqverify. */
export interface DualVerifier {
  /** As `verify(suiteName, …)`; throws an Error when a verifier fails or the log cannot be written. */
  verify(suiteName: string, signature: Uint8Array, message: Uint8Array, publicKey: PublicKeyInput, opts?: VerifyOpts & { prehash?: PreHash }): boolean;
  stats(): DualStats;
  /** The two verifiers and the mode, in one line. */
  describe(): string;
}

/** The dual check (the native build only: elsewhere it throws an Error saying why). */
export declare function createDualVerifier(opts: DualVerifierOptions): DualVerifier;

/** Bytes of the wasm module's linear memory (grows by 64 KiB pages, never shrinks; 0 before it is initialised); with the native build, the heap it holds (prepared keys, validator sets, batches in flight). */
export declare function memoryBytes(): number;

/** The kernels that run: "simd128" or "portable" (WebAssembly), "native-" and the CPU's set (the native build: "native-avx2", …). */
export type Kernels = 'simd128' | 'portable' | `native-${string}`;

/** Which kernels run. */
export declare function kernels(): Kernels;

/** @deprecated The first name of {@link kernels}. */
export declare function backend(): Kernels;
