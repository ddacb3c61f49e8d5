//! The number-theoretic transform of FIPS 204 (Algorithms 41, 42 and 45): the
//! portable kernels, which every architecture's (`crate::arch`) must match bit for bit.
//!
//! Products are Montgomery products (× 2^−32); the constants carry the matching
//! factor, so a transform followed by its inverse is the identity, and a sum of
//! pointwise products fed to [`inv_ntt`] comes out as the plain product.

use crate::ring::field::{Q, freeze, mont_reduce, pow_mod, reduce32, to_mont};
use crate::ring::{N, Poly};

/// ζ = 1753, a primitive 512th root of unity mod q.
const ZETA: i64 = 1753;

/// zetas[k] = ζ^BitRev8(k) mod q in Montgomery form (FIPS 204, Appendix B).
pub(crate) const ZETAS: [i32; N] = {
    let mut out = [0i32; N];
    let mut k = 0;
    while k < N {
        out[k] = to_mont(pow_mod(ZETA, (k as u8).reverse_bits() as u64));
        k += 1;
    }
    out
};

/// 256⁻¹ · 2^64 mod q: the last step of the inverse, undoing both the 256 of the
/// transform and the 2^−32 each pointwise product leaves behind.
pub(crate) const INV_N_MONT2: i32 = to_mont(to_mont(pow_mod(N as i64, Q as u64 - 2)) as i64);

/// The inverse's last ζ (index 1, negated) times [`INV_N_MONT2`], one Montgomery
/// product: the factor of x − y in the last layer, which also scales it.
pub(crate) const INV_N_MONT2_ZETA: i32 = mont_reduce(INV_N_MONT2 as i64 * -(ZETAS[1] as i64));

/// NTT (FIPS 204 Algorithm 41), in place. Input |a_i| < 2^27; output |â_i| < q.
pub(crate) fn ntt(a: &mut Poly) {
    let w = &mut a.0;
    let mut m = 0;
    let mut len = 128;
    while len >= 1 {
        let mut start = 0;
        while start < N {
            m += 1;
            let zeta = ZETAS[m] as i64;
            let (lo, hi) = w[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let t = mont_reduce(zeta * *y as i64);
                *y = *x - t;
                *x += t;
            }
            start += 2 * len;
        }
        len /= 2;
    }
    // Each layer adds less than q in magnitude: |w_i| < 2^27 + 8q here.
    for c in w.iter_mut() {
        *c = reduce32(*c);
    }
}

/// NTT⁻¹ (FIPS 204 Algorithm 42) of a sum of Montgomery products, in place.
/// Input |â_i| < 2^26 (a sum of at most 8 pointwise products); output the plain
/// coefficients in [0, q).
pub(crate) fn inv_ntt(a: &mut Poly) {
    let w = &mut a.0;
    let mut m = N;
    let mut len = 1;
    while len < N / 2 {
        let mut start = 0;
        while start < N {
            m -= 1;
            let zeta = -(ZETAS[m] as i64);
            let (lo, hi) = w[start..start + 2 * len].split_at_mut(len);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                let (a, b) = (*x, *y);
                *x = a + b;
                *y = mont_reduce(zeta * (a - b) as i64);
            }
            start += 2 * len;
        }
        // Sums double each layer: from |a| < 2^26 they reach 2^30 after four layers,
        // so one reduction there keeps all eight below 2^31.
        if len == 8 {
            for c in w.iter_mut() {
                *c = reduce32(*c);
            }
        }
        len *= 2;
    }
    // The last layer (len 128, ζ index 1) and the scaling by 256⁻¹ in one: x + y times
    // INV_N_MONT2, x − y times INV_N_MONT2_ZETA (one Montgomery product instead of the
    // layer's and the scaling's; the same value mod q, and `freeze` makes it the same
    // representative). |x ± y| < 2^27 here: 6,283,008 after the reduction, doubled
    // by each of the four layers since.
    let (lo, hi) = w.split_at_mut(N / 2);
    for (x, y) in lo.iter_mut().zip(hi) {
        let (a, b) = (*x, *y);
        *x = freeze(mont_reduce(INV_N_MONT2 as i64 * (a + b) as i64));
        *y = freeze(mont_reduce(INV_N_MONT2_ZETA as i64 * (a - b) as i64));
    }
}

/// acc ± a ∘ b (MultiplyNTT, FIPS 204 Algorithm 45, accumulated): − when `sub`.
/// |a_i|, |b_i| < q; each product adds less than q in magnitude to acc.
pub(crate) fn pointwise(acc: &mut Poly, a: &Poly, b: &Poly, sub: bool) {
    let sign = if sub { -1 } else { 1 };
    for ((r, &x), &y) in acc.0.iter_mut().zip(&a.0).zip(&b.0) {
        *r += sign * mont_reduce(x as i64 * y as i64);
    }
}

