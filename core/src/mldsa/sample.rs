//! SampleInBall (FIPS 204 Algorithm 29): the challenge c, from H(c̃) in flight beside
//! the verification's other hashes, or from a sponge of its own.

use crate::hash::Shake256;
use crate::hash::multi::states::{SharedShake256, Waiting};
use crate::kernel::ntt;
use crate::ring::{N, Poly};

/// Line 8 of Algorithm 8: NTT(SampleInBall(c̃)), H(c̃) a SHAKE256 in flight. Its output
/// blocks are kept until the challenge is drawn (almost always from the first).
pub(crate) struct Challenge {
    shake: SharedShake256,
    bytes: [u8; 3 * 136],
    len: usize,
    /// NTT(c), once `drawn` (made in place).
    c_hat: Poly,
    drawn: bool,
}

impl Challenge {
    /// H(c̃) padded, waiting for its first permutation.
    #[inline(always)]
    pub(crate) fn new(c_tilde: &[u8]) -> Self {
        let mut shake = SharedShake256::new();
        // c̃ is at most 64 bytes: one block.
        shake.absorb(c_tilde);
        shake.finish();
        Challenge { shake, bytes: [0; 3 * 136], len: 0, c_hat: Poly::ZERO, drawn: false }
    }

    /// H(c̃)'s state, while it waits for a permutation.
    pub(crate) fn waiting(&mut self) -> Option<Waiting<'_>> {
        if self.drawn { None } else { self.shake.waiting() }
    }

    /// NTT(c), once the output so far suffices.
    pub(crate) fn sample(&mut self, c_tilde: &[u8], tau: usize) -> Option<&Poly> {
        if !self.drawn && self.shake.is_readable() {
            let block = self.bytes.get_mut(self.len..self.len + 136)?;
            self.shake.read(block);
            self.len += 136;
            let mut bytes = self.bytes[..self.len].iter().copied();
            if sample_in_ball_from(|| bytes.next(), tau, &mut self.c_hat) {
                self.drawn = true;
            } else if self.len < self.bytes.len() {
                self.shake.next_block();
            } else {
                // More than three blocks of H(c̃) (never seen): the streaming sampler.
                sample_in_ball(c_tilde, tau, &mut self.c_hat);
                self.drawn = true;
            }
            if self.drawn {
                ntt(&mut self.c_hat);
            }
        }
        self.drawn.then_some(&self.c_hat)
    }
}

/// SampleInBall (FIPS 204 Algorithm 29): the challenge c with τ coefficients ±1,
/// seeded by all of c̃.
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn sample_in_ball(c_tilde: &[u8], tau: usize, out: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    // The stream never ends: `Some` every time.
    sample_in_ball_from(|| Some(reader.squeeze_byte()), tau, out);
}

/// SampleInBall's loop over the bytes of H(c̃) as `next` hands them out; `false` (with
/// `out` unfinished) if `next` runs out first.
pub(crate) fn sample_in_ball_from(mut next: impl FnMut() -> Option<u8>, tau: usize, out: &mut Poly) -> bool {
    let mut sign_bytes = [0u8; 8];
    for b in &mut sign_bytes {
        let Some(byte) = next() else { return false };
        *b = byte;
    }
    let signs = u64::from_le_bytes(sign_bytes);
    out.0 = [0; N];
    for (t, i) in (N - tau..N).enumerate() {
        let j = loop {
            match next() {
                Some(j) if usize::from(j) <= i => break usize::from(j),
                Some(_) => {}
                None => return false,
            }
        };
        out.0[i] = out.0[j];
        out.0[j] = 1 - 2 * ((signs >> t) & 1) as i32;
    }
    true
}
