//! A prepared ML-DSA public key: tr, Â and NTT(t1·2^d) computed once, always from
//! the encoded key itself (never accepted from outside).

use alloc::vec::Vec;

#[cfg(not(target_arch = "wasm32"))]
use super::lane_hashes::{Challenge, FedHash};
use super::params::{MAX_L, Params};
use super::sample::MatrixLanes;
#[cfg(target_arch = "wasm32")]
use super::sample::sample_in_ball;
use super::verify::{Decoded, EncodedKey, TR_LEN, W1Scratch, check_signature, compare, decode_signature, mu, w1_row};
use crate::hash::Shake256;
use crate::hash::lanes::{LaneShake256, permute_waiting};
#[cfg(target_arch = "wasm32")]
use crate::kernel::ntt;
use crate::kernel::{MAX_KECCAK_LANES, keccak_lanes, w_approx_row};
#[cfg(not(target_arch = "wasm32"))]
use crate::message::MessagePrime;
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
    /// the same multi-state permutations, then NTT(t1·2^d).
    pub(crate) fn new(params: &'static Params, key: PublicKey<'_>) -> Self {
        if keccak_lanes() == MAX_KECCAK_LANES {
            Self::in_lanes::<MAX_KECCAK_LANES>(params, key)
        } else {
            Self::in_lanes::<4>(params, key)
        }
    }

    /// [`new`](Self::new) with `W` Keccak lanes (4 or 8, the kernel set's widest).
    fn in_lanes<const W: usize>(params: &'static Params, key: PublicKey<'_>) -> Self {
        let (suite, pk) = (key.suite(), key.as_bytes());
        let key = EncodedKey::new(key);
        let (k, l) = (params.k, params.l);
        let mut a_hat = alloc::vec![Poly::ZERO; k * l];
        let mut matrix = MatrixLanes::<W>::new(key.rho, k, l);
        let mut tr_shake = LaneShake256::new();
        let (mut fed, mut tr) = (0, None);
        while tr.is_none() || !matrix.is_done() {
            if tr.is_none() && !tr_shake.is_waiting() {
                if tr_shake.is_readable() {
                    let mut out = [0u8; TR_LEN];
                    tr_shake.read(&mut out);
                    tr = Some(out);
                } else {
                    fed += tr_shake.absorb(&pk[fed..]);
                    if fed == pk.len() {
                        tr_shake.finish();
                    }
                }
            }
            let tr_lane = tr.is_none().then(|| tr_shake.lane());
            if permute_waiting::<W>(tr_lane.into_iter().chain(matrix.lanes())) == 0 {
                break;
            }
            matrix.after_permutation(|r, s, a| a_hat[r * l + s] = a.clone());
        }
        let tr = tr.unwrap_or_else(|| {
            let mut out = [0u8; TR_LEN];
            Shake256::digest(&[pk], &mut out);
            out
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

    /// Line 6's μ = H(tr ‖ M′, 64) (or the given μ) and line 7's NTT(SampleInBall(c̃)),
    /// one after the other: in wasm, where the module's size counts (the version below
    /// adds code to it).
    #[cfg(target_arch = "wasm32")]
    fn mu_and_challenge(&self, message: &Message<'_>, c_tilde: &[u8]) -> Result<([u8; TR_LEN], Poly), Error> {
        let mu = mu(|| self.tr, message)?;
        let mut c_hat = Poly::ZERO;
        sample_in_ball(c_tilde, self.params.tau, &mut c_hat);
        ntt(&mut c_hat);
        Ok((mu, c_hat))
    }

    /// Line 6's μ = H(tr ‖ M′, 64) (or the given μ) and line 7's NTT(SampleInBall(c̃)):
    /// their two hashes side by side in lanes of the four-state kernel.
    #[cfg(not(target_arch = "wasm32"))]
    fn mu_and_challenge(&self, message: &Message<'_>, c_tilde: &[u8]) -> Result<([u8; TR_LEN], Poly), Error> {
        let m_prime = MessagePrime::new(message);
        let mut mu_out = match m_prime {
            None => Some(mu(|| self.tr, message)?),
            Some(_) => None,
        };
        let [head, tail] = m_prime.as_ref().map_or([&[][..], &[][..]], MessagePrime::parts);
        let mut mu_hash = FedHash::after(&self.tr);
        let mut challenge = Challenge::new(c_tilde);
        let mut c_hat = None;
        loop {
            if mu_out.is_none() {
                mu_out = mu_hash.advance(&[head, tail], true);
            }
            match (mu_out, c_hat.take()) {
                (Some(mu), Some(c_hat)) => return Ok((mu, c_hat)),
                (_, taken) => c_hat = taken,
            }
            let mu_lane = if mu_out.is_none() { Some(mu_hash.lane()) } else { None };
            if permute_waiting::<4>(mu_lane.into_iter().chain(challenge.lane())) == 0 {
                // Unreachable: until both are out, μ's hash or H(c̃) waits.
                debug_assert!(false, "nothing to permute before μ and c");
                return Err(Error::InvalidSignature { suite: self.suite });
            }
            if c_hat.is_none() {
                c_hat = challenge.after_permutation(c_tilde, self.params.tau);
            }
        }
    }

    /// ML-DSA.Verify_internal (Algorithm 8) under this key, with M′ or μ as `message`
    /// describes.
    pub(crate) fn ml_dsa_verify(&self, message: &Message<'_>, sig: &[u8]) -> Result<(), Error> {
        let mut z_hat = [const { Poly::ZERO }; MAX_L];
        let decoded = self.decode(message, sig, &mut z_hat)?;
        let (mu, c_hat) = self.mu_and_challenge(message, decoded.c_tilde)?;
        // c̃′ = H(μ ‖ w1Encode(w1′), λ/4), each row's bytes absorbed as it is done.
        let mut h = Shake256::new();
        h.absorb(&mu);
        self.w1_rows(&decoded, &c_hat, |bytes| h.absorb(bytes));
        let mut c_tilde_prime = [0u8; 64];
        let c_tilde_prime = &mut c_tilde_prime[..self.params.c_tilde_len];
        h.finalize().squeeze(c_tilde_prime);
        compare(self.suite, decoded.c_tilde, c_tilde_prime)
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

    /// Lines 8–10 a row at a time: w1Encode(UseHint(h_i, NTT⁻¹(Â_i ∘ ẑ − ĉ ∘ t̂1_i)))
    /// of each row i in order, to `each`.
    // Always inlined: as a body of its own it made the wasm module's prepared verify
    // 470 bytes larger.
    #[inline(always)]
    pub(super) fn w1_rows(&self, decoded: &Decoded<'_>, c_hat: &Poly, mut each: impl FnMut(&[u8])) {
        let p = self.params;
        let mut packed = [0u8; 32 * 6];
        let packed = &mut packed[..p.w1_poly_bytes()];
        let (mut acc, mut scratch) = (Poly::ZERO, W1Scratch::new());
        for (i, (row, t1_hat)) in self.a_hat.chunks_exact(p.l).zip(&self.t1_hat).enumerate() {
            w_approx_row(&mut acc, row, decoded.z_hat, c_hat, t1_hat);
            w1_row(p, &decoded.hints, i, &mut acc, &mut scratch, packed);
            each(packed);
        }
    }

    /// tr = H(pk, 64).
    pub(super) fn tr(&self) -> &[u8; TR_LEN] {
        &self.tr
    }

    /// The parameter set of the key.
    pub(super) fn params(&self) -> &'static Params {
        self.params
    }
}
