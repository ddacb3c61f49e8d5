//! Bit-identity checks of the current target's multi-state kernels against their
//! portable twins, for targets whose unit tests cannot run in place (the simd128
//! kernels run only inside a wasm engine): the wasm tests call [`run`]. Natively the
//! same comparisons are unit tests. Only with the `kernel-checks` feature.

use crate::hash::keccak_x4::{StateX4, f1600x4, portable_f1600x4};
use crate::hash::sha256_x4::{StatesX4, compress_x4, portable_compress_x4};

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

    /// A word at the bounds (0, all ones, one bit) one time in four, else random.
    fn word(&mut self) -> u64 {
        let r = self.next();
        match r % 8 {
            0 => 0,
            1 => u64::MAX,
            2 => 1 << (r >> 58),
            _ => self.next(),
        }
    }
}

/// Compares every multi-state kernel with its portable twin on `rounds` inputs from
/// `seed`; the first mismatch is an error naming the kernel.
pub fn run(seed: u64, rounds: usize) -> Result<(), &'static str> {
    let mut mix = Mix(seed);
    for _ in 0..rounds {
        let states: StatesX4 = core::array::from_fn(|_| core::array::from_fn(|_| mix.word() as u32));
        let blocks: [[u8; 64]; 4] = core::array::from_fn(|_| {
            let mut block = [0u8; 64];
            for chunk in block.chunks_mut(8) {
                chunk.copy_from_slice(&mix.word().to_le_bytes());
            }
            block
        });
        let (mut kernel, mut portable) = (states, states);
        compress_x4(&mut kernel, &blocks);
        portable_compress_x4(&mut portable, &blocks);
        if kernel != portable {
            return Err("SHA-256 ×4 compression differs from the portable one");
        }
        let state: StateX4 = core::array::from_fn(|_| core::array::from_fn(|_| mix.word()));
        let (mut kernel, mut portable) = (state, state);
        f1600x4(&mut kernel);
        portable_f1600x4(&mut portable);
        if kernel != portable {
            return Err("Keccak-f[1600] ×4 differs from the portable one");
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
}
