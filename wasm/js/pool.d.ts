import type { CertificateResult, CertificateSignature, KeyFormat, PublicKeyInput, VerifyItem } from './api.js';

export type { CertificateResult, CertificateSignature, VerifyItem };

/** Options of `createPool`. */
export interface PoolOptions {
  /**
   * Workers, each with its own instance of the package. Default: the logical cores
   * (`navigator.hardwareConcurrency`, `os.availableParallelism()`). 0 verifies on the
   * calling thread, one job per task (it loads the verifier with `import()`, which a
   * service worker does not allow: there, use the suites themselves).
   */
  size?: number;
  /** Milliseconds a worker may take to answer one message (default 30 000); then it is replaced and its work fails. */
  timeout?: number;
  /**
   * The worker module's URL, where the bundler does not follow
   * `new URL('./pool-worker.js', import.meta.url)` (esbuild): the package's
   * `pool-worker.js` (browsers) or `pool-worker-node.js` (Node), with the package's
   * files beside it.
   */
  workerUrl?: string | URL;
}

/**
 * The outcome of one item: `valid` is true only for a signature that verifies. An
 * item that could not be checked has `valid: false` and the `error` that `verify`
 * would throw for it (TypeError, RangeError), or an Error starting "pqverify: a
 * verifier worker" when its worker stopped or timed out.
 */
export interface VerifyResult {
  readonly valid: boolean;
  readonly error?: Error;
}

/** A validator set installed in every worker of its pool. */
export interface ValidatorSet {
  /** FIPS name of every key. */
  readonly suite: string;
  /** Validators in the set. */
  readonly size: number;
  /**
   * Verifies a certificate: each signature on `message` by the validator it names.
   * Rejects (RangeError) when a validator is outside the set or signs twice, and
   * with a "pqverify: a verifier worker …" Error when a worker stopped or timed out.
   */
  verify(message: Uint8Array, signatures: CertificateSignature[], opts?: { context?: Uint8Array }): Promise<CertificateResult>;
  /** Frees the set's prepared keys in every worker. */
  release(): void;
}

/** A fixed number of verifier workers. */
export interface Pool {
  /** Workers (0: the calling thread). */
  readonly size: number;
  /** Verifies every item, shared among the workers; results in the order of `items`. */
  verifyMany(items: VerifyItem[]): Promise<VerifyResult[]>;
  /**
   * Decodes and expands a validator set's keys once in every worker (validator i is
   * `publicKeys[i]`). Rejects naming the first unusable key.
   */
  prepare(suite: string, publicKeys: PublicKeyInput[], opts?: { keyFormat?: KeyFormat }): Promise<ValidatorSet>;
  /** Stops the workers; calls not yet finished reject. */
  close(): void;
}

/**
 * A verifier pool. Throws a "pqverify:" Error where workers cannot be made (a service
 * worker, such as an MV3 extension's background) unless `size` is 0.
 */
export declare function createPool(opts?: PoolOptions): Pool;
