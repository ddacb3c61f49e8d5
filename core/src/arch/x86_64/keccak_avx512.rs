//! Keccak-f[1600] on four states with AVX-512VL: the AVX2 layout (one 256-bit register
//! per lane index, holding that lane of all four states) with the instructions AVX-512
//! adds to 256-bit registers. A rotation is one `vprolq` (AVX2: shift, shift, or); χ's
//! a ⊕ (¬b ∧ c) and θ's five-way parity are `vpternlogq`s; and the 32 vector registers
//! hold the whole state, so a round moves nothing through memory. Must match
//! `portable::keccak::f1600x4` bit for bit.
//!
//! And on eight states, the same rounds on 512-bit registers (a state per 64-bit lane):
//! one call on eight costs less than two calls on four.
//!
//! θ comes in two forms, the const parameter `D_APART` of every kernel here. Folded
//! (`false`): D[x] = C[x − 1] ⊕ rot(C[x + 1], 1) is never formed, each lane takes one
//! three-way XOR of C[x − 1] and rot(C[x + 1], 1), the fewest vector operations, ten
//! registers for θ. Apart (`true`): the five D first, then one two-way XOR per lane:
//! five operations more a round, five registers fewer (LLVM then spills half as
//! much), and more of the work in plain XORs, which AMD Zen 4 issues on four pipes
//! where `vpternlogq` and `vprolq` take two: there apart is the faster form, on four
//! states and on eight. Intel's 512-bit operations share two ports whatever they are,
//! so there the count decides and the folded form stays: `super::set_avx512` picks by
//! vendor.

use core::arch::x86_64::{
    __m256i, __m512i, _mm256_loadu_si256, _mm256_storeu_si256, _mm512_castsi256_si512, _mm512_castsi512_si256,
    _mm512_extracti64x4_epi64, _mm512_inserti64x4, _mm512_loadu_si512, _mm512_storeu_si512,
};

use super::token::Avx512;
use super::transpose;
use crate::kernel_set::{SeparateStates, SeparateStates8, StateX4, StateX8};
use crate::portable::keccak::{RHO, ROUND_CONSTANTS};

/// `vpternlogq` truth tables over inputs (a, b, c) = (0xf0, 0xcc, 0xaa).
/// a ⊕ b ⊕ c.
const XOR3: i32 = 0x96;
/// a ⊕ (¬b ∧ c): χ.
const CHI: i32 = 0xd2;

/// Keccak-f[1600] on the first `live` of four interleaved states: folded, a lone state
/// by the scalar kernel; otherwise (and apart, always: see [`f1600`]) all four at once.
pub(crate) fn f1600x4<const D_APART: bool>(t: Avx512, s: &mut StateX4, live: usize) {
    if live == 1 && !D_APART {
        super::keccak::permute_first(s, |a| f1600::<false>(t, a));
    } else {
        // SAFETY: the `Avx512` token exists only where AVX-512 F and VL were detected.
        unsafe { permute::<D_APART>(s) }
    }
}

/// Keccak-f[1600] on one state: folded, the scalar kernel compiled with BMI1/BMI2;
/// apart, the four-state kernel with one state present, which on Zen 4 is faster than
/// the scalar kernel.
pub(crate) fn f1600<const D_APART: bool>(t: Avx512, a: &mut [u64; 25]) {
    if D_APART {
        f1600x4_each::<true>(t, &mut [Some(a), None, None, None]);
    } else {
        // SAFETY: the `Avx512` token exists only where AVX2, BMI1 and BMI2 were detected too.
        unsafe { super::keccak::f1600_bmi(a) }
    }
}

/// Input lane of ρ∘π for output lane (x, y): ((x + 3y) mod 5, x).
const fn source(x: usize, y: usize) -> usize {
    (x + 3 * y) % 5 + 5 * x
}

/// The vector operations of the rounds, for 256-bit (`ymm`) and 512-bit (`zmm`)
/// registers: the round macros below call `rol`, `tern`, `xor` and `splat` of whichever
/// of the two the calling function imports. Used only inside the `#[target_feature]`
/// functions of this file (with AVX-512 F and VL), into which they are inlined: that is
/// what makes the intrinsics' calls sound.
macro_rules! vector_ops {
    ($name:ident, $v:ty, $rol:ident, $tern:ident, $xor:ident, $splat:ident) => {
        mod $name {
            use core::arch::x86_64::{$rol, $splat, $tern, $xor};

            /// Rotation left by `N` (`vprolq`).
            #[inline(always)]
            pub(super) fn rol<const N: i32>(x: $v) -> $v {
                // SAFETY: see the macro's doc: called only with AVX-512 F and VL enabled.
                unsafe { $rol::<N>(x) }
            }
            /// The three-input function of truth table `T` (`vpternlogq`).
            #[inline(always)]
            pub(super) fn tern<const T: i32>(a: $v, b: $v, c: $v) -> $v {
                // SAFETY: as for `rol`.
                unsafe { $tern::<T>(a, b, c) }
            }
            #[inline(always)]
            pub(super) fn xor(a: $v, b: $v) -> $v {
                // SAFETY: as for `rol`.
                unsafe { $xor(a, b) }
            }
            /// `word` in every 64-bit lane.
            #[inline(always)]
            pub(super) fn splat(word: u64) -> $v {
                // SAFETY: as for `rol`.
                unsafe { $splat(word as i64) }
            }
        }
    };
}
vector_ops!(
    ymm,
    core::arch::x86_64::__m256i,
    _mm256_rol_epi64,
    _mm256_ternarylogic_epi64,
    _mm256_xor_si256,
    _mm256_set1_epi64x
);
vector_ops!(
    zmm,
    core::arch::x86_64::__m512i,
    _mm512_rol_epi64,
    _mm512_ternarylogic_epi64,
    _mm512_xor_si512,
    _mm512_set1_epi64
);

