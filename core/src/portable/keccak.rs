//! Keccak-p[1600, 24] (FIPS 202, Section 3), the permutation under every SHAKE
//! and SHA-3 call in pqverify.
//!
//! The portable kernels, one state and four: every architecture's permutation must match
//! them bit for bit. The round constants and rotation offsets are derived here from
//! the FIPS 202 definitions rather than typed in, and the round is written once,
//! generic over the lane, for the SIMD sets that run it on vectors.

use crate::kernel_set::StateX4;

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
/// Each round is written out lane by lane with constant rotations, so that the 25
/// lanes live in registers or locals: the shape that both x86-64 and V8 (wasm)
/// compile to straight register code. A loop over index tables here compiles to
/// loads and stores of linear memory in wasm.
///
/// Where the CPU has an and-not instruction (Arm's BIC) the rounds run as FIPS 202
/// writes them ([`f1600_andn`]), and in the simd128 wasm builds, which hash through
/// their two-state kernel and keep this one the smaller; elsewhere (x86-64 without
/// BMI1, the baseline wasm build, and so the JS build) in the lane-complementing form
/// ([`round_complemented`]), which needs one NOT per row of χ where the other needs five.
///
// Inlined natively; one shared copy in wasm, where size matters.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
#[cfg_attr(target_arch = "wasm32", inline(never))]
pub(crate) fn f1600(a: &mut [u64; 25]) {
    if cfg!(any(target_arch = "aarch64", target_feature = "simd128")) { f1600_andn(a) } else { f1600_complemented(a) }
}

/// Keccak-f[1600] with χ as FIPS 202 writes it, ¬b ∧ c: one instruction where the CPU
/// has an and-not (the BMI1 set compiles this body with its own features).
#[inline(always)]
pub(crate) fn f1600_andn(a: &mut [u64; 25]) {
    let mut s = *a;
    // Natively two rounds per iteration (no state copy between them); in wasm one,
    // which V8 runs as fast and keeps the module small.
    #[cfg(not(target_arch = "wasm32"))]
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        s = round(round(s, rc[0]), rc[1]);
    }
    #[cfg(target_arch = "wasm32")]
    for &rc in &ROUND_CONSTANTS {
        s = round(s, rc);
    }
    *a = s;
}

/// The lanes the lane-complementing form holds complemented between its rounds: with
/// them, the complements that θ and ρ carry into each row of χ let every output lane be
/// b ⊕ (c ∨ d) or b ⊕ (c ∧ d) of stored lanes, one of them complemented per row, and
/// leave the same lanes complemented after χ (the Keccak team's transform, found here
/// by trying every form on each lane's truth table).
const COMPLEMENTED: [usize; 6] = [1, 2, 8, 12, 17, 20];

/// Each lane's mask: all ones on the [`COMPLEMENTED`] lanes.
const COMPLEMENT_MASK: [u64; 25] = {
    let mut mask = [0; 25];
    let mut i = 0;
    while i < COMPLEMENTED.len() {
        mask[COMPLEMENTED[i]] = !0;
        i += 1;
    }
    mask
};

/// The state with its [`COMPLEMENTED`] lanes complemented (its own inverse).
#[inline(always)]
fn complement(s: [u64; 25]) -> [u64; 25] {
    core::array::from_fn(|i| s[i] ^ COMPLEMENT_MASK[i])
}

/// Keccak-f[1600] in the lane-complementing form: the lanes [`COMPLEMENTED`] are
/// complemented before the first round and after the last, and every round in between
/// is [`round_complemented`].
#[inline(always)]
fn f1600_complemented(a: &mut [u64; 25]) {
    let mut s = complement(*a);
    #[cfg(not(target_arch = "wasm32"))]
    for rc in ROUND_CONSTANTS.chunks_exact(2) {
        s = round_complemented(round_complemented(s, rc[0]), rc[1]);
    }
    #[cfg(target_arch = "wasm32")]
    for &rc in &ROUND_CONSTANTS {
        s = round_complemented(s, rc);
    }
    *a = complement(s);
}

/// Keccak-f[1600] on states 0 to `live` − 1 (1 ≤ `live` ≤ 4) of four interleaved
/// states: the scalar permutation on each. The contract of every architecture's twin: the
/// live states are permuted; a state at or past `live` is permuted or left as it was,
/// whichever the set finds cheaper (callers never read it).
pub(crate) fn f1600x4(s: &mut StateX4, live: usize) {
    for j in 0..live.min(4) {
        let mut one = [0u64; 25];
        for (lane, four) in one.iter_mut().zip(s.iter()) {
            *lane = four[j];
        }
        f1600(&mut one);
        for (four, lane) in s.iter_mut().zip(one) {
            four[j] = lane;
        }
    }
}

