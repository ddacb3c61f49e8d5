//! Shared helpers for the integration tests.
#![allow(dead_code, clippy::panic, reason = "test helpers fail the test by panicking")]

use pqverify_core::{Message, PreHash, Suite};
use pqverify_kats::{Case, Interface};

/// The `Message` a KAT case describes.
pub(crate) fn message_of(case: &Case) -> Message<'_> {
    match &case.interface {
        Interface::Pure => Message::pure(&case.message, &case.context),
        Interface::PreHash(name) => {
            let hash: PreHash = name.parse().unwrap_or_else(|e| panic!("tcId {}: {e}", case.tc_id));
            Message::prehash(&case.message, &case.context, hash)
        }
        Interface::Internal => Message::Internal(&case.message),
        Interface::ExternalMu => Message::ExternalMu(&case.message),
    }
}

/// The suite a KAT case names.
pub(crate) fn suite_of(case: &Case) -> Suite {
    case.suite.parse().unwrap_or_else(|e| panic!("tcId {}: {e}", case.tc_id))
}

/// A small deterministic generator (SplitMix64) for property tests.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    pub(crate) fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next_u64() as u8).collect()
    }

    pub(crate) fn array<const N: usize>(&mut self) -> [u8; N] {
        core::array::from_fn(|_| self.next_u64() as u8)
    }
}

/// PH(M) computed by the `sha2`, `sha3` and `shake` crates: an oracle independent
/// of pqverify's own pre-hash code.
pub(crate) fn oracle_prehash(hash: PreHash, msg: &[u8]) -> Vec<u8> {
    use sha2::Digest;
    use shake::{ExtendableOutput, Update, XofReader};
    fn xof<const R: usize>(mut h: shake::Shake<R>, msg: &[u8], len: usize) -> Vec<u8> {
        h.update(msg);
        let mut out = vec![0u8; len];
        h.finalize_xof().read(&mut out);
        out
    }
    match hash {
        PreHash::Sha2_224 => sha2::Sha224::digest(msg).to_vec(),
        PreHash::Sha2_256 => sha2::Sha256::digest(msg).to_vec(),
        PreHash::Sha2_384 => sha2::Sha384::digest(msg).to_vec(),
        PreHash::Sha2_512 => sha2::Sha512::digest(msg).to_vec(),
        PreHash::Sha2_512_224 => sha2::Sha512_224::digest(msg).to_vec(),
        PreHash::Sha2_512_256 => sha2::Sha512_256::digest(msg).to_vec(),
        PreHash::Sha3_224 => sha3::Sha3_224::digest(msg).to_vec(),
        PreHash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        PreHash::Sha3_384 => sha3::Sha3_384::digest(msg).to_vec(),
        PreHash::Sha3_512 => sha3::Sha3_512::digest(msg).to_vec(),
        PreHash::Shake128 => xof(shake::Shake128::default(), msg, 32),
        PreHash::Shake256 => xof(shake::Shake256::default(), msg, 64),
    }
}

/// SHAKE256(parts…, len) by the `shake` crate.
pub(crate) fn oracle_shake256(parts: &[&[u8]], len: usize) -> Vec<u8> {
    use shake::{ExtendableOutput, Update, XofReader};
    let mut h = shake::Shake256::default();
    for p in parts {
        h.update(p);
    }
    let mut out = vec![0u8; len];
    h.finalize_xof().read(&mut out);
    out
}

/// Asserts that verification rejects (a rejection error, not an input error).
#[track_caller]
pub(crate) fn assert_rejected(result: Result<(), pqverify_core::Error>, what: &str) {
    match result {
        Err(e) if e.is_rejection() => {}
        other => panic!("{what}: expected a rejection, got {other:?}"),
    }
}
