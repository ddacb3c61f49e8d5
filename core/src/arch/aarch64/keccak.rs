//! Keccak-f[1600] on four states with NEON: two states per 128-bit vector, so the four
//! states run as two pairs through the scalar code's written-out round
//! (`portable::keccak::round`, generic over the lane). Two lane types: plain NEON
//! (every AArch64 CPU), and NEON with Armv8.2's SHA-3 instructions (`EOR3`, `RAX1`,
//! `XAR`, `BCAX`), which do θ's parities, D, ρ and χ in one instruction each. Must
//! match `portable::keccak::f1600` bit for bit.

use core::arch::aarch64::{
    uint64x2_t, vbcaxq_u64, vbicq_u64, vdupq_n_u64, veor3q_u64, veorq_u64, vld1q_u64, vrax1q_u64, vshlq_n_u64,
    vsriq_n_u64, vst1q_u64, vxarq_u64,
};

use super::token::Sha3;
use crate::kernel_set::StateX4;
use crate::portable::keccak::{Lane, ROUND_CONSTANTS, round};

/// `$body` with the constant `$name` equal to `$value` (1 to 63), for the intrinsics
/// whose shift or rotation must be a constant; other values take `$otherwise`.
macro_rules! with_shift {
    ($value:expr, $name:ident => $body:expr, otherwise $otherwise:expr) => {
        with_shift!(@arms $value, $name, $body, $otherwise, [
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
        ])
    };
    (@arms $value:expr, $name:ident, $body:expr, $otherwise:expr, [$($n:literal)*]) => {
        match $value {
            $($n => {
                const $name: i32 = $n;
                $body
            })*
            _ => $otherwise,
        }
    };
}

// SAFETY (every NEON intrinsic below): this module is built only where NEON is in the
// target's baseline (`target_feature = "neon"`), so every AArch64 CPU it runs on has it.

/// Rotation left by `r` (0 ≤ r < 64): a shift left, then the top bits shifted right
/// into the bottom (SRI keeps the rest); `r` is a constant after inlining.
#[inline(always)]
fn rol_neon(x: uint64x2_t, r: u32) -> uint64x2_t {
    // SAFETY: see above.
    unsafe { with_shift!(r, L => vsriq_n_u64::<{ 64 - L }>(vshlq_n_u64::<L>(x), x), otherwise x) }
}

/// Two states' lanes in one vector, plain NEON.
#[derive(Clone, Copy)]
struct Neon(uint64x2_t);

impl Lane for Neon {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        // SAFETY: see above.
        Neon(unsafe { veorq_u64(self.0, other.0) })
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        // SAFETY: see above. BIC(a, b) is a ∧ ¬b.
        Neon(unsafe { vbicq_u64(other.0, self.0) })
    }
    #[inline(always)]
    fn rol<const R: u32>(self) -> Self {
        Neon(rol_neon(self.0, R))
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        // SAFETY: see above.
        Neon(unsafe { vdupq_n_u64(value) })
    }
}

/// Two states' lanes in one vector, with the SHA-3 instructions. Made only inside
/// [`permute_pair_sha3`], which runs where [`Sha3`] proved them present.
#[derive(Clone, Copy)]
struct WithSha3(uint64x2_t);

// rustc cannot see that these methods are only ever inlined into `permute_pair_sha3`,
// whose `sha3` feature lets LLVM inline the intrinsics there in turn: its disassembly
// is EOR3, RAX1, XAR and BCAX with no call (`cargo xtask count` shows the effect).
#[allow(inline_always_mismatching_target_features, reason = "inlined into a function with the feature; see above")]
impl Lane for WithSha3 {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        WithSha3(Neon(self.0).xor(Neon(other.0)).0)
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        WithSha3(Neon(self.0).andn(Neon(other.0)).0)
    }
    #[inline(always)]
    fn rol<const R: u32>(self) -> Self {
        WithSha3(rol_neon(self.0, R))
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        WithSha3(Neon::splat(value).0)
    }
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        // SAFETY: a `WithSha3` exists only inside `permute_pair_sha3`, which runs where
        // the SHA-3 instructions were detected.
        WithSha3(unsafe { veor3q_u64(self.0, b.0, c.0) })
    }
    #[inline(always)]
    fn xor_rol1(self, other: Self) -> Self {
        // SAFETY: as in `xor3`. RAX1(a, b) is a ⊕ rot(b, 1).
        WithSha3(unsafe { vrax1q_u64(self.0, other.0) })
    }
    #[inline(always)]
    fn xor_rol<const R: u32>(self, other: Self) -> Self {
        // SAFETY: as in `xor3`. XAR rotates right: left by R is right by 64 − R.
        WithSha3(unsafe {
            with_shift!(64 - R, RIGHT => vxarq_u64::<RIGHT>(self.0, other.0), otherwise veorq_u64(self.0, other.0))
        })
    }
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        // SAFETY: as in `xor3`. BCAX(a, b, c) is a ⊕ (b ∧ ¬c).
        WithSha3(unsafe { vbcaxq_u64(self.0, c.0, b.0) })
    }
}

