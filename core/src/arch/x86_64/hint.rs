//! UseHint over a polynomial: the portable source compiled with AVX2 enabled, which
//! the compiler vectorises (γ2 is a constant in each instance, so Decompose's
//! divisions become multiplications). Bit-identical by construction: the same
//! integer code.

use crate::kernel::Avx2;
use crate::mldsa::portable;

/// UseHint over a polynomial. Contract: `mldsa::portable::use_hint_poly`.
pub(crate) fn use_hint_poly(_: Avx2, r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    // SAFETY: the `Avx2` token exists only where AVX2 was detected.
    unsafe { use_hint_poly_avx2(r, hint, gamma2, w1) }
}

#[target_feature(enable = "avx2")]
fn use_hint_poly_avx2(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    portable::use_hint_poly(r, hint, gamma2, w1);
}

#[cfg(test)]
mod tests {
    use super::super::testing::{Rng, token};
    use super::*;
    use crate::mldsa::field::Q;

    #[test]
    fn use_hint_is_bit_identical_at_its_bounds() {
        let Some(t) = token() else { return eprintln!("no AVX2 here: nothing to compare") };
        let mut rng = Rng(45);
        for i in 0..4000 {
            let gamma2 = [(Q - 1) / 88, (Q - 1) / 32][i % 2];
            // r in [0, q): the edges of every rounding interval and of [0, q).
            let r: [i32; 256] = core::array::from_fn(|_| {
                let x = rng.next();
                let edge = ((x >> 8) % (2 * 44 + 1)) as i32 * gamma2 + ((x >> 40) % 3) as i32 - 1;
                match x % 3 {
                    0 => edge.clamp(0, Q - 1),
                    1 => [0, 1, Q - 2, Q - 1][(x >> 20) as usize % 4],
                    _ => ((x >> 32) % Q as u64) as i32,
                }
            });
            let hint: [u8; 256] = core::array::from_fn(|_| (rng.next() & 1) as u8);
            let (mut x, mut y) = ([0; 256], [0; 256]);
            use_hint_poly(t, &r, &hint, gamma2, &mut x);
            portable::use_hint_poly(&r, &hint, gamma2, &mut y);
            assert_eq!(x, y);
        }
    }
}
