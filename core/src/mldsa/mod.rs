//! ML-DSA signature verification (FIPS 204).

mod encode;
pub(crate) mod field;
mod hint;
pub(crate) mod ntt;
pub(crate) mod params;
mod poly;
/// The portable kernels: the reference for every backend, and the fallback.
pub(crate) mod portable {
    pub(crate) use super::encode::{pack_w1, unpack_t1_shifted, unpack_z};
    pub(crate) use super::hint::use_hint_poly;
    pub(crate) use super::ntt::{inv_ntt, ntt, pointwise, pointwise_row};
    pub(crate) use super::sample::rej_sample;
}
#[cfg(feature = "alloc")]
mod prepared;
mod sample;
mod verify;

#[cfg(feature = "alloc")]
pub(crate) use prepared::PreparedMlDsa;

pub(crate) use poly::Poly;

use params::Params;
use verify::{EncodedKey, verify_internal};

use crate::{Error, Message, Suite};

/// The parameters of an ML-DSA suite; `None` for other families.
pub(crate) const fn params(suite: Suite) -> Option<&'static Params> {
    match suite {
        Suite::MlDsa44 => Some(&params::ML_DSA_44),
        Suite::MlDsa65 => Some(&params::ML_DSA_65),
        Suite::MlDsa87 => Some(&params::ML_DSA_87),
        _ => None,
    }
}

/// Checks the public key's length and returns the suite's parameters.
pub(crate) fn check_key(suite: Suite, pk: &[u8]) -> Result<&'static Params, Error> {
    let p = params(suite).ok_or(Error::UnknownSuite)?;
    if pk.len() != p.public_key_len() {
        return Err(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() });
    }
    Ok(p)
}

/// Checks the signature's length (a rejection, not an input error).
pub(crate) fn check_signature(suite: Suite, p: &Params, sig: &[u8]) -> Result<(), Error> {
    if sig.len() != p.signature_len() {
        return Err(Error::SignatureLength { suite, expected: p.signature_len(), got: sig.len() });
    }
    Ok(())
}

/// One-shot verification from the encoded public key.
pub(crate) fn verify(suite: Suite, pk: &[u8], message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let p = check_key(suite, pk)?;
    message.check()?;
    check_signature(suite, p, sig)?;
    let key =
        EncodedKey::new(pk).ok_or(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() })?;
    verify_internal(suite, p, &key, message, sig)
}
