//! Keccak-f[1600] on four states with AVX2: one 256-bit register per lane index,
//! holding that lane of all four states. Must match `portable::keccak::f1600` bit for bit.

use core::arch::x86_64::{
    __m256i, _mm256_andnot_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};

use super::token::Avx2;
use super::transpose;
use crate::kernel_set::{SeparateStates, StateX4};
use crate::portable::keccak::{RHO, ROUND_CONSTANTS};

/// Keccak-f[1600] on one state: the portable source in its and-not form, compiled with
/// BMI1/BMI2.
pub(crate) fn f1600(_: Avx2, a: &mut [u64; 25]) {
    // SAFETY: the `Avx2` token exists only where AVX2, BMI1 and BMI2 were detected.
    unsafe { f1600_bmi(a) }
}

#[target_feature(enable = "bmi1,bmi2")]
pub(super) fn f1600_bmi(a: &mut [u64; 25]) {
    crate::portable::keccak::f1600_andn(a);
}

/// Keccak-f[1600] on the first `live` of four interleaved states: a lone state by the
/// one-state kernel, else all four at once.
pub(crate) fn f1600x4(t: Avx2, s: &mut StateX4, live: usize) {
    if live == 1 {
        permute_first(s, |a| f1600(t, a));
    } else {
        // SAFETY: the `Avx2` token exists only where AVX2 was detected.
        unsafe { permute(s) }
    }
}

/// Runs the one-state `permutation` on state 0 of `s`.
pub(crate) fn permute_first(s: &mut StateX4, permutation: impl FnOnce(&mut [u64; 25])) {
    let mut one: [u64; 25] = core::array::from_fn(|i| s[i][0]);
    permutation(&mut one);
    for (four, lane) in s.iter_mut().zip(one) {
        four[0] = lane;
    }
}

/// Rotates each 64-bit lane left by the constant `L` (0 < L < 64).
macro_rules! rol {
    ($x:expr, $l:expr) => {{
        const L: i32 = $l;
        _mm256_or_si256(_mm256_slli_epi64::<L>($x), _mm256_srli_epi64::<{ 64 - L }>($x))
    }};
}

/// Input lane of ρ∘π for output lane (x, y): ((x + 3y) mod 5, x).
const fn source(x: usize, y: usize) -> usize {
    (x + 3 * y) % 5 + 5 * x
}

/// One output plane y: θ's D, ρ, π, then χ, written to `$e`.
macro_rules! plane {
    ($a:ident, $d:ident, $e:ident, $y:literal) => {{
        let b0 = rol_or_copy!(_mm256_xor_si256($a[source(0, $y)], $d[source(0, $y) % 5]), RHO[source(0, $y)] as i32);
        let b1 = rol_or_copy!(_mm256_xor_si256($a[source(1, $y)], $d[source(1, $y) % 5]), RHO[source(1, $y)] as i32);
        let b2 = rol_or_copy!(_mm256_xor_si256($a[source(2, $y)], $d[source(2, $y) % 5]), RHO[source(2, $y)] as i32);
        let b3 = rol_or_copy!(_mm256_xor_si256($a[source(3, $y)], $d[source(3, $y) % 5]), RHO[source(3, $y)] as i32);
        let b4 = rol_or_copy!(_mm256_xor_si256($a[source(4, $y)], $d[source(4, $y) % 5]), RHO[source(4, $y)] as i32);
        $e[5 * $y] = _mm256_xor_si256(b0, _mm256_andnot_si256(b1, b2));
        $e[5 * $y + 1] = _mm256_xor_si256(b1, _mm256_andnot_si256(b2, b3));
        $e[5 * $y + 2] = _mm256_xor_si256(b2, _mm256_andnot_si256(b3, b4));
        $e[5 * $y + 3] = _mm256_xor_si256(b3, _mm256_andnot_si256(b4, b0));
        $e[5 * $y + 4] = _mm256_xor_si256(b4, _mm256_andnot_si256(b0, b1));
    }};
}

