//! The ML-DSA NTT, inverse NTT and pointwise products with NEON, four 32-bit
//! coefficients per vector; the portable arithmetic (`portable::ntt`) lane by lane:
//! the same butterflies, the same reductions after the same layers, so the results are
//! bit-identical.
//!
//! A Montgomery product, `field::mont_reduce(a·b)`, is three multiplies and a halving
//! subtract: t = a·(b·q⁻¹) mod 2^32 (MUL), then (SQDMULH(a, b) − SQDMULH(t, q)) / 2
//! (SHSUB). SQDMULH is the high word of the doubled product; a·b and t·q have the same
//! low word, so both high words carry the same bit from doubling it, and the halved
//! difference is exactly (a·b − t·q) / 2^32. SQDMULH saturates only when both operands
//! are −2^31, which no bound here allows.
//!
//! Layers whose pairs are whole vectors (len ≥ 4) run two at a time on four vectors
//! held in registers. The last two (len 2, 1) pair lanes of one vector: two vectors
//! are transposed so that the pairs sit across two vectors, 64-bit halves (TRN1/TRN2 on
//! doublewords) for len 2 and single lanes (TRN1/TRN2 on words) for len 1, with ζ per
//! lane from a table, and put back (ZIP1/ZIP2); both layers in one pass.

use core::arch::aarch64::{
    int32x4_t, vaddq_s32, vandq_s32, vdupq_n_s32, vdupq_n_s64, vget_low_s32, vhsubq_s32, vld1q_s32, vmlal_high_s32,
    vmlal_s32, vmlsl_high_s32, vmlsl_s32, vmlsq_s32, vmulq_s32, vqdmulhq_s32, vreinterpretq_s32_s64,
    vreinterpretq_s64_s32, vshrq_n_s32, vst1q_s32, vsubq_s32, vtrn1q_s32, vtrn1q_s64, vtrn2q_s32, vtrn2q_s64,
    vuzp1q_s32, vuzp2q_s32, vzip1q_s32, vzip2q_s32,
};

use crate::portable::ntt::{INV_N_MONT2, INV_N_MONT2_ZETA, ZETAS};
use crate::ring::Poly;
use crate::ring::field::{Q, Q_INV};

// SAFETY (every NEON intrinsic below): this module is built only where NEON is in the
// target's baseline (`target_feature = "neon"`), so every AArch64 CPU it runs on has it.

/// Vectors per polynomial.
const VECS: usize = 64;

type V = int32x4_t;

/// NTT. Contract: `portable::ntt::ntt` (input |a_i| < 2^27; output |â_i| < q).
pub(crate) fn ntt(a: &mut Poly) {
    let w = quads(a);
    vector_layers::<128, false>(w);
    vector_layers::<32, false>(w);
    vector_layers::<8, false>(w);
    lane_layers::<false>(w);
}

/// Inverse NTT. Contract: `portable::ntt::inv_ntt` (input |â_i| < 2^26; output in [0, q)).
pub(crate) fn inv_ntt(a: &mut Poly) {
    let w = quads(a);
    lane_layers::<true>(w);
    vector_layers::<8, true>(w);
    vector_layers::<32, true>(w);
    vector_layers::<128, true>(w);
}

/// acc ± a ∘ b. Contract: `portable::ntt::pointwise` (|a_i|, |b_i| < q).
pub(crate) fn pointwise(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    let (acc, a, b) = (quads(acc), a.0.as_chunks::<4>().0, b.0.as_chunks::<4>().0);
    for ((r, x), y) in acc.iter_mut().zip(a).zip(b) {
        let m = product(load(x), load(y));
        // SAFETY: see above.
        store(r, unsafe { if sub { vsubq_s32(load(r), m) } else { vaddq_s32(load(r), m) } });
    }
}

/// out = Σ_j a_j ∘ b_j − c ∘ t. Contract: `portable::ntt::w_approx_row`: the row as
/// [`pointwise_row`] sums it, then c ∘ t through [`pointwise`].
pub(crate) fn w_approx_row(out: &mut Poly, a: &[Poly], b: &[Poly], c: &Poly, t: &Poly) {
    *out = Poly::ZERO;
    pointwise_row(out, a, b);
    pointwise(out, c, t, true);
}

