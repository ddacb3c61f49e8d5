//! Keccak-p[1600, 24] (FIPS 202, Section 3), the permutation under every SHAKE
//! and SHA-3 call in pqverify.
//!
//! This is the portable reference kernel. SIMD kernels that run several states at
//! once must match it bit for bit; the round constants and rotation offsets are
//! derived here from the FIPS 202 definitions rather than typed in.

/// Number of rounds of Keccak-f[1600] (FIPS 202: 12 + 2ℓ with ℓ = 6).
const ROUNDS: usize = 24;

/// rc(t) of FIPS 202 Algorithm 5: one output bit of the degree-8 LFSR.
const fn rc_bit(t: usize) -> u64 {
    if t.is_multiple_of(255) {
        return 1;
    }
    // Bit i of `r` holds R[i].
    let mut r: u16 = 1;
    let mut i = 1;
    while i <= t % 255 {
        r <<= 1;
        let r8 = (r >> 8) & 1;
        r ^= r8 | (r8 << 4) | (r8 << 5) | (r8 << 6);
        r &= 0xff;
        i += 1;
    }
    (r & 1) as u64
}

/// ι round constants (FIPS 202 Algorithm 6): RC[2^j − 1] = rc(j + 7·i_r).
pub(crate) const ROUND_CONSTANTS: [u64; ROUNDS] = {
    let mut out = [0u64; ROUNDS];
    let mut ir = 0;
    while ir < ROUNDS {
        let mut j = 0;
        while j <= 6 {
            out[ir] |= rc_bit(j + 7 * ir) << ((1usize << j) - 1);
            j += 1;
        }
        ir += 1;
    }
    out
};

/// ρ and π combined: walking (x, y) → (y, 2x + 3y) from (1, 0) visits the 24
/// non-origin lanes; step t rotates by (t + 1)(t + 2)/2 (FIPS 202 Algorithm 2)
/// and π moves lane (x, y) to (y, 2x + 3y) (Algorithm 3, read backwards).
pub(crate) const PI_RHO: ([usize; 24], [u32; 24]) = {
    let mut lanes = [0usize; 24];
    let mut rotations = [0u32; 24];
    let (mut x, mut y) = (1usize, 0usize);
    let mut t = 0;
    while t < 24 {
        let (nx, ny) = (y, (2 * x + 3 * y) % 5);
        lanes[t] = nx + 5 * ny;
        rotations[t] = (((t + 1) * (t + 2) / 2) % 64) as u32;
        x = nx;
        y = ny;
        t += 1;
    }
    (lanes, rotations)
};

#[cfg(test)]
std::thread_local! {
    /// Permutations run by this thread, for tests that check none is wasted.
    pub(crate) static PERMUTATIONS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Keccak-f[1600] through the kernel chosen in `crate::kernel`.
#[inline]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    #[cfg(test)]
    PERMUTATIONS.with(|c| c.set(c.get() + 1));
    crate::kernel::f1600(a);
}

/// ρ's rotation offset of each lane x + 5y (from the walk in [`PI_RHO`]).
pub(crate) const RHO: [u32; 25] = {
    let (lanes, rotations) = PI_RHO;
    let mut r = [0u32; 25];
    r[1] = rotations[0];
    let mut t = 0;
    while t < 23 {
        r[lanes[t]] = rotations[t + 1];
        t += 1;
    }
    r
};

