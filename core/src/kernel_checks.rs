//! Bit-identity checks of the current target's SIMD kernels against their
//! portable twins, for targets whose unit tests cannot run in place (the simd128
//! kernels run only inside a wasm engine): the wasm tests call [`run`]. Natively the
//! same comparisons are unit tests. Only with the `kernel-checks` feature (and in
//! unit tests).

use crate::kernel;
use crate::kernel_set::{StateX4, StateX8};
use crate::portable;
use crate::ring::Poly;
use crate::ring::field::Q;

/// SplitMix64: enough to spread test inputs (not for anything secret).
struct Mix(u64);

impl Mix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A word at the bounds (0, all ones, one bit) three times in eight, else random.
    fn word(&mut self) -> u64 {
        let r = self.next();
        match r % 8 {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << (r >> 58),
            _ => self.next(),
        }
    }

    /// A block of such words (N a multiple of 8).
    fn block<const N: usize>(&mut self) -> [u8; N] {
        let mut block = [0u8; N];
        for chunk in block.chunks_mut(8) {
            chunk.copy_from_slice(&self.word().to_le_bytes());
        }
        block
    }

    /// A polynomial of [`edge_coefficient`]s.
    fn poly(&mut self, bound: i32) -> Poly {
        Poly(core::array::from_fn(|_| edge_coefficient(self.next(), bound)))
    }
}

/// A value in (−bound, bound) drawn from the random word `r`, the extremes far more
/// often than by chance: the inputs of the NTT kernels' property tests here and in
/// `arch::x86_64`.
pub(crate) fn edge_coefficient(r: u64, bound: i32) -> i32 {
    let magnitude = match r % 8 {
        0 => bound - 1,
        1 => 0,
        2 => bound - 1 - (r >> 40) as i32 % 16,
        _ => ((r >> 32) % bound as u64) as i32,
    };
    if (r >> 3) & 1 == 1 { -magnitude } else { magnitude }
}

/// A SHAKE128 block of 56 RejNTTPoly candidates drawn from the words of `next`, every
/// one accepted (q − 1, 0, or below q) but the one at `rejected_at` (q to q + 2); each with
/// a random top bit, which CoeffFromThreeBytes ignores. The blocks of the kernels' path
/// without compaction, and of its way out: here and in `arch::x86_64::sample`'s test.
pub(crate) fn accepted_block(mut next: impl FnMut() -> u64, rejected_at: Option<usize>) -> [u8; 168] {
    let mut bytes = [0u8; 168];
    for (at, c) in bytes.chunks_exact_mut(3).enumerate() {
        let r = next();
        let top = ((r >> 9) as u32 & 1) << 23;
        let v = match r % 4 {
            _ if rejected_at == Some(at) => Q as u32 + (r >> 10) as u32 % 3,
            0 => Q as u32 - 1,
            1 => 0,
            _ => (r >> 10) as u32 % Q as u32,
        };
        c.copy_from_slice(&(v | top).to_le_bytes()[..3]);
    }
    bytes
}

