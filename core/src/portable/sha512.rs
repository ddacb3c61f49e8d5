//! SHA-512 for the shared rounds (`sha2_rounds`): `u64` for one block, the portable
//! kernel's SHA-512 on every target (natively the AVX2 set keeps the `sha2` crate's); a
//! SIMD set's 2-lane vector instance hashes two independent blocks at once, which is how
//! SLH-DSA-SHA2's independent H calls of categories 3 and 5 use it.

use super::sha2_rounds::{Size, Word, compress};

/// The first 80 primes.
const fn primes() -> [u64; 80] {
    let mut out = [0u64; 80];
    let (mut found, mut candidate) = (0, 2u64);
    while found < 80 {
        let mut d = 2;
        let mut prime = true;
        while d * d <= candidate {
            if candidate % d == 0 {
                prime = false;
                break;
            }
            d += 1;
        }
        if prime {
            out[found] = candidate;
            found += 1;
        }
        candidate += 1;
    }
    out
}

/// `a`·`x` in 256 bits (little-endian limbs; the products here stay below 2^256).
const fn mul(a: [u64; 4], x: u128) -> [u64; 4] {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let mut out = [0u64; 4];
    let mut carry = 0u128;
    let mut i = 0;
    while i < 4 {
        let t = a[i] as u128 * lo as u128 + out[i] as u128 + carry;
        out[i] = t as u64;
        carry = t >> 64;
        i += 1;
    }
    carry = 0;
    i = 0;
    while i < 3 {
        let t = a[i] as u128 * hi as u128 + out[i + 1] as u128 + carry;
        out[i + 1] = t as u64;
        carry = t >> 64;
        i += 1;
    }
    out
}

/// Whether x³ ≤ p·2^192.
const fn cube_at_most(x: u128, p: u64) -> bool {
    let cube = mul(mul([x as u64, (x >> 64) as u64, 0, 0], x), x);
    let bound = [0, 0, 0, p];
    let mut i = 4;
    while i > 0 {
        i -= 1;
        if cube[i] != bound[i] {
            return cube[i] < bound[i];
        }
    }
    true
}

