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

/// Keccak-f[1600] on a state of 25 lanes, lane (x, y) at index x + 5y.
#[inline]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    #[cfg(test)]
    PERMUTATIONS.with(|c| c.set(c.get() + 1));

    let (pi_lanes, rho) = PI_RHO;
    for rc in ROUND_CONSTANTS {
        // θ
        let mut c = [0u64; 5];
        for x in 0..5 {
            c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        }
        for x in 0..5 {
            let d = c[(x + 4) % 5] ^ c[(x + 1) % 5].rotate_left(1);
            for y in 0..5 {
                a[x + 5 * y] ^= d;
            }
        }
        // ρ and π, one lane chain
        let mut carried = a[1];
        for t in 0..24 {
            let lane = pi_lanes[t];
            let next = a[lane];
            a[lane] = carried.rotate_left(rho[t]);
            carried = next;
        }
        // χ
        for y in 0..5 {
            let row = [a[5 * y], a[5 * y + 1], a[5 * y + 2], a[5 * y + 3], a[5 * y + 4]];
            for x in 0..5 {
                a[5 * y + x] = row[x] ^ (!row[(x + 1) % 5] & row[(x + 2) % 5]);
            }
        }
        // ι
        a[0] ^= rc;
    }
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
