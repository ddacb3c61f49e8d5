//! ML-DSA.Verify_internal (FIPS 204 Algorithm 8), shared by the one-shot path and
//! prepared keys. The one-shot path expands each entry of Â as it uses it and never
//! holds the matrix: verification needs about 30 KiB of stack and no heap.

use super::hint::Hints;
use super::params::{D, MAX_K, MAX_L, Params, RHO_LEN, T1_POLY_BYTES};
use super::sample::{expand_a_x4, sample_in_ball};
use crate::hash::Shake256;
use crate::kernel::{inv_ntt, ntt, pack_w1, pointwise, unpack_t1_shifted, unpack_z, use_hint_poly};
use crate::message::MessagePrime;
use crate::ring::{N, Poly};
use crate::{Error, Message, Suite};

/// Length of tr = H(pk, 64) and of μ.
pub(crate) const TR_LEN: usize = 64;

/// Where the public-key side of Algorithm 8 comes from: computed on the fly from
/// the encoded key, or taken from a prepared key.
pub(crate) trait KeyMaterial {
    /// tr = H(pk, 64) (Algorithm 8, line 5).
    fn tr(&self) -> [u8; TR_LEN];
    /// w_i += Σ_j Â[i][j] ∘ ẑ_j for every row i: Â ∘ NTT(z), `w` holding k rows.
    fn add_matrix_product(&self, z_hat: &[Poly], w: &mut [Poly]);
    /// acc −= ĉ ∘ NTT(t1_i · 2^d).
    fn sub_t1_product(&self, i: usize, c_hat: &Poly, acc: &mut Poly);
}

/// The key material of an encoded public key, derived as it is needed.
pub(crate) struct EncodedKey<'a> {
    pub(crate) pk: &'a [u8],
    pub(crate) rho: &'a [u8; RHO_LEN],
}

impl<'a> EncodedKey<'a> {
    /// Splits pk = ρ ‖ t1 (pkDecode, Algorithm 23); the length was checked by the caller.
    pub(crate) fn new(pk: &'a [u8]) -> Option<Self> {
        let rho = pk.get(..RHO_LEN)?.try_into().ok()?;
        Some(EncodedKey { pk, rho })
    }
}

impl EncodedKey<'_> {
    /// NTT(t1_i · 2^d), unpacked from the key.
    pub(crate) fn t1_hat(&self, i: usize, out: &mut Poly) {
        let start = RHO_LEN + i * T1_POLY_BYTES;
        unpack_t1_shifted(&self.pk[start..start + T1_POLY_BYTES], D, out);
        ntt(out);
    }
}

impl KeyMaterial for EncodedKey<'_> {
    fn tr(&self) -> [u8; TR_LEN] {
        let mut tr = [0u8; TR_LEN];
        Shake256::digest(&[self.pk], &mut tr);
        tr
    }

    fn add_matrix_product(&self, z_hat: &[Poly], w: &mut [Poly]) {
        // Four entries at a time in row-major order, across row ends, so that every
        // 4-way SHAKE128 call is full but the last (k·l = 16, 30 or 56). Entries are
        // expanded and used at once: Â is never held.
        let l = z_hat.len();
        let entries = w.len() * l;
        // Every lane is overwritten by each expansion: zeroed once, not per group.
        let mut a = [const { Poly::ZERO }; 4];
        for first in (0..entries).step_by(4) {
            let live = (entries - first).min(4);
            // Lanes past the end repeat the group's first entry; their output is unused.
            let at = |k: usize| {
                let e = if k < live { first + k } else { first };
                (e / l, e % l)
            };
            expand_a_x4(self.rho, core::array::from_fn(at), &mut a);
            for (k, a) in a.iter().enumerate().take(live) {
                let (i, j) = at(k);
                pointwise(&mut w[i], a, &z_hat[j], false);
            }
        }
    }

    fn sub_t1_product(&self, i: usize, c_hat: &Poly, acc: &mut Poly) {
        let mut t1_hat = Poly::ZERO;
        self.t1_hat(i, &mut t1_hat);
        pointwise(acc, c_hat, &t1_hat, true);
    }
}

