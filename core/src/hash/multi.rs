//! Four independent one-block hashes at once, as SLH-DSA asks for a tree level's F and H
//! calls. The kernel set's four-state Keccak and its SHA-256 ×4 and SHA-512 ×2
//! compressions run them where they apply; where they do not (a set without the
//! multi-lane compression, an input that does not fit one block), each is hashed on its
//! own here. The algorithms ask for four hashes; this layer owns the fallback.

use super::Shake256;
use super::lanes::LaneShake256;
use super::sha2::{C256, C512, Compression, Sha256, Sha512};
use crate::kernel;
use crate::kernel_set::StateX4;

/// SHAKE256's rate in bytes.
const RATE: usize = LaneShake256::RATE;

/// SHAKE256(prefix ‖ parts\[j\]\[0\] ‖ parts\[j\]\[1\] ‖ parts\[j\]\[2\]), `n` bytes into
/// `out[j][..n]`, for the four lanes j.
///
/// When every input is a whole number of 8-byte words, all four have one length and fit
/// one block, and `n` is whole words, the state is built word by word (the prefix's
/// words once for all four lanes, then each lane's, then the padding) and permuted once
/// by the four-state kernel: SLH-DSA's F and H for every approved set (prefix PK.seed,
/// parts ADRS ‖ M). Otherwise each lane is a sponge of its own.
pub(crate) fn shake256_x4<const W: usize>(prefix: &[u8], parts: [[&[u8]; 3]; 4], n: usize, out: &mut [[u8; W]; 4]) {
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
    let mut state: StateX4 = [[0; 4]; 25];
    for (lane, chunk) in state.iter_mut().zip(prefix.as_chunks::<8>().0) {
        *lane = [u64::from_le_bytes(*chunk); 4];
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
    kernel::f1600x4(&mut state, 4);
    for (j, o) in out.iter_mut().enumerate() {
        for (bytes, lane) in o[..n].chunks_exact_mut(8).zip(&state) {
            bytes.copy_from_slice(&lane[j].to_le_bytes());
        }
    }
}

/// SHA-256 resumed from `mid` (the state after `blocks` whole blocks), over the parts of
/// each lane whose `live` flag is set: its digest into `out[j]`. The last blocks are
/// padded once; the kernel compresses all four, or answers "not here" and each live
/// block is compressed on its own. False (nothing written) when an input does not fit
/// one block with its padding.
pub(crate) fn sha256_x4(
    mid: &[u32; 8],
    blocks: u64,
    parts: [[&[u8]; 3]; 4],
    live: [bool; 4],
    out: &mut [[u8; 32]; 4],
) -> bool {
    let mut last = [[0u8; 64]; 4];
    if !last.iter_mut().zip(parts).all(|(block, parts)| Sha256::pad_one_block(blocks, &parts, block)) {
        return false;
    }
    if !kernel::sha256_x4(mid, &last, out) {
        for ((digest, block), _) in out.iter_mut().zip(&last).zip(live).filter(|(_, live)| *live) {
            let mut state = *mid;
            C256::compress(&mut state, block);
            C256::output(&state, digest);
        }
    }
    true
}

/// Up to sixteen SHA-256 inputs of one length, resumed from `mid`, each ending in one
/// last block: `padded` is that block's padding for their length (as
/// `Sha256::pad_one_block` writes it for any input of that length), and `fill(i, block)`
/// writes input i's bytes over a copy of it. The first `count` digests into `out`,
/// through the set's sixteen-lane kernel (which takes its short way when few are
/// given); without that kernel, each block is compressed on its own.
pub(crate) fn sha256_x16(
    mid: &[u32; 8],
    padded: &[u8; 64],
    count: usize,
    fill: impl Fn(usize, &mut [u8; 64]),
    out: &mut [[u8; 32]; 16],
) {
    let count = count.min(16);
    let mut last = [*padded; 16];
    for (i, block) in last.iter_mut().enumerate().take(count) {
        fill(i, block);
    }
    if count > 0 && !kernel::sha256_x16(mid, &last, count, out) {
        for (digest, block) in out.iter_mut().zip(&last).take(count) {
            let mut state = *mid;
            C256::compress(&mut state, block);
            C256::output(&state, digest);
        }
    }
}

/// SHA-512 resumed from `mid`, as [`sha256_x4`]; the kernel is told how many lanes
/// lead up to the last live one, so that it can skip the idle lanes after it.
pub(crate) fn sha512_x4(
    mid: &[u64; 8],
    blocks: u64,
    parts: [[&[u8]; 3]; 4],
    live: [bool; 4],
    out: &mut [[u8; 64]; 4],
) -> bool {
    let mut last = [[0u8; 128]; 4];
    if !last.iter_mut().zip(parts).all(|(block, parts)| Sha512::pad_one_block(blocks, &parts, block)) {
        return false;
    }
    let Some(lanes) = live.iter().rposition(|&l| l).map(|j| j + 1) else { return true };
    if !kernel::sha512_x4(mid, &last, lanes, out) {
        for ((digest, block), _) in out.iter_mut().zip(&last).zip(live).filter(|(_, live)| *live) {
            let mut state = *mid;
            C512::compress(&mut state, block);
            C512::output(&state, digest);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::sha2::Md;

    /// Test bytes: `len` of them, differing by `seed`.
    fn bytes(len: usize, seed: u8) -> std::vec::Vec<u8> {
        (0..len).map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed)).collect()
    }

    #[test]
    fn four_shakes_give_each_sponges_bytes() {
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
                (0..4u8).map(|j| part_lens.map(|len| bytes(len, 10 * j + len as u8))).collect();
            let refs: [[&[u8]; 3]; 4] = core::array::from_fn(|j| parts[j].each_ref().map(|p| p.as_slice()));
            let mut got = [[0u8; 32]; 4];
            shake256_x4(&prefix, refs, n, &mut got);
            for (j, got) in got.iter().enumerate() {
                let mut s = Shake256::new();
                s.absorb(&prefix);
                refs[j].iter().for_each(|p| s.absorb(p));
                let mut want = [0u8; 32];
                s.finalize().squeeze(&mut want[..n]);
                assert_eq!(got[..n], want[..n], "lane {j}, prefix {prefix_len}, parts {part_lens:?}");
            }
        }
    }

    #[test]
    fn four_resumed_sha2_hashes_give_each_digest() {
        let first = bytes(128, 7);
        let (mut s256, mut s512) = (Sha256::new(), Sha512::new());
        s256.update(&first[..64]);
        s512.update(&first);
        // SLH-DSA's H: ADRSc (22 bytes) ‖ two nodes (n = 16 with SHA-256, 32 with SHA-512).
        let lanes = |n: usize| -> std::vec::Vec<[std::vec::Vec<u8>; 3]> {
            (0..4u8).map(|j| [bytes(22, j), bytes(n, j + 4), bytes(n, j + 8)]).collect()
        };
        let (parts256, parts512) = (lanes(16), lanes(32));
        fn refs(parts: &[[std::vec::Vec<u8>; 3]]) -> [[&[u8]; 3]; 4] {
            core::array::from_fn(|j| parts[j].each_ref().map(|p| p.as_slice()))
        }
        let (refs256, refs512) = (refs(&parts256), refs(&parts512));
        let live = [true, false, true, true];
        let mut got256 = [[0u8; 32]; 4];
        assert!(sha256_x4(&s256.midstate(), 1, refs256, live, &mut got256));
        let mut got512 = [[0u8; 64]; 4];
        assert!(sha512_x4(&s512.midstate(), 1, refs512, live, &mut got512));
        for j in (0..4).filter(|&j| live[j]) {
            let mut want256 = Md::<C256>::resume(s256.midstate(), 1);
            refs256[j].iter().for_each(|p| want256.update(p));
            let mut want512 = Md::<C512>::resume(s512.midstate(), 1);
            refs512[j].iter().for_each(|p| want512.update(p));
            let (mut w256, mut w512) = ([0u8; 32], [0u8; 64]);
            want256.finalize_into(&mut w256);
            want512.finalize_into(&mut w512);
            assert_eq!(got256[j], w256, "SHA-256 lane {j}");
            assert_eq!(got512[j], w512, "SHA-512 lane {j}");
        }
        // An input that does not fit one block is refused, nothing written.
        let long = bytes(60, 3);
        let too_long: [[&[u8]; 3]; 4] = core::array::from_fn(|_| [&long[..], &[][..], &[][..]]);
        assert!(!sha256_x4(&s256.midstate(), 1, too_long, live, &mut got256));
    }

    #[test]
    fn sixteen_resumed_sha256_hashes_give_each_digest() {
        let first = bytes(64, 9);
        let mut s256 = Sha256::new();
        s256.update(&first);
        // SLH-DSA's F at n = 16 (38 bytes) and H at n = 32 (86 bytes does not fit; 54 does).
        for len in [38, 54] {
            let inputs: std::vec::Vec<std::vec::Vec<u8>> = (0..16u8).map(|i| bytes(len, 3 * i + 1)).collect();
            let mut padded = [0u8; 64];
            assert!(Sha256::pad_one_block(1, &[&std::vec![0; len]], &mut padded));
            // Every count: the kernel's short way (few lanes) and its sixteen lanes.
            for count in 1..=16 {
                let mut got = [[0u8; 32]; 16];
                sha256_x16(
                    &s256.midstate(),
                    &padded,
                    count,
                    |i, block| block[..len].copy_from_slice(&inputs[i]),
                    &mut got,
                );
                for (i, got) in got.iter().enumerate().take(count) {
                    let mut want = Md::<C256>::resume(s256.midstate(), 1);
                    want.update(&inputs[i]);
                    let mut w = [0u8; 32];
                    want.finalize_into(&mut w);
                    assert_eq!(*got, w, "{len} bytes, {count} lanes, lane {i}");
                }
            }
        }
    }
}
