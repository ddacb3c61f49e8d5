//! UseHint with Decompose inlined (FIPS 204, Algorithms 36 and 40): the portable kernel
//! over a polynomial, and the scalar UseHint it applies to each coefficient.

use crate::ring::field::Q;

/// UseHint (FIPS 204 Algorithm 40) over a polynomial: w1_j = UseHint(h_j, r_j) with
/// m = (q − 1)/(2γ2). Input r_j in [0, q), h_j in {0, 1}; output w1_j in [0, m).
#[inline(always)]
pub(crate) fn use_hint_poly(r: &[i32; 256], hint: &[u8; 256], gamma2: i32, w1: &mut [i32; 256]) {
    let m = (Q - 1) / (2 * gamma2);
    for ((w, &x), &h) in w1.iter_mut().zip(r).zip(hint) {
        *w = use_hint(h != 0, x, gamma2, m);
    }
}

/// UseHint (Algorithm 40) on r ∈ [0, q), with Decompose (Algorithm 36) inlined.
///
/// γ2 is one of two constants; dispatching to a const-generic copy lets the compiler
/// turn the divisions by 2γ2 into multiplications.
#[inline(always)]
pub(crate) fn use_hint(hint: bool, r: i32, gamma2: i32, m: i32) -> i32 {
    const G88: i32 = (Q - 1) / 88;
    const G32: i32 = (Q - 1) / 32;
    match gamma2 {
        G88 => use_hint_const::<G88>(hint, r, m),
        G32 => use_hint_const::<G32>(hint, r, m),
        _ => use_hint_const_dyn(hint, r, gamma2, m),
    }
}

#[inline(always)]
fn use_hint_const<const GAMMA2: i32>(hint: bool, r: i32, m: i32) -> i32 {
    use_hint_const_dyn(hint, r, GAMMA2, m)
}

#[inline(always)]
fn use_hint_const_dyn(hint: bool, r: i32, gamma2: i32, m: i32) -> i32 {
    // r0 = r mod± 2γ2, in (−γ2, γ2].
    let mut r0 = r % (2 * gamma2);
    if r0 > gamma2 {
        r0 -= 2 * gamma2;
    }
    let r1 = if r - r0 == Q - 1 {
        r0 -= 1;
        0
    } else {
        (r - r0) / (2 * gamma2)
    };
    match (hint, r0 > 0) {
        (false, _) => r1,
        (true, true) => (r1 + 1) % m,
        (true, false) => (r1 - 1 + m) % m,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const G44: i32 = (Q - 1) / 88;
    const G65: i32 = (Q - 1) / 32;

    #[test]
    fn use_hint_edge_cases() {
        // r = 0: r0 = 0 counts as not positive, so a hint steps down and wraps to m − 1.
        assert_eq!(use_hint(true, 0, G44, 44), 43);
        assert_eq!(use_hint(true, 0, G65, 16), 15);
        assert_eq!(use_hint(false, 0, G44, 44), 0);
        // r = q − 1: r+ − r0 = q − 1, so r1 = 0 and r0 = −1 − 1; the hint steps down.
        assert_eq!(use_hint(false, Q - 1, G44, 44), 0);
        assert_eq!(use_hint(true, Q - 1, G44, 44), 43);
        // r = 1: r0 = 1 > 0, a hint steps up.
        assert_eq!(use_hint(true, 1, G44, 44), 1);
        // Top of the range wraps to 0: r1 = m − 1 with positive r0.
        let r = (44 - 1) * 2 * G44 + 1;
        assert_eq!(use_hint(false, r, G44, 44), 43);
        assert_eq!(use_hint(true, r, G44, 44), 0);
        // r0 = γ2 exactly stays in the lower bucket (mod± is in (−γ2, γ2]).
        assert_eq!(use_hint(false, G65, G65, 16), 0);
        assert_eq!(use_hint(true, G65, G65, 16), 1);
    }

    #[test]
    fn use_hint_matches_spec_over_all_residues_sampled() {
        // Decompose by the letter of Algorithm 36 for comparison.
        fn spec(h: bool, r: i32, g2: i32) -> i32 {
            let m = (Q - 1) / (2 * g2);
            let rp = r.rem_euclid(Q);
            let mut r0 = rp.rem_euclid(2 * g2);
            if r0 > g2 {
                r0 -= 2 * g2;
            }
            let r1;
            if rp - r0 == Q - 1 {
                r1 = 0;
                r0 -= 1;
            } else {
                r1 = (rp - r0) / (2 * g2);
            }
            if h && r0 > 0 {
                return (r1 + 1).rem_euclid(m);
            }
            if h && r0 <= 0 {
                return (r1 - 1).rem_euclid(m);
            }
            r1
        }
        for g2 in [G44, G65] {
            let m = (Q - 1) / (2 * g2);
            for r in (0..Q).step_by(997).chain(Q - 3000..Q) {
                for h in [false, true] {
                    assert_eq!(use_hint(h, r, g2, m), spec(h, r, g2), "r={r} h={h}");
                }
            }
        }
    }
}