/// Keccak-f[1600] on a state of 25 lanes, lane (x, y) at index x + 5y.
///
/// One round per loop iteration, written out lane by lane with constant rotations,
/// so that the 25 lanes live in registers or locals: the shape that both x86-64 and
/// V8 (wasm) compile to straight register code. A loop over index tables here
/// compiles to loads and stores of linear memory in wasm.
///
/// This is the portable kernel; the sponges call [`f1600`], which `crate::kernel`
/// may send to a backend's copy.
#[inline(always)]
pub(crate) fn f1600_portable(a: &mut [u64; 25]) {
    let [
        mut s0,
        mut s1,
        mut s2,
        mut s3,
        mut s4,
        mut s5,
        mut s6,
        mut s7,
        mut s8,
        mut s9,
        mut s10,
        mut s11,
        mut s12,
        mut s13,
        mut s14,
        mut s15,
        mut s16,
        mut s17,
        mut s18,
        mut s19,
        mut s20,
        mut s21,
        mut s22,
        mut s23,
        mut s24,
    ] = *a;
    for rc in ROUND_CONSTANTS {
        // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rot(C[x + 1], 1).
        let c0 = s0 ^ s5 ^ s10 ^ s15 ^ s20;
        let c1 = s1 ^ s6 ^ s11 ^ s16 ^ s21;
        let c2 = s2 ^ s7 ^ s12 ^ s17 ^ s22;
        let c3 = s3 ^ s8 ^ s13 ^ s18 ^ s23;
        let c4 = s4 ^ s9 ^ s14 ^ s19 ^ s24;
        let d0 = c4 ^ c1.rotate_left(1);
        let d1 = c0 ^ c2.rotate_left(1);
        let d2 = c1 ^ c3.rotate_left(1);
        let d3 = c2 ^ c4.rotate_left(1);
        let d4 = c3 ^ c0.rotate_left(1);
        // ρ and π: lane (x, y), with D[x] added, rotated into place (y, 2x + 3y).
        let b0 = (s0 ^ d0).rotate_left(RHO[0]);
        let b10 = (s1 ^ d1).rotate_left(RHO[1]);
        let b20 = (s2 ^ d2).rotate_left(RHO[2]);
        let b5 = (s3 ^ d3).rotate_left(RHO[3]);
        let b15 = (s4 ^ d4).rotate_left(RHO[4]);
        let b16 = (s5 ^ d0).rotate_left(RHO[5]);
        let b1 = (s6 ^ d1).rotate_left(RHO[6]);
        let b11 = (s7 ^ d2).rotate_left(RHO[7]);
        let b21 = (s8 ^ d3).rotate_left(RHO[8]);
        let b6 = (s9 ^ d4).rotate_left(RHO[9]);
        let b7 = (s10 ^ d0).rotate_left(RHO[10]);
        let b17 = (s11 ^ d1).rotate_left(RHO[11]);
        let b2 = (s12 ^ d2).rotate_left(RHO[12]);
        let b12 = (s13 ^ d3).rotate_left(RHO[13]);
        let b22 = (s14 ^ d4).rotate_left(RHO[14]);
        let b23 = (s15 ^ d0).rotate_left(RHO[15]);
        let b8 = (s16 ^ d1).rotate_left(RHO[16]);
        let b18 = (s17 ^ d2).rotate_left(RHO[17]);
        let b3 = (s18 ^ d3).rotate_left(RHO[18]);
        let b13 = (s19 ^ d4).rotate_left(RHO[19]);
        let b14 = (s20 ^ d0).rotate_left(RHO[20]);
        let b24 = (s21 ^ d1).rotate_left(RHO[21]);
        let b9 = (s22 ^ d2).rotate_left(RHO[22]);
        let b19 = (s23 ^ d3).rotate_left(RHO[23]);
        let b4 = (s24 ^ d4).rotate_left(RHO[24]);
        // χ, row by row; ι on lane (0, 0).
        s0 = b0 ^ (!b1 & b2);
        s1 = b1 ^ (!b2 & b3);
        s2 = b2 ^ (!b3 & b4);
        s3 = b3 ^ (!b4 & b0);
        s4 = b4 ^ (!b0 & b1);
        s5 = b5 ^ (!b6 & b7);
        s6 = b6 ^ (!b7 & b8);
        s7 = b7 ^ (!b8 & b9);
        s8 = b8 ^ (!b9 & b5);
        s9 = b9 ^ (!b5 & b6);
        s10 = b10 ^ (!b11 & b12);
        s11 = b11 ^ (!b12 & b13);
        s12 = b12 ^ (!b13 & b14);
        s13 = b13 ^ (!b14 & b10);
        s14 = b14 ^ (!b10 & b11);
        s15 = b15 ^ (!b16 & b17);
        s16 = b16 ^ (!b17 & b18);
        s17 = b17 ^ (!b18 & b19);
        s18 = b18 ^ (!b19 & b15);
        s19 = b19 ^ (!b15 & b16);
        s20 = b20 ^ (!b21 & b22);
        s21 = b21 ^ (!b22 & b23);
        s22 = b22 ^ (!b23 & b24);
        s23 = b23 ^ (!b24 & b20);
        s24 = b24 ^ (!b20 & b21);
        s0 ^= rc;
    }
    *a = [
        s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13, s14, s15, s16, s17, s18, s19, s20, s21, s22, s23,
        s24,
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_round_constants_match_fips_202() {
        // RC for rounds 0, 1 and 23 as tabulated in the Keccak reference.
        assert_eq!(ROUND_CONSTANTS[0], 0x0000_0000_0000_0001);
        assert_eq!(ROUND_CONSTANTS[1], 0x0000_0000_0000_8082);
        assert_eq!(ROUND_CONSTANTS[23], 0x8000_0000_8000_8008);
    }

    #[test]
    fn written_out_rounds_match_the_table_walk() {
        // The FIPS 202 steps done by walking PI_RHO, as a second reading of the text.
        fn by_tables(a: &mut [u64; 25]) {
            let (pi_lanes, rho) = PI_RHO;
            for rc in ROUND_CONSTANTS {
                let c: [u64; 5] = core::array::from_fn(|x| a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20]);
                for x in 0..5 {
                    let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
                    for y in 0..5 {
                        a[x + 5 * y] ^= d;
                    }
                }
                let mut carried = a[1];
                for t in 0..24 {
                    let next = a[pi_lanes[t]];
                    a[pi_lanes[t]] = carried.rotate_left(rho[t]);
                    carried = next;
                }
                for y in 0..5 {
                    let row = [a[5 * y], a[5 * y + 1], a[5 * y + 2], a[5 * y + 3], a[5 * y + 4]];
                    for x in 0..5 {
                        a[5 * y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
                    }
                }
                a[0] ^= rc;
            }
        }
        let mut x = 0x0123_4567_89ab_cdefu64;
        let mut a: [u64; 25] = core::array::from_fn(|_| {
            x = x.rotate_left(11).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 7;
            x
        });
        let mut b = a;
        for _ in 0..4 {
            f1600_portable(&mut a);
            by_tables(&mut b);
            assert_eq!(a, b);
        }
        // The all-zero state after one permutation, lane 0 (the Keccak team's test value).
        let mut z = [0u64; 25];
        f1600_portable(&mut z);
        assert_eq!(z[0], 0xf125_8f79_40e1_dde7);
    }

    #[test]
    fn rho_offsets_cover_every_lane_once() {
        let (lanes, _) = PI_RHO;
        let mut seen = [false; 25];
        for lane in lanes {
            assert!(!seen[lane]);
            seen[lane] = true;
        }
        assert!(!seen[0]);
    }
}
