//! The ML-DSA NTT, inverse NTT and pointwise products with AVX2, on eight 32-bit
//! coefficients per register. Montgomery products come from 32×32→64 multiplies of
//! the even and of the odd lanes (`vpmuldq`), with ζ·q⁻¹ precomputed (the pointwise
//! products, whose factors are not known ahead, take t from the product's low half),
//! so each step does exactly the portable arithmetic (`portable::ntt`): same
//! butterflies, same reductions at the same layers, bit-identical results.
//!
//! Layers with len ≥ 8 pair whole registers. The last three (len 4, 2, 1) pair lanes
//! of registers 2p and 2p + 1: the two are rearranged so that each layer's pairs sit at
//! the same lane of two registers (one shuffle pair from one layer's arrangement to the
//! next), butterflied with a per-lane ζ vector, and put back, all three layers in one
//! visit of each register pair. (Len 8 in the same visit makes one chain of dependent
//! operations too long: measured slower.) The reductions the portable code makes in a
//! pass of their own ride on the pass before (forward: after the lane layers; inverse:
//! after len 8), and the inverse's scaling by 256⁻¹ on its last layer
//! (`last_inverse_layer`).

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_and_si256, _mm256_blend_epi32, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_loadu_si256, _mm256_mul_epi32, _mm256_mullo_epi32, _mm256_permute2x128_si256,
    _mm256_permute4x64_epi64, _mm256_set1_epi32, _mm256_setzero_si256, _mm256_shuffle_ps, _mm256_slli_epi64,
    _mm256_srai_epi32, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_sub_epi32, _mm256_sub_epi64,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use super::token::Avx2;
use crate::portable::ntt::{INV_N_MONT2, INV_N_MONT2_ZETA, ZETAS};
use crate::ring::Poly;
use crate::ring::field::{Q, Q_INV};

/// Registers per polynomial.
const VECS: usize = 32;

/// The coefficient (0..8 of register 2p, 8..16 of register 2p + 1) in each lane of the
/// first register of a pair at in-register layer `len`; its partner (len further on)
/// sits at the same lane of the second.
const fn lane_coefficients(len: usize) -> [usize; 8] {
    match len {
        4 => [0, 1, 8, 9, 2, 3, 10, 11],
        2 => [0, 1, 8, 9, 4, 5, 12, 13],
        _ => [0, 8, 2, 10, 4, 12, 6, 14],
    }
}

/// The block (in the portable loop's numbering within its layer) of each lane of
/// the first register of pair `p` at in-register layer `len`.
const fn lane_blocks(len: usize, p: usize) -> [usize; 8] {
    let coefficients = lane_coefficients(len);
    let mut blocks = [0; 8];
    let mut lane = 0;
    while lane < 8 {
        blocks[lane] = (16 * p + coefficients[lane]) / (2 * len);
        lane += 1;
    }
    blocks
}

/// An in-register layer's factors for each register pair: ζ (forward) or −ζ
/// (inverse) for every lane and the same times q⁻¹ mod 2^32, each also with its odd
/// lanes' values moved to the even lanes below them (what `vpmuldq` reads), so that a
/// product takes its factors straight from memory, with no shifts of its own.
struct LaneZetas {
    z: [[i32; 8]; 16],
    zq: [[i32; 8]; 16],
    z_odd: [[i32; 8]; 16],
    zq_odd: [[i32; 8]; 16],
}

/// The portable loops use ζ index 128/len + block forward and 256/len − 1 − block
/// inverse.
const fn lane_zetas(len: usize, inverse: bool) -> LaneZetas {
    let mut t = LaneZetas { z: [[0; 8]; 16], zq: [[0; 8]; 16], z_odd: [[0; 8]; 16], zq_odd: [[0; 8]; 16] };
    let mut p = 0;
    while p < 16 {
        let blocks = lane_blocks(len, p);
        let mut lane = 0;
        while lane < 8 {
            let v = if inverse { -ZETAS[256 / len - 1 - blocks[lane]] } else { ZETAS[128 / len + blocks[lane]] };
            t.z[p][lane] = v;
            t.zq[p][lane] = v.wrapping_mul(Q_INV);
            t.z_odd[p][lane & !1] = v;
            t.zq_odd[p][lane & !1] = v.wrapping_mul(Q_INV);
            lane += 1;
        }
        p += 1;
    }
    t
}

