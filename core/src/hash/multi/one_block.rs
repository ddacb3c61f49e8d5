//! Independent one-block hashes at once, as SLH-DSA asks for a tree level's F and H
//! calls: SHAKE256 four or eight per kernel call, SHA-256 sixteen or four, SHA-512
//! four. This layer decides how many a caller should gather ([`shake256_at_once`],
//! [`sha256_at_once`]), groups them for the kernel set's multi-state Keccak and its
//! SHA-2 compressions, fills a short group's idle states, builds the one-block padding,
//! and hashes one at a time where no kernel applies (a set without the multi-state
//! compression, an input that does not fit one block).

use crate::hash::Shake256;
use crate::hash::sha2::{C256, C512, Compression, Sha256, Sha512};
use crate::kernel::{self, MAX_KECCAK_STATES};
use crate::kernel_set::{AlignedStates, StateX4, StateX8};

/// SHAKE256's rate in bytes.
const RATE: usize = 136;

/// The most hashes one call of this module takes: sixteen SHA-256 blocks in a 512-bit
/// register (x86-64 with AVX-512), and sixteen SHAKE256 in two eight-state calls; four
/// elsewhere, so that other targets build only the four-hash loops.
pub(crate) const MAX_AT_ONCE: usize = if cfg!(target_arch = "x86_64") { 16 } else { 4 };

/// The output of one hash: its first 32 bytes (SLH-DSA's n is at most 32).
pub(crate) type Out = [u8; 32];

/// How many SHAKE256 hashes to give [`shake256_each`] at once: [`MAX_AT_ONCE`] where
/// the set permutes eight states (two eight-state calls), else four.
pub(crate) fn shake256_at_once() -> usize {
    if kernel::keccak_states() > 4 { MAX_AT_ONCE } else { 4 }
}

/// How many SHA-256 hashes to give [`sha256_each`] at once: [`MAX_AT_ONCE`] where the
/// set has SHA-256 ×16, else four.
pub(crate) fn sha256_at_once() -> usize {
    if kernel::has_sha256_x16() { MAX_AT_ONCE } else { 4 }
}

/// Interleaved Keccak states (`state[i][j]`: lane i of state j) that one kernel call
/// permutes all of: four, or eight.
pub(crate) trait Interleaved {
    /// Keccak-f[1600] on every state.
    fn permute(&mut self);
}

impl Interleaved for StateX4 {
    fn permute(&mut self) {
        kernel::f1600x4(self, 4);
    }
}

impl Interleaved for StateX8 {
    fn permute(&mut self) {
        kernel::f1600x8(self);
    }
}

/// SHAKE256(prefix ‖ parts(j)\[0\] ‖ parts(j)\[1\] ‖ parts(j)\[2\]), `n` bytes (at most
/// 32) into `out[j]`, for each j below `out.len()`: eight per kernel call where the set
/// permutes eight states and more than four are left, else four.
pub(crate) fn shake256_each<'p>(prefix: &[u8], parts: impl Fn(usize) -> [&'p [u8]; 3], n: usize, out: &mut [Out]) {
    let mut start = 0;
    while start < out.len() {
        if out.len() - start > 4 && MAX_KECCAK_STATES == 8 && kernel::keccak_states() == 8 {
            shake256_group::<8>(prefix, &parts, n, start, out);
            start += 8;
        } else {
            shake256_group::<4>(prefix, &parts, n, start, out);
            start += 4;
        }
    }
}

/// Hashes `start .. start + L` of [`shake256_each`] (or to the end) through one `L`-state
/// kernel call. A group short of `L` repeats its first input in the idle states (the
/// kernel's cost is the same), their outputs dropped.
fn shake256_group<'p, const L: usize>(
    prefix: &[u8],
    parts: &impl Fn(usize) -> [&'p [u8]; 3],
    n: usize,
    start: usize,
    out: &mut [Out],
) where
    [[u64; L]; 25]: Interleaved,
{
    let end = out.len().min(start + L);
    let inputs = core::array::from_fn(|j| parts(if start + j < end { start + j } else { start }));
    // A whole group's outputs go straight to `out`, a short one's through `spare`.
    let mut spare = [[0u8; 32]; L];
    match <&mut [Out; L]>::try_from(&mut out[start..end]) {
        Ok(whole) => shake256_x(prefix, inputs, n, whole),
        Err(_) => {
            shake256_x(prefix, inputs, n, &mut spare);
            out[start..end].copy_from_slice(&spare[..end - start]);
        }
    }
}

