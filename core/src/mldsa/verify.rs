//! The pieces of ML-DSA.Verify_internal (FIPS 204 Algorithm 8) that the one-shot path
//! (`one_shot.rs`) and prepared keys (`prepared.rs`) share: the length checks, sigDecode
//! with the cheap checks, μ, one row of lines 9–10, and the final comparison.

use super::hint::Hints;
use super::params::{D, MAX_L, Params, RHO_LEN, T1_POLY_BYTES};
use crate::hash::Shake256;
use crate::kernel::{inv_ntt, ntt, pack_w1, unpack_t1_shifted, unpack_z, use_hint_poly};
use crate::message::MessagePrime;
use crate::ring::{N, Poly};
use crate::{Error, PublicKey, Suite};

/// Length of tr = H(pk, 64) and of μ.
pub(crate) const TR_LEN: usize = 64;

/// The longest w1Encode(w1′), k · 32 · bits bytes: ML-DSA-87's 8 · 128 (ML-DSA-44 and
/// -65 have 768).
pub(crate) const MAX_W1_BYTES: usize = 1024;

/// An encoded public key pk = ρ ‖ t1 (pkDecode, Algorithm 23), its length checked.
pub(crate) struct EncodedKey<'a> {
    pub(crate) pk: &'a [u8],
    /// ρ, the first `RHO_LEN` bytes.
    pub(crate) rho: &'a [u8; RHO_LEN],
}

impl<'a> EncodedKey<'a> {
    /// Splits ρ off `key`, an ML-DSA key (its length, 32 + 320·k bytes, checked when
    /// it was made).
    pub(crate) fn new(key: PublicKey<'a>) -> Self {
        let pk = key.as_bytes();
        // A `PublicKey` is 32 + 320·k bytes: ρ is always there (the fallback only keeps
        // a panic path out of the build).
        debug_assert!(pk.len() > RHO_LEN, "an ML-DSA key holds ρ");
        let rho = pk.first_chunk().unwrap_or(&[0; RHO_LEN]);
        EncodedKey { pk, rho }
    }

    /// NTT(t1_i · 2^d), unpacked from the key.
    pub(crate) fn t1_hat(&self, i: usize, out: &mut Poly) {
        let start = RHO_LEN + i * T1_POLY_BYTES;
        unpack_t1_shifted(&self.pk[start..start + T1_POLY_BYTES], D, out);
        ntt(out);
    }
}

/// Checks the signature's length (a rejection, not an input error).
pub(crate) fn check_signature(suite: Suite, p: &Params, sig: &[u8]) -> Result<(), Error> {
    if sig.len() != p.signature_len() {
        return Err(Error::SignatureLength { suite, expected: p.signature_len(), got: sig.len() });
    }
    Ok(())
}

/// A signature after sigDecode (Algorithm 27) and the cheap checks, before any hashing.
pub(crate) struct Decoded<'a> {
    /// c̃, λ/4 bytes.
    pub(crate) c_tilde: &'a [u8],
    /// NTT(z): l polynomials.
    pub(crate) z_hat: &'a [Poly],
    /// The validated hint.
    pub(crate) hints: Hints<'a>,
}

/// sigDecode and the checks that need no hashing: the hint's encoding (Algorithm 21)
/// and ‖z‖∞ < γ1 − β; then NTT(z). The length was checked by the caller.
///
/// NTT(z) goes into the caller's `z_hat` (a return by value would copy its 7 KiB).
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn decode_signature<'a>(
    suite: Suite,
    p: &Params,
    sig: &'a [u8],
    z_hat: &'a mut [Poly; MAX_L],
) -> Result<Decoded<'a>, Error> {
    let malformed = |what| Error::MalformedSignature { suite, what };
    let (c_tilde, rest) = sig.split_at(p.c_tilde_len);
    let (z_bytes, hint_bytes) = rest.split_at(p.l * p.z_poly_bytes());
    let hints = Hints::decode(hint_bytes, p.omega, p.k).map_err(malformed)?;
    let bound = p.gamma1() - p.beta;
    for (zi, bytes) in z_hat.iter_mut().zip(z_bytes.chunks_exact(p.z_poly_bytes())) {
        if !unpack_z(bytes, p.gamma1_log2, bound, zi) {
            return Err(malformed("z has a coefficient with |z| >= gamma1 - beta"));
        }
        ntt(zi);
    }
    Ok(Decoded { c_tilde, z_hat: &z_hat[..p.l], hints })
}

/// Line 6: μ ← H(tr ‖ M′, 64) with tr from `tr`, or the given μ (external μ).
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn mu(tr: impl FnOnce() -> [u8; TR_LEN], message: &crate::Message<'_>) -> Result<[u8; TR_LEN], Error> {
    let mut mu = [0u8; TR_LEN];
    match MessagePrime::new(message) {
        None => {
            let given = message.parts().1;
            mu = given.try_into().map_err(|_| Error::MuLength { got: given.len() })?;
        }
        Some(m_prime) => {
            let mut h = Shake256::new();
            h.absorb(&tr());
            for part in m_prime.parts() {
                h.absorb(part);
            }
            h.finalize().squeeze(&mut mu);
        }
    }
    Ok(mu)
}

/// What [`w1_row`] works in, made once per verify rather than once per row.
pub(crate) struct W1Scratch {
    /// A row's hint flags: set for the row, cleared after it.
    hint: [u8; N],
    /// UseHint's output.
    w1: [i32; N],
}

impl W1Scratch {
    pub(crate) const fn new() -> Self {
        W1Scratch { hint: [0; N], w1: [0; N] }
    }
}

/// Lines 9–10 for row i, given acc = (Â ∘ ẑ − ĉ ∘ t̂1)_i: w′_i = NTT⁻¹(acc),
/// w1′_i = UseHint(h_i, w′_i), and w1Encode of it into `out` (its w1_poly_bytes).
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn w1_row(p: &Params, hints: &Hints<'_>, i: usize, acc: &mut Poly, scratch: &mut W1Scratch, out: &mut [u8]) {
    inv_ntt(acc);
    let row = hints.row(i);
    for &j in row {
        scratch.hint[usize::from(j)] = 1;
    }
    use_hint_poly(&acc.0, &scratch.hint, p.gamma2, &mut scratch.w1);
    for &j in row {
        scratch.hint[usize::from(j)] = 0;
    }
    pack_w1(&scratch.w1, p.w1_bits(), out);
}

/// Line 11: every byte of c̃ is compared with c̃′.
pub(crate) fn compare(suite: Suite, c_tilde: &[u8], c_tilde_prime: &[u8]) -> Result<(), Error> {
    if c_tilde_prime == c_tilde { Ok(()) } else { Err(Error::InvalidSignature { suite }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_w1_encoding_fits() {
        for p in [super::super::params::ML_DSA_44, super::super::params::ML_DSA_65, super::super::params::ML_DSA_87] {
            assert!(p.k * p.w1_poly_bytes() <= MAX_W1_BYTES);
        }
    }
}