/// The ML-DSA kernels (NTT, inverse, pointwise, a row of up to 8 products, sampling,
/// the coders, UseHint) against the portable ones, each at the input bound of its
/// contract.
fn check_ml_dsa(mix: &mut Mix, round: usize) -> Result<(), &'static str> {
    let a = mix.poly(1 << 27);
    let (mut kernel, mut reference) = (a.clone(), a);
    kernel::ntt(&mut kernel);
    portable::ntt::ntt(&mut reference);
    if kernel != reference {
        return Err("ML-DSA NTT differs from the portable one");
    }
    let a = mix.poly(1 << 26);
    let (mut kernel, mut reference) = (a.clone(), a);
    kernel::inv_ntt(&mut kernel);
    portable::ntt::inv_ntt(&mut reference);
    if kernel != reference {
        return Err("ML-DSA inverse NTT differs from the portable one");
    }
    let (a, b, acc) = (mix.poly(Q), mix.poly(Q), mix.poly(Q * 8));
    let sub = round.is_multiple_of(2);
    let (mut kernel, mut reference) = (acc.clone(), acc.clone());
    kernel::pointwise(&mut kernel, &a, &b, sub);
    portable::ntt::pointwise(&mut reference, &a, &b, sub);
    if kernel != reference {
        return Err("ML-DSA pointwise product differs from the portable one");
    }
    let row = 1 + round % 8;
    let mut a: [Poly; 8] = core::array::from_fn(|_| mix.poly(Q));
    let mut b: [Poly; 8] = core::array::from_fn(|_| mix.poly(Q));
    if round % 4 == 3 {
        // The largest sums: every product of a coefficient ±(q − 1)², one sign per coefficient.
        let signs = mix.word();
        for (a, b) in a.iter_mut().zip(&mut b) {
            for (i, (x, y)) in a.0.iter_mut().zip(&mut b.0).enumerate() {
                (*x, *y) = (Q - 1, if (signs >> (i % 64)) & 1 == 1 { 1 - Q } else { Q - 1 });
            }
        }
    }
    let (c, t) = (mix.poly(Q), mix.poly(Q));
    let (mut kernel, mut reference) = (acc.clone(), acc);
    kernel::w_approx_row(&mut kernel, &a[..row], &b[..row], &c, &t);
    portable::ntt::w_approx_row(&mut reference, &a[..row], &b[..row], &c, &t);
    if kernel != reference {
        return Err("ML-DSA row of Â ∘ ẑ − ĉ ∘ t̂1 differs from the portable one");
    }
    // RejNTTPoly's loop: from an empty, a part-filled and a nearly full polynomial, on
    // blocks of edge words, blocks whose candidates are all accepted (the kernels' path
    // without compaction) and blocks with exactly one rejected, anywhere.
    let block: [u64; 21] = match (round / 3) % 3 {
        0 => core::array::from_fn(|_| mix.word()),
        mode => {
            let rejected_at = (mode == 2).then(|| (mix.next() % 56) as usize);
            let bytes = accepted_block(|| mix.next(), rejected_at);
            core::array::from_fn(|i| u64::from_le_bytes(core::array::from_fn(|j| bytes[8 * i + j])))
        }
    };
    let start = [0, 200, 250][round % 3];
    let base = mix.poly(Q);
    let (mut kernel, mut reference) = (base.clone(), base);
    let (mut kernel_filled, mut reference_filled) = (start, start);
    kernel::rej_sample(&block, &mut kernel, &mut kernel_filled);
    portable::sample::rej_sample(&block, &mut reference, &mut reference_filled);
    // Past the filled coefficients the contract leaves the polynomial open.
    if kernel_filled != reference_filled || kernel.0[..kernel_filled] != reference.0[..reference_filled] {
        return Err("ML-DSA rejection sampling differs from the portable one");
    }
    // The decoders and w1's encoder on bytes of edge words (every coefficient 0, or at
    // its largest) and random ones, with z's bound at everything, nothing and γ1 − β.
    let bytes: [u8; 640] = mix.block();
    let (mut kernel, mut reference) = (Poly::ZERO, Poly::ZERO);
    kernel::unpack_t1_shifted(&bytes[..320], 13, &mut kernel);
    portable::encode::unpack_t1_shifted(&bytes[..320], 13, &mut reference);
    if kernel != reference {
        return Err("ML-DSA t1 decoding differs from the portable one");
    }
    let (gamma1_log2, len) = if round.is_multiple_of(2) { (17, 576) } else { (19, 640) };
    let bound = [1 << gamma1_log2, 1, (1 << gamma1_log2) - 120][round % 3];
    let (mut kernel, mut reference) = (Poly::ZERO, Poly::ZERO);
    let verdicts = (
        kernel::unpack_z(&bytes[..len], gamma1_log2, bound, &mut kernel),
        portable::encode::unpack_z(&bytes[..len], gamma1_log2, bound, &mut reference),
    );
    if verdicts.0 != verdicts.1 || kernel != reference {
        return Err("ML-DSA z decoding differs from the portable one");
    }
    let bits = if round.is_multiple_of(2) { 4 } else { 6 };
    let w1: [i32; 256] = core::array::from_fn(|_| (mix.next() % (1 << bits)) as i32);
    let (mut kernel, mut reference) = ([0u8; 192], [0u8; 192]);
    kernel::pack_w1(&w1, bits, &mut kernel[..32 * bits]);
    portable::encode::pack_w1(&w1, bits, &mut reference[..32 * bits]);
    if kernel != reference {
        return Err("ML-DSA w1 encoding differs from the portable one");
    }
    // UseHint on residues at the edges of [0, q), hints of every byte value.
    let r: [i32; 256] = core::array::from_fn(|_| edge_coefficient(mix.next(), Q).abs());
    let hint: [u8; 256] = core::array::from_fn(|_| mix.next() as u8 & [1, 0xff, 3][round % 3]);
    use_hint_matches(&r, &hint)
}