/// `vprolq` by ρ's offset of lane `$lane` (lane 0's offset is 0: no rotation).
macro_rules! rho {
    ($x:expr, $lane:expr) => {{
        const OFFSET: u32 = RHO[$lane];
        if OFFSET == 0 { $x } else { rol::<{ OFFSET as i32 }>($x) }
    }};
}

/// Lane (x, y) after θ: a ⊕ C[x − 1] ⊕ rot(C[x + 1], 1), one `vpternlogq` (folded:
/// `$r` holds rot(C[x], 1)), or a ⊕ D[x], one XOR (apart: `$r` holds D[x]).
macro_rules! theta {
    ($a:ident, $c:ident, $r:ident, $lane:expr) => {
        if D_APART {
            xor($a[$lane], $r[$lane % 5])
        } else {
            tern::<XOR3>($a[$lane], $c[($lane + 4) % 5], $r[($lane + 1) % 5])
        }
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
        $e[5 * $y] = tern::<CHI>(b0, b1, b2);
        $e[5 * $y + 1] = tern::<CHI>(b1, b2, b3);
        $e[5 * $y + 2] = tern::<CHI>(b2, b3, b4);
        $e[5 * $y + 3] = tern::<CHI>(b3, b4, b0);
        $e[5 * $y + 4] = tern::<CHI>(b4, b0, b1);
    }};
}

