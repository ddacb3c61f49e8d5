//! SHA-256's compression function (FIPS 180-4, Section 6.2.2) written once, generic
//! over the word: `u32` for one block, a 4-lane vector (wasm simd128) for four
//! independent blocks at once, which is how SLH-DSA-SHA2's many independent F and H
//! calls use it; the `u32` instance is the portable kernels' SHA-256 on every target
//! (natively the other kernels keep the `sha2` crate's, with SHA-NI).
//!
//! The rounds are written out (a macro per round, the eight working variables renamed
//! instead of moved) so that every word lives in a local: in wasm, locals instead of
//! loads and stores to the stack.

/// A 32-bit word, or several side by side (one per block).
pub(crate) trait Word: Copy {
    /// Addition modulo 2^32, lane by lane.
    fn add(self, other: Self) -> Self;
    /// self ⊕ other.
    fn xor(self, other: Self) -> Self;
    /// self ∧ other.
    fn and(self, other: Self) -> Self;
    /// self ∨ other.
    fn or(self, other: Self) -> Self;
    /// ¬self ∧ other.
    fn andn(self, other: Self) -> Self;
    /// Logical shift right by `R`.
    fn shr<const R: u32>(self) -> Self;
    /// Rotation right by `R` (0 < R < 32).
    fn rotr<const R: u32>(self) -> Self;
    /// `value` in every lane.
    fn splat(value: u32) -> Self;
}

impl Word for u32 {
    #[inline(always)]
    fn add(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        self & other
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        self | other
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn shr<const R: u32>(self) -> Self {
        self >> R
    }
    #[inline(always)]
    fn rotr<const R: u32>(self) -> Self {
        self.rotate_right(R)
    }
    #[inline(always)]
    fn splat(value: u32) -> Self {
        value
    }
}

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

/// Σ0 (4.4): ROTR²(x) ⊕ ROTR¹³(x) ⊕ ROTR²²(x).
#[inline(always)]
fn big_sigma0<W: Word>(x: W) -> W {
    x.rotr::<2>().xor(x.rotr::<13>()).xor(x.rotr::<22>())
}

/// Σ1 (4.5): ROTR⁶(x) ⊕ ROTR¹¹(x) ⊕ ROTR²⁵(x).
#[inline(always)]
fn big_sigma1<W: Word>(x: W) -> W {
    x.rotr::<6>().xor(x.rotr::<11>()).xor(x.rotr::<25>())
}

/// σ0 (4.6): ROTR⁷(x) ⊕ ROTR¹⁸(x) ⊕ SHR³(x).
#[inline(always)]
fn small_sigma0<W: Word>(x: W) -> W {
    x.rotr::<7>().xor(x.rotr::<18>()).xor(x.shr::<3>())
}

/// σ1 (4.7): ROTR¹⁷(x) ⊕ ROTR¹⁹(x) ⊕ SHR¹⁰(x).
#[inline(always)]
fn small_sigma1<W: Word>(x: W) -> W {
    x.rotr::<17>().xor(x.rotr::<19>()).xor(x.shr::<10>())
}

/// Compresses one 16-word block (already big-endian-decoded) into `state`.
#[inline(always)]
pub(crate) fn compress<W: Word>(state: &mut [W; 8], block: [W; 16]) {
    let mut w = block;
    let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = *state;
    // One round t = 16·i + j (6.2.2 step 3), with the schedule's next word computed in
    // place for t ≥ 16 (step 1): d and h are the only variables written. `j` is a
    // literal, so every index into `w` is a constant and the 16 words stay in locals.
    macro_rules! round {
        ($a:ident, $b:ident, $c:ident, $d:ident, $e:ident, $f:ident, $g:ident, $h:ident, $i:expr, $j:literal) => {
            if $i > 0 {
                w[$j] = w[$j]
                    .add(small_sigma1(w[($j + 14) % 16]))
                    .add(w[($j + 9) % 16])
                    .add(small_sigma0(w[($j + 1) % 16]));
            }
            // Ch(e, f, g) = (e ∧ f) ⊕ (¬e ∧ g).
            let ch = $e.and($f).xor($e.andn($g));
            let t1 = $h.add(big_sigma1($e)).add(ch).add(W::splat(K[16 * $i + $j])).add(w[$j]);
            // Maj(a, b, c) = (a ∧ b) ⊕ (a ∧ c) ⊕ (b ∧ c), as (a ∧ b) ∨ (c ∧ (a ∨ b)).
            let maj = $a.and($b).or($c.and($a.or($b)));
            $d = $d.add(t1);
            $h = t1.add(big_sigma0($a)).add(maj);
        };
    }
    // Sixteen rounds; after eight the variables are back in their places.
    macro_rules! sixteen_rounds {
        ($i:expr) => {
            round!(a, b, c, d, e, f, g, h, $i, 0);
            round!(h, a, b, c, d, e, f, g, $i, 1);
            round!(g, h, a, b, c, d, e, f, $i, 2);
            round!(f, g, h, a, b, c, d, e, $i, 3);
            round!(e, f, g, h, a, b, c, d, $i, 4);
            round!(d, e, f, g, h, a, b, c, $i, 5);
            round!(c, d, e, f, g, h, a, b, $i, 6);
            round!(b, c, d, e, f, g, h, a, $i, 7);
            round!(a, b, c, d, e, f, g, h, $i, 8);
            round!(h, a, b, c, d, e, f, g, $i, 9);
            round!(g, h, a, b, c, d, e, f, $i, 10);
            round!(f, g, h, a, b, c, d, e, $i, 11);
            round!(e, f, g, h, a, b, c, d, $i, 12);
            round!(d, e, f, g, h, a, b, c, $i, 13);
            round!(c, d, e, f, g, h, a, b, $i, 14);
            round!(b, c, d, e, f, g, h, a, $i, 15);
        };
    }
    // Rounds 0–15 take the block's words, 16–63 extend the schedule as they go: one
    // copy of sixteen rounds in a loop, which keeps the module small.
    for i in 0..4 {
        sixteen_rounds!(i);
    }
    // Step 4.
    for (s, v) in state.iter_mut().zip([a, b, c, d, e, f, g, h]) {
        *s = s.add(v);
    }
}

/// Compresses four blocks, each from the same state `mid` (a midstate), and writes
/// each result as its 32 big-endian bytes: the four digests when each block is its
/// message's last (SLH-DSA's F and H resume from PK.seed's block). Runs the current
/// kernel.
#[inline]
pub(crate) fn digest_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
    crate::kernel::sha256_x4(mid, blocks, out);
}

/// The portable [`digest_x4`]: the written-out rounds on one block at a time (checked
/// against the `sha2` crate below).
pub(crate) fn portable_digest_x4(mid: &[u32; 8], blocks: &[[u8; 64]; 4], out: &mut [[u8; 32]; 4]) {
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
    compress(state, words(block));
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
    fn the_written_out_rounds_are_bit_identical_to_the_sha2_crate() {
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
            compress(&mut state, words(&block));
            assert_eq!(state, expected, "round {round}");
        }
    }

    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut rng = Rng(5);
        for _ in 0..500 {
            let mid: [u32; 8] = core::array::from_fn(|_| rng.next_u64() as u32);
            let blocks: [[u8; 64]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64() as u8));
            let (mut a, mut b) = ([[0; 32]; 4], [[0; 32]; 4]);
            digest_x4(&mid, &blocks, &mut a);
            portable_digest_x4(&mid, &blocks, &mut b);
            assert_eq!(a, b);
        }
    }
}
