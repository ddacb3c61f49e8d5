/** pqverify/ox: pqverify as the ML-DSA-44 engine of ox (viem's core). */

/** The `MlDsa44` slot of ox's engine registry, as pqverify fills it: verify only. */
export interface MlDsa44Slot {
  /**
   * Verifies an ML-DSA-44 signature (FIPS 204, pure interface). A signature of the wrong
   * length is `false`; a public key of the wrong length, or a context over 255 bytes,
   * throws a RangeError.
   */
  readonly verify: (
    signature: Uint8Array,
    payload: Uint8Array,
    publicKey: Uint8Array,
    options: { context?: Uint8Array | undefined },
  ) => boolean;
}

/** pqverify's engine for ox's `MlDsa44` slot: `Engine.set({ MlDsa44: MlDsa44.engine() })`. */
export declare const MlDsa44: {
  /** The slot object for `Engine.set` or `Engine.install`. */
  readonly engine: () => MlDsa44Slot;
};
