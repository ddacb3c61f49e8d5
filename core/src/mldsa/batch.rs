//! Verifications under prepared keys side by side (a quorum certificate's signatures,
//! a batch). A lone prepared verification runs its hashes one state at a time: μ =
//! H(tr ‖ M′, 64) beside SampleInBall's H(c̃), then c̃′ = H(μ ‖ w1Encode(w1′), λ/4),
//! a chain of seven or more permutations. Here the hashes of as many signatures as the
//! Keccak kernel has lanes (eight with AVX-512, else four) share its calls, and the rows
//! of each signature are done in between. Each verdict is the one
//! `PreparedMlDsa::ml_dsa_verify` gives.

use alloc::vec;
use alloc::vec::Vec;

use super::lane_hashes::{Challenge, FedHash};
use super::params::MAX_L;
use super::prepared::PreparedMlDsa;
use super::verify::{Decoded, MAX_W1_BYTES, TR_LEN, compare, mu};
use crate::hash::lanes::permute_waiting;
use crate::kernel::{MAX_KECCAK_LANES, keccak_lanes};
use crate::message::MessagePrime;
use crate::ring::Poly;
use crate::{Error, Message};

/// One verification: a prepared key, a message and a signature.
pub(crate) type Request<'a> = (&'a PreparedMlDsa, Message<'a>, &'a [u8]);

/// Verifies each of `requests`, request i's verdict into `out[i]` (`out` is as long).
pub(crate) fn verify_each(requests: &[Request<'_>], out: &mut [Result<(), Error>]) {
    if keccak_lanes() == MAX_KECCAK_LANES {
        in_groups::<MAX_KECCAK_LANES>(requests, out);
    } else {
        in_groups::<4>(requests, out);
    }
}

/// [`verify_each`] `W` signatures at a time (the kernel set's widest Keccak kernel).
fn in_groups<const W: usize>(requests: &[Request<'_>], out: &mut [Result<(), Error>]) {
    // NTT(z) of each signature of a group, made once for every group.
    let mut z_hats = vec![[const { Poly::ZERO }; MAX_L]; W.min(requests.len())];
    for (group, out) in requests.chunks(W).zip(out.chunks_mut(W)) {
        verify_group::<W>(group, &mut z_hats, out);
    }
}

/// A signature of a group that passed the checks before hashing.
struct InFlight<'a> {
    /// Its place in the group.
    at: usize,
    key: &'a PreparedMlDsa,
    decoded: Decoded<'a>,
    m_prime: Option<MessagePrime<'a>>,
    /// μ = H(tr ‖ M′, 64), tr absorbed.
    mu_hash: FedHash,
    mu: Option<[u8; TR_LEN]>,
    challenge: Challenge,
    /// NTT(SampleInBall(c̃)).
    c_hat: Option<Poly>,
    /// c̃′ = H(μ ‖ w1Encode(w1′), λ/4), once μ is known.
    c_tilde_hash: Option<FedHash>,
    c_tilde_prime: Option<[u8; 64]>,
    /// w1Encode(w1′), w1_len bytes.
    w1: [u8; MAX_W1_BYTES],
    w1_len: usize,
}

impl<'a> InFlight<'a> {
    fn new(at: usize, key: &'a PreparedMlDsa, message: &Message<'a>, decoded: Decoded<'a>) -> Result<Self, Error> {
        let m_prime = MessagePrime::new(message);
        // External μ: no hash (its length was checked with the message).
        let known = match m_prime {
            None => Some(mu(|| *key.tr(), message)?),
            Some(_) => None,
        };
        Ok(InFlight {
            at,
            key,
            challenge: Challenge::new(decoded.c_tilde),
            decoded,
            m_prime,
            mu_hash: FedHash::after(key.tr()),
            mu: known,
            c_hat: None,
            c_tilde_hash: None,
            c_tilde_prime: None,
            w1: [0; MAX_W1_BYTES],
            w1_len: 0,
        })
    }

    /// Moves μ's hash on (absorbing M′ as far as it can), and takes μ once it is out.
    fn advance_mu(&mut self) {
        if self.mu.is_none() {
            let parts = self.m_prime.as_ref().map_or([&[][..], &[][..]], MessagePrime::parts);
            self.mu = self.mu_hash.advance(&parts, true);
        }
    }

    /// Moves c̃′'s hash on, started from μ the first time.
    fn advance_c_tilde(&mut self, mu: &[u8; TR_LEN]) {
        if self.c_tilde_prime.is_none() {
            let hash = self.c_tilde_hash.get_or_insert_with(|| FedHash::after(mu));
            self.c_tilde_prime = hash.advance(&[&self.w1[..self.w1_len]], true);
        }
    }
}

/// Lines 6–11 of Algorithm 8 for each request of `group` (at most `W`).
fn verify_group<const W: usize>(group: &[Request<'_>], z_hats: &mut [[Poly; MAX_L]], out: &mut [Result<(), Error>]) {
    let mut flying = Vec::with_capacity(group.len());
    for (at, ((key, message, sig), z_hat)) in group.iter().zip(z_hats.iter_mut()).enumerate() {
        match key.decode(message, sig, z_hat).and_then(|decoded| InFlight::new(at, key, message, decoded)) {
            Ok(one) => flying.push(one),
            Err(e) => out[at] = Err(e),
        }
    }
    // Lines 6–7: μ and NTT(c), each signature's two hashes in lanes.
    loop {
        flying.iter_mut().for_each(InFlight::advance_mu);
        let lanes = flying.iter_mut().flat_map(|one| {
            let mu_lane = if one.mu.is_none() { Some(one.mu_hash.lane()) } else { None };
            mu_lane.into_iter().chain(one.challenge.lane())
        });
        if permute_waiting::<W>(lanes) == 0 {
            break;
        }
        for one in &mut flying {
            if one.c_hat.is_none() {
                one.c_hat = one.challenge.after_permutation(one.decoded.c_tilde, one.key.params().tau);
            }
        }
    }
    // Lines 8–10: each signature's rows, w1Encode(w1′) kept for its c̃′.
    for one in &mut flying {
        let Some(c_hat) = &one.c_hat else { continue };
        let (w1, len) = (&mut one.w1, &mut one.w1_len);
        one.key.w1_rows(&one.decoded, c_hat, |bytes| {
            w1[*len..*len + bytes.len()].copy_from_slice(bytes);
            *len += bytes.len();
        });
    }
    // c̃′ of each, in lanes.
    loop {
        for one in &mut flying {
            if let (Some(mu), Some(_)) = (one.mu, &one.c_hat) {
                one.advance_c_tilde(&mu);
            }
        }
        let lanes = flying
            .iter_mut()
            .filter(|one| one.c_tilde_prime.is_none())
            .flat_map(|one| one.c_tilde_hash.as_mut().map(FedHash::lane));
        if permute_waiting::<W>(lanes) == 0 {
            break;
        }
    }
    // Line 11.
    for one in &flying {
        let suite = one.key.suite();
        out[one.at] = match &one.c_tilde_prime {
            Some(c_tilde_prime) => compare(suite, one.decoded.c_tilde, &c_tilde_prime[..one.key.params().c_tilde_len]),
            None => {
                // Unreachable: every hash above runs until its output is out.
                debug_assert!(false, "a signature's hashes did not finish");
                Err(Error::InvalidSignature { suite })
            }
        };
    }
}