/// Keccak-f[1600] on two states held lane-wise in `a`.
#[inline(always)]
fn permute<L: Lane>(a: [L; 25]) -> [L; 25] {
    let mut s = a;
    for &rc in &ROUND_CONSTANTS {
        s = round(s, rc);
    }
    s
}

fn permute_pair(a: [uint64x2_t; 25]) -> [uint64x2_t; 25] {
    permute(a.map(Neon)).map(|v| v.0)
}

#[target_feature(enable = "sha3")]
fn permute_pair_sha3(a: [uint64x2_t; 25]) -> [uint64x2_t; 25] {
    permute(a.map(WithSha3)).map(|v| v.0)
}

/// Four states' Keccak-f[1600] as two pairs with `permute_pair`: states 2p and 2p + 1
/// sit next to each other in every lane's row, so a pair's lane is one 16-byte load
/// and store. Only the pairs holding one of the first `live` states are permuted; a
/// lone state goes to the scalar permutation, cheaper than half a pair.
#[inline(always)]
fn by_pairs(s: &mut StateX4, live: usize, permute_pair: impl Fn([uint64x2_t; 25]) -> [uint64x2_t; 25]) {
    if live == 1 {
        let mut one: [u64; 25] = core::array::from_fn(|i| s[i][0]);
        crate::portable::keccak::f1600(&mut one);
        for (four, lane) in s.iter_mut().zip(one) {
            four[0] = lane;
        }
        return;
    }
    for pair in 0..live.div_ceil(2).min(2) {
        // SAFETY: each `s[i][2p..2p + 2]` is the 16 bytes the load reads.
        let a = core::array::from_fn(|i| unsafe { vld1q_u64(s[i][2 * pair..2 * pair + 2].as_ptr()) });
        for (lanes, v) in s.iter_mut().zip(permute_pair(a)) {
            // SAFETY: the 16 bytes the store writes.
            unsafe { vst1q_u64(lanes[2 * pair..2 * pair + 2].as_mut_ptr(), v) };
        }
    }
}

/// Keccak-f[1600] on the first `live` of four interleaved states, plain NEON.
pub(crate) fn f1600x4(s: &mut StateX4, live: usize) {
    by_pairs(s, live, permute_pair);
}

/// Keccak-f[1600] on the first `live` of four interleaved states, with the SHA-3
/// instructions.
pub(crate) fn f1600x4_sha3(_: Sha3, s: &mut StateX4, live: usize) {
    // SAFETY: the `Sha3` token exists only where the SHA-3 instructions were detected.
    by_pairs(s, live, |a| unsafe { permute_pair_sha3(a) });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::portable::keccak::f1600x4 as portable_f1600x4;
    use pqverify_testkit::Rng;

    #[test]
    fn the_neon_permutations_match_the_portable_one() {
        let mut rng = Rng(47);
        let sha3 = Sha3::detect();
        if sha3.is_none() {
            eprintln!("no SHA-3 instructions here: the plain NEON permutation alone is compared");
        }
        for _ in 0..300 {
            let state: StateX4 = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()));
            for live in 1..=4 {
                let mut reference = state;
                portable_f1600x4(&mut reference, live);
                let mut neon = state;
                f1600x4(&mut neon, live);
                for (got, want) in neon.iter().zip(&reference) {
                    assert_eq!(got[..live], want[..live], "NEON, {live} live");
                }
                if let Some(t) = sha3 {
                    let mut with_sha3 = state;
                    f1600x4_sha3(t, &mut with_sha3, live);
                    for (got, want) in with_sha3.iter().zip(&reference) {
                        assert_eq!(got[..live], want[..live], "SHA-3 instructions, {live} live");
                    }
                }
            }
        }
    }
}