/// Checks the public key's length and returns the suite's parameters.
pub(crate) fn check_key(suite: Suite, pk: &[u8]) -> Result<&'static Params, Error> {
    let p = suite.ml_dsa().ok_or(Error::UnknownSuite)?;
    if pk.len() != p.public_key_len() {
        return Err(Error::PublicKeyLength { suite, expected: p.public_key_len(), got: pk.len() });
    }
    Ok(p)
}

/// Checks the signature's length (a rejection, not an input error).
pub(crate) fn check_signature(suite: Suite, p: &Params, sig: &[u8]) -> Result<(), Error> {
    if sig.len() != p.signature_len() {
        return Err(Error::SignatureLength { suite, expected: p.signature_len(), got: sig.len() });
    }
    Ok(())
}

/// Verify_internal (Algorithm 8) with M′ or μ as `message` describes.
/// Lengths of pk, σ and the message were checked by the caller.
///
/// `key` is a trait object so that one copy of this function serves both key kinds
/// (the calls through it are per row, not per coefficient).
pub(crate) fn verify_internal(
    suite: Suite,
    p: &Params,
    key: &dyn KeyMaterial,
    message: &Message<'_>,
    sig: &[u8],
) -> Result<(), Error> {
    let malformed = |what| Error::MalformedSignature { suite, what };

    // sigDecode (Algorithm 27) and the cheap checks, before any hashing of the key.
    let (c_tilde, rest) = sig.split_at(p.c_tilde_len);
    let (z_bytes, hint_bytes) = rest.split_at(p.l * p.z_poly_bytes());
    let hints = Hints::decode(hint_bytes, p.omega, p.k).map_err(malformed)?;
    let mut z = [const { Poly::ZERO }; MAX_L];
    let z = &mut z[..p.l];
    let bound = p.gamma1() - p.beta;
    for (zi, bytes) in z.iter_mut().zip(z_bytes.chunks_exact(p.z_poly_bytes())) {
        if !unpack_z(bytes, p.gamma1_log2, bound, zi) {
            return Err(malformed("z has a coefficient with |z| >= gamma1 - beta"));
        }
    }

    // Line 6: μ ← H(tr ‖ M′, 64), unless μ was given.
    let mut mu = [0u8; TR_LEN];
    if let Message::ExternalMu(given) = message {
        mu = (*given).try_into().map_err(|_| Error::MuLength { got: given.len() })?;
    } else if let Some(m_prime) = MessagePrime::new(message) {
        let mut h = Shake256::new();
        h.absorb(&key.tr());
        for part in m_prime.parts() {
            h.absorb(part);
        }
        h.finalize().squeeze(&mut mu);
    }

    // Line 7: c ← SampleInBall(c̃), then NTT(c) and NTT(z).
    let mut c_hat = Poly::ZERO;
    sample_in_ball(c_tilde, p.tau, &mut c_hat);
    ntt(&mut c_hat);
    for zi in z.iter_mut() {
        ntt(zi);
    }

    // Lines 8–10, a row at a time: w′ = NTT⁻¹(Â∘ẑ − ĉ∘t̂1), w1′ = UseHint(h, w′),
    // and w1Encode(w1′) fed straight into c̃′ = H(μ ‖ w1Encode(w1′), λ/4).
    let mut h = Shake256::new();
    h.absorb(&mu);
    let mut w1 = [0i32; N];
    let mut packed = [0u8; 32 * 6];
    let packed = &mut packed[..p.w1_poly_bytes()];
    let mut w = [const { Poly::ZERO }; MAX_K];
    let w = &mut w[..p.k];
    key.add_matrix_product(z, w);
    for (i, acc) in w.iter_mut().enumerate() {
        key.sub_t1_product(i, &c_hat, acc);
        inv_ntt(acc);
        let mut hint = [0u8; N];
        for &j in hints.row(i) {
            hint[usize::from(j)] = 1;
        }
        use_hint_poly(&acc.0, &hint, p.gamma2, &mut w1);
        pack_w1(&w1, p.w1_bits(), packed);
        h.absorb(packed);
    }
    let mut c_tilde_prime = [0u8; 64];
    let c_tilde_prime = &mut c_tilde_prime[..p.c_tilde_len];
    h.finalize().squeeze(c_tilde_prime);

    // Line 11: every byte of c̃ is compared.
    if c_tilde_prime[..] == c_tilde[..] { Ok(()) } else { Err(Error::InvalidSignature { suite }) }
}
