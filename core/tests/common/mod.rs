//! Shared helpers for the integration tests (the signers, RNG and oracles are
//! `pqverify-testkit`'s).
#![allow(dead_code, unused_imports, clippy::panic, reason = "helpers: each test binary uses some")]

use pqverify_core::{Message, PreHash, Suite};
use pqverify_kats::Case;
pub(crate) use pqverify_testkit::{KeyPair, KeySeed, Rng, oracle};

/// The `Message` a KAT case describes.
pub(crate) fn message_of(case: &Case) -> Message<'_> {
    pqverify_testkit::acvp::message_of(case).unwrap_or_else(|e| panic!("{e}"))
}

/// The suite a KAT case names.
pub(crate) fn suite_of(case: &Case) -> Suite {
    pqverify_testkit::acvp::suite_of(case).unwrap_or_else(|e| panic!("{e}"))
}

/// A public key and signatures over one message through the pure and the pre-hash
/// interface, made by the independent signers.
pub(crate) struct Signed {
    pub(crate) pk: Vec<u8>,
    pub(crate) msg: Vec<u8>,
    pub(crate) ctx: Vec<u8>,
    pub(crate) pure: Vec<u8>,
    pub(crate) hash: PreHash,
    pub(crate) prehashed: Vec<u8>,
}

/// A fresh key of `suite`, a message shorter than `max_msg`, a context (empty one
/// time in four) and both signatures, all drawn from `rng`.
pub(crate) fn sign(suite: Suite, rng: &mut Rng, max_msg: usize) -> Signed {
    let pair = KeyPair::new(suite, &KeySeed::draw(suite, rng));
    let msg = rng.bytes_below(max_msg);
    let ctx = if rng.below(4) == 0 { Vec::new() } else { rng.bytes_below(256) };
    let pure = pair.sign(&msg, &ctx, &rng.array());
    let hash = PreHash::ALL[rng.below(PreHash::ALL.len())];
    let prehashed = pair.hash_sign(hash, &msg, &ctx, &rng.array());
    Signed { pk: pair.public_key().to_vec(), msg, ctx, pure, hash, prehashed }
}

/// Asserts that verification rejects (a rejection error, not an input error).
#[track_caller]
pub(crate) fn assert_rejected(result: Result<(), pqverify_core::Error>, what: &str) {
    match result {
        Err(e) if e.is_rejection() => {}
        other => panic!("{what}: expected a rejection, got {other:?}"),
    }
}