/// The round constants K (FIPS 180-4, Section 4.2.3): the first 64 bits of the
/// fractional parts of the cube roots of the first 80 primes, computed here as
/// ⌊∛(p·2^192)⌋ mod 2^64 (a binary search over 67-bit integers; ∛p < 8).
const K: [u64; 80] = {
    let primes = primes();
    let mut k = [0u64; 80];
    let mut t = 0;
    while t < 80 {
        let (mut lo, mut hi) = (0u128, 1u128 << 67);
        while hi - lo > 1 {
            let mid = (lo + hi) / 2;
            if cube_at_most(mid, primes[t]) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        k[t] = lo as u64;
        t += 1;
    }
    k
};

/// SHA-512's constants and functions (FIPS 180-4, Sections 4.1.3 and 4.2.3).
pub(crate) struct Sha512Rounds;

impl Size for Sha512Rounds {
    type Scalar = u64;
    const K: &'static [u64] = &K;
    /// Σ0 (4.10): ROTR²⁸(x) ⊕ ROTR³⁴(x) ⊕ ROTR³⁹(x).
    #[inline(always)]
    fn big_sigma0<W: Word<u64>>(x: W) -> W {
        x.rotr::<28>().xor(x.rotr::<34>()).xor(x.rotr::<39>())
    }
    /// Σ1 (4.11): ROTR¹⁴(x) ⊕ ROTR¹⁸(x) ⊕ ROTR⁴¹(x).
    #[inline(always)]
    fn big_sigma1<W: Word<u64>>(x: W) -> W {
        x.rotr::<14>().xor(x.rotr::<18>()).xor(x.rotr::<41>())
    }
    /// σ0 (4.12): ROTR¹(x) ⊕ ROTR⁸(x) ⊕ SHR⁷(x).
    #[inline(always)]
    fn small_sigma0<W: Word<u64>>(x: W) -> W {
        x.rotr::<1>().xor(x.rotr::<8>()).xor(x.shr::<7>())
    }
    /// σ1 (4.13): ROTR¹⁹(x) ⊕ ROTR⁶¹(x) ⊕ SHR⁶(x).
    #[inline(always)]
    fn small_sigma1<W: Word<u64>>(x: W) -> W {
        x.rotr::<19>().xor(x.rotr::<61>()).xor(x.shr::<6>())
    }
}

/// Compresses the first `live` (1 to 4) of four blocks, each from the same state `mid`
/// (a midstate), and writes each result as its big-endian bytes: the digests when each
/// block is its message's last (SLH-DSA-SHA2 resumes H from PK.seed's block). The
/// digests past `live` are the kernel's to write or not (callers never read them). The
/// portable kernel, one block at a time with the written-out rounds (checked against
/// the `sha2` crate below), is the reference of the SIMD ones; the portable set itself
/// answers "not here" and SLH-DSA hashes one block at a time.
#[cfg(any(test, feature = "kernel-checks"))]
pub(crate) fn digest_x4(mid: &[u64; 8], blocks: &[[u8; 128]; 4], live: usize, out: &mut [[u8; 64]; 4]) {
    for (digest, block) in out.iter_mut().zip(blocks).take(live) {
        let mut state = *mid;
        compress_block(&mut state, block);
        for (bytes, word) in digest.chunks_exact_mut(8).zip(state) {
            bytes.copy_from_slice(&word.to_be_bytes());
        }
    }
}

/// One block compressed with the written-out rounds: the portable kernel's
/// compression, and the only scalar copy of the rounds in a wasm module.
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn compress_block(state: &mut [u64; 8], block: &[u8; 128]) {
    compress::<Sha512Rounds, _>(state, words(block));
}

/// One block compressed with the rolled loop (`sha2_rounds::compress_rolled`).
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128", not(feature = "slh-dsa"))))]
#[inline(never)]
pub(crate) fn compress_block_rolled(state: &mut [u64; 8], block: &[u8; 128]) {
    let words = block.as_chunks::<8>().0;
    super::sha2_rounds::compress_rolled::<Sha512Rounds>(state, |i| u64::from_be_bytes(words[i]));
}

/// The 16 big-endian words of a block.
#[inline(always)]
pub(crate) fn words(block: &[u8; 128]) -> [u64; 16] {
    core::array::from_fn(|i| {
        let mut word = [0u8; 8];
        word.copy_from_slice(&block[8 * i..8 * i + 8]);
        u64::from_be_bytes(word)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqverify_testkit::Rng;

    #[test]
    fn the_computed_constants_extend_sha256s() {
        // SHA-256's K are the first 32 bits of the same cube roots (first 64 primes).
        assert_eq!(K[0], 0x428a_2f98_d728_ae22);
        assert_eq!(K[79], 0x6c44_198c_4a47_5817);
        for (t, &k32) in super::super::sha256::K.iter().enumerate() {
            assert_eq!((K[t] >> 32) as u32, k32, "K[{t}]");
        }
    }

    #[test]
    fn the_written_out_and_the_rolled_rounds_are_bit_identical_to_the_sha2_crate() {
        let mut rng = Rng(12);
        let edge = [0u64, u64::MAX, 1, 1 << 63];
        for round in 0..2000 {
            let pick =
                |rng: &mut Rng| if round % 4 == 0 { edge[(rng.next_u64() % 4) as usize] } else { rng.next_u64() };
            let mut state: [u64; 8] = core::array::from_fn(|_| pick(&mut rng));
            let mut block = [0u8; 128];
            for chunk in block.chunks_mut(8) {
                chunk.copy_from_slice(&pick(&mut rng).to_be_bytes());
            }
            let mut expected = state;
            sha2::block_api::compress512(&mut expected, &[block]);
            let mut rolled = state;
            compress::<Sha512Rounds, _>(&mut state, words(&block));
            assert_eq!(state, expected, "round {round}");
            compress_block_rolled(&mut rolled, &block);
            assert_eq!(rolled, expected, "rolled, round {round}");
        }
    }

    #[test]
    fn every_kernel_matches_the_portable_one() {
        let mut rng = Rng(6);
        for _ in 0..500 {
            let mid: [u64; 8] = core::array::from_fn(|_| rng.next_u64());
            let blocks: [[u8; 128]; 4] = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64() as u8));
            for live in 1..=4 {
                let (mut a, mut b) = ([[0; 64]; 4], [[0; 64]; 4]);
                digest_x4(&mid, &blocks, live, &mut b);
                if !crate::kernel::sha512_x4(&mid, &blocks, live, &mut a) {
                    eprintln!("no sha512_x4 kernel in the {} set: nothing to compare", crate::kernel::name());
                    return;
                }
                assert_eq!(a[..live], b[..live], "{live} live");
            }
        }
    }
}
