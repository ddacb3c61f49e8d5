//! Four independent Keccak-f[1600] states at once, and single-block SHAKE over them.
//!
//! The states are interleaved lane by lane (`state[i][j]` is lane i of state j), the
//! layout an AVX2 register holds; the permutation is the kernel's
//! (`crate::kernel::f1600x4`). The tests check the ×4 sponge against the scalar one.

use crate::kernel::f1600x4;
use crate::kernel_set::StateX4;

/// XORs `data` into state `j` from byte `offset` on (whole words where aligned:
/// the SLH-DSA and ML-DSA inputs are mostly multiples of 8 bytes).
fn xor_lane_bytes(s: &mut StateX4, j: usize, offset: usize, data: &[u8]) {
    let mut pos = offset;
    let mut rest = data;
    while pos.is_multiple_of(8) && rest.len() >= 8 {
        let (word, tail) = rest.split_at(8);
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        s[pos / 8][j] ^= u64::from_le_bytes(w);
        pos += 8;
        rest = tail;
    }
    for (p, &b) in (pos..).zip(rest) {
        s[p / 8][j] ^= u64::from(b) << (8 * (p % 8));
    }
}

/// Four SHAKE instances whose inputs each fit one block, squeezed in lockstep.
pub(crate) struct ShakeX4<const RATE: usize> {
    state: StateX4,
}

/// SHAKE128 × 4.
pub(crate) type Shake128X4 = ShakeX4<168>;
/// SHAKE256 × 4.
pub(crate) type Shake256X4 = ShakeX4<136>;

impl<const RATE: usize> ShakeX4<RATE> {
    /// The rate in bytes: the input one block can hold, padding included.
    pub(crate) const RATE: usize = RATE;

    /// Absorbs input `j` (the concatenation of `inputs[j]`) into instance j, pads and
    /// permutes. `None` if any input does not fit one block (the caller then hashes
    /// those one at a time).
    pub(crate) fn absorb_single_block(inputs: [&[&[u8]]; 4]) -> Option<Self> {
        let mut state = [[0u64; 4]; 25];
        for (j, parts) in inputs.iter().enumerate() {
            let mut at = 0;
            for part in *parts {
                if at + part.len() >= RATE {
                    return None;
                }
                xor_lane_bytes(&mut state, j, at, part);
                at += part.len();
            }
            // SHAKE padding: 0x1f after the input, 0x80 in the last byte of the block.
            xor_lane_bytes(&mut state, j, at, &[0x1f]);
            xor_lane_bytes(&mut state, j, RATE - 1, &[0x80]);
        }
        f1600x4(&mut state);
        Some(ShakeX4 { state })
    }

    /// Copies the first `out.len()` (≤ RATE) bytes of the current block of instance `j`.
    pub(crate) fn read(&self, j: usize, out: &mut [u8]) {
        let out_len = out.len().min(RATE);
        // Whole lanes as fixed-size copies, then any partial one.
        let (words, tail) = out[..out_len].as_chunks_mut::<8>();
        for (word, lane) in words.iter_mut().zip(&self.state) {
            *word = lane[j].to_le_bytes();
        }
        if let Some(lane) = self.state.get(words.len()).filter(|_| !tail.is_empty()) {
            tail.copy_from_slice(&lane[j].to_le_bytes()[..tail.len()]);
        }
    }

    /// Moves all four instances to their next output block.
    pub(crate) fn next_block(&mut self) {
        f1600x4(&mut self.state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::{Shake128, Shake256};

    fn states() -> StateX4 {
        let mut x = 0x0123_4567_89ab_cdefu64;
        core::array::from_fn(|_| {
            core::array::from_fn(|_| {
                x = x.rotate_left(7).wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
                x
            })
        })
    }

    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut a = states();
        let mut b = a;
        for _ in 0..3 {
            f1600x4(&mut a);
            crate::portable::keccak::f1600x4(&mut b);
        }
        assert_eq!(a, b, "kernel {}", crate::kernel::name());
    }

    #[test]
    fn single_block_shake_x4_matches_the_sponge() {
        let msgs: [std::vec::Vec<u8>; 4] =
            core::array::from_fn(|j| (0..(30 + 33 * j)).map(|i| (i * 3 + j) as u8).collect());
        let inputs: [&[&[u8]]; 4] = [&[&msgs[0]], &[&msgs[1]], &[&msgs[2][..5], &msgs[2][5..]], &[&msgs[3]]];
        let mut x4 = Shake128X4::absorb_single_block(inputs).unwrap();
        let mut got = [[0u8; 168]; 4];
        let mut next = [[0u8; 168]; 4];
        for (j, out) in got.iter_mut().enumerate() {
            x4.read(j, out);
        }
        x4.next_block();
        for (j, out) in next.iter_mut().enumerate() {
            x4.read(j, out);
        }
        for j in 0..4 {
            let mut want = [0u8; 336];
            Shake128::digest(&[&msgs[j]], &mut want);
            assert_eq!(got[j][..], want[..168]);
            assert_eq!(next[j][..], want[168..]);
        }
        let mut y4 = Shake256X4::absorb_single_block([&[&msgs[0]], &[&msgs[1]], &[&msgs[2]], &[&msgs[3]]]).unwrap();
        y4.next_block();
        let mut out = [0u8; 32];
        y4.read(3, &mut out);
        let mut want = [0u8; 272];
        Shake256::digest(&[&msgs[3]], &mut want);
        assert_eq!(out[..], want[136..168]);
        // An input that does not fit one block is refused.
        assert!(Shake256X4::absorb_single_block([&[&[0u8; 136]], &[], &[], &[]]).is_none());
    }
}