static FWD4: LaneZetas = lane_zetas(4, false);
static FWD2: LaneZetas = lane_zetas(2, false);
static FWD1: LaneZetas = lane_zetas(1, false);
static INV4: LaneZetas = lane_zetas(4, true);
static INV2: LaneZetas = lane_zetas(2, true);
static INV1: LaneZetas = lane_zetas(1, true);

/// NTT. Contract: `portable::ntt::ntt` (input |a_i| < 2^27; output |â_i| < q).
pub(crate) fn ntt(_: Avx2, a: &mut Poly) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { ntt_avx2(a) }
}

/// Inverse NTT. Contract: `portable::ntt::inv_ntt` (input |â_i| < 2^26; output in [0, q)).
pub(crate) fn inv_ntt(_: Avx2, a: &mut Poly) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { inv_ntt_avx2(a) }
}

/// acc ± a ∘ b. Contract: `portable::ntt::pointwise` (|a_i|, |b_i| < q).
pub(crate) fn pointwise(_: Avx2, acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { pointwise_avx2(acc, a, b, sub) }
}

/// out = Σ_j a_j ∘ b_j − c ∘ t. Contract: `portable::ntt::w_approx_row` (at most 8
/// products in a row; a row outside it, or of unequal lengths, goes to the portable code).
pub(crate) fn w_approx_row(_: Avx2, out: &mut Poly, a: &[Poly], b: &[Poly], c: &Poly, t: &Poly) {
    // The row's length a constant in each instance, so that its loop unrolls.
    macro_rules! fixed {
        ($($l:literal)*) => {
            match (a.len(), a.len() == b.len()) {
                $(($l, true) => {
                    if let (Ok(a), Ok(b)) = (<&[Poly; $l]>::try_from(a), <&[Poly; $l]>::try_from(b)) {
                        // SAFETY: the `Avx2` token exists only where AVX2 was detected.
                        return unsafe { w_approx_row_avx2(out, a, b, c, t) };
                    }
                })*
                _ => {}
            }
        };
    }
    fixed!(1 2 3 4 5 6 7 8);
    crate::portable::ntt::w_approx_row(out, a, b, c, t);
}

/// The polynomial as 32 registers' worth of memory, worked on in place (no copies).
fn vectors(a: &mut Poly) -> &mut [__m256i; VECS] {
    // SAFETY: `Poly` is `repr(C, align(32))` around [i32; 256]: 1,024 bytes aligned to
    // 32, exactly the size and alignment of [__m256i; 32], and every bit pattern is a
    // valid value of both; the borrow of `a` covers the returned one.
    unsafe { &mut *core::ptr::from_mut(a).cast::<[__m256i; VECS]>() }
}

#[target_feature(enable = "avx2")]
fn load8(x: &[i32; 8]) -> __m256i {
    // SAFETY: `x` is exactly the 32 bytes an unaligned load reads.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

/// product − t·q per 64-bit lane (t: its low 32 bits): the Montgomery reduction of an
/// even-lane product, the result in the high 32 bits.
#[target_feature(enable = "avx2")]
fn reduce_half(product: __m256i, t: __m256i) -> __m256i {
    _mm256_sub_epi64(product, _mm256_mul_epi32(t, _mm256_set1_epi32(Q)))
}

/// One half of a Montgomery product: the even lanes of `a`·`b`, t = low32(a·bq).
#[target_feature(enable = "avx2")]
fn mont_half(a: __m256i, b: __m256i, bq: __m256i) -> __m256i {
    reduce_half(_mm256_mul_epi32(a, b), _mm256_mul_epi32(a, bq))
}

/// The two halves' results back in 32-bit lanes: the even one's high halves, the odd one's.
#[target_feature(enable = "avx2")]
fn join(even: __m256i, odd: __m256i) -> __m256i {
    _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(even), odd)
}

