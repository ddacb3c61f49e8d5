//! A prepared ML-DSA public key: tr, Â and NTT(t1·2^d) computed once, always from
//! the encoded key itself (never accepted from outside).

use alloc::vec::Vec;

use super::params::Params;
use super::sample::expand_a_x4;
use super::verify::{EncodedKey, KeyMaterial, TR_LEN, check_key, check_signature, verify_internal};
use crate::kernel::{pointwise, pointwise_row};
use crate::ring::Poly;
use crate::{Error, Message, Suite};

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
    /// Decodes and expands `pk`.
    pub(crate) fn new(suite: Suite, pk: &[u8]) -> Result<Self, Error> {
        let params = check_key(suite, pk)?;
        let key = EncodedKey::new(pk).ok_or(Error::PublicKeyLength {
            suite,
            expected: params.public_key_len(),
            got: pk.len(),
        })?;
        // All k·l entries, four at a time (row-major order).
        let entries: Vec<(usize, usize)> = (0..params.k).flat_map(|i| (0..params.l).map(move |j| (i, j))).collect();
        let mut a_hat = Vec::with_capacity(entries.len());
        for group in entries.chunks(4) {
            let mut four = [const { Poly::ZERO }; 4];
            let lanes = core::array::from_fn(|k| group.get(k).copied().unwrap_or(group[0]));
            expand_a_x4(key.rho, lanes, &mut four);
            a_hat.extend(four.into_iter().take(group.len()));
        }
        let t1_hat = (0..params.k)
            .map(|i| {
                let mut t = Poly::ZERO;
                key.t1_hat(i, &mut t);
                t
            })
            .collect();
        Ok(PreparedMlDsa { suite, params, tr: key.tr(), a_hat, t1_hat })
    }

    /// The suite of the key.
    pub(crate) fn suite(&self) -> Suite {
        self.suite
    }

    /// Verifies one signature under this key.
    pub(crate) fn ml_dsa_verify(&self, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        message.check()?;
        check_signature(self.suite, self.params, sig)?;
        verify_internal(self.suite, self.params, self, message, sig)
    }
}

impl KeyMaterial for PreparedMlDsa {
    fn tr(&self) -> [u8; TR_LEN] {
        self.tr
    }

    fn add_matrix_product(&self, z_hat: &[Poly], w: &mut [Poly]) {
        for (row, acc) in self.a_hat.chunks_exact(self.params.l).zip(w.iter_mut()) {
            pointwise_row(acc, row, z_hat);
        }
    }

    fn sub_t1_product(&self, i: usize, c_hat: &Poly, acc: &mut Poly) {
        pointwise(acc, c_hat, &self.t1_hat[i], true);
    }
}
