//! Pseudorandom sampling for verification: ExpandA and SampleInBall (FIPS 204, Section 7.3).

use super::params::RHO_LEN;
use crate::hash::keccak_x4::Shake128X4;
use crate::hash::{Shake128, Shake256};
use crate::kernel_set::SHAKE128_RATE;
use crate::ring::{N, Poly};

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
        crate::kernel::rej_sample(&block, out, &mut j);
    }
}

/// Four entries of Â at once, (r, s) each, through four SHAKE128 instances in lockstep.
pub(crate) fn expand_a_x4(rho: &[u8; RHO_LEN], entries: [(usize, usize); 4], out: &mut [Poly; 4]) {
    let seeds: [[u8; 2]; 4] = entries.map(|(r, s)| [s as u8, r as u8]);
    let inputs: [[&[u8]; 2]; 4] = core::array::from_fn(|j| [rho.as_slice(), seeds[j].as_slice()]);
    let Some(mut x4) = Shake128X4::absorb_single_block(inputs.each_ref().map(|p| p.as_slice())) else {
        // Unreachable: 34 bytes always fit one block.
        for ((r, s), poly) in entries.into_iter().zip(out.iter_mut()) {
            expand_a_entry(rho, r, s, poly);
        }
        return;
    };
    let mut filled = [0usize; 4];
    let mut block = [0u8; SHAKE128_RATE];
    loop {
        for (j, (poly, count)) in out.iter_mut().zip(filled.iter_mut()).enumerate() {
            if *count < N {
                x4.read(j, &mut block);
                crate::kernel::rej_sample(&block, poly, count);
            }
        }
        if filled.iter().all(|&c| c == N) {
            break;
        }
        x4.next_block();
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