/// a·ζ·2^−32 mod q per lane, as `field::mont_reduce(a·ζ)`, with register pair `p`'s
/// factors of an in-register layer.
#[target_feature(enable = "avx2")]
fn mont_mul_lanes(a: __m256i, zetas: &LaneZetas, p: usize) -> __m256i {
    let even = mont_half(a, load8(&zetas.z[p]), load8(&zetas.zq[p]));
    join(even, mont_half(_mm256_srli_epi64::<32>(a), load8(&zetas.z_odd[p]), load8(&zetas.zq_odd[p])))
}

/// a·b·2^−32 mod q per lane, for b not known ahead: t = low32(low32(a·b)·q⁻¹) is the
/// t of `mont_half`, low32(a·(b·q⁻¹)), without the 32-bit multiply b·q⁻¹ would take.
#[target_feature(enable = "avx2")]
fn mont_mul_var(a: __m256i, b: __m256i) -> __m256i {
    let half = |a, b| {
        let product = _mm256_mul_epi32(a, b);
        reduce_half(product, _mm256_mul_epi32(product, _mm256_set1_epi32(Q_INV)))
    };
    join(half(a, b), half(_mm256_srli_epi64::<32>(a), _mm256_srli_epi64::<32>(b)))
}

/// a·b·2^−32 mod q per lane (`bq` = b·q⁻¹ mod 2^32) for a broadcast b: its odd lanes
/// are its even lanes, no shifts needed.
#[target_feature(enable = "avx2")]
fn mont_mul_broadcast(a: __m256i, b: __m256i, bq: __m256i) -> __m256i {
    join(mont_half(a, b, bq), mont_half(_mm256_srli_epi64::<32>(a), b, bq))
}

/// Forward butterfly on lanes of x and y: t = ζ·y; (x, y) ← (x + t, x − t).
#[target_feature(enable = "avx2")]
fn fwd(x: &mut __m256i, y: &mut __m256i, t: __m256i) {
    *y = _mm256_sub_epi32(*x, t);
    *x = _mm256_add_epi32(*x, t);
}

/// Inverse butterfly: (x, y) ← (x + y, (−ζ)·(x − y)), with −ζ given.
#[target_feature(enable = "avx2")]
fn inv(x: &mut __m256i, y: &mut __m256i, mul: impl Fn(__m256i) -> __m256i) {
    let d = _mm256_sub_epi32(*x, *y);
    *x = _mm256_add_epi32(*x, *y);
    *y = mul(d);
}

/// `field::reduce32` per lane.
#[target_feature(enable = "avx2")]
fn reduce32(a: __m256i) -> __m256i {
    let t = _mm256_srai_epi32::<23>(_mm256_add_epi32(a, _mm256_set1_epi32(1 << 22)));
    _mm256_sub_epi32(a, _mm256_mullo_epi32(t, _mm256_set1_epi32(Q)))
}

/// `field::freeze` per lane.
#[target_feature(enable = "avx2")]
fn freeze(a: __m256i) -> __m256i {
    _mm256_add_epi32(a, _mm256_and_si256(_mm256_srai_epi32::<31>(a), _mm256_set1_epi32(Q)))
}

/// Registers 2p, 2p + 1 (x, y) as len 1's pairs: [x0 y0 x2 y2 x4 y4 x6 y6] and
/// [x1 y1 x3 y3 x5 y5 x7 y7].
#[target_feature(enable = "avx2")]
fn to_singles(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_blend_epi32::<0b1010_1010>(x, _mm256_slli_epi64::<32>(y)),
        _mm256_blend_epi32::<0b1010_1010>(_mm256_srli_epi64::<32>(x), y),
    )
}

