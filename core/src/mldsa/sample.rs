//! Pseudorandom sampling for verification: ExpandA and SampleInBall (FIPS 204, Section 7.3).

use super::field::Q;
use super::params::RHO_LEN;
use super::poly::{N, Poly};
use crate::hash::{Shake128, Shake256};

/// SHAKE128's rate: one squeezed block holds 56 three-byte candidates.
const SHAKE128_RATE: usize = 168;

/// Â[r][s] = RejNTTPoly(ρ ‖ s ‖ r) (FIPS 204 Algorithms 30 and 32), already in the NTT domain.
pub(crate) fn expand_a_entry(rho: &[u8; RHO_LEN], r: usize, s: usize, out: &mut Poly) {
    let mut g = Shake128::new();
    g.absorb(rho);
    g.absorb(&[s as u8, r as u8]);
    let mut reader = g.finalize();
    let mut block = [0u8; SHAKE128_RATE];
    let mut j = 0;
    while j < N {
        reader.squeeze(&mut block);
        for s in block.chunks_exact(3) {
            // CoeffFromThreeBytes (Algorithm 14): clear the top bit, accept if < q.
            let z = i32::from(s[0]) | (i32::from(s[1]) << 8) | (i32::from(s[2] & 0x7f) << 16);
            if z < Q && j < N {
                out.0[j] = z;
                j += 1;
            }
        }
    }
}

/// SampleInBall (FIPS 204 Algorithm 29): the challenge c with τ coefficients ±1,
/// seeded by all of c̃.
pub(crate) fn sample_in_ball(c_tilde: &[u8], tau: usize, out: &mut Poly) {
    let mut h = Shake256::new();
    h.absorb(c_tilde);
    let mut reader = h.finalize();
    let mut sign_bytes = [0u8; 8];
    reader.squeeze(&mut sign_bytes);
    let signs = u64::from_le_bytes(sign_bytes);
    out.0 = [0; N];
    for (t, i) in (N - tau..N).enumerate() {
        let mut j = usize::from(reader.squeeze_byte());
        while j > i {
            j = usize::from(reader.squeeze_byte());
        }
        out.0[i] = out.0[j];
        out.0[j] = 1 - 2 * ((signs >> t) & 1) as i32;
    }
}