/// What a round needs of a lane: one 64-bit lane, or that lane of several states in a
/// vector (each SIMD set implements it for its vector type).
pub(crate) trait Lane: Copy {
    /// self ⊕ other.
    fn xor(self, other: Self) -> Self;
    /// ¬self ∧ other.
    fn andn(self, other: Self) -> Self;
    /// Rotation left by `R` (0 ≤ R < 64).
    fn rol<const R: u32>(self) -> Self;
    /// `value` in every state.
    fn splat(value: u64) -> Self;
    /// self ⊕ b ⊕ c (one instruction where the CPU has a three-way XOR).
    #[inline(always)]
    fn xor3(self, b: Self, c: Self) -> Self {
        self.xor(b).xor(c)
    }
    /// self ⊕ rot(other, 1): θ's D.
    #[inline(always)]
    fn xor_rol1(self, other: Self) -> Self {
        self.xor(other.rol::<1>())
    }
    /// rot(self ⊕ other, R): θ's addition of D with ρ's rotation.
    #[inline(always)]
    fn xor_rol<const R: u32>(self, other: Self) -> Self {
        self.xor(other).rol::<R>()
    }
    /// self ⊕ (¬b ∧ c): χ.
    #[inline(always)]
    fn chi(self, b: Self, c: Self) -> Self {
        self.xor(b.andn(c))
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn xor(self, other: Self) -> Self {
        self ^ other
    }
    #[inline(always)]
    fn andn(self, other: Self) -> Self {
        !self & other
    }
    #[inline(always)]
    fn rol<const R: u32>(self) -> Self {
        self.rotate_left(R)
    }
    #[inline(always)]
    fn splat(value: u64) -> Self {
        value
    }
}

/// χ on one row of a round's output: as FIPS 202 writes it, or in the
/// lane-complementing form.
trait Chi<L> {
    /// χ on the five lanes of output row `Y`.
    fn row<const Y: usize>(b: [L; 5]) -> [L; 5];
}

/// χ as FIPS 202 writes it: b ⊕ (¬c ∧ d).
struct AsWritten;

impl<L: Lane> Chi<L> for AsWritten {
    #[inline(always)]
    fn row<const Y: usize>([b0, b1, b2, b3, b4]: [L; 5]) -> [L; 5] {
        [b0.chi(b1, b2), b1.chi(b2, b3), b2.chi(b3, b4), b3.chi(b4, b0), b4.chi(b0, b1)]
    }
}

/// χ on a state whose [`COMPLEMENTED`] lanes hold their complements, in and out: for
/// the complements each row's lanes arrive with (θ's column parities carry them into
/// D, and a rotation keeps them) and the ones its outputs must leave with, each lane is
/// ∨ or ∧ of the stored lanes, one stored lane of the row complemented (`n`).
struct Complemented;

impl Chi<u64> for Complemented {
    #[inline(always)]
    fn row<const Y: usize>([b0, b1, b2, b3, b4]: [u64; 5]) -> [u64; 5] {
        match Y {
            0 => {
                let n = !b2;
                [b0 ^ (b1 | b2), b1 ^ (n | b3), b2 ^ (b3 & b4), b3 ^ (b4 | b0), b4 ^ (b0 & b1)]
            }
            1 => {
                let n = !b4;
                [b0 ^ (b1 | b2), b1 ^ (b2 & b3), b2 ^ (b3 | n), b3 ^ (b4 | b0), b4 ^ (b0 & b1)]
            }
            2 => {
                let n = !b3;
                [b0 ^ (b1 | b2), b1 ^ (b2 & b3), b2 ^ (n & b4), n ^ (b4 | b0), b4 ^ (b0 & b1)]
            }
            3 => {
                let n = !b3;
                [b0 ^ (b1 & b2), b1 ^ (b2 | b3), b2 ^ (n | b4), n ^ (b4 & b0), b4 ^ (b0 | b1)]
            }
            _ => {
                let n = !b1;
                [b0 ^ (n & b2), n ^ (b2 | b3), b2 ^ (b3 & b4), b3 ^ (b4 | b0), b4 ^ (b0 & b1)]
            }
        }
    }
}

/// One round of Keccak-f[1600] (θ, ρ, π, χ, ι) on state `a` with round constant `rc`,
/// written out lane by lane with constant rotations, χ by `C`. ρ, π and χ go one output
/// row at a time, so that few lanes are live at once (V8 allocates registers in the
/// order written).
#[inline(always)]
fn round_with<L: Lane, C: Chi<L>>(a: [L; 25], rc: u64) -> [L; 25] {
    let [
        a0,
        a1,
        a2,
        a3,
        a4,
        a5,
        a6,
        a7,
        a8,
        a9,
        a10,
        a11,
        a12,
        a13,
        a14,
        a15,
        a16,
        a17,
        a18,
        a19,
        a20,
        a21,
        a22,
        a23,
        a24,
    ] = a;
    // θ: column parities C[x], then D[x] = C[x − 1] ⊕ rot(C[x + 1], 1).
    let c0 = a0.xor3(a5, a10).xor3(a15, a20);
    let c1 = a1.xor3(a6, a11).xor3(a16, a21);
    let c2 = a2.xor3(a7, a12).xor3(a17, a22);
    let c3 = a3.xor3(a8, a13).xor3(a18, a23);
    let c4 = a4.xor3(a9, a14).xor3(a19, a24);
    let d0 = c4.xor_rol1(c1);
    let d1 = c0.xor_rol1(c2);
    let d2 = c1.xor_rol1(c3);
    let d3 = c2.xor_rol1(c4);
    let d4 = c3.xor_rol1(c0);
    // Row y takes lane ((x + 3y) mod 5, x) into position x, with D added and rotated by
    // ρ's offset.
    let [e0, e1, e2, e3, e4] = C::row::<0>([
        a0.xor_rol::<{ RHO[0] }>(d0),
        a6.xor_rol::<{ RHO[6] }>(d1),
        a12.xor_rol::<{ RHO[12] }>(d2),
        a18.xor_rol::<{ RHO[18] }>(d3),
        a24.xor_rol::<{ RHO[24] }>(d4),
    ]);
    let [e5, e6, e7, e8, e9] = C::row::<1>([
        a3.xor_rol::<{ RHO[3] }>(d3),
        a9.xor_rol::<{ RHO[9] }>(d4),
        a10.xor_rol::<{ RHO[10] }>(d0),
        a16.xor_rol::<{ RHO[16] }>(d1),
        a22.xor_rol::<{ RHO[22] }>(d2),
    ]);
    let [e10, e11, e12, e13, e14] = C::row::<2>([
        a1.xor_rol::<{ RHO[1] }>(d1),
        a7.xor_rol::<{ RHO[7] }>(d2),
        a13.xor_rol::<{ RHO[13] }>(d3),
        a19.xor_rol::<{ RHO[19] }>(d4),
        a20.xor_rol::<{ RHO[20] }>(d0),
    ]);
    let [e15, e16, e17, e18, e19] = C::row::<3>([
        a4.xor_rol::<{ RHO[4] }>(d4),
        a5.xor_rol::<{ RHO[5] }>(d0),
        a11.xor_rol::<{ RHO[11] }>(d1),
        a17.xor_rol::<{ RHO[17] }>(d2),
        a23.xor_rol::<{ RHO[23] }>(d3),
    ]);
    let [e20, e21, e22, e23, e24] = C::row::<4>([
        a2.xor_rol::<{ RHO[2] }>(d2),
        a8.xor_rol::<{ RHO[8] }>(d3),
        a14.xor_rol::<{ RHO[14] }>(d4),
        a15.xor_rol::<{ RHO[15] }>(d0),
        a21.xor_rol::<{ RHO[21] }>(d1),
    ]);
    // ι
    [
        e0.xor(L::splat(rc)),
        e1,
        e2,
        e3,
        e4,
        e5,
        e6,
        e7,
        e8,
        e9,
        e10,
        e11,
        e12,
        e13,
        e14,
        e15,
        e16,
        e17,
        e18,
        e19,
        e20,
        e21,
        e22,
        e23,
        e24,
    ]
}

/// One round of Keccak-f[1600] with χ as FIPS 202 writes it. Generic over the lane, so
/// that the scalar permutation and the SIMD ones (several states per vector) share it.
#[inline(always)]
pub(crate) fn round<L: Lane>(a: [L; 25], rc: u64) -> [L; 25] {
    round_with::<L, AsWritten>(a, rc)
}

/// One round on a state whose [`COMPLEMENTED`] lanes hold their complements, in and out.
#[inline(always)]
fn round_complemented(a: [u64; 25], rc: u64) -> [u64; 25] {
    round_with::<u64, Complemented>(a, rc)
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
        let (mut b, mut c) = (a, a);
        for _ in 0..4 {
            f1600_complemented(&mut a);
            f1600_andn(&mut b);
            by_tables(&mut c);
            assert_eq!(a, c);
            assert_eq!(b, c);
        }
        // The all-zero and all-one states: lane 0 of the first after one permutation is
        // the Keccak team's test value.
        let (mut z, mut y) = ([0u64; 25], [0u64; 25]);
        f1600_complemented(&mut z);
        f1600_andn(&mut y);
        assert_eq!((z[0], y[0]), (0xf125_8f79_40e1_dde7, 0xf125_8f79_40e1_dde7));
        let (mut z, mut y, mut w) = ([!0u64; 25], [!0u64; 25], [!0u64; 25]);
        f1600_complemented(&mut z);
        f1600_andn(&mut y);
        by_tables(&mut w);
        assert_eq!((z, y), (w, w));
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