/// The inverse of `to_singles` (it is its own).
#[target_feature(enable = "avx2")]
fn from_singles(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    to_singles(a, b)
}

/// len 1's pairs to len 2's: [x0 x1 y0 y1 x4 x5 y4 y5] and [x2 x3 y2 y3 x6 x7 y6 y7].
#[target_feature(enable = "avx2")]
fn singles_to_pairs(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b))
}

/// The inverse of `singles_to_pairs`: the even and the odd 32-bit elements.
#[target_feature(enable = "avx2")]
fn pairs_to_singles(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    let (a, b) = (_mm256_castsi256_ps(a), _mm256_castsi256_ps(b));
    (
        _mm256_castps_si256(_mm256_shuffle_ps::<0b10_00_10_00>(a, b)),
        _mm256_castps_si256(_mm256_shuffle_ps::<0b11_01_11_01>(a, b)),
    )
}

/// len 2's pairs to len 4's and back (its own inverse): [x0 x1 y0 y1 x2 x3 y2 y3] and
/// [x4 x5 y4 y5 x6 x7 y6 y7].
#[target_feature(enable = "avx2")]
fn swap_halves(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_permute2x128_si256::<0x20>(a, b), _mm256_permute2x128_si256::<0x31>(a, b))
}

/// len 4's pairs to two registers, x and y each with its middle 64-bit elements swapped:
/// [x0 x1 x4 x5 x2 x3 x6 x7] and the same of y.
#[target_feature(enable = "avx2")]
fn quads_to_registers(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

/// The inverse of `quads_to_registers`.
#[target_feature(enable = "avx2")]
fn registers_to_quads(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    quads_to_registers(x, y)
}

/// Swaps the middle two 64-bit elements: [x0 x1 x4 x5 x2 x3 x6 x7] to x in order and
/// back.
#[target_feature(enable = "avx2")]
fn middle_swapped(x: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0b11_01_10_00>(x)
}

/// The three in-register layers (len 4, 2, 1 forward; 1, 2, 4 inverse) over all 16
/// register pairs, each pair through all three in one visit; `finish` is applied to
/// each register before it is stored.
#[target_feature(enable = "avx2")]
fn lane_layers<const INVERSE: bool>(w: &mut [__m256i; VECS], finish: impl Fn(__m256i) -> __m256i) {
    for p in 0..VECS / 2 {
        let (mut x, mut y) = (w[2 * p], w[2 * p + 1]);
        let by = |zetas| move |d| mont_mul_lanes(d, zetas, p);
        if INVERSE {
            let (mut a, mut b) = to_singles(x, y);
            inv(&mut a, &mut b, by(&INV1));
            (a, b) = singles_to_pairs(a, b);
            inv(&mut a, &mut b, by(&INV2));
            (a, b) = swap_halves(a, b);
            inv(&mut a, &mut b, by(&INV4));
            (a, b) = quads_to_registers(a, b);
            (x, y) = (middle_swapped(a), middle_swapped(b));
        } else {
            let (mut a, mut b) = registers_to_quads(middle_swapped(x), middle_swapped(y));
            let t = by(&FWD4)(b);
            fwd(&mut a, &mut b, t);
            (a, b) = swap_halves(a, b);
            let t = by(&FWD2)(b);
            fwd(&mut a, &mut b, t);
            (a, b) = pairs_to_singles(a, b);
            let t = by(&FWD1)(b);
            fwd(&mut a, &mut b, t);
            (x, y) = from_singles(a, b);
        }
        (w[2 * p], w[2 * p + 1]) = (finish(x), finish(y));
    }
}

/// One layer whose pairs are whole registers (len ≥ 8): ζ index `first + block`
/// forward, `first − block` inverse; `finish` is applied to each register before it is
/// stored.
#[target_feature(enable = "avx2")]
fn vector_layer<const LEN: usize, const INVERSE: bool>(w: &mut [__m256i; VECS], finish: impl Fn(__m256i) -> __m256i) {
    let step = LEN / 8;
    for block in 0..VECS / (2 * step) {
        let zeta = if INVERSE { -ZETAS[256 / LEN - 1 - block] } else { ZETAS[128 / LEN + block] };
        let (z, zq) = (_mm256_set1_epi32(zeta), _mm256_set1_epi32(zeta.wrapping_mul(Q_INV)));
        let start = 2 * step * block;
        for v in start..start + step {
            let (mut x, mut y) = (w[v], w[v + step]);
            if INVERSE {
                inv(&mut x, &mut y, |d| mont_mul_broadcast(d, z, zq));
            } else {
                let t = mont_mul_broadcast(y, z, zq);
                fwd(&mut x, &mut y, t);
            }
            (w[v], w[v + step]) = (finish(x), finish(y));
        }
    }
}

#[target_feature(enable = "avx2")]
fn ntt_avx2(a: &mut Poly) {
    let w = vectors(a);
    vector_layer::<128, false>(w, |x| x);
    vector_layer::<64, false>(w, |x| x);
    vector_layer::<32, false>(w, |x| x);
    vector_layer::<16, false>(w, |x| x);
    vector_layer::<8, false>(w, |x| x);
    lane_layers::<false>(w, |x| reduce32(x));
}

/// The inverse's last layer (len 128) and its scaling by 256⁻¹ in one, as the portable
/// code: x + y times `INV_N_MONT2`, x − y times `INV_N_MONT2_ZETA`; then `freeze`.
#[target_feature(enable = "avx2")]
fn last_inverse_layer(w: &mut [__m256i; VECS]) {
    let factor = |c: i32| (_mm256_set1_epi32(c), _mm256_set1_epi32(c.wrapping_mul(Q_INV)));
    let ((f, fq), (g, gq)) = (factor(INV_N_MONT2), factor(INV_N_MONT2_ZETA));
    for v in 0..VECS / 2 {
        let (x, y) = (w[v], w[v + VECS / 2]);
        w[v] = freeze(mont_mul_broadcast(_mm256_add_epi32(x, y), f, fq));
        w[v + VECS / 2] = freeze(mont_mul_broadcast(_mm256_sub_epi32(x, y), g, gq));
    }
}

#[target_feature(enable = "avx2")]
fn inv_ntt_avx2(a: &mut Poly) {
    let w = vectors(a);
    lane_layers::<true>(w, |x| x);
    // As in the portable code: one reduction after the len-8 layer (here as each
    // register leaves it).
    vector_layer::<8, true>(w, |x| reduce32(x));
    vector_layer::<16, true>(w, |x| x);
    vector_layer::<32, true>(w, |x| x);
    vector_layer::<64, true>(w, |x| x);
    last_inverse_layer(w);
}

#[target_feature(enable = "avx2")]
fn pointwise_avx2(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    for v in 0..VECS {
        let at = |p: &Poly| {
            // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `p`.
            unsafe { _mm256_loadu_si256(p.0.as_ptr().add(8 * v).cast()) }
        };
        let (x, y, r) = (at(a), at(b), at(acc));
        let m = mont_mul_var(x, y);
        let r = if sub { _mm256_sub_epi32(r, m) } else { _mm256_add_epi32(r, m) };
        // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `acc`.
        unsafe { _mm256_storeu_si256(acc.0.as_mut_ptr().add(8 * v).cast(), r) };
    }
}

#[target_feature(enable = "avx2")]
fn w_approx_row_avx2<const L: usize>(out: &mut Poly, a: &[Poly; L], b: &[Poly; L], c: &Poly, t: &Poly) {
    for v in 0..VECS {
        let at = |p: &Poly| {
            // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `p`.
            unsafe { _mm256_loadu_si256(p.0.as_ptr().add(8 * v).cast()) }
        };
        // The exact 64-bit products of the even and of the odd lanes, summed; one
        // Montgomery reduction of each sum (the contract's).
        let (mut even, mut odd) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        for (a, b) in a.iter().zip(b) {
            let (x, y) = (at(a), at(b));
            even = _mm256_add_epi64(even, _mm256_mul_epi32(x, y));
            odd = _mm256_add_epi64(odd, _mm256_mul_epi32(_mm256_srli_epi64::<32>(x), _mm256_srli_epi64::<32>(y)));
        }
        let reduce = |sum| reduce_half(sum, _mm256_mul_epi32(sum, _mm256_set1_epi32(Q_INV)));
        let r = _mm256_sub_epi32(join(reduce(even), reduce(odd)), mont_mul_var(at(c), at(t)));
        // SAFETY: coefficients 8v .. 8v + 8 lie within the 256 of `out`.
        unsafe { _mm256_storeu_si256(out.0.as_mut_ptr().add(8 * v).cast(), r) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{on_avx2, poly};
    use super::*;
    use crate::portable;

    #[test]
    fn ntt_is_bit_identical_at_its_bounds() {
        on_avx2(41, |t, rng| {
            for _ in 0..2000 {
                let a = poly(rng, 1 << 27);
                let (mut x, mut y) = (a.clone(), a);
                ntt(t, &mut x);
                portable::ntt::ntt(&mut y);
                assert_eq!(x, y);
            }
        });
    }

    #[test]
    fn inverse_ntt_is_bit_identical_at_its_bounds() {
        on_avx2(42, |t, rng| {
            for _ in 0..2000 {
                let a = poly(rng, 1 << 26);
                let (mut x, mut y) = (a.clone(), a);
                inv_ntt(t, &mut x);
                portable::ntt::inv_ntt(&mut y);
                assert_eq!(x, y);
            }
        });
    }

    #[test]
    fn a_row_less_c_t_is_bit_identical_at_its_bounds() {
        on_avx2(47, |t, rng| {
            for l in 1..=8 {
                for i in 0..300 {
                    let mut a: std::vec::Vec<Poly> = (0..l).map(|_| poly(rng, Q)).collect();
                    let mut b: std::vec::Vec<Poly> = (0..l).map(|_| poly(rng, Q)).collect();
                    let (mut c, mut t1) = (poly(rng, Q), poly(rng, Q));
                    if i < 2 {
                        // The largest magnitudes: every factor ±(q − 1), the sums of one sign.
                        let sign = if i == 0 { 1 } else { -1 };
                        for p in a.iter_mut().chain([&mut c]) {
                            p.0 = [Q - 1; 256];
                        }
                        for p in b.iter_mut().chain([&mut t1]) {
                            p.0 = [sign * (Q - 1); 256];
                        }
                    }
                    let (mut x, mut y) = (poly(rng, Q), poly(rng, Q));
                    w_approx_row(t, &mut x, &a, &b, &c, &t1);
                    portable::ntt::w_approx_row(&mut y, &a, &b, &c, &t1);
                    assert_eq!(x, y);
                }
            }
        });
    }

    #[test]
    fn pointwise_is_bit_identical_at_its_bounds() {
        on_avx2(43, |t, rng| {
            for i in 0..2000 {
                let (a, b, acc) = (poly(rng, Q), poly(rng, Q), poly(rng, Q * 8));
                let (mut x, mut y) = (acc.clone(), acc);
                pointwise(t, &mut x, &a, &b, i % 2 == 0);
                portable::ntt::pointwise(&mut y, &a, &b, i % 2 == 0);
                assert_eq!(x, y);
            }
        });
    }
}