/// acc += Σ_j a_j ∘ b_j (the exact products summed in 64-bit lanes by SMLAL, one
/// Montgomery reduction of each sum).
fn pointwise_row(acc: &mut Poly, a: &[Poly], b: &[Poly]) {
    for (v, r) in quads(acc).iter_mut().enumerate() {
        // SAFETY: see above.
        unsafe {
            let (mut low, mut high) = (vdupq_n_s64(0), vdupq_n_s64(0));
            for (a, b) in a.iter().zip(b) {
                let (x, y) = (load(&a.0.as_chunks::<4>().0[v]), load(&b.0.as_chunks::<4>().0[v]));
                low = vmlal_s32(low, vget_low_s32(x), vget_low_s32(y));
                high = vmlal_high_s32(high, x, y);
            }
            // t = low word of each sum · q⁻¹; (sum − t·q) / 2^32 is each sum's high word.
            let t = vmulq_s32(vuzp1q_s32(vreinterpretq_s32_s64(low), vreinterpretq_s32_s64(high)), splat(Q_INV));
            let q = splat(Q);
            let low = vmlsl_s32(low, vget_low_s32(t), vget_low_s32(q));
            let high = vmlsl_high_s32(high, t, q);
            store(r, vaddq_s32(load(r), vuzp2q_s32(vreinterpretq_s32_s64(low), vreinterpretq_s32_s64(high))));
        }
    }
}

/// The polynomial's coefficients in fours, worked on in place.
fn quads(a: &mut Poly) -> &mut [[i32; 4]] {
    a.0.as_chunks_mut::<4>().0
}

#[inline(always)]
fn load(lanes: &[i32; 4]) -> V {
    // SAFETY: `lanes` is the 16 bytes the load reads (NEON loads need no alignment).
    unsafe { vld1q_s32(lanes.as_ptr()) }
}

#[inline(always)]
fn store(lanes: &mut [i32; 4], x: V) {
    // SAFETY: `lanes` is the 16 bytes the store writes.
    unsafe { vst1q_s32(lanes.as_mut_ptr(), x) }
}

#[inline(always)]
fn splat(x: i32) -> V {
    // SAFETY: see above.
    unsafe { vdupq_n_s32(x) }
}

/// A multiplier in every lane, with its Montgomery partner b·q⁻¹ mod 2^32.
#[derive(Clone, Copy)]
struct Factor(V, V);

impl Factor {
    #[inline(always)]
    fn splat(b: i32) -> Self {
        Factor(splat(b), splat(b.wrapping_mul(Q_INV)))
    }

    #[inline(always)]
    fn lanes(b: &[i32; 4], bq: &[i32; 4]) -> Self {
        Factor(load(b), load(bq))
    }
}

/// a·b·2^−32 mod q per lane, as `field::mont_reduce(a·b)` (see the module comment).
#[inline(always)]
fn mont_mul(a: V, b: Factor) -> V {
    // SAFETY: see above.
    unsafe {
        let t = vmulq_s32(a, b.1);
        vhsubq_s32(vqdmulhq_s32(a, b.0), vqdmulhq_s32(t, splat(Q)))
    }
}

/// a·b·2^−32 mod q per lane for two variable operands.
#[inline(always)]
fn product(a: V, b: V) -> V {
    // SAFETY: see above.
    mont_mul(a, Factor(b, unsafe { vmulq_s32(b, splat(Q_INV)) }))
}

/// Forward butterfly: t = ζ·y; (x, y) ← (x + t, x − t).
#[inline(always)]
fn fwd(x: V, y: V, zeta: Factor) -> (V, V) {
    let t = mont_mul(y, zeta);
    // SAFETY: see above.
    unsafe { (vaddq_s32(x, t), vsubq_s32(x, t)) }
}

