//! A prepared ML-DSA public key: tr, Â and NTT(t1·2^d) computed once, always from
//! the encoded key itself (never accepted from outside).

use alloc::vec::Vec;

use super::decode::{Decoded, EncodedKey, TR_LEN, check_signature, decode_signature};
use super::matrix::MatrixStates;
use super::params::{MAX_L, Params};
use super::verify::{Key, Verification};
use crate::hash::multi::states::{FedShake256, InFlight, Round, run_one};
use crate::ring::Poly;
use crate::{Error, Message, PublicKey, Suite};

/// The expanded form of one ML-DSA public key (up to 57 KiB for ML-DSA-87).
#[derive(Clone)]
pub(crate) struct PreparedMlDsa {
    suite: Suite,
    params: &'static Params,
    tr: [u8; TR_LEN],
    /// Â in row-major order (k × l), NTT domain.
    a_hat: Vec<Poly>,
    /// NTT(t1_i · 2^d) for each row.
    t1_hat: Vec<Poly>,
}

impl PreparedMlDsa {
    /// Decodes and expands `pk`: Â (ExpandA, Algorithm 32) with tr = H(pk, 64) riding in
    /// the same rounds of the multi-state permutation, then NTT(t1·2^d).
    pub(crate) fn new(params: &'static Params, key: PublicKey<'_>) -> Self {
        let suite = key.suite();
        let key = EncodedKey::new(key);
        let (k, l) = (params.k, params.l);
        let mut a_hat = alloc::vec![Poly::ZERO; k * l];
        let tr = run_one(&mut Preparing {
            pk: key.pk,
            tr: FedShake256::new(),
            matrix: MatrixStates::filling(key.rho, k, l, &mut a_hat),
        });
        let t1_hat = (0..k)
            .map(|i| {
                let mut t = Poly::ZERO;
                key.t1_hat(i, &mut t);
                t
            })
            .collect();
        PreparedMlDsa { suite, params, tr, a_hat, t1_hat }
    }

    /// The suite of the key.
    pub(crate) fn suite(&self) -> Suite {
        self.suite
    }

    /// ML-DSA.Verify_internal (Algorithm 8) under this key, with M′ or μ as `message`
    /// describes.
    pub(crate) fn ml_dsa_verify(&self, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        let mut z_hat = [const { Poly::ZERO }; MAX_L];
        let decoded = self.decode(message, sig, &mut z_hat)?;
        run_one(&mut self.verification(message, decoded))
    }

    /// What comes before any hashing: the message's and the signature's lengths, then
    /// sigDecode with its checks and NTT(z) into `z_hat`.
    pub(super) fn decode<'a>(
        &self,
        message: &Message<'_>,
        sig: &'a [u8],
        z_hat: &'a mut [Poly; MAX_L],
    ) -> Result<Decoded<'a>, Error> {
        message.check()?;
        check_signature(self.suite, self.params, sig)?;
        decode_signature(self.suite, self.params, sig, z_hat)
    }

    /// Algorithm 8 of a decoded signature under this key.
    pub(super) fn verification<'a>(&'a self, message: &Message<'a>, decoded: Decoded<'a>) -> Verification<'a> {
        let key = Key::Prepared { tr: &self.tr, a_hat: &self.a_hat, t1_hat: &self.t1_hat };
        Verification::new(self.params, self.suite, key, message, decoded)
    }
}

/// tr = H(pk, 64) and Â = ExpandA(ρ), their hashes in the same rounds.
struct Preparing<'a> {
    pk: &'a [u8],
    tr: FedShake256,
    /// Â's entries, each sampled in its place.
    matrix: MatrixStates<'a>,
}

impl InFlight for Preparing<'_> {
    /// tr.
    type Output = [u8; TR_LEN];

    fn advance(&mut self) -> Option<Self::Output> {
        self.matrix.take(|_, _, _| {});
        let tr = *self.tr.feed(&[self.pk], true)?;
        self.matrix.is_done().then_some(tr)
    }

    fn offer<'s, const W: usize>(&'s mut self, round: &mut Round<'s, W>) {
        round.offer(self.tr.waiting());
        self.matrix.offer(round);
    }
}
