//! The hashes that ride in lanes of the four-state Keccak kernel beside others, shared
//! by the one-shot path and prepared keys: SampleInBall's H(c̃), and a hash fed from its
//! input's parts.

use super::sample::{sample_in_ball, sample_in_ball_from};
use crate::hash::lanes::{Lane, LaneShake256};
use crate::kernel::ntt;
use crate::ring::Poly;

/// SampleInBall's hash H(c̃) in a lane; its output blocks kept until the challenge is
/// drawn (almost always from the first).
pub(super) struct Challenge {
    shake: LaneShake256,
    bytes: [u8; 3 * 136],
    len: usize,
    done: bool,
}

impl Challenge {
    pub(super) fn new(c_tilde: &[u8]) -> Self {
        let mut shake = LaneShake256::new();
        // c̃ is at most 64 bytes: one block.
        shake.absorb(c_tilde);
        shake.finish();
        Challenge { shake, bytes: [0; 3 * 136], len: 0, done: false }
    }

    pub(super) fn lane(&mut self) -> Option<Lane<'_>> {
        (!self.done).then(|| self.shake.lane())
    }

    /// After a permutation: NTT(c) once the output so far suffices.
    pub(super) fn after_permutation(&mut self, c_tilde: &[u8], tau: usize) -> Option<Poly> {
        if self.done || !self.shake.is_readable() {
            return None;
        }
        let mut block = [0u8; 136];
        self.shake.block(&mut block);
        self.bytes[self.len..self.len + 136].copy_from_slice(&block);
        self.len += 136;
        let mut c = Poly::ZERO;
        let mut bytes = self.bytes[..self.len].iter().copied();
        if !sample_in_ball_from(|| bytes.next(), tau, &mut c) {
            if self.len < self.bytes.len() {
                self.shake.next_block();
                return None;
            }
            // More than three blocks of H(c̃) (never seen): the streaming sampler.
            sample_in_ball(c_tilde, tau, &mut c);
        }
        self.done = true;
        ntt(&mut c);
        Some(c)
    }
}

/// A SHAKE256 in a lane with 64 bytes out (tr, μ, c̃′), fed from its input's parts as
/// far as each permutation lets it.
pub(super) struct FedHash {
    shake: LaneShake256,
    /// Bytes of the input absorbed so far.
    fed: usize,
}

impl FedHash {
    /// Nothing absorbed yet.
    pub(super) fn new() -> Self {
        FedHash { shake: LaneShake256::new(), fed: 0 }
    }

    /// With `prefix` (tr or μ: 64 bytes, less than a block) absorbed before the input.
    pub(super) fn after(prefix: &[u8; 64]) -> Self {
        let mut shake = LaneShake256::new();
        shake.absorb(prefix);
        FedHash { shake, fed: 0 }
    }

    /// Its 64 output bytes once readable; until then absorbs what it can of the input
    /// `parts` (the input so far, from its start, each call) and pads once all of it is
    /// in and `last` says no more will come.
    pub(super) fn advance(&mut self, parts: &[&[u8]], last: bool) -> Option<[u8; 64]> {
        if self.shake.is_readable() {
            let mut out = [0u8; 64];
            self.shake.read(&mut out);
            return Some(out);
        }
        if absorb(&mut self.shake, parts, &mut self.fed) && last {
            self.shake.finish();
        }
        None
    }

    pub(super) fn lane(&mut self) -> Lane<'_> {
        self.shake.lane()
    }
}

/// Absorbs the concatenation of `parts` from byte `*fed` on, as far as the hash takes
/// it; true when all of it is in (and the hash has room for the padding).
fn absorb(shake: &mut LaneShake256, parts: &[&[u8]], fed: &mut usize) -> bool {
    let mut skip = *fed;
    for part in parts {
        if skip >= part.len() {
            skip -= part.len();
            continue;
        }
        let rest = &part[skip..];
        skip = 0;
        let taken = shake.absorb(rest);
        *fed += taken;
        if shake.is_waiting() || taken < rest.len() {
            return false;
        }
    }
    true
}
