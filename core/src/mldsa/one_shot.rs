//! One-shot ML-DSA.Verify_internal (FIPS 204 Algorithm 8) from the encoded public key,
//! with every Keccak permutation it can share run four (or, with the eight-state
//! kernel, eight) at a time.
//!
//! Beside ExpandA's SHAKE128 instances (`MatrixLanes`), the lanes carry the hashes that
//! would otherwise each run alone: SampleInBall's H(c̃), then the chain tr = H(pk, 64) →
//! μ = H(tr ‖ M′, 64) → c̃′ = H(μ ‖ w1Encode(w1′), λ/4), whose last link absorbs each
//! row of w1′ as soon as its entries of Â are done. Only what is left at the end (the
//! last row's bytes of c̃′) runs through the one-state kernel. Â is never held: each
//! entry is multiplied into its row of w as it completes, so verification needs no heap.

use super::lane_hashes::{Challenge, FedHash};
use super::params::{MAX_K, MAX_L, Params};
use super::sample::MatrixLanes;
use super::verify::{EncodedKey, MAX_W1_BYTES, TR_LEN, W1Scratch, check_signature, compare, decode_signature, w1_row};
use crate::hash::lanes::{Lane, permute_waiting};
use crate::kernel::{MAX_KECCAK_LANES, keccak_lanes, pointwise};
use crate::message::MessagePrime;
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
    // Eight lanes where the set permutes eight states (x86-64 only: elsewhere both
    // branches are the four-lane instance).
    if keccak_lanes() == MAX_KECCAK_LANES {
        in_lanes::<MAX_KECCAK_LANES>(p, key, message, sig)
    } else {
        in_lanes::<4>(p, key, message, sig)
    }
}

/// [`ml_dsa_verify`] with `W` Keccak lanes (the width of the kernel set's widest
/// Keccak kernel: 4 or 8).
fn in_lanes<const W: usize>(
    p: &'static Params,
    key: PublicKey<'_>,
    message: &Message<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    let (suite, pk) = (key.suite(), key.as_bytes());
    let key = EncodedKey::new(key);
    message.check()?;
    check_signature(suite, p, sig)?;
    // sigDecode and the cheap checks, before any hashing of the key.
    let mut z_hat = [const { Poly::ZERO }; MAX_L];
    let decoded = decode_signature(suite, p, sig, &mut z_hat)?;
    let z_hat = decoded.z_hat;
    let m_prime = MessagePrime::new(message);

    let mut challenge = Challenge::new(decoded.c_tilde);
    let mut chain = match (&m_prime, message) {
        (Some(_), _) => Chain::Tr(FedHash::new()),
        (None, &Message::ExternalMu(given)) => {
            Chain::c_tilde(given.try_into().map_err(|_| Error::MuLength { got: given.len() })?)
        }
        (None, _) => return Err(Error::MuLength { got: 0 }),
    };
    let mut matrix = MatrixLanes::<W>::new(key.rho, p.k, p.l);
    // w = Â ∘ ẑ, a row at a time as entries complete; `done[i]` entries of row i are in.
    let mut w = [const { Poly::ZERO }; MAX_K];
    let mut done = [0usize; MAX_K];
    let mut rows = Rows { next: 0, w1: [0; MAX_W1_BYTES], len: 0, t1_hat: Poly::ZERO, scratch: W1Scratch::new() };
    let mut c_hat = None;
    loop {
        // Rows whose entries are all in, in order, once the challenge is known.
        if let Some(c_hat) = &c_hat {
            while rows.next < p.k && done[rows.next] == p.l {
                rows.finish(p, &key, &decoded.hints, c_hat, &mut w[rows.next]);
            }
        }
        let parts = m_prime.as_ref().map_or([&[][..], &[][..]], MessagePrime::parts);
        if let Some(c_tilde_prime) = chain.advance(p, pk, &parts, &rows) {
            return compare(suite, decoded.c_tilde, &c_tilde_prime[..p.c_tilde_len]);
        }
        let lanes = [chain.lane(), challenge.lane()].into_iter().flatten().chain(matrix.lanes());
        if permute_waiting::<W>(lanes) == 0 {
            // Unreachable: until c̃′ is out, the chain, the challenge or an entry waits.
            debug_assert!(false, "nothing to permute before c̃′");
            return Err(Error::InvalidSignature { suite });
        }
        if c_hat.is_none() {
            c_hat = challenge.after_permutation(decoded.c_tilde, p.tau);
        }
        matrix.after_permutation(|r, s, a| {
            pointwise(&mut w[r], a, &z_hat[s], false);
            done[r] += 1;
        });
    }
}

/// The rows of w1Encode(w1′) done so far.
struct Rows {
    /// The next row to finish.
    next: usize,
    /// w1Encode of rows 0 .. next.
    w1: [u8; MAX_W1_BYTES],
    len: usize,
    /// The row's t̂1 (each row decodes over the last).
    t1_hat: Poly,
    scratch: W1Scratch,
}

impl Rows {
    /// Lines 8–10 for row `next`, whose Â ∘ ẑ is `acc`: acc −= ĉ ∘ t̂1, then w1Encode(UseHint).
    fn finish(
        &mut self,
        p: &Params,
        key: &EncodedKey<'_>,
        hints: &super::hint::Hints<'_>,
        c_hat: &Poly,
        acc: &mut Poly,
    ) {
        key.t1_hat(self.next, &mut self.t1_hat);
        pointwise(acc, c_hat, &self.t1_hat, true);
        let bytes = p.w1_poly_bytes();
        w1_row(p, hints, self.next, acc, &mut self.scratch, &mut self.w1[self.len..self.len + bytes]);
        self.len += bytes;
        self.next += 1;
    }
}

/// The chain tr → μ → c̃′, one SHAKE256 at a time.
enum Chain {
    /// tr = H(pk, 64).
    Tr(FedHash),
    /// μ = H(tr ‖ M′, 64), tr already absorbed.
    Mu(FedHash),
    /// c̃′ = H(μ ‖ w1Encode(w1′), λ/4), μ already absorbed.
    CTilde(FedHash),
}

impl Chain {
    fn c_tilde(mu: &[u8; TR_LEN]) -> Self {
        Chain::CTilde(FedHash::after(mu))
    }

    fn lane(&mut self) -> Option<Lane<'_>> {
        let (Chain::Tr(hash) | Chain::Mu(hash) | Chain::CTilde(hash)) = self;
        Some(hash.lane())
    }

    /// Moves the chain on as far as it can without a permutation: a finished hash
    /// starts the next, and the current one absorbs what input there is. c̃′ (its first
    /// λ/4 bytes) once out.
    fn advance(&mut self, p: &Params, pk: &[u8], m_prime: &[&[u8]; 2], rows: &Rows) -> Option<[u8; 64]> {
        loop {
            match self {
                Chain::Tr(hash) => match hash.advance(&[pk], true) {
                    Some(tr) => *self = Chain::Mu(FedHash::after(&tr)),
                    None => return None,
                },
                Chain::Mu(hash) => match hash.advance(m_prime, true) {
                    Some(mu) => *self = Chain::c_tilde(&mu),
                    None => return None,
                },
                Chain::CTilde(hash) => return hash.advance(&[&rows.w1[..rows.len]], rows.next == p.k),
            }
        }
    }
}
