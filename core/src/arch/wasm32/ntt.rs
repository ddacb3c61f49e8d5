//! The ML-DSA NTT, inverse NTT and pointwise products with wasm simd128, on four
//! 32-bit coefficients per vector. A Montgomery product takes the exact 64-bit
//! products of the low and of the high lane pairs (`i64x2.extmul_*_i32x4`), with
//! t = a·(b·q⁻¹) mod 2^32 from one `i32x4.mul`, and keeps the high words: the portable
//! arithmetic (`portable::ntt`) lane by lane, the same butterflies and reductions
//! at the same layers, bit-identical results.
//!
//! Layers with len ≥ 4 pair whole vectors, and run two at a time on four vectors held
//! in registers (one pass over memory per two layers). The last two (len 2, 1) pair
//! lanes of one vector: two vectors are shuffled so that the pairs sit across two
//! vectors (64-bit halves, then single lanes), butterflied with a per-lane ζ vector,
//! and put back, both layers in one pass.
//!
//! Why the products must stay `extmul`: `i64x2.mul` has no x64 instruction and V8
//! expands it into about ten, which made the auto-vectorised NTT slower than the
//! scalar one. LLVM emits `extmul` only when it sees both sign extensions beside the
//! multiply; for a loop-invariant operand (q, a broadcast ζ) it hoists or folds the
//! extension and falls back to `i64x2.mul` (61 of them in this NTT). Such operands are
//! therefore read with [`fresh`] inside the loop: one `v128.load` each, all products
//! `extmul`.

use core::arch::wasm32::{
    i32x4, i32x4_add, i32x4_mul, i32x4_neg, i32x4_shr, i32x4_shuffle, i32x4_splat, i32x4_sub, i64x2_add,
    i64x2_extmul_high_i32x4, i64x2_extmul_low_i32x4, i64x2_shuffle, i64x2_splat, i64x2_sub, v128, v128_and, v128_load,
    v128_store,
};

use crate::portable::ntt::{INV_N_MONT2, INV_N_MONT2_ZETA, ZETAS};
use crate::ring::Poly;
use crate::ring::field::{Q, Q_INV};

/// Vectors per polynomial.
const VECS: usize = 64;

/// NTT. Contract: `portable::ntt::ntt` (input |a_i| < 2^27; output |â_i| < q).
pub(crate) fn ntt(a: &mut Poly) {
    let w = vectors(a);
    vector_layers::<128, false>(w);
    vector_layers::<32, false>(w);
    vector_layers::<8, false>(w);
    lane_layers::<false>(w);
}

/// Inverse NTT. Contract: `portable::ntt::inv_ntt` (input |â_i| < 2^26; output in [0, q)).
pub(crate) fn inv_ntt(a: &mut Poly) {
    let w = vectors(a);
    lane_layers::<true>(w);
    vector_layers::<8, true>(w);
    vector_layers::<32, true>(w);
    vector_layers::<128, true>(w);
}

/// acc ± a ∘ b. Contract: `portable::ntt::pointwise` (|a_i|, |b_i| < q).
pub(crate) fn pointwise(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    let q_inv = i32x4_splat(Q_INV);
    for v in 0..VECS {
        let (x, y, r) = (load(a, v), load(b, v), load(acc, v));
        let m = mont_mul(x, y, i32x4_mul(y, q_inv));
        store(acc, v, if sub { i32x4_sub(r, m) } else { i32x4_add(r, m) });
    }
}