/// SHAKE256(prefix ‖ parts\[j\]\[0\] ‖ parts\[j\]\[1\] ‖ parts\[j\]\[2\]), `n` bytes into
/// `out[j][..n]`, for the `L` states j (four or eight).
///
/// When every input is a whole number of 8-byte words, all have one length and fit one
/// block, and `n` is whole words, the state is built word by word (the prefix's words
/// once for all states, then each state's, then the padding) and permuted once by the
/// multi-state kernel: SLH-DSA's F and H for every approved set (prefix PK.seed, parts
/// ADRS ‖ M). Otherwise each is a sponge of its own.
pub(crate) fn shake256_x<const L: usize, const W: usize>(
    prefix: &[u8],
    parts: [[&[u8]; 3]; L],
    n: usize,
    out: &mut [[u8; W]; L],
) where
    [[u64; L]; 25]: Interleaved,
{
    let total = |p: &[&[u8]; 3]| prefix.len() + p.iter().map(|part| part.len()).sum::<usize>();
    let len = total(&parts[0]);
    let whole_words = parts.iter().flatten().chain([&prefix]).all(|p| p.len().is_multiple_of(8));
    let same_length = parts.iter().all(|p| total(p) == len);
    if !(whole_words && same_length && len < RATE && n.is_multiple_of(8) && n <= W.min(RATE)) {
        for (parts, o) in parts.iter().zip(out.iter_mut()) {
            let mut s = Shake256::new();
            s.absorb(prefix);
            parts.iter().for_each(|p| s.absorb(p));
            s.finalize().squeeze(&mut o[..n]);
        }
        return;
    }
    let mut aligned = AlignedStates([[0; L]; 25]);
    let state = &mut aligned.0;
    for (lane, chunk) in state.iter_mut().zip(prefix.as_chunks::<8>().0) {
        *lane = [u64::from_le_bytes(*chunk); L];
    }
    let first = prefix.len() / 8;
    for (j, parts) in parts.iter().enumerate() {
        let words = parts.iter().flat_map(|p| p.as_chunks::<8>().0);
        for (lane, chunk) in state[first..].iter_mut().zip(words) {
            lane[j] = u64::from_le_bytes(*chunk);
        }
    }
    // SHAKE padding: 0x1f after the input, 0x80 in the last byte of the block.
    for word in &mut state[len / 8] {
        *word ^= 0x1f;
    }
    for word in &mut state[RATE / 8 - 1] {
        *word ^= 0x80 << 56;
    }
    state.permute();
    for (j, o) in out.iter_mut().enumerate() {
        for (bytes, lane) in o[..n].chunks_exact_mut(8).zip(state.iter()) {
            bytes.copy_from_slice(&lane[j].to_le_bytes());
        }
    }
}

/// SHA-256 of `out.len()` (at most [`MAX_AT_ONCE`]) inputs of `len` bytes each, resumed
/// from `mid` (one block in): `fill(i, block)` writes input i's bytes at the start of
/// its last block. False (nothing written) when `len` bytes and the padding do not fit
/// one block.
pub(crate) fn sha256_each(mid: &[u32; 8], len: usize, fill: impl Fn(usize, &mut [u8]), out: &mut [Out]) -> bool {
    let mut padded = [0u8; 64];
    if out.len() > MAX_AT_ONCE || !pad(len, &mut padded, Sha256::pad_one_block) {
        return false;
    }
    let mut digests = [[0u8; 32]; MAX_AT_ONCE];
    sha256_x(mid, &padded, out.len(), |i, b| fill(i, b), &mut digests);
    out.copy_from_slice(&digests[..out.len()]);
    true
}

