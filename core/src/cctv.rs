//! The C2SP CCTV accumulated field-operations test of ML-DSA: twelve values for every
//! r in Z_q, written as decimal lines into one SHAKE128, whose first 32 bytes are a
//! published digest. HighBits and UseHint come from the kernel the verifier runs
//! (`kernel::use_hint_poly`, 256 values at a time); the values a verifier never
//! computes (r mod± q, Power2Round, LowBits) are written here from FIPS 204's
//! definitions. Only with the `kernel-checks` feature (and in unit tests), so that the
//! wasm tests can run it inside the engines.

use crate::hash::Shake128;
use crate::kernel;
use crate::ring::field::Q;

/// The digest C2SP/CCTV publishes for this transcript (`ML-DSA/accumulated`).
pub const FIELD_DIGEST: [u8; 32] = [
    0xf9, 0x30, 0x66, 0x34, 0x17, 0x27, 0x81, 0x56, 0xab, 0x05, 0xd9, 0x40, 0x29, 0x4a, 0x77, 0x21, 0x0a, 0x80, 0x9c,
    0x92, 0x4d, 0x8a, 0xb6, 0x3e, 0xc7, 0x2f, 0x45, 0x26, 0x24, 0x76, 0x02, 0xc7,
];

/// d of FIPS 204 (dropped bits of t).
const D: u32 = 13;

/// r mod± m (FIPS 204 §2.3): the representative in (−⌈m/2⌉, ⌊m/2⌋], for r ≥ 0.
fn mod_pm(r: i32, m: i32) -> i32 {
    let r = r.rem_euclid(m);
    if r > m / 2 { r - m } else { r }
}

/// Power2Round (Algorithm 35): (r1, r0) with r = r1·2^d + r0 and r0 = r mod± 2^d.
fn power2round(r: i32) -> (i32, i32) {
    let r0 = mod_pm(r, 1 << D);
    ((r - r0) >> D, r0)
}

/// Decompose's r0 (Algorithm 36), which LowBits (Algorithm 38) returns: r mod± 2γ2,
/// less one where r − r0 = q − 1.
fn low_bits(r: i32, gamma2: i32) -> i32 {
    let r0 = mod_pm(r, 2 * gamma2);
    if r - r0 == Q - 1 { r0 - 1 } else { r0 }
}

/// Appends `v` as ASCII decimal and a newline.
fn line(out: &mut [u8; 160], len: &mut usize, v: i32) {
    let mut digits = [0u8; 11];
    let mut n = v.unsigned_abs();
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    if v < 0 {
        out[*len] = b'-';
        *len += 1;
    }
    let k = digits.len() - i;
    out[*len..*len + k].copy_from_slice(&digits[i..]);
    out[*len + k] = b'\n';
    *len += k + 1;
}

/// The twelve lines of `r`, given HighBits(r) and UseHint(1, r) for both γ2.
fn lines_of(r: i32, high: [i32; 2], hinted: [i32; 2], out: &mut [u8; 160]) -> usize {
    let mut len = 0;
    let centred = mod_pm(r, Q);
    let (r1, r0) = power2round(r);
    for v in [centred, centred.abs(), r1, r0.rem_euclid(Q)] {
        line(out, &mut len, v);
    }
    for (i, gamma2) in [(Q - 1) / 88, (Q - 1) / 32].into_iter().enumerate() {
        let low = low_bits(r, gamma2);
        for v in [high[i], hinted[i], low, low.abs()] {
            line(out, &mut len, v);
        }
    }
    len
}

/// The transcript, absorbed a range of r at a time (so that a caller inside an engine
/// can yield between ranges); [`field_digest`] runs it whole.
pub struct FieldTranscript {
    sponge: Shake128,
    /// The next r to absorb.
    next: i32,
}

impl Default for FieldTranscript {
    fn default() -> Self {
        FieldTranscript { sponge: Shake128::new(), next: 0 }
    }
}

impl FieldTranscript {
    /// The values of r in [0, q) not absorbed yet.
    pub fn remaining(&self) -> usize {
        (Q - self.next) as usize
    }

    /// Absorbs the next `blocks` × 256 values of r (fewer at the end of Z_q), with the
    /// current kernel set's UseHint.
    pub fn absorb_blocks(&mut self, blocks: usize) {
        let gammas = [(Q - 1) / 88, (Q - 1) / 32];
        let mut text = [0u8; 160];
        for _ in 0..blocks {
            let base = self.next;
            if base >= Q {
                return;
            }
            let r: [i32; 256] = core::array::from_fn(|j| (base + j as i32).min(Q - 1));
            // [γ2][hint] → w1 over the block.
            let mut w1 = [[[0i32; 256]; 2]; 2];
            for (g, &gamma2) in gammas.iter().enumerate() {
                for (h, hint) in [[0u8; 256], [1u8; 256]].iter().enumerate() {
                    kernel::use_hint_poly(&r, hint, gamma2, &mut w1[g][h]);
                }
            }
            for j in 0..256.min((Q - base) as usize) {
                let len = lines_of(r[j], [w1[0][0][j], w1[1][0][j]], [w1[0][1][j], w1[1][1][j]], &mut text);
                self.sponge.absorb(&text[..len]);
            }
            self.next = (base + 256).min(Q);
        }
    }

    /// The first 32 bytes of the transcript (every r must have been absorbed).
    pub fn digest(self) -> [u8; 32] {
        let mut digest = [0u8; 32];
        self.sponge.finalize().squeeze(&mut digest);
        digest
    }
}

/// The transcript's digest over every r in [0, q), with the current kernel set's UseHint.
pub fn field_digest() -> [u8; 32] {
    let mut transcript = FieldTranscript::default();
    transcript.absorb_blocks(transcript.remaining().div_ceil(256));
    transcript.digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_example_line_by_line() {
        // C2SP's example: r = 6 010 000, HighBits and UseHint(1, ·) as UseHint gives them.
        let r = 6_010_000;
        let (g88, g32) = ((Q - 1) / 88, (Q - 1) / 32);
        let uh = |h: bool, g: i32| {
            let mut w1 = [0; 256];
            kernel::use_hint_poly(&[r; 256], &[u8::from(h); 256], g, &mut w1);
            w1[0]
        };
        let mut text = [0u8; 160];
        let len = lines_of(r, [uh(false, g88), uh(false, g32)], [uh(true, g88), uh(true, g32)], &mut text);
        assert_eq!(
            core::str::from_utf8(&text[..len]).unwrap(),
            "-2370417\n2370417\n734\n8377489\n32\n31\n-84848\n84848\n11\n12\n248464\n248464\n"
        );
    }

    #[test]
    fn every_r_gives_the_published_digest() {
        assert_eq!(field_digest(), FIELD_DIGEST);
    }
}