/// One round from state `$a` into state `$e`: θ's column parities, then θ, ρ, π and χ
/// one output plane at a time, then ι with round constant `$rc`.
macro_rules! round {
    ($a:ident, $e:ident, $rc:expr) => {{
        // θ's column parities C[x].
        let c: [_; 5] =
            core::array::from_fn(|x| tern::<XOR3>(tern::<XOR3>($a[x], $a[x + 5], $a[x + 10]), $a[x + 15], $a[x + 20]));
        // Folded, D[x] = C[x − 1] ⊕ rot(C[x + 1], 1) goes into each lane's θ (`theta!`):
        // one three-way XOR per lane instead of five D's and a two-way XOR per lane.
        // Apart, the five D's.
        let r: [_; 5] =
            core::array::from_fn(
                |x| {
                    if D_APART { xor(c[(x + 4) % 5], rol::<1>(c[(x + 1) % 5])) } else { rol::<1>(c[x]) }
                },
            );
        plane!($a, c, r, $e, 0);
        plane!($a, c, r, $e, 1);
        plane!($a, c, r, $e, 2);
        plane!($a, c, r, $e, 3);
        plane!($a, c, r, $e, 4);
        $e[0] = xor($e[0], splat($rc));
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
fn permute<const D_APART: bool>(s: &mut StateX4) {
    use ymm::*;
    super::frame::align_frame();
    let mut a = [splat(0); 25];
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
pub(crate) fn f1600x4_each<const D_APART: bool>(_: Avx512, states: &mut SeparateStates<'_>) {
    // SAFETY: the `Avx512` token exists only where the target features of `permute_each`
    // were detected.
    unsafe { permute_each::<D_APART>(states) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn permute_each<const D_APART: bool>(states: &mut SeparateStates<'_>) {
    use ymm::*;
    super::frame::align_frame();
    let mut a = transpose::gather!(states);
    rounds!(a);
    transpose::scatter(&a, states);
}

/// Keccak-f[1600] on eight interleaved states.
pub(crate) fn f1600x8<const D_APART: bool>(_: Avx512, s: &mut StateX8) {
    // SAFETY: the `Avx512` token exists only where AVX-512 F and VL were detected.
    unsafe { permute8::<D_APART>(s) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn permute8<const D_APART: bool>(s: &mut StateX8) {
    use zmm::*;
    super::frame::align_frame();
    let mut a = [splat(0); 25];
    for (v, lanes) in a.iter_mut().zip(s.iter()) {
        // SAFETY: `lanes` is [u64; 8], exactly the 64 bytes an unaligned load reads.
        *v = unsafe { _mm512_loadu_si512(lanes.as_ptr().cast()) };
    }
    rounds!(a);
    for (v, lanes) in a.iter().zip(s.iter_mut()) {
        // SAFETY: `lanes` is [u64; 8], exactly the 64 bytes an unaligned store writes.
        unsafe { _mm512_storeu_si512(lanes.as_mut_ptr().cast(), *v) };
    }
}

/// Keccak-f[1600] on each of five to eight states held apart (`None`: an idle lane),
/// read and written in place: each half through the four-state transposes, the halves
/// joined into 512-bit registers.
pub(crate) fn f1600x8_each<const D_APART: bool>(_: Avx512, states: &mut SeparateStates8<'_>) {
    // SAFETY: the `Avx512` token exists only where the target features of
    // `permute8_each` were detected.
    unsafe { permute8_each::<D_APART>(states) }
}

#[target_feature(enable = "avx2,avx512f,avx512vl")]
fn permute8_each<const D_APART: bool>(states: &mut SeparateStates8<'_>) {
    use zmm::*;
    super::frame::align_frame();
    let [s0, s1, s2, s3, s4, s5, s6, s7] = states;
    let mut low: SeparateStates<'_> = [s0.as_deref_mut(), s1.as_deref_mut(), s2.as_deref_mut(), s3.as_deref_mut()];
    let mut high: SeparateStates<'_> = [s4.as_deref_mut(), s5.as_deref_mut(), s6.as_deref_mut(), s7.as_deref_mut()];
    let (lo, hi): ([__m256i; 25], [__m256i; 25]) = (transpose::gather!(&low), transpose::gather!(&high));
    let mut a: [__m512i; 25] = core::array::from_fn(|i| _mm512_inserti64x4::<1>(_mm512_castsi256_si512(lo[i]), hi[i]));
    rounds!(a);
    let lo: [__m256i; 25] = core::array::from_fn(|i| _mm512_castsi512_si256(a[i]));
    let hi: [__m256i; 25] = core::array::from_fn(|i| _mm512_extracti64x4_epi64::<1>(a[i]));
    transpose::scatter(&lo, &mut low);
    transpose::scatter(&hi, &mut high);
}

#[cfg(test)]
mod tests {
    use super::super::testing::on_avx512;
    use super::*;
    use crate::portable::keccak::f1600x4 as portable_f1600x4;

    #[test]
    fn the_permutation_of_states_held_apart_is_bit_identical() {
        on_avx512(50, |t, rng| {
            super::super::testing::check_each(rng, |states| f1600x4_each::<false>(t, states));
            super::super::testing::check_each(rng, |states| f1600x4_each::<true>(t, states));
        });
    }

    #[test]
    fn the_permutation_of_eight_states_held_apart_is_bit_identical() {
        on_avx512(51, |t, rng| {
            super::super::testing::check_each(rng, |states| f1600x8_each::<false>(t, states));
            super::super::testing::check_each(rng, |states| f1600x8_each::<true>(t, states));
        });
    }

    #[test]
    fn the_eight_state_permutation_is_bit_identical() {
        on_avx512(52, |t, rng| {
            // Random states; states with an edge word (all zero, all one, single bits)
            // in one lane; and the all-zero state.
            let edge = [0u64, u64::MAX, 1, 1 << 63, 0x8000_0000_0000_0001];
            let mut states: std::vec::Vec<StateX8> =
                (0..600).map(|_| core::array::from_fn(|_| core::array::from_fn(|_| rng.next_u64()))).collect();
            for (k, (state, word)) in states.iter_mut().zip(edge.iter().cycle().take(40)).enumerate() {
                for (i, row) in state.iter_mut().enumerate() {
                    row[(i + k) % 8] = *word;
                }
            }
            states.push([[0; 8]; 25]);
            for eight in states {
                let (mut folded, mut apart) = (eight, eight);
                f1600x8::<false>(t, &mut folded);
                f1600x8::<true>(t, &mut apart);
                for j in 0..8 {
                    let mut want: [u64; 25] = core::array::from_fn(|i| eight[i][j]);
                    crate::portable::keccak::f1600(&mut want);
                    for got in [&folded, &apart] {
                        let lane: [u64; 25] = core::array::from_fn(|i| got[i][j]);
                        assert_eq!(lane, want, "state {j}");
                    }
                }
            }
        });
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
                    let (mut folded, mut apart, mut want) = (four, four, four);
                    f1600x4::<false>(t, &mut folded, live);
                    f1600x4::<true>(t, &mut apart, live);
                    portable_f1600x4(&mut want, live);
                    for got in [&folded, &apart] {
                        for (got, want) in got.iter().zip(&want) {
                            assert_eq!(got[..live], want[..live], "{live} live");
                        }
                    }
                }
                let first: [u64; 25] = core::array::from_fn(|i| four[i][0]);
                let (mut folded, mut apart, mut want) = (first, first, first);
                f1600::<false>(t, &mut folded);
                f1600::<true>(t, &mut apart);
                crate::portable::keccak::f1600(&mut want);
                assert_eq!((folded, apart), (want, want), "one state");
            }
        });
    }
}