/// Inverse butterfly with −ζ given: (x, y) ← (x + y, (−ζ)·(x − y)).
#[inline(always)]
fn inv(x: V, y: V, neg_zeta: Factor) -> (V, V) {
    // SAFETY: see above.
    unsafe { (vaddq_s32(x, y), mont_mul(vsubq_s32(x, y), neg_zeta)) }
}

/// `field::reduce32` per lane: a − ⌊(a + 2^22) / 2^23⌋·q.
#[inline(always)]
fn reduce32(a: V) -> V {
    // SAFETY: see above.
    unsafe { vmlsq_s32(a, vshrq_n_s32::<23>(vaddq_s32(a, splat(1 << 22))), splat(Q)) }
}

/// `field::freeze` per lane: q added to the negative lanes.
#[inline(always)]
fn freeze(a: V) -> V {
    // SAFETY: see above.
    unsafe { vaddq_s32(a, vandq_s32(vshrq_n_s32::<31>(a), splat(Q))) }
}

/// ζ per lane for the in-vector layers of vector pair p (vectors 2p, 2p + 1), in the
/// lane order [`lane_layers`] butterflies them, with each ζ·q⁻¹ beside it. Forward, a
/// len-L block b has ζ at index 128/L + b; inverse, −ζ at 256/L − 1 − b.
struct LaneZetas {
    /// len 2: lanes [x0 x1 y0 y1] pair with [x2 x3 y2 y3]: blocks 2p, 2p, 2p+1, 2p+1.
    pairs: [[i32; 4]; VECS / 2],
    /// len 1: lanes [x0 x2 y0 y2] pair with [x1 x3 y1 y3]: blocks 4p to 4p + 3.
    singles: [[i32; 4]; VECS / 2],
}

impl LaneZetas {
    const fn new(inverse: bool) -> [Self; 2] {
        let mut z = LaneZetas { pairs: [[0; 4]; VECS / 2], singles: [[0; 4]; VECS / 2] };
        let mut p = 0;
        while p < VECS / 2 {
            let mut lane = 0;
            while lane < 4 {
                let (pair_block, single_block) = (2 * p + lane / 2, 4 * p + lane);
                (z.pairs[p][lane], z.singles[p][lane]) = if inverse {
                    (-ZETAS[127 - pair_block], -ZETAS[255 - single_block])
                } else {
                    (ZETAS[64 + pair_block], ZETAS[128 + single_block])
                };
                lane += 1;
            }
            p += 1;
        }
        let mut zq = LaneZetas { pairs: z.pairs, singles: z.singles };
        let mut p = 0;
        while p < VECS / 2 {
            let mut lane = 0;
            while lane < 4 {
                zq.pairs[p][lane] = z.pairs[p][lane].wrapping_mul(Q_INV);
                zq.singles[p][lane] = z.singles[p][lane].wrapping_mul(Q_INV);
                lane += 1;
            }
            p += 1;
        }
        [z, zq]
    }
}

/// [ζ, ζ·q⁻¹] per lane, forward.
static FORWARD: [LaneZetas; 2] = LaneZetas::new(false);
/// [−ζ, −ζ·q⁻¹] per lane, inverse.
static INVERSE: [LaneZetas; 2] = LaneZetas::new(true);

/// ([x0 x1 y0 y1], [x2 x3 y2 y3]): the 64-bit halves transposed; its own inverse.
#[inline(always)]
fn halves(x: V, y: V) -> (V, V) {
    // SAFETY: see above.
    unsafe {
        let (x, y) = (vreinterpretq_s64_s32(x), vreinterpretq_s64_s32(y));
        (vreinterpretq_s32_s64(vtrn1q_s64(x, y)), vreinterpretq_s32_s64(vtrn2q_s64(x, y)))
    }
}

