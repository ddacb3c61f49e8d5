//! Lines 1–4 of Algorithm 8 before any hashing: pkDecode (Algorithm 23), sigDecode
//! (Algorithm 27) with the hint's encoding, and line 12's bound on z, checked first.

use super::hint::Hints;
use super::params::{D, MAX_L, Params, RHO_LEN, T1_POLY_BYTES};
use crate::kernel::{ntt, unpack_t1_shifted, unpack_z};
use crate::ring::Poly;
use crate::{Error, PublicKey, Suite};

/// Length of tr = H(pk, 64) and of μ.
pub(crate) const TR_LEN: usize = 64;

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