/// out = Σ_j a_j ∘ b_j − c ∘ t. Contract: `portable::ntt::w_approx_row`. One pass: the
/// row's exact products summed in 64-bit lanes and reduced once, then c ∘ t (reduced on
/// its own) subtracted.
pub(crate) fn w_approx_row(out: &mut Poly, a: &[Poly], b: &[Poly], c: &Poly, t: &Poly) {
    let q_inv = i32x4_splat(Q_INV);
    for v in 0..VECS {
        let (mut low, mut high) = (i64x2_splat(0), i64x2_splat(0));
        for (a, b) in a.iter().zip(b) {
            let (x, y) = (load(a, v), load(b, v));
            low = i64x2_add(low, i64x2_extmul_low_i32x4(x, y));
            high = i64x2_add(high, i64x2_extmul_high_i32x4(x, y));
        }
        // t = low word of each sum · q⁻¹; (sum − t·q) / 2^32 is each sum's high word.
        let q = fresh(&Q_LANES);
        let m = i32x4_mul(i32x4_shuffle::<0, 2, 4, 6>(low, high), q_inv);
        let low = i64x2_sub(low, i64x2_extmul_low_i32x4(m, q));
        let high = i64x2_sub(high, i64x2_extmul_high_i32x4(m, q));
        let (x, y) = (load(c, v), load(t, v));
        let ct = mont_mul(x, y, i32x4_mul(y, q_inv));
        store(out, v, i32x4_sub(i32x4_shuffle::<1, 3, 5, 7>(low, high), ct));
    }
}

/// The polynomial as 64 vectors' worth of memory, worked on in place (no copies).
fn vectors(a: &mut Poly) -> &mut [v128; VECS] {
    // SAFETY: `Poly` is `repr(C, align(32))` around [i32; 256]: 1,024 bytes aligned to
    // 32, the size of [v128; 64] and more than its alignment (16), and every bit
    // pattern is a valid value of both; the borrow of `a` covers the returned one.
    unsafe { &mut *core::ptr::from_mut(a).cast::<[v128; VECS]>() }
}

/// Coefficients 4v .. 4v + 4 of `p`.
#[inline(always)]
fn load(p: &Poly, v: usize) -> v128 {
    let lanes = &p.0.as_chunks::<4>().0[v];
    // SAFETY: `lanes` is exactly the 16 bytes the load reads (wasm loads need no alignment).
    unsafe { v128_load(lanes.as_ptr().cast()) }
}

/// Stores `x` as coefficients 4v .. 4v + 4 of `p`.
#[inline(always)]
fn store(p: &mut Poly, v: usize, x: v128) {
    let lanes = &mut p.0.as_chunks_mut::<4>().0[v];
    // SAFETY: `lanes` is exactly the 16 bytes the store writes.
    unsafe { v128_store(lanes.as_mut_ptr().cast(), x) }
}

/// a·b·2^−32 mod q per lane, as `field::mont_reduce(a·b)`; `bq` = b·q⁻¹ mod 2^32.
/// The low words of a·b − t·q are zero, so its high words are the arithmetic shift.
#[inline(always)]
fn mont_mul(a: v128, b: v128, bq: v128) -> v128 {
    let q = fresh(&Q_LANES);
    let t = i32x4_mul(a, bq);
    let low = i64x2_sub(i64x2_extmul_low_i32x4(a, b), i64x2_extmul_low_i32x4(t, q));
    let high = i64x2_sub(i64x2_extmul_high_i32x4(a, b), i64x2_extmul_high_i32x4(t, q));
    i32x4_shuffle::<1, 3, 5, 7>(low, high)
}

/// q in every lane.
static Q_LANES: v128 = i32x4(Q, Q, Q, Q);

/// `*v`, read anew where it is used, so that LLVM keeps the operand's sign extension
/// next to its product (see the module comment).
#[inline(always)]
fn fresh(v: &v128) -> v128 {
    // SAFETY: `v` is a valid, aligned reference to an initialised v128.
    unsafe { core::ptr::read_volatile(v) }
}

/// Forward butterfly: t = ζ·y; (x, y) ← (x + t, x − t).
#[inline(always)]
fn fwd(x: v128, y: v128, z: v128, zq: v128) -> (v128, v128) {
    let t = mont_mul(y, z, zq);
    (i32x4_add(x, t), i32x4_sub(x, t))
}

