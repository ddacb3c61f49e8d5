//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8), written once. [`Verification`]
//! carries out the algorithm's lines in order, each as far as its inputs are there; its
//! hashes are SHAKE instances that the hash layer (`hash::multi::states`) permutes in
//! rounds shared with its other hashes and with any other verification in flight. The
//! one-shot path (`one_shot.rs`), prepared keys (`prepared.rs`) and batches
//! (`batch.rs`) are its callers: they differ in where tr and Â come from and in how
//! many verifications share the rounds.

use super::decode::{Decoded, TR_LEN};
use super::matrix::Streamed;
use super::params::Params;
use super::sample::Challenge;
use crate::hash::multi::states::{FedShake256, InFlight, Round};
use crate::kernel::{inv_ntt, pack_w1, use_hint_poly, w_approx_row};
use crate::message::MessagePrime;
use crate::ring::{N, Poly};
use crate::{Error, Message, Suite};

/// The longest w1Encode(w1′), k · 32 · bits bytes: ML-DSA-87's 8 · 128 (ML-DSA-44 and
/// -65 have 768).
pub(crate) const MAX_W1_BYTES: usize = 1024;

/// Where tr and Â come from.
pub(crate) enum Key<'a> {
    /// The encoded key (the one-shot path): tr is hashed and Â expanded as the
    /// verification goes.
    Encoded(&'a mut Streamed<'a>),
    /// A prepared key's tr, Â (row-major, k × l) and NTT(t1_i · 2^d) of each row.
    Prepared { tr: &'a [u8; TR_LEN], a_hat: &'a [Poly], t1_hat: &'a [Poly] },
}

impl Key<'_> {
    /// Whether row `i` of Â is all there (`l` entries).
    fn row_ready(&self, i: usize, l: usize) -> bool {
        match self {
            Key::Encoded(matrix) => matrix.row_ready(i, l),
            Key::Prepared { .. } => true,
        }
    }
}

/// Lines 6, 7 and 11's hashes, each started from the one before's output: one of them
/// in flight at a time.
enum Chain<'a> {
    /// Line 6: tr ← H(pk, 64) of the encoded key `pk`.
    Tr(FedShake256, &'a [u8]),
    /// Line 7: μ ← H(tr ‖ M′, 64).
    Mu(FedShake256),
    /// Line 11: c̃′ ← H(μ ‖ w1Encode(w1′), λ/4), fed each row's bytes as it is done
    /// (from the μ given, for external μ).
    CTildePrime(FedShake256),
}

impl Chain<'_> {
    /// The hash in flight.
    fn hash(&mut self) -> &mut FedShake256 {
        match self {
            Chain::Tr(hash, _) | Chain::Mu(hash) | Chain::CTildePrime(hash) => hash,
        }
    }
}

/// One ML-DSA.Verify_internal (Algorithm 8) after lines 1–4 and line 12's bound on z
/// (done by `decode_signature` before any hashing).
pub(crate) struct Verification<'a> {
    p: &'static Params,
    suite: Suite,
    key: Key<'a>,
    sig: Decoded<'a>,
    /// M′ (`None`: μ was given).
    m_prime: Option<MessagePrime<'a>>,
    chain: Chain<'a>,
    c: Challenge,
    /// w1Encode(w1′) of the rows done so far.
    w1: [u8; MAX_W1_BYTES],
    w1_len: usize,
    rows: usize,
    done: bool,
}

impl<'a> Verification<'a> {
    /// Under `key`, of `message` (its lengths checked) and the decoded signature.
    // Always inlined: built in its caller's frame, not built here and copied there.
    #[inline(always)]
    pub(crate) fn new(p: &'static Params, suite: Suite, key: Key<'a>, message: &Message<'a>, sig: Decoded<'a>) -> Self {
        let (m_prime, chain) = match (MessagePrime::new(message), &key) {
            (Ok(m_prime), Key::Encoded(matrix)) => (Some(m_prime), Chain::Tr(FedShake256::new(), matrix.key.pk)),
            (Ok(m_prime), Key::Prepared { tr, .. }) => (Some(m_prime), Chain::Mu(FedShake256::after(*tr))),
            // External μ (64 bytes: `Message::check`).
            (Err(given), _) => (None, Chain::CTildePrime(FedShake256::after(given))),
        };
        Verification {
            p,
            suite,
            key,
            c: Challenge::new(sig.c_tilde),
            sig,
            m_prime,
            chain,
            w1: [0; MAX_W1_BYTES],
            w1_len: 0,
            rows: 0,
            done: false,
        }
    }
}

impl Verification<'_> {
    /// Whether every row is in and line 11's hash has started from μ: nothing else is
    /// left to do or to hash.
    fn only_line_11_left(&self) -> bool {
        self.rows == self.p.k && matches!(self.chain, Chain::CTildePrime(_))
    }
}

