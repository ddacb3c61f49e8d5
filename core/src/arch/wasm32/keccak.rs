//! Keccak-f[1600] on four states with wasm simd128: two states per 128-bit vector,
//! so the four states run as two pairs. Built only with `-C target-feature=+simd128`.
//! Must match `keccak::f1600` bit for bit.

use core::arch::wasm32::{
    i64x2_shl, u64x2, u64x2_extract_lane, u64x2_shr, u64x2_splat, v128, v128_andnot, v128_or, v128_xor,
};

use crate::hash::keccak::{PI_RHO, ROUND_CONSTANTS};
use crate::hash::keccak_x4::StateX4;

#[inline(always)]
fn rol(x: v128, l: u32) -> v128 {
    v128_or(i64x2_shl(x, l), u64x2_shr(x, 64 - l))
}

/// Keccak-f[1600] on two states held lane-wise in `a`.
fn permute_pair(a: &mut [v128; 25]) {
    let (pi_lanes, rho) = PI_RHO;
    for rc in ROUND_CONSTANTS {
        // θ
        let c: [v128; 5] = core::array::from_fn(|x| {
            v128_xor(v128_xor(v128_xor(a[x], a[x + 5]), v128_xor(a[x + 10], a[x + 15])), a[x + 20])
        });
        for x in 0..5 {
            let d = v128_xor(c[(x + 4) % 5], rol(c[(x + 1) % 5], 1));
            for y in 0..5 {
                a[x + 5 * y] = v128_xor(a[x + 5 * y], d);
            }
        }
        // ρ and π
        let mut carried = a[1];
        for t in 0..24 {
            let lane = pi_lanes[t];
            let next = a[lane];
            a[lane] = rol(carried, rho[t]);
            carried = next;
        }
        // χ: v128_andnot(b, a) is b & !a.
        for y in 0..5 {
            let row = [a[5 * y], a[5 * y + 1], a[5 * y + 2], a[5 * y + 3], a[5 * y + 4]];
            for x in 0..5 {
                a[5 * y + x] = v128_xor(row[x], v128_andnot(row[(x + 2) % 5], row[(x + 1) % 5]));
            }
        }
        // ι
        a[0] = v128_xor(a[0], u64x2_splat(rc));
    }
}

/// Four states' Keccak-f[1600], as two pairs.
pub(crate) fn f1600x4(s: &mut StateX4) {
    for pair in 0..2 {
        let mut a: [v128; 25] = core::array::from_fn(|i| u64x2(s[i][2 * pair], s[i][2 * pair + 1]));
        permute_pair(&mut a);
        for (lanes, v) in s.iter_mut().zip(a) {
            lanes[2 * pair] = u64x2_extract_lane::<0>(v);
            lanes[2 * pair + 1] = u64x2_extract_lane::<1>(v);
        }
    }
}