/// SHA-512 of `out.len()` (at most [`MAX_AT_ONCE`]) inputs as [`sha256_each`], each
/// digest's first 32 bytes into `out`: four per kernel call.
pub(crate) fn sha512_each(mid: &[u64; 8], len: usize, fill: impl Fn(usize, &mut [u8]), out: &mut [Out]) -> bool {
    let mut padded = [0u8; 128];
    if out.len() > MAX_AT_ONCE || !pad(len, &mut padded, Sha512::pad_one_block) {
        return false;
    }
    // Four at a time (the kernel's width): a quarter of the stack.
    for (k, out) in out.chunks_mut(4).enumerate() {
        let mut digests = [[0u8; 64]; 4];
        sha512_x4(mid, &padded, out.len(), |i, b| fill(4 * k + i, b), &mut digests);
        for (o, digest) in out.iter_mut().zip(&digests) {
            o.copy_from_slice(&digest[..32]);
        }
    }
    true
}

/// The one-block padding of any `len`-byte input after one block (that of `len` zero
/// bytes) into `block`; false when it does not fit. One body for both hashes (through
/// the pointer), where the module's size counts.
fn pad(len: usize, block: &mut [u8], pad_one_block: fn(u64, &[&[u8]], &mut [u8]) -> bool) -> bool {
    const ZEROS: [u8; 128] = [0; 128];
    len <= ZEROS.len() && pad_one_block(1, &[&ZEROS[..len]], block)
}

/// SHA-256 of up to `L` inputs of one length (L = 4 or 16), each resumed from `mid` and
/// ending in one last block: `padded` is that block's padding for their length (as
/// `Sha256::pad_one_block` writes it for any input of that length), and `fill(i,
/// block)` writes input i's bytes over a copy of it. The first `count` digests go into
/// `out`: through the set's sixteen-state kernel where it has one (it takes its short
/// way when few are given), else four by four through its four-state kernel, else one
/// block at a time.
pub(crate) fn sha256_x<const L: usize>(
    mid: &[u32; 8],
    padded: &[u8; 64],
    count: usize,
    fill: impl Fn(usize, &mut [u8; 64]),
    out: &mut [[u8; 32]; L],
) {
    let count = count.min(L);
    let mut last = [*padded; L];
    for (i, block) in last.iter_mut().enumerate().take(count) {
        fill(i, block);
    }
    if let (Ok(blocks), Ok(digests)) = (<&[_; 16]>::try_from(&last[..]), <&mut [_; 16]>::try_from(&mut out[..]))
        && kernel::sha256_x16(mid, blocks, count, digests)
    {
        return;
    }
    let fours = last.as_chunks::<4>().0.iter().zip(out.as_chunks_mut::<4>().0);
    for (i, (blocks, digests)) in fours.enumerate().take(count.div_ceil(4)) {
        if !kernel::sha256_x4(mid, blocks, digests) {
            for (digest, block) in digests.iter_mut().zip(blocks).take(count - 4 * i) {
                let mut state = *mid;
                C256::compress(&mut state, block);
                C256::output(&state, digest);
            }
        }
    }
}