/// `rol!` for offsets that may be 0 (lane (0, 0) is not rotated).
macro_rules! rol_or_copy {
    ($x:expr, $l:expr) => {{
        const OFFSET: i32 = $l;
        if OFFSET == 0 { $x } else { rol!($x, if OFFSET == 0 { 1 } else { OFFSET }) }
    }};
}

/// One round from state `$a` into state `$e`: θ, then ρ, π and χ one output plane at
/// a time, then ι with round constant `$rc`.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        // θ: column parities and D[x] = C[x − 1] ⊕ rot(C[x + 1], 1).
        let c: [__m256i; 5] = core::array::from_fn(|x| {
            _mm256_xor_si256(
                _mm256_xor_si256(_mm256_xor_si256($a[x], $a[x + 5]), _mm256_xor_si256($a[x + 10], $a[x + 15])),
                $a[x + 20],
            )
        });
        let d: [__m256i; 5] = core::array::from_fn(|x| _mm256_xor_si256(c[(x + 4) % 5], rol!(c[(x + 1) % 5], 1)));
        plane!($a, d, $e, 0);
        plane!($a, d, $e, 1);
        plane!($a, d, $e, 2);
        plane!($a, d, $e, 3);
        plane!($a, d, $e, 4);
        $e[0] = _mm256_xor_si256($e[0], _mm256_set1_epi64x($rc as i64));
    }};
}

/// The 24 rounds on the state in registers `$a`.
macro_rules! rounds {
    ($a:ident) => {{
        let mut e = $a;
        // Two rounds per iteration, a → e then e → a: no copy of the state between rounds.
        for rc in ROUND_CONSTANTS.chunks_exact(2) {
            round!($a, e, rc[0]);
            round!(e, $a, rc[1]);
        }
    }};
}

#[target_feature(enable = "avx2")]
fn permute(s: &mut StateX4) {
    super::frame::align_frame();
    let mut a = [_mm256_setzero_si256(); 25];
    for (v, lanes) in a.iter_mut().zip(s.iter()) {
        // SAFETY: `lanes` is [u64; 4], exactly the 32 bytes an unaligned load reads.
        *v = unsafe { _mm256_loadu_si256(lanes.as_ptr().cast()) };
    }
    rounds!(a);
    for (v, lanes) in a.iter().zip(s.iter_mut()) {
        // SAFETY: `lanes` is [u64; 4], exactly the 32 bytes an unaligned store writes.
        unsafe { _mm256_storeu_si256(lanes.as_mut_ptr().cast(), *v) };
    }
}

/// Keccak-f[1600] on each of two to four states held apart (`None`: an idle lane),
/// read and written in place through register transposes.
pub(crate) fn f1600x4_each(_: Avx2, states: &mut SeparateStates<'_>) {
    // SAFETY: the `Avx2` token exists only where the target features of `permute_each`
    // were detected.
    unsafe { permute_each(states) }
}

#[target_feature(enable = "avx2")]
fn permute_each(states: &mut SeparateStates<'_>) {
    super::frame::align_frame();
    let mut a = transpose::gather!(states);
    rounds!(a);
    transpose::scatter(&a, states);
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx2;
    use super::*;
    use crate::portable::keccak::f1600x4 as portable_f1600x4;

    #[test]
    fn the_permutation_of_states_held_apart_is_bit_identical() {
        on_avx2(49, |t, rng| super::super::testing::check_each(rng, |states| f1600x4_each(t, states)));
    }

    #[test]
    fn both_permutations_are_bit_identical() {
        on_avx2(46, |t, rng| {
            for _ in 0..500 {
                let mut one: [u64; 25] = core::array::from_fn(|_| rng.next_u64());
                let mut reference = one;
                f1600(t, &mut one);
                crate::portable::keccak::f1600(&mut reference);
                assert_eq!(one, reference);
                let state: StateX4 = core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()));
                for live in 1..=4 {
                    let (mut four, mut reference) = (state, state);
                    f1600x4(t, &mut four, live);
                    portable_f1600x4(&mut reference, live);
                    for (got, want) in four.iter().zip(&reference) {
                        assert_eq!(got[..live], want[..live], "{live} live");
                    }
                }
            }
        });
    }
}
