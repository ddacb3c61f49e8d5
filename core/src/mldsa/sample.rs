//! SampleInBall (FIPS 204 Algorithm 29): the challenge c, from H(c̃) in flight beside
//! the verification's other hashes, or from a sponge of its own.

use crate::hash::Shake256;
use crate::hash::multi::states::{SharedShake256, Waiting};
use crate::kernel::ntt;
use crate::ring::{N, Poly};

/// Line 8 of Algorithm 8: NTT(SampleInBall(c̃)), H(c̃) a SHAKE256 in flight for its
/// first block, which suffices unless its bytes are very unlikely (then a sponge of its
/// own draws c from the start).
pub(crate) struct Challenge {
    shake: SharedShake256,
    /// NTT(c), once `drawn` (made in place; zero before).
    c_hat: Poly,
    drawn: bool,
}

impl Challenge {
    /// H(c̃) padded, waiting for its first permutation.
    #[inline(always)]
    pub(crate) fn new(c_tilde: &[u8]) -> Self {
        // Made in place, then fed: c̃ is at most 64 bytes, one block.
        let mut c = Challenge { shake: SharedShake256::new(), c_hat: Poly::ZERO, drawn: false };
        c.shake.absorb(c_tilde);
        c.shake.finish();
        c
    }

    /// H(c̃)'s state, while it waits for a permutation.
    pub(crate) fn waiting(&mut self) -> Option<Waiting<'_>> {
        if self.drawn { None } else { self.shake.waiting() }
    }

    /// NTT(c), once H(c̃)'s first block is out.
    pub(crate) fn sample(&mut self, c_tilde: &[u8], tau: usize) -> Option<&Poly> {
        if !self.drawn && self.shake.is_readable() {
            let mut block = [0u8; 136];
            self.shake.read(&mut block);
            let mut bytes = block.iter().copied();
            if !sample_in_ball_from(|| bytes.next(), tau, &mut self.c_hat) {
                // τ draws need about 80 bytes: more than a block is far out in the tail.
                self.c_hat = Poly::ZERO;
                sample_in_ball(c_tilde, tau, &mut self.c_hat);
            }
            ntt(&mut self.c_hat);
            self.drawn = true;
        }
        self.drawn.then_some(&self.c_hat)
    }
}

/// SampleInBall (FIPS 204 Algorithm 29): the challenge c with τ coefficients ±1,
/// seeded by all of c̃, into `out` (zero).
// Out of line and cold: line 8 draws from H(c̃)'s first block but for very unlikely
// bytes, and this body would lengthen the verification's hot code.
#[cold]
#[inline(never)]
pub(crate) fn sample_in_ball(c_tilde: &[u8], tau: usize, out: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    // The stream never ends: `Some` every time.
    sample_in_ball_from(|| Some(reader.squeeze_byte()), tau, out);
}

/// SampleInBall's loop over the bytes of H(c̃) as `next` hands them out, into `out`
/// (zero: line 1's c ← 0 is the caller's); `false` (with `out` unfinished) if `next`
/// runs out first.
pub(crate) fn sample_in_ball_from(mut next: impl FnMut() -> Option<u8>, tau: usize, out: &mut Poly) -> bool {
    let mut sign_bytes = [0u8; 8];
    for b in &mut sign_bytes {
        let Some(byte) = next() else { return false };
        *b = byte;
    }
    let signs = u64::from_le_bytes(sign_bytes);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hash::multi::states::{InFlight, Round, run_one};

    /// A challenge drawn alone, its hash in rounds.
    struct Drawing<'a> {
        c: Challenge,
        c_tilde: &'a [u8],
        tau: usize,
    }

    impl InFlight for Drawing<'_> {
        type Output = Poly;

        fn advance(&mut self) -> Option<Poly> {
            self.c.sample(self.c_tilde, self.tau).cloned()
        }

        fn offer<'a, const W: usize>(&'a mut self, round: &mut Round<'a, W>) {
            round.offer(self.c.waiting());
        }
    }

    #[test]
    fn the_challenge_in_flight_is_sample_in_ball_of_the_whole_stream() {
        for (tau, len) in [(39, 32), (49, 48), (60, 64)] {
            for seed in 0..50u8 {
                let c_tilde: std::vec::Vec<u8> = (0..len).map(|i| seed.wrapping_mul(31) ^ i as u8).collect();
                let got = run_one(&mut Drawing { c: Challenge::new(&c_tilde), c_tilde: &c_tilde, tau });
                let mut want = Poly::ZERO;
                sample_in_ball(&c_tilde, tau, &mut want);
                ntt(&mut want);
                assert_eq!(got, want, "τ = {tau}, c̃ seed {seed}");
            }
        }
    }

    #[test]
    fn sample_in_ball_from_says_when_its_bytes_run_out() {
        let mut c = Poly::ZERO;
        let mut bytes = [0u8; 40].into_iter();
        assert!(!sample_in_ball_from(|| bytes.next(), 39, &mut c));
    }
}
