//! One-shot ML-DSA verification from the encoded public key: Algorithm 8 with tr hashed
//! and Â expanded as it goes, every Keccak permutation it can share run several states
//! at a time, and no heap.

use super::decode::{EncodedKey, check_signature, decode_signature};
use super::matrix::Streamed;
use super::params::{MAX_L, Params};
use super::verify::{Key, Verification};
use crate::hash::multi::states::run_one;
use crate::ring::Poly;
use crate::{Error, Message, PublicKey};

/// ML-DSA.Verify, HashML-DSA.Verify and Verify_internal (Algorithms 3, 5 and 8),
/// one-shot from the encoded public key.
pub(crate) fn ml_dsa_verify(
    p: &'static Params,
    key: PublicKey<'_>,
    message: &Message<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    let suite = key.suite();
    message.check()?;
    check_signature(suite, p, sig)?;
    // sigDecode and the cheap checks, before any hashing of the key.
    let mut z_hat = [const { Poly::ZERO }; MAX_L];
    let decoded = decode_signature(suite, p, sig, &mut z_hat)?;
    let mut matrix = Streamed::new(EncodedKey::new(key), p.k, p.l);
    run_one(&mut Verification::new(p, suite, Key::Encoded(&mut matrix), message, decoded))
}
