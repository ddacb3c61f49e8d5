//! The C2SP CCTV accumulated ML-DSA test (`ML-DSA/accumulated`): for i in 0..N, a 32-byte
//! ξ read from SHAKE128 of nothing, the key pair of ML-DSA.KeyGen_internal(ξ), the
//! deterministic signature (rnd = 0) of the empty message with the empty context; the
//! public key and the signature absorbed into a second SHAKE128, whose first 32 bytes
//! are published for N = 100 and N = 10 000. When the testkit's signer reproduces them,
//! its signatures are exactly FIPS 204's, and each must verify.

use pqverify_core::Suite;
use shake::{ExtendableOutput, Update, XofReader};

use crate::{KeyPair, KeySeed};

/// The published digests, hex: (suite, N = 100, N = 10 000).
pub const DIGESTS: [(Suite, &str, &str); 3] = [
    (
        Suite::MlDsa44,
        "d51148e1f9f4fa1a723a6cf42e25f2a99eb5c1b378b3d2dbbd561b1203beeae4",
        "e7fd21f6a59bcba60d65adc44404bb29a7c00e5d8d3ec06a732c00a306a7d143",
    ),
    (
        Suite::MlDsa65,
        "8358a1843220194417cadbc2651295cd8fc65125b5a5c1a239a16dc8b57ca199",
        "5ff5e196f0b830c3b10a9eb5358e7c98a3a20136cb677f3ae3b90175c3ace329",
    ),
    (
        Suite::MlDsa87,
        "8c3ad714777622b8f21ce31bb35f71394f23bc0fcf3c78ace5d608990f3b061b",
        "80a8cf39317f7d0be0e24972c51ac152bd2a3e09bc0c32ce29dd82c4e7385e60",
    ),
];

/// The accumulated transcript of one set, an iteration at a time, so that an engine's
/// event loop can run between iterations.
pub struct Transcript {
    suite: Suite,
    seeds: shake::Shake128Reader,
    accumulator: shake::Shake128,
    iterations: usize,
    at_100: Option<String>,
}

impl Transcript {
    /// The transcript of `suite` before its first iteration.
    #[must_use]
    pub fn new(suite: Suite) -> Self {
        let seeds = shake::Shake128::default().finalize_xof();
        Self { suite, seeds, accumulator: shake::Shake128::default(), iterations: 0, at_100: None }
    }

    /// Runs the next iteration: its key pair and signature, already absorbed.
    pub fn next_signature(&mut self) -> (KeyPair, Vec<u8>) {
        let mut seed = KeySeed::fill(0, [0; 3]);
        self.seeds.read(&mut seed.xi);
        let key = KeyPair::new(self.suite, &seed);
        let signature = key.sign(b"", b"", &[0; 32]);
        self.accumulator.update(key.public_key());
        self.accumulator.update(&signature);
        self.iterations += 1;
        if self.iterations == 100 {
            self.at_100 = Some(self.digest());
        }
        (key, signature)
    }

    /// The iterations run so far.
    #[must_use]
    pub const fn iterations(&self) -> usize {
        self.iterations
    }

    /// The digest (hex) after 100 iterations, once they have run.
    #[must_use]
    pub fn at_100(&self) -> Option<&str> {
        self.at_100.as_deref()
    }

    /// The digest (hex) of the iterations run so far.
    #[must_use]
    pub fn digest(&self) -> String {
        let mut out = [0u8; 32];
        self.accumulator.clone().finalize_xof().read(&mut out);
        hex::encode(out)
    }
}

/// Runs the transcript of `suite` for `n` iterations, handing every (public key,
/// signature) to `check`; returns the digest (hex) after 100 iterations, if reached,
/// and after `n`.
pub fn accumulate(suite: Suite, n: usize, mut check: impl FnMut(usize, &[u8], &[u8])) -> (Option<String>, String) {
    let mut transcript = Transcript::new(suite);
    for i in 0..n {
        let (key, signature) = transcript.next_signature();
        check(i, key.public_key(), &signature);
    }
    (transcript.at_100().map(str::to_owned), transcript.digest())
}
