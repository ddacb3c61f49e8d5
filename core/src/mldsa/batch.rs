//! Verifications under prepared keys side by side (a quorum certificate's signatures,
//! a batch): a lone prepared verification's hashes are a chain of seven or more
//! permutations of one state each (μ beside H(c̃), then c̃′); here the hashes of a
//! group of signatures share the multi-state permutation's rounds, and the rows of
//! each are done in between. Each verdict is the one `PreparedMlDsa::ml_dsa_verify`
//! gives.

use alloc::vec;
use alloc::vec::Vec;

use super::params::MAX_L;
use super::prepared::PreparedMlDsa;
use crate::hash::multi::states::{MAX_KECCAK_STATES, run};
use crate::ring::Poly;
use crate::{Error, Message};

/// One verification: a prepared key, a message and a signature.
pub(crate) type Request<'a> = (&'a PreparedMlDsa, Message<'a>, &'a [u8]);

/// Signatures in flight together: enough that every round of the widest kernel is full
/// (two hashes of each wait at once, μ and H(c̃)), few enough that their NTT(z) stay in
/// the cache.
const GROUP: usize = MAX_KECCAK_STATES;

/// Verifies each of `requests`, request i's verdict into `out[i]` (`out` is as long).
pub(crate) fn verify_each(requests: &[Request<'_>], out: &mut [Result<(), Error>]) {
    // NTT(z) of each signature of a group, made once for every group.
    let mut z_hats = vec![[const { Poly::ZERO }; MAX_L]; GROUP.min(requests.len())];
    for (group, out) in requests.chunks(GROUP).zip(out.chunks_mut(GROUP)) {
        let mut flying = Vec::with_capacity(group.len());
        let mut at = [0; GROUP];
        for (i, ((key, message, sig), z_hat)) in group.iter().zip(z_hats.iter_mut()).enumerate() {
            match key.decode(message, sig, z_hat) {
                Ok(decoded) => {
                    at[flying.len()] = i;
                    flying.push(key.verification(message, decoded));
                }
                Err(e) => out[i] = Err(e),
            }
        }
        run(&mut flying, |j, verdict| out[at[j]] = verdict);
    }
}