/// SHA-512 of up to four inputs of one length, as [`sha256_x`], through the set's
/// four-state kernel (told how many of the four are live), else one block at a time.
pub(crate) fn sha512_x4(
    mid: &[u64; 8],
    padded: &[u8; 128],
    count: usize,
    fill: impl Fn(usize, &mut [u8; 128]),
    out: &mut [[u8; 64]; 4],
) {
    let count = count.min(4);
    let mut last = [*padded; 4];
    for (i, block) in last.iter_mut().enumerate().take(count) {
        fill(i, block);
    }
    if count > 0 && !kernel::sha512_x4(mid, &last, count, out) {
        for (digest, block) in out.iter_mut().zip(&last).take(count) {
            let mut state = *mid;
            C512::compress(&mut state, block);
            C512::output(&state, digest);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::sha2::{Md, Sha256, Sha512};

    /// Test bytes: `len` of them, differing by `seed`.
    fn bytes(len: usize, seed: u8) -> std::vec::Vec<u8> {
        (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
    }

    #[test]
    fn shakes_side_by_side_give_each_sponges_bytes() {
        shakes_give_each_sponges_bytes::<4>();
        shakes_give_each_sponges_bytes::<8>();
    }

    fn shakes_give_each_sponges_bytes<const L: usize>()
    where
        [[u64; L]; 25]: Interleaved,
    {
        // Word-aligned inputs of one length (the kernel path: SLH-DSA's F and H at n = 16,
        // 24, 32), and inputs that take the fallback (not whole words, unequal, too long).
        let shapes: [(usize, [usize; 3], usize); 6] = [
            (16, [32, 16, 0], 16),
            (24, [32, 24, 24], 24),
            (32, [32, 32, 32], 32),
            (16, [32, 15, 0], 16),
            (32, [32, 32, 40], 32),
            (8, [200, 0, 0], 20),
        ];
        for (prefix_len, part_lens, n) in shapes {
            let prefix = bytes(prefix_len, 1);
            let parts: std::vec::Vec<[std::vec::Vec<u8>; 3]> =
                (0..L as u8).map(|j| part_lens.map(|len| bytes(len, (10 * j).wrapping_add(len as u8)))).collect();
            let refs: [[&[u8]; 3]; L] = core::array::from_fn(|j| parts[j].each_ref().map(|p| p.as_slice()));
            let mut got = [[0u8; 32]; L];
            shake256_x(&prefix, refs, n, &mut got);
            for (j, got) in got.iter().enumerate() {
                let mut s = Shake256::new();
                s.absorb(&prefix);
                refs[j].iter().for_each(|p| s.absorb(p));
                let mut want = [0u8; 32];
                s.finalize().squeeze(&mut want[..n]);
                assert_eq!(got[..n], want[..n], "input {j}, prefix {prefix_len}, parts {part_lens:?}");
            }
        }
    }

    #[test]
    fn resumed_sha2_hashes_side_by_side_give_each_digest() {
        let first = bytes(128, 9);
        let (mut s256, mut s512) = (Sha256::new(), Sha512::new());
        s256.update(&first[..64]);
        s512.update(&first);
        // SLH-DSA's F and H: ADRSc (22 bytes) ‖ one or two nodes of n = 16, 24 or 32.
        for len in [38, 54, 70, 86] {
            let inputs: std::vec::Vec<std::vec::Vec<u8>> = (0..16u8).map(|i| bytes(len, 3 * i + 1)).collect();
            let zeros = std::vec![0; len];
            let (mut padded256, mut padded512) = ([0u8; 64], [0u8; 128]);
            let fits256 = Sha256::pad_one_block(1, &[&zeros], &mut padded256);
            assert_eq!(fits256, len <= 55, "{len} bytes");
            assert!(Sha512::pad_one_block(1, &[&zeros], &mut padded512));
            // Every count: each kernel's short way (few inputs) and its full one.
            for count in 1..=16 {
                let (mut got256, mut got4, mut got512) = ([[0u8; 32]; 16], [[0u8; 32]; 4], [[0u8; 64]; 4]);
                let mid256 = s256.midstate();
                if fits256 {
                    sha256_x(&mid256, &padded256, count, |i, b| b[..len].copy_from_slice(&inputs[i]), &mut got256);
                    sha256_x(&mid256, &padded256, count, |i, b| b[..len].copy_from_slice(&inputs[i]), &mut got4);
                }
                let mid512 = s512.midstate();
                sha512_x4(&mid512, &padded512, count, |i, b| b[..len].copy_from_slice(&inputs[i]), &mut got512);
                for i in 0..count {
                    if i < 4 {
                        let mut want512 = Md::<C512>::resume(mid512, 1);
                        want512.update(&inputs[i]);
                        let mut w512 = [0u8; 64];
                        want512.finalize_into(&mut w512);
                        assert_eq!(got512[i], w512, "SHA-512, {len} bytes, {count} at once, input {i}");
                    }
                    if fits256 {
                        let mut want256 = Md::<C256>::resume(mid256, 1);
                        want256.update(&inputs[i]);
                        let mut w256 = [0u8; 32];
                        want256.finalize_into(&mut w256);
                        assert_eq!(got256[i], w256, "SHA-256, {len} bytes, {count} at once, input {i}");
                        if i < 4 {
                            assert_eq!(got4[i], w256, "SHA-256, four at once, {len} bytes, input {i}");
                        }
                    }
                }
            }
        }
    }
}
