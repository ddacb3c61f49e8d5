//! ML-DSA parameter sets as data (FIPS 204, Table 1 and Table 2).

use crate::ring::field::Q;

/// The per-set constants verification needs.
#[derive(Debug)]
pub(crate) struct Params {
    /// Rows of Â (and polynomials in t1, w1, h).
    pub(crate) k: usize,
    /// Columns of Â (and polynomials in z).
    pub(crate) l: usize,
    /// Number of ±1 coefficients in the challenge c.
    pub(crate) tau: usize,
    /// β = τ·η.
    pub(crate) beta: i32,
    /// log2 γ1 (γ1 = 2^17 or 2^19).
    pub(crate) gamma1_log2: u32,
    /// γ2, the low-order rounding range.
    pub(crate) gamma2: i32,
    /// ω, the maximum number of ones in the hint.
    pub(crate) omega: usize,
    /// λ/4: the length of the commitment hash c̃ in bytes.
    pub(crate) c_tilde_len: usize,
}

/// Dropped bits of t (FIPS 204: d).
pub(crate) const D: u32 = 13;
/// Bits per t1 coefficient: bitlen(q − 1) − d.
pub(crate) const T1_BITS: usize = 10;
/// Bytes of ρ at the start of a public key.
pub(crate) const RHO_LEN: usize = 32;
/// Bytes per packed t1 polynomial.
pub(crate) const T1_POLY_BYTES: usize = 256 * T1_BITS / 8;
/// The largest l of any set (ML-DSA-87).
pub(crate) const MAX_L: usize = 7;
/// The largest k of any set (ML-DSA-87).
pub(crate) const MAX_K: usize = 8;

impl Params {
    /// γ1.
    pub(crate) const fn gamma1(&self) -> i32 {
        1 << self.gamma1_log2
    }

    /// Bits per packed z coefficient: bitlen(2γ1 − 1).
    pub(crate) const fn z_bits(&self) -> usize {
        self.gamma1_log2 as usize + 1
    }

    /// Bytes per packed z polynomial.
    pub(crate) const fn z_poly_bytes(&self) -> usize {
        256 * self.z_bits() / 8
    }

    /// m = (q − 1)/(2γ2), the number of high-bit values.
    pub(crate) const fn w1_modulus(&self) -> i32 {
        (Q - 1) / (2 * self.gamma2)
    }

    /// Bits per w1 coefficient in w1Encode: bitlen(m − 1).
    pub(crate) const fn w1_bits(&self) -> usize {
        (32 - (self.w1_modulus() - 1).leading_zeros()) as usize
    }

    /// Bytes per packed w1 polynomial.
    pub(crate) const fn w1_poly_bytes(&self) -> usize {
        256 * self.w1_bits() / 8
    }

    /// pk = ρ ‖ t1 (FIPS 204 Algorithm 22).
    pub(crate) const fn public_key_len(&self) -> usize {
        RHO_LEN + self.k * T1_POLY_BYTES
    }

    /// σ = c̃ ‖ z ‖ h (FIPS 204 Algorithm 26).
    pub(crate) const fn signature_len(&self) -> usize {
        self.c_tilde_len + self.l * self.z_poly_bytes() + self.omega + self.k
    }
}

/// ML-DSA-44.
pub(crate) const ML_DSA_44: Params =
    Params { k: 4, l: 4, tau: 39, beta: 78, gamma1_log2: 17, gamma2: (Q - 1) / 88, omega: 80, c_tilde_len: 32 };

/// ML-DSA-65.
pub(crate) const ML_DSA_65: Params =
    Params { k: 6, l: 5, tau: 49, beta: 196, gamma1_log2: 19, gamma2: (Q - 1) / 32, omega: 55, c_tilde_len: 48 };

/// ML-DSA-87.
pub(crate) const ML_DSA_87: Params =
    Params { k: 8, l: 7, tau: 60, beta: 120, gamma1_log2: 19, gamma2: (Q - 1) / 32, omega: 75, c_tilde_len: 64 };

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_match_fips_204_table_2() {
        for (p, pk, sig, w1_bits) in
            [(&ML_DSA_44, 1312, 2420, 6), (&ML_DSA_65, 1952, 3309, 4), (&ML_DSA_87, 2592, 4627, 4)]
        {
            assert_eq!(p.public_key_len(), pk);
            assert_eq!(p.signature_len(), sig);
            assert_eq!(p.w1_bits(), w1_bits);
            assert!(p.l <= MAX_L && p.k <= MAX_K);
        }
    }
}
