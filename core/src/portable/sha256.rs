//! SHA-256 for the shared rounds (`sha2_rounds`): `u32` for one block, the portable
//! kernel's SHA-256 on every target (natively the AVX2 set keeps the `sha2` crate's,
//! with SHA-NI); a SIMD set's 4-lane vector instance hashes four independent blocks at
//! once, which is how SLH-DSA-SHA2's many independent F and H calls use it.

use super::sha2_rounds::{Size, Word, compress};

/// The round constants K (FIPS 180-4, Section 4.2.2).
pub(crate) const K: [u32; 64] = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
    0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
    0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
    0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2,
];

/// SHA-256's constants and functions (FIPS 180-4, Sections 4.1.2 and 4.2.2).
pub(crate) struct Sha256Rounds;

impl Size for Sha256Rounds {
    type Scalar = u32;
    const K: &'static [u32] = &K;
    /// Σ0 (4.4): ROTR²(x) ⊕ ROTR¹³(x) ⊕ ROTR²²(x).
    #[inline(always)]
    fn big_sigma0<W: Word<u32>>(x: W) -> W {
        x.rotr::<2>().xor(x.rotr::<13>()).xor(x.rotr::<22>())
    }
    /// Σ1 (4.5): ROTR⁶(x) ⊕ ROTR¹¹(x) ⊕ ROTR²⁵(x).
    #[inline(always)]
    fn big_sigma1<W: Word<u32>>(x: W) -> W {
        x.rotr::<6>().xor(x.rotr::<11>()).xor(x.rotr::<25>())
    }
    /// σ0 (4.6): ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x).
    #[inline(always)]
    fn small_sigma0<W: Word<u32>>(x: W) -> W {
        x.rotr::<7>().xor(x.rotr::<18>()).xor(x.shr::<3>())
    }
    /// σ1 (4.7): ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x).
    #[inline(always)]
    fn small_sigma1<W: Word<u32>>(x: W) -> W {
        x.rotr::<17>().xor(x.rotr::<19>()).xor(x.shr::<10>())
    }
}

/// Compresses four blocks, each from the same state `mid` (a midstate), and writes
/// each result as its big-endian bytes: the digests when each block is its message's
/// last (SLH-DSA-SHA2 resumes F and H from PK.seed's block). The portable kernel, one
/// block at a time with the written-out rounds (checked against the `sha2` crate below),
/// is the reference of the SIMD ones; the portable set itself answers "not here" and
/// SLH-DSA hashes one block at a time.
#[cfg(any(test, feature = "kernel-checks"))]
pub(crate) fn digest_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    for (digest, block) in out.iter_mut().zip(blocks) {
        let mut state = *mid;
        compress_block(&mut state, block);
        for (bytes, word) in digest.chunks_exact_mut(4).zip(state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
    }
}

/// One block compressed with the written-out rounds: the portable kernel's
/// compression, and the only scalar copy of the rounds in a wasm module.
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn compress_block(state: &mut [u32; 8], block: &[u8; 64]) {
    compress::<Sha256Rounds, _>(state, words(block));
}

/// One block compressed with the rolled loop (`sha2_rounds::compress_rolled`).
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128", not(feature = "slh-dsa"))))]
#[inline(never)]
pub(crate) fn compress_block_rolled(state: &mut [u32; 8], block: &[u8; 64]) {
    let words = block.as_chunks::<4>().0;
    super::sha2_rounds::compress_rolled::<Sha256Rounds>(state, |i| u32::from_be_bytes(words[i]));
}

/// The 16 big-endian words of a block.
#[inline(always)]
pub(crate) fn words(block: &[u8; 64]) -> [u32; 16] {
    core::array::from_fn(|i| u32::from_be_bytes([block[4 * i], block[4 * i + 1], block[4 * i + 2], block[4 * i + 3]]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqverify_testkit::Rng;

    #[test]
    fn the_written_out_and_the_rolled_rounds_are_bit_identical_to_the_sha2_crate() {
        let mut rng = Rng(11);
        // Edge words (0, all ones, one bit) and random ones, in states and blocks.
        let edge = [0u32, u32::MAX, 1, 0x8000_0000];
        for round in 0..2000 {
            let pick = |rng: &mut Rng| {
                if round % 4 == 0 { edge[(rng.next_u64() % 4) as usize] } else { rng.next_u64() as u32 }
            };
            let mut state: [u32; 8] = core::array::from_fn(|_| pick(&mut rng));
            let mut block = [0u8; 64];
            for chunk in block.chunks_mut(4) {
                chunk.copy_from_slice(&pick(&mut rng).to_be_bytes());
            }
            let mut expected = state;
            sha2::block_api::compress256(&mut expected, &[block]);
            let mut rolled = state;
            compress::<Sha256Rounds, _>(&mut state, words(&block));
            assert_eq!(state, expected, "round {round}");
            compress_block_rolled(&mut rolled, &block);
            assert_eq!(rolled, expected, "rolled, round {round}");
        }
    }

    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut rng = Rng(5);
        for _ in 0..500 {
            let mid: [u32; 8] = core::array::from_fn(|_| rng.next_u64() as u32);
            let blocks: [[u8; 64]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64() as u8));
            let (mut a, mut b) = ([[0; 32]; 4], [[0; 32]; 4]);
            digest_x4(&mid, &blocks, &mut b);
            if !crate::kernel::sha256_x4(&mid, &blocks, &mut a) {
                eprintln!("no sha256_x4 kernel in the {} set: nothing to compare", crate::kernel::name());
                return;
            }
            assert_eq!(a, b);
        }
    }
}
