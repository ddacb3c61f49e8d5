//! Polynomials of R_q = Z_q[X]/(X^256 + 1), as 256 signed coefficients.

/// Coefficients per polynomial (FIPS 204: n).
pub(crate) const N: usize = 256;

/// A polynomial, in whichever domain (plain or NTT) its holder documents.
/// Aligned for the SIMD kernels that load it 8 coefficients at a time.
#[derive(Clone, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub(crate) struct Poly(pub(crate) [i32; N]);

impl Poly {
    /// The zero polynomial.
    pub(crate) const ZERO: Poly = Poly([0; N]);
}
