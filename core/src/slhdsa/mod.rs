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
use crate::{Error, Message, PublicKey, Suite};

/// The checks every call makes before hashing (the key's length was checked when it was
/// made): the message's own lengths (input errors), then the signature length (a
/// rejection).
fn check<'m>(suite: Suite, p: &Params, message: &Message<'m>, sig: &[u8]) -> Result<MessagePrime<'m>, Error> {
    message.check()?;
    let m_prime =
        MessagePrime::new(message).map_err(|_| Error::Unsupported { suite, what: EXTERNAL_MU_ML_DSA_ONLY })?;
    if sig.len() != p.signature_len() {
        return Err(Error::SignatureLength { suite, expected: p.signature_len(), got: sig.len() });
    }
    Ok(m_prime)
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
pub(crate) fn slh_verify(p: &Params, key: PublicKey<'_>, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
    let m_prime = check(key.suite(), p, message, sig)?;
    verify_with(key.suite(), p, key.as_bytes(), None, &m_prime, sig)
}

/// A prepared SLH-DSA public key: the key bytes and, for the SHA-2 sets, the hash
/// state after PK.seed's block.
#[cfg(feature = "alloc")]
#[derive(Clone, Debug)]
pub(crate) struct PreparedSlhDsa {
    suite: Suite,
    p: &'static Params,
    pk: [u8; 2 * params::MAX_N],
    mid: Option<Sha2Midstates>,
}

#[cfg(feature = "alloc")]
impl PreparedSlhDsa {
    /// Keeps `key` and precomputes its per-key hash state.
    pub(crate) fn new(p: &'static Params, key: PublicKey<'_>) -> Self {
        let pk = key.as_bytes();
        let mut stored = [0u8; 2 * params::MAX_N];
        stored[..pk.len()].copy_from_slice(pk);
        let mid = (p.hash == HashFamily::Sha2).then(|| Sha2Midstates::new(p, &pk[..p.n]));
        PreparedSlhDsa { suite: key.suite(), p, pk: stored, mid }
    }

    /// The suite of the key.
    pub(crate) fn suite(&self) -> Suite {
        self.suite
    }

    /// Verifies one signature under this key.
    pub(crate) fn slh_verify(&self, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        let (suite, p) = (self.suite, self.p);
        let m_prime = check(suite, p, message, sig)?;
        verify_with(suite, p, &self.pk[..p.public_key_len()], self.mid.as_ref(), &m_prime, sig)
    }
}