impl InFlight for Verification<'_> {
    /// Line 12's answer.
    type Output = Result<(), Error>;

    fn advance(&mut self) -> Option<Self::Output> {
        let p = self.p;
        if self.done {
            return None;
        }
        // Lines 5–10 until only line 11's hash is left.
        if !self.only_line_11_left() {
            // Line 5: Â ← ExpandA(ρ); where it is expanded here, its completed entries go
            // into their rows of line 9's Â ∘ NTT(z).
            if let Key::Encoded(matrix) = &mut self.key {
                matrix.take(self.sig.z_hat);
            }
            // Line 6: tr ← H(pk, 64) (a prepared key holds it; a given μ needs none).
            if let Chain::Tr(hash, pk) = &mut self.chain
                && let Some(&tr) = hash.feed(&[pk], true)
            {
                self.chain = Chain::Mu(FedShake256::after(&tr));
            }
            // Line 7: μ ← H(tr ‖ M′, 64); line 11's hash starts from it.
            if let Chain::Mu(hash) = &mut self.chain {
                let m_prime = self.m_prime.as_ref().map_or([&[][..]; 5], MessagePrime::parts);
                if let Some(&mu) = hash.feed(&m_prime, true) {
                    self.chain = Chain::CTildePrime(FedShake256::after(&mu));
                }
            }
            // Line 8: c ← SampleInBall(c̃), in the NTT domain.
            let c_hat = self.c.sample(self.sig.c_tilde, p.tau);
            // Lines 9–10, a row at a time as its entries of Â are in:
            // w′_i = NTT⁻¹(Â_i ∘ NTT(z) − NTT(c) ∘ NTT(t1_i · 2^d)), w1′_i = UseHint(h_i, w′_i),
            // and w1Encode of it for line 11.
            if let Some(c_hat) = c_hat
                && self.rows < p.k
                && self.key.row_ready(self.rows, p.l)
            {
                let mut scratch = W1Scratch::new();
                match &mut self.key {
                    Key::Encoded(matrix) => {
                        while self.rows < p.k && matrix.row_ready(self.rows, p.l) {
                            let w = matrix.row(self.rows, c_hat);
                            self.w1_len +=
                                w1_row(p, &self.sig, self.rows, w, &mut scratch, &mut self.w1[self.w1_len..]);
                            self.rows += 1;
                        }
                    }
                    // Every row at once, each made in the same polynomial.
                    Key::Prepared { a_hat, t1_hat, .. } => {
                        let mut w = Poly::ZERO;
                        for (i, (a_hat, t1_hat)) in a_hat.chunks_exact(p.l).zip(*t1_hat).enumerate() {
                            w_approx_row(&mut w, a_hat, self.sig.z_hat, c_hat, t1_hat);
                            self.w1_len += w1_row(p, &self.sig, i, &mut w, &mut scratch, &mut self.w1[self.w1_len..]);
                        }
                        self.rows = p.k;
                    }
                }
            }
        }
        // Line 11: c̃′ ← H(μ ‖ w1Encode(w1′), λ/4), fed each row's bytes as it is done.
        let Chain::CTildePrime(hash) = &mut self.chain else { return None };
        let c_tilde_prime = hash.feed(&[&self.w1[..self.w1_len]], self.rows == p.k)?;
        // Line 12: [[‖z‖∞ < γ1 − β]] (checked by sigDecode) and [[c̃ = c̃′]].
        self.done = true;
        let same = &c_tilde_prime[..p.c_tilde_len] == self.sig.c_tilde;
        Some(if same { Ok(()) } else { Err(Error::InvalidSignature { suite: self.suite }) })
    }

    #[inline]
    fn finish_alone(&mut self) -> bool {
        // Line 11's hash, once it is all that is left.
        let only = self.only_line_11_left();
        match &mut self.chain {
            Chain::CTildePrime(hash) if only => {
                hash.finish_alone(&[&self.w1[..self.w1_len]]);
                true
            }
            _ => false,
        }
    }

    fn offer<'s, const W: usize>(&'s mut self, round: &mut Round<'s, W>) {
        let only = self.only_line_11_left();
        round.offer(self.chain.hash().waiting());
        if only {
            return;
        }
        round.offer(self.c.waiting());
        if let Key::Encoded(matrix) = &mut self.key {
            matrix.entries.offer(round);
        }
    }
}

/// What [`w1_row`] works in, made once for the rows done together rather than once per
/// row.
struct W1Scratch {
    /// A row's hint flags: set for the row, cleared after it.
    hint: [u8; N],
    /// UseHint's output.
    w1: [i32; N],
}

impl W1Scratch {
    const fn new() -> Self {
        W1Scratch { hint: [0; N], w1: [0; N] }
    }
}

/// Lines 9–10 for row i, given acc = (Â ∘ ẑ − ĉ ∘ t̂1)_i: w′_i = NTT⁻¹(acc),
/// w1′_i = UseHint(h_i, w′_i), and w1Encode of it into the front of `out`; returns the
/// bytes written (w1_poly_bytes).
#[cfg_attr(target_arch = "wasm32", inline(never))]
fn w1_row(p: &Params, sig: &Decoded<'_>, i: usize, acc: &mut Poly, scratch: &mut W1Scratch, out: &mut [u8]) -> usize {
    inv_ntt(acc);
    let row = sig.hints.row(i);
    for &j in row {
        scratch.hint[usize::from(j)] = 1;
    }
    use_hint_poly(&acc.0, &scratch.hint, p.gamma2, &mut scratch.w1);
    for &j in row {
        scratch.hint[usize::from(j)] = 0;
    }
    let bytes = p.w1_poly_bytes();
    pack_w1(&scratch.w1, p.w1_bits(), &mut out[..bytes]);
    bytes
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
