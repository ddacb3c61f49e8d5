//! SLH-DSA signature verification (FIPS 205).

mod address;
mod fors;
mod hash;
pub(crate) mod params;
#[cfg(test)]
mod permutations;
mod verify;
mod wots;
mod xmss;

use hash::{Sha2Hash, Sha2Midstates, ShakeHash};
use params::{HashFamily, Params};

use crate::message::{EXTERNAL_MU_ML_DSA_ONLY, MessagePrime};
use crate::{Error, Message, Suite};

/// The checks every call makes before hashing: the suite, the key length and the
/// message's own lengths (input errors), then the signature length (a rejection).
fn check<'m>(
    suite: Suite,
    pk: &[u8],
    message: &Message<'m>,
    sig: &[u8],
) -> Result<(&'static Params, MessagePrime<'m>), Error> {
    let p = suite.slh_dsa().ok_or(Error::UnknownSuite)?;
    if pk.len() != p.public_key_len() {
        return Err(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() });
    }
    message.check()?;
    let m_prime = MessagePrime::new(message).ok_or(Error::Unsupported { suite, what: EXTERNAL_MU_ML_DSA_ONLY })?;
    if sig.len() != p.signature_len() {
        return Err(Error::SignatureLength { suite, expected: p.signature_len(), got: sig.len() });
    }
    Ok((p, m_prime))
}

/// Runs Algorithm 20 with the hash instantiation of `p`.
fn verify_with(
    suite: Suite,
    p: &Params,
    pk: &[u8],
    mid: Option<&Sha2Midstates>,
    m_prime: &MessagePrime<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    let (seed, root) = pk.split_at(p.n);
    let parts = m_prime.parts();
    let valid = match (p.hash, mid) {
        (HashFamily::Shake, _) => verify::verify_internal(p, &ShakeHash::new(seed), root, &parts, sig),
        (HashFamily::Sha2, Some(mid)) => verify::verify_internal(p, &Sha2Hash::new(seed, mid), root, &parts, sig),
        (HashFamily::Sha2, None) => {
            let mid = Sha2Midstates::new(p, seed);
            verify::verify_internal(p, &Sha2Hash::new(seed, &mid), root, &parts, sig)
        }
    };
    if valid { Ok(()) } else { Err(Error::InvalidSignature { suite }) }
}

/// slh_verify and hash_slh_verify (FIPS 205 Algorithms 24 and 25; Algorithm 20 for the
/// internal interface), one-shot from the encoded public key.
pub(crate) fn slh_verify(suite: Suite, pk: &[u8], message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let (p, m_prime) = check(suite, pk, message, sig)?;
    verify_with(suite, p, pk, None, &m_prime, sig)
}

/// A prepared SLH-DSA public key: the key bytes and, for the SHA-2 sets, the hash
/// state after PK.seed's block.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub(crate) struct PreparedSlhDsa {
    suite: Suite,
    pk: [u8; 2 * params::MAX_N],
    mid: Option<Sha2Midstates>,
}

#[cfg(feature = "alloc")]
impl PreparedSlhDsa {
    /// Checks `pk`'s length and precomputes its per-key hash state.
    pub(crate) fn new(suite: Suite, pk: &[u8]) -> Result<Self, Error> {
        let p = suite.slh_dsa().ok_or(Error::UnknownSuite)?;
        if pk.len() != p.public_key_len() {
            return Err(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() });
        }
        let mut stored = [0u8; 2 * params::MAX_N];
        stored[..pk.len()].copy_from_slice(pk);
        let mid = (p.hash == HashFamily::Sha2).then(|| Sha2Midstates::new(p, &pk[..p.n]));
        Ok(PreparedSlhDsa { suite, pk: stored, mid })
    }

    /// The suite of the key.
    pub(crate) fn suite(&self) -> Suite {
        self.suite
    }

    /// Verifies one signature under this key.
    pub(crate) fn slh_verify(&self, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        let suite = self.suite;
        let len = suite.slh_dsa().map_or(0, Params::public_key_len);
        let pk = &self.pk[..len];
        let (p, m_prime) = check(suite, pk, message, sig)?;
        verify_with(suite, p, pk, self.mid.as_ref(), &m_prime, sig)
    }
}