/// Inverse butterfly with −ζ given: (x, y) ← (x + y, (−ζ)·(x − y)).
#[inline(always)]
fn inv(x: v128, y: v128, z: v128, zq: v128) -> (v128, v128) {
    (i32x4_add(x, y), mont_mul(i32x4_sub(x, y), z, zq))
}

/// `field::reduce32` per lane.
#[inline(always)]
fn reduce32(a: v128) -> v128 {
    let t = i32x4_shr(i32x4_add(a, i32x4_splat(1 << 22)), 23);
    i32x4_sub(a, i32x4_mul(t, i32x4_splat(Q)))
}

/// `field::freeze` per lane.
#[inline(always)]
fn freeze(a: v128) -> v128 {
    i32x4_add(a, v128_and(i32x4_shr(a, 31), i32x4_splat(Q)))
}

/// The pairs of one in-vector layer: vectors x, y rearranged into A, B whose lanes
/// are the butterfly pairs, and back.
#[derive(Clone, Copy)]
enum Split {
    /// len 2: the 64-bit halves. A = [x0 x1 y0 y1], B = [x2 x3 y2 y3].
    Pairs,
    /// len 1: the single lanes. A = [x0 x2 y0 y2], B = [x1 x3 y1 y3].
    Singles,
}

impl Split {
    #[inline(always)]
    fn apply(self, x: v128, y: v128) -> (v128, v128) {
        match self {
            Split::Pairs => (i64x2_shuffle::<0, 2>(x, y), i64x2_shuffle::<1, 3>(x, y)),
            Split::Singles => (i32x4_shuffle::<0, 2, 4, 6>(x, y), i32x4_shuffle::<1, 3, 5, 7>(x, y)),
        }
    }

    /// ζ (forward) or −ζ (inverse) for each lane of A of pair `p`, read from [`ZETAS`].
    /// The portable loop's blocks of A's lanes are [2p, 2p, 2p+1, 2p+1] (len 2) and
    /// [4p, 4p+1, 4p+2, 4p+3] (len 1); ζ's index is 128/len + block forward, and
    /// 256/len − 1 − block inverse, so each vector comes from four neighbours.
    #[inline(always)]
    fn zetas<const INVERSE: bool>(self, p: usize) -> v128 {
        let four = |at: usize| {
            let z = &ZETAS[at..at + 4];
            // SAFETY: `z` is four i32s, the 16 bytes the load reads.
            unsafe { v128_load(z.as_ptr().cast()) }
        };
        match (self, INVERSE) {
            (Split::Pairs, false) => i32x4_shuffle::<0, 0, 1, 1>(four(64 + 2 * p), four(64 + 2 * p)),
            (Split::Singles, false) => four(128 + 4 * p),
            // Indices 127 − 2p, 127 − 2p, 126 − 2p, 126 − 2p.
            (Split::Pairs, true) => i32x4_neg(i32x4_shuffle::<3, 3, 2, 2>(four(124 - 2 * p), four(124 - 2 * p))),
            // Indices 255 − 4p − lane.
            (Split::Singles, true) => i32x4_neg(i32x4_shuffle::<3, 2, 1, 0>(four(252 - 4 * p), four(252 - 4 * p))),
        }
    }

    #[inline(always)]
    fn undo(self, a: v128, b: v128) -> (v128, v128) {
        match self {
            Split::Pairs => self.apply(a, b),
            Split::Singles => (i32x4_shuffle::<0, 4, 1, 5>(a, b), i32x4_shuffle::<2, 6, 3, 7>(a, b)),
        }
    }
}