/// UseHint for both γ2 against the portable one on `r` with `hint`.
fn use_hint_matches(r: &[i32; 256], hint: &[u8; 256]) -> Result<(), &'static str> {
    for gamma2 in [(Q - 1) / 88, (Q - 1) / 32] {
        let (mut kernel, mut reference) = ([0; 256], [0; 256]);
        kernel::use_hint_poly(r, hint, gamma2, &mut kernel);
        portable::hint::use_hint_poly(r, hint, gamma2, &mut reference);
        if kernel != reference {
            return Err("ML-DSA UseHint differs from the portable one");
        }
    }
    Ok(())
}

/// UseHint against the portable one for every r in [0, q), both γ2, with and without
/// a hint: the kernel's arithmetic (an `f32` quotient) is argued for exactly this range.
pub fn use_hint_every_r() -> Result<(), &'static str> {
    let mut base = 0;
    while base < Q {
        let r: [i32; 256] = core::array::from_fn(|j| (base + j as i32).min(Q - 1));
        for hint in [[0u8; 256], [1u8; 256]] {
            use_hint_matches(&r, &hint)?;
        }
        base += 256;
    }
    Ok(())
}

/// Compares every SIMD kernel with its portable twin on `rounds` inputs from
/// `seed`; the first mismatch is an error naming the kernel.
pub fn run(seed: u64, rounds: usize) -> Result<(), &'static str> {
    let mut mix = Mix(seed);
    for round in 0..rounds {
        check_ml_dsa(&mut mix, round)?;
        let mid: [u32; 8] = core::array::from_fn(|_| mix.word() as u32);
        let blocks: [[u8; 64]; 4] = core::array::from_fn(|_| mix.block());
        let (mut kernel, mut portable) = ([[0; 32]; 4], [[0; 32]; 4]);
        portable::sha256::digest_x4(&mid, &blocks, &mut portable);
        // A set without the ×4 kernel answers "not here": nothing to compare.
        if kernel::sha256_x4(&mid, &blocks, &mut kernel) && kernel != portable {
            return Err("SHA-256 ×4 compression differs from the portable one");
        }
        let blocks: [[u8; 64]; 16] = core::array::from_fn(|_| mix.block());
        let mut portable = [[0; 32]; 16];
        for (blocks, digests) in blocks.as_chunks::<4>().0.iter().zip(portable.as_chunks_mut::<4>().0) {
            portable::sha256::digest_x4(&mid, blocks, digests);
        }
        // Every count of live blocks: the kernel's short way (few) and its long one.
        let live = 1 + round % 16;
        let mut kernel = [[0; 32]; 16];
        if kernel::sha256_x16(&mid, &blocks, live, &mut kernel) && kernel[..live] != portable[..live] {
            return Err("SHA-256 ×16 compression differs from the portable one");
        }
        let mid: [u64; 8] = core::array::from_fn(|_| mix.word());
        let blocks: [[u8; 128]; 4] = core::array::from_fn(|_| mix.block());
        for live in 1..=4 {
            let (mut kernel, mut portable) = ([[0; 64]; 4], [[0; 64]; 4]);
            portable::sha512::digest_x4(&mid, &blocks, live, &mut portable);
            if kernel::sha512_x4(&mid, &blocks, live, &mut kernel) && kernel[..live] != portable[..live] {
                return Err("SHA-512 ×4 compression differs from the portable one");
            }
        }
        let state: StateX4 = core::array::from_fn(|_| core::array::from_fn(|_| mix.word()));
        for live in 1..=4 {
            let (mut kernel, mut portable) = (state, state);
            kernel::f1600x4(&mut kernel, live);
            portable::keccak::f1600x4(&mut portable, live);
            if kernel.iter().zip(&portable).any(|(k, p)| k[..live] != p[..live]) {
                return Err("Keccak-f[1600] ×4 differs from the portable one");
            }
        }
        let eight: StateX8 = core::array::from_fn(|_| core::array::from_fn(|_| mix.word()));
        let mut kernel = eight;
        kernel::f1600x8(&mut kernel);
        for j in 0..8 {
            let mut want: [u64; 25] = core::array::from_fn(|i| eight[i][j]);
            portable::keccak::f1600(&mut want);
            if (0..25).any(|i| kernel[i][j] != want[i]) {
                return Err("Keccak-f[1600] ×8 differs from the portable one");
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_native_kernels_pass_their_own_checks() {
        assert_eq!(super::run(1, 300), Ok(()));
    }

    #[test]
    fn use_hint_matches_for_every_r() {
        assert_eq!(super::use_hint_every_r(), Ok(()));
    }
}