/// One row of Algorithm 8 line 9 in the NTT domain, out = Σ_j a_j ∘ b_j − c ∘ t: Â's row
/// times NTT(z) less NTT(c) ∘ NTT(t1·2^d)_i. The row's products are summed exactly and
/// reduced once, c ∘ t reduced on its own: out_i = mont_reduce(Σ_j a_ji·b_ji) −
/// mont_reduce(c_i·t_i). All factors are below q in magnitude and there are at most 8
/// products, so |Σ| < 8q² < 2^31·q (what `mont_reduce` takes) and |out_i| < 2q. The same
/// residue as a reduction per product (each is the sum times 2^−32 mod q), another
/// representative; the inverse NTT's output, in [0, q), is the same either way.
pub(crate) fn w_approx_row(out: &mut Poly, a: &[Poly], b: &[Poly], c: &Poly, t: &Poly) {
    debug_assert!(a.len() <= 8 && a.len() == b.len());
    for (i, r) in out.0.iter_mut().enumerate() {
        let sum: i64 = a.iter().zip(b).map(|(a, b)| a.0[i] as i64 * b.0[i] as i64).sum();
        *r = mont_reduce(sum) - mont_reduce(c.0[i] as i64 * t.0[i] as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Schoolbook product in Z_q[X]/(X^256 + 1).
    fn schoolbook(a: &Poly, b: &Poly) -> Poly {
        let mut out = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = a.0[i] as i64 * b.0[j] as i64;
                if i + j < N {
                    out[i + j] += p;
                } else {
                    out[i + j - N] -= p;
                }
            }
        }
        Poly(core::array::from_fn(|i| out[i].rem_euclid(Q as i64) as i32))
    }

    fn sample(seed: u32, bound: i32) -> Poly {
        let mut x = seed;
        Poly(core::array::from_fn(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            (x >> 4) as i32 % bound
        }))
    }

    #[test]
    fn zetas_match_fips_204_appendix_b() {
        // zetas[1] = ζ^128 = 4808194 in FIPS 204 Appendix B; ζ has order 512.
        assert_eq!(freeze(mont_reduce(ZETAS[1] as i64)), 4_808_194);
        assert_eq!(pow_mod(ZETA, 256), (Q - 1) as i64);
        assert_eq!(pow_mod(ZETA, 512), 1);
        assert_eq!(ZETAS[0], to_mont(1));
    }

    #[test]
    fn a_row_is_its_products_summed_less_c_t_mod_q_at_its_bounds() {
        // Eight products of ±(q − 1)², the largest sums the contract allows, and random ones.
        let mut rows: std::vec::Vec<(std::vec::Vec<Poly>, std::vec::Vec<Poly>)> = std::vec::Vec::new();
        for sign in [1, -1] {
            rows.push((std::vec![Poly([Q - 1; N]); 8], std::vec![Poly([sign * (Q - 1); N]); 8]));
        }
        for seed in 0..6 {
            let l = 1 + seed as usize;
            rows.push((
                (0..l).map(|j| sample(seed * 10 + j as u32, Q)).collect(),
                (0..l).map(|j| sample(seed * 10 + 5 + j as u32, Q)).collect(),
            ));
        }
        for (k, (a, b)) in rows.iter().enumerate() {
            let (c, t) = (sample(7 + k as u32, Q), sample(70 + k as u32, Q));
            let mut row = Poly::ZERO;
            w_approx_row(&mut row, a, b, &c, &t);
            let mut per_product = Poly::ZERO;
            for (a, b) in a.iter().zip(b) {
                pointwise(&mut per_product, a, b, false);
            }
            pointwise(&mut per_product, &c, &t, true);
            for i in 0..N {
                assert!(row.0[i].abs() < 2 * Q, "coefficient {i} is {}", row.0[i]);
                assert_eq!((row.0[i] - per_product.0[i]).rem_euclid(Q), 0, "coefficient {i}");
            }
        }
    }

    #[test]
    fn transform_multiplies_like_schoolbook() {
        for seed in 0..4 {
            let a = sample(seed, Q);
            let b = sample(seed + 100, 1 << 19);
            let mut a_hat = a.clone();
            let mut b_hat = b.clone();
            ntt(&mut a_hat);
            ntt(&mut b_hat);
            let mut acc = Poly::ZERO;
            pointwise(&mut acc, &a_hat, &b_hat, false);
            inv_ntt(&mut acc);
            assert_eq!(acc, schoolbook(&a, &b));

            // Subtraction path: a·b − a·b = 0.
            let mut zero = Poly::ZERO;
            pointwise(&mut zero, &a_hat, &b_hat, false);
            pointwise(&mut zero, &a_hat, &b_hat, true);
            inv_ntt(&mut zero);
            assert_eq!(zero, Poly::ZERO);
        }
    }
}
