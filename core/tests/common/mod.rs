//! Shared helpers for the integration tests.
#![allow(dead_code)]

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
