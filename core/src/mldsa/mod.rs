//! ML-DSA signature verification (FIPS 204).

mod hint;
pub(crate) mod params;
#[cfg(feature = "alloc")]
mod prepared;
mod sample;
mod verify;

#[cfg(feature = "alloc")]
pub(crate) use prepared::PreparedMlDsa;

use verify::{EncodedKey, check_key, check_signature, verify_internal};

use crate::{Error, Message, Suite};

/// ML-DSA.Verify and HashML-DSA.Verify (FIPS 204 Algorithms 3 and 5; Algorithm 8 for
/// the internal interfaces), one-shot from the encoded public key.
pub(crate) fn ml_dsa_verify(suite: Suite, pk: &[u8], message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let p = check_key(suite, pk)?;
    message.check()?;
    check_signature(suite, p, sig)?;
    let key =
        EncodedKey::new(pk).ok_or(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() })?;
    verify_internal(suite, p, &key, message, sig)
}