/// The two in-vector layers over all 32 vector pairs, each pair in registers through
/// both: forward len 2 then 1 and the final reduction; inverse len 1 then 2.
#[inline(always)]
fn lane_layers<const INV: bool>(w: &mut [[i32; 4]]) {
    let [z, zq] = if INV { &INVERSE } else { &FORWARD };
    for (p, xy) in w.as_chunks_mut::<2>().0.iter_mut().enumerate() {
        let pairs = Factor::lanes(&z.pairs[p], &zq.pairs[p]);
        let singles = Factor::lanes(&z.singles[p], &zq.singles[p]);
        let (x, y) = (load(&xy[0]), load(&xy[1]));
        // SAFETY: see above.
        let (x, y) = unsafe {
            if INV {
                // [x0 x2 y0 y2], [x1 x3 y1 y3]: len 1; then back to len 2's halves.
                let (a, b) = inv(vuzp1q_s32(x, y), vuzp2q_s32(x, y), singles);
                let (a, b) = inv(vtrn1q_s32(a, b), vtrn2q_s32(a, b), pairs);
                halves(a, b)
            } else {
                let (a, b) = halves(x, y);
                let (a, b) = fwd(a, b, pairs);
                let (a, b) = fwd(vtrn1q_s32(a, b), vtrn2q_s32(a, b), singles);
                (reduce32(vzip1q_s32(a, b)), reduce32(vzip2q_s32(a, b)))
            }
        };
        store(&mut xy[0], x);
        store(&mut xy[1], y);
    }
}

/// Two layers whose pairs are whole vectors, four vectors at a time in registers
/// through both: forward len `BIG` then `BIG`/2; inverse len `BIG`/2 then `BIG`. ζ of
/// a len-L layer's block b is at 128/L + b forward; −ζ at 256/L − 1 − b inverse. The
/// inverse reduces after its len-8 layer, as the portable code does, and folds the
/// 1/256 of Algorithm 42 (with the Montgomery factors) into its last layer, as the
/// portable code does too, then freezes.
#[inline(always)]
fn vector_layers<const BIG: usize, const INV: bool>(w: &mut [[i32; 4]]) {
    let small = BIG / 2;
    // Vector distances of the pairs of the big and of the small layer.
    let (far, near) = (BIG / 4, small / 4);
    let (scale, scale_zeta) = (Factor::splat(INV_N_MONT2), Factor::splat(INV_N_MONT2_ZETA));
    for block in 0..VECS / (2 * far) {
        // The big layer's block, and the small layer's two blocks inside it.
        let (big, lo, hi) = if INV {
            (
                Factor::splat(-ZETAS[256 / BIG - 1 - block]),
                Factor::splat(-ZETAS[256 / small - 1 - 2 * block]),
                Factor::splat(-ZETAS[256 / small - 2 - 2 * block]),
            )
        } else {
            (
                Factor::splat(ZETAS[128 / BIG + block]),
                Factor::splat(ZETAS[128 / small + 2 * block]),
                Factor::splat(ZETAS[128 / small + 2 * block + 1]),
            )
        };
        let start = 2 * far * block;
        for v in start..start + near {
            let at = [v, v + near, v + far, v + far + near];
            let [x0, x1, x2, x3] = at.map(|i| load(&w[i]));
            let out = if INV {
                let (x0, x1) = inv(x0, x1, lo);
                let (x2, x3) = inv(x2, x3, hi);
                if BIG == 128 {
                    // The last layer and the scaling by 256⁻¹ in one, as the portable code.
                    // SAFETY: see above.
                    let last = |x, y| unsafe {
                        (freeze(mont_mul(vaddq_s32(x, y), scale)), freeze(mont_mul(vsubq_s32(x, y), scale_zeta)))
                    };
                    let ((x0, x2), (x1, x3)) = (last(x0, x2), last(x1, x3));
                    [x0, x1, x2, x3]
                } else {
                    let (x0, x2) = inv(x0, x2, big);
                    let (x1, x3) = inv(x1, x3, big);
                    if BIG == 8 { [x0, x1, x2, x3].map(reduce32) } else { [x0, x1, x2, x3] }
                }
            } else {
                let (x0, x2) = fwd(x0, x2, big);
                let (x1, x3) = fwd(x1, x3, big);
                let (x0, x1) = fwd(x0, x1, lo);
                let (x2, x3) = fwd(x2, x3, hi);
                [x0, x1, x2, x3]
            };
            for (i, x) in at.into_iter().zip(out) {
                store(&mut w[i], x);
            }
        }
    }
}
