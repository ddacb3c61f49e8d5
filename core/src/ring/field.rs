//! Arithmetic modulo q = 2^23 − 2^13 + 1 (FIPS 204, Section 2.3), in Montgomery
//! form with R = 2^32 for the products.

/// The ML-DSA modulus.
pub(crate) const Q: i32 = 8_380_417;

/// q⁻¹ mod 2^32, for Montgomery reduction.
pub(crate) const Q_INV: i32 = {
    // Newton iteration: each step doubles the number of correct low bits.
    let q = Q as u32;
    let mut x: u32 = 1;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u32.wrapping_sub(q.wrapping_mul(x)));
        i += 1;
    }
    x as i32
};

/// a·b mod q for 0 ≤ a, b < q, at compile time.
pub(crate) const fn mul_mod(a: i64, b: i64) -> i64 {
    (a * b) % Q as i64
}

/// base^exp mod q, at compile time.
pub(crate) const fn pow_mod(base: i64, mut exp: u64) -> i64 {
    let mut result = 1;
    let mut b = base % Q as i64;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul_mod(result, b);
        }
        b = mul_mod(b, b);
        exp >>= 1;
    }
    result
}

/// x·2^32 mod q: the Montgomery form of x.
pub(crate) const fn to_mont(x: i64) -> i32 {
    ((x.rem_euclid(Q as i64) << 32) % Q as i64) as i32
}

/// a·2^−32 mod q, with |result| < q for |a| < q·2^31.
#[inline(always)]
pub(crate) const fn mont_reduce(a: i64) -> i32 {
    let t = (a as i32).wrapping_mul(Q_INV);
    ((a - t as i64 * Q as i64) >> 32) as i32
}

/// A representative of a mod q with |result| ≤ 6_283_008, for a < 2^31 − 2^22.
#[inline(always)]
pub(crate) const fn reduce32(a: i32) -> i32 {
    let t = (a + (1 << 22)) >> 23;
    a - t * Q
}

/// The representative in [0, q) of a value in (−q, q).
#[inline(always)]
pub(crate) const fn freeze(a: i32) -> i32 {
    a + ((a >> 31) & Q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn q_inv_is_inverse() {
        assert_eq!((Q as u32).wrapping_mul(Q_INV as u32), 1);
    }

    #[test]
    fn reductions_agree_with_rem_euclid() {
        let samples = [-(Q - 1), -1, 0, 1, Q - 1, Q, 2 * Q + 5, (1 << 30) + 12_345, i32::MAX - (1 << 22)];
        for a in samples {
            let r = reduce32(a);
            assert!(r.abs() <= 6_283_008);
            assert_eq!((r as i64).rem_euclid(Q as i64), (a as i64).rem_euclid(Q as i64));
        }
        for a in [-(Q - 1), -1, 0, 1, Q - 1] {
            let f = freeze(a);
            assert!((0..Q).contains(&f));
            assert_eq!(f as i64, (a as i64).rem_euclid(Q as i64));
        }
        for (a, b) in [(Q - 1, Q - 1), (-(Q - 1), 12_345), (1, 1), (0, 77)] {
            let m = mont_reduce(a as i64 * to_mont(b as i64) as i64);
            assert!(m.abs() < Q);
            assert_eq!((m as i64).rem_euclid(Q as i64), (a as i64 * b as i64).rem_euclid(Q as i64));
        }
    }
}
