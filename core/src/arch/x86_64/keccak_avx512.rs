//! Keccak-f[1600] on four states with AVX-512VL: the AVX2 layout (one 256-bit register
//! per lane index, holding that lane of all four states) with the instructions AVX-512
//! adds to 256-bit registers. A rotation is one `vprolq` (AVX2: shift, shift, or); χ's
//! a ⊕ (¬b ∧ c) and θ's five-way parity are `vpternlogq`s; and the 32 vector registers
//! hold the whole state, so a round moves nothing through memory. Must match
//! `portable::keccak::f1600x4` bit for bit.

use core::arch::x86_64::{
    __m256i, _mm256_loadu_si256, _mm256_rol_epi64, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm256_ternarylogic_epi64, _mm256_xor_si256,
};

use super::token::Avx512;
use super::transpose;
use crate::kernel_set::{SeparateStates, StateX4};
use crate::portable::keccak::{RHO, ROUND_CONSTANTS};

/// `vpternlogq` truth tables over inputs (a, b, c) = (0xf0, 0xcc, 0xaa).
/// a ⊕ b ⊕ c.
const XOR3: i32 = 0x96;
/// a ⊕ (¬b ∧ c): χ.
const CHI: i32 = 0xd2;

/// Keccak-f[1600] on the first `live` of four interleaved states: a lone state by the
/// scalar (BMI) kernel, else all four at once.
pub(crate) fn f1600x4(t: Avx512, s: &mut StateX4, live: usize) {
    if live == 1 {
        super::keccak::permute_first(s, |a| f1600(t, a));
    } else {
        // SAFETY: the `Avx512` token exists only where AVX-512 F and VL were detected.
        unsafe { permute(s) }
    }
}

/// Keccak-f[1600] on one state: the scalar kernel compiled with BMI1/BMI2.
pub(crate) fn f1600(_: Avx512, a: &mut [u64; 25]) {
    // SAFETY: the `Avx512` token exists only where AVX2, BMI1 and BMI2 were detected too.
    unsafe { super::keccak::f1600_bmi(a) }
}

/// Input lane of ρ∘π for output lane (x, y): ((x + 3y) mod 5, x).
const fn source(x: usize, y: usize) -> usize {
    (x + 3 * y) % 5 + 5 * x
}

/// `vprolq` by ρ's offset of lane `$lane` (lane 0's offset is 0: no rotation).
macro_rules! rho {
    ($x:expr, $lane:expr) => {{
        const OFFSET: u32 = RHO[$lane];
        if OFFSET == 0 { $x } else { _mm256_rol_epi64::<{ OFFSET as i32 }>($x) }
    }};
}

/// Lane (x, y) after θ: a ⊕ C[x − 1] ⊕ rot(C[x + 1], 1), one `vpternlogq`.
macro_rules! theta {
    ($a:ident, $c:ident, $r:ident, $lane:expr) => {
        _mm256_ternarylogic_epi64::<XOR3>($a[$lane], $c[($lane + 4) % 5], $r[($lane + 1) % 5])
    };
}

/// One output plane y: θ, ρ, π, then χ, written to `$e`.
macro_rules! plane {
    ($a:ident, $c:ident, $r:ident, $e:ident, $y:literal) => {{
        let b0 = rho!(theta!($a, $c, $r, source(0, $y)), source(0, $y));
        let b1 = rho!(theta!($a, $c, $r, source(1, $y)), source(1, $y));
        let b2 = rho!(theta!($a, $c, $r, source(2, $y)), source(2, $y));
        let b3 = rho!(theta!($a, $c, $r, source(3, $y)), source(3, $y));
        let b4 = rho!(theta!($a, $c, $r, source(4, $y)), source(4, $y));
        $e[5 * $y] = _mm256_ternarylogic_epi64::<CHI>(b0, b1, b2);
        $e[5 * $y + 1] = _mm256_ternarylogic_epi64::<CHI>(b1, b2, b3);
        $e[5 * $y + 2] = _mm256_ternarylogic_epi64::<CHI>(b2, b3, b4);
        $e[5 * $y + 3] = _mm256_ternarylogic_epi64::<CHI>(b3, b4, b0);
        $e[5 * $y + 4] = _mm256_ternarylogic_epi64::<CHI>(b4, b0, b1);
    }};
}

/// One round from state `$a` into state `$e`: θ's column parities, then θ, ρ, π and χ
/// one output plane at a time, then ι with round constant `$rc`.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        // θ's column parities C[x].
        let c: [__m256i; 5] = core::array::from_fn(|x| {
            _mm256_ternarylogic_epi64::<XOR3>(
                _mm256_ternarylogic_epi64::<XOR3>($a[x], $a[x + 5], $a[x + 10]),
                $a[x + 15],
                $a[x + 20],
            )
        });
        // D[x] = C[x − 1] ⊕ rot(C[x + 1], 1) is folded into each lane's θ (`theta!`):
        // one three-way XOR per lane instead of five D's and a two-way XOR per lane.
        let r: [__m256i; 5] = core::array::from_fn(|x| _mm256_rol_epi64::<1>(c[x]));
        plane!($a, c, r, $e, 0);
        plane!($a, c, r, $e, 1);
        plane!($a, c, r, $e, 2);
        plane!($a, c, r, $e, 3);
        plane!($a, c, r, $e, 4);
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

#[target_feature(enable = "avx2,avx512f,avx512vl")]
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
pub(crate) fn f1600x4_each(_: Avx512, states: &mut SeparateStates<'_>) {
    // SAFETY: the `Avx512` token exists only where the target features of `permute_each`
    // were detected.
    unsafe { permute_each(states) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn permute_each(states: &mut SeparateStates<'_>) {
    super::frame::align_frame();
    let mut a = transpose::gather!(states);
    rounds!(a);
    transpose::scatter(&a, states);
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx512;
    use super::*;
    use crate::portable::keccak::f1600x4 as portable_f1600x4;

    #[test]
    fn the_permutation_of_states_held_apart_is_bit_identical() {
        on_avx512(50, |t, rng| super::super::testing::check_each(rng, |states| f1600x4_each(t, states)));
    }

    #[test]
    fn the_permutation_is_bit_identical() {
        on_avx512(47, |t, rng| {
            // Random states; states with an edge word (all zero, all one, single bits)
            // in one lane of each; and the all-zero state.
            let edge = [0u64, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001];
            let mut states: std::vec::Vec<StateX4> =
                (0..600).map(|_| core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()))).collect();
            for (state, word) in states.iter_mut().zip(edge) {
                for (i, row) in state.iter_mut().enumerate() {
                    row[i % 4] = word;
                }
            }
            states.push([[0; 4]; 25]);
            for four in states {
                for live in 1..=4 {
                    let (mut got, mut want) = (four, four);
                    f1600x4(t, &mut got, live);
                    portable_f1600x4(&mut want, live);
                    for (got, want) in got.iter().zip(&want) {
                        assert_eq!(got[..live], want[..live], "{live} live");
                    }
                }
            }
        });
    }
}