/// The two in-vector layers (len 2 and 1) over all 32 vector pairs, each pair kept in
/// registers through both: forward len 2 then 1 and the final reduction; inverse len
/// 1 then 2.
#[inline(always)]
fn lane_layers<const INVERSE: bool>(w: &mut [v128; VECS]) {
    let q_inv = i32x4_splat(Q_INV);
    let layer = |split: Split, p: usize, x: v128, y: v128| {
        let (a, b) = split.apply(x, y);
        let z = split.zetas::<INVERSE>(p);
        let zq = i32x4_mul(z, q_inv);
        let (a, b) = if INVERSE { inv(a, b, z, zq) } else { fwd(a, b, z, zq) };
        split.undo(a, b)
    };
    for p in 0..VECS / 2 {
        let (x, y) = (w[2 * p], w[2 * p + 1]);
        (w[2 * p], w[2 * p + 1]) = if INVERSE {
            let (x, y) = layer(Split::Singles, p, x, y);
            layer(Split::Pairs, p, x, y)
        } else {
            let (x, y) = layer(Split::Pairs, p, x, y);
            let (x, y) = layer(Split::Singles, p, x, y);
            (reduce32(x), reduce32(y))
        };
    }
}

/// Two layers whose pairs are whole vectors, four vectors at a time held in registers
/// through both: forward len `BIG` then `BIG`/2; inverse len `BIG`/2 then `BIG`. ζ's
/// index of a len-L layer's block is 128/L + block forward; −ζ at 256/L − 1 − block
/// inverse. The inverse reduces after its len-8 layer and folds the 1/256 of
/// Algorithm 42 (with the Montgomery factors) into its last layer, as the portable
/// code does, then freezes.
#[inline(always)]
fn vector_layers<const BIG: usize, const INVERSE: bool>(w: &mut [v128; VECS]) {
    let small = BIG / 2;
    // Vector distances of the pairs of the big and of the small layer.
    let (far, near) = (BIG / 4, small / 4);
    let splat = |zeta: i32| (i32x4_splat(zeta), i32x4_splat(zeta.wrapping_mul(Q_INV)));
    let ((f, fq), (g, gq)) = (splat(INV_N_MONT2), splat(INV_N_MONT2_ZETA));
    for block in 0..VECS / (2 * far) {
        // The big layer's block, and the small layer's two blocks inside it.
        let (big, lo, hi) = if INVERSE {
            (
                splat(-ZETAS[256 / BIG - 1 - block]),
                splat(-ZETAS[256 / small - 1 - 2 * block]),
                splat(-ZETAS[256 / small - 2 - 2 * block]),
            )
        } else {
            (
                splat(ZETAS[128 / BIG + block]),
                splat(ZETAS[128 / small + 2 * block]),
                splat(ZETAS[128 / small + 2 * block + 1]),
            )
        };
        let start = 2 * far * block;
        for v in start..start + near {
            let at = [v, v + near, v + far, v + far + near];
            let [x0, x1, x2, x3] = at.map(|i| w[i]);
            let out = if INVERSE {
                let (x0, x1) = inv(x0, x1, fresh(&lo.0), lo.1);
                let (x2, x3) = inv(x2, x3, fresh(&hi.0), hi.1);
                if BIG == 128 {
                    // The last layer and the scaling by 256⁻¹ in one, as the portable code.
                    let last = |x, y| {
                        let sum = freeze(mont_mul(i32x4_add(x, y), fresh(&f), fq));
                        (sum, freeze(mont_mul(i32x4_sub(x, y), fresh(&g), gq)))
                    };
                    let ((x0, x2), (x1, x3)) = (last(x0, x2), last(x1, x3));
                    [x0, x1, x2, x3]
                } else {
                    let (x0, x2) = inv(x0, x2, fresh(&big.0), big.1);
                    let (x1, x3) = inv(x1, x3, fresh(&big.0), big.1);
                    if BIG == 8 { [x0, x1, x2, x3].map(reduce32) } else { [x0, x1, x2, x3] }
                }
            } else {
                let (x0, x2) = fwd(x0, x2, fresh(&big.0), big.1);
                let (x1, x3) = fwd(x1, x3, fresh(&big.0), big.1);
                let (x0, x1) = fwd(x0, x1, fresh(&lo.0), lo.1);
                let (x2, x3) = fwd(x2, x3, fresh(&hi.0), hi.1);
                [x0, x1, x2, x3]
            };
            for (i, x) in at.into_iter().zip(out) {
                w[i] = x;
            }
        }
    }
}
