//! What a kernel set is: one entry per hot kernel, and the shapes the kernels share.
//!
//! The portable set (`crate::portable::SET`) fills every entry; an architecture's set
//! (`crate::arch`) is the portable set with the entries it replaces, each bit-identical
//! to the portable one at its input bounds. `crate::kernel` chooses one set and the
//! algorithms call through it. A leaf: it imports only the ring's types.

use crate::ring::Poly;

/// Four interleaved Keccak states: `state[i][j]` is lane i of state j (the layout an
/// AVX2 register holds).
pub(crate) type StateX4 = [[u64; 4]; 25];

/// `L` interleaved states ([`StateX4`], [`StateX8`]) on a 64-byte boundary, for the
/// states built on the stack: each row (one vector register's worth) then lies within
/// one cache line, wherever the frame would have put it.
#[repr(C, align(64))]
pub(crate) struct AlignedStates<const L: usize>(pub(crate) [[u64; L]; 25]);

/// Up to four Keccak states, each in its own place; `None` is an idle place.
pub(crate) type SeparateStates<'a> = [Option<&'a mut [u64; 25]>; 4];

/// Eight interleaved Keccak states: `state[i][j]` is lane i of state j (the layout a
/// 512-bit register holds).
pub(crate) type StateX8 = [[u64; 8]; 25];

/// Up to eight Keccak states, each in its own place; `None` is an idle place.
pub(crate) type SeparateStates8<'a> = [Option<&'a mut [u64; 25]>; 8];

/// SHAKE128's rate: one squeezed block holds 56 three-byte candidates for RejNTTPoly.
pub(crate) const SHAKE128_RATE: usize = 168;

/// A squeezed SHAKE128 block as the sponge holds it: 21 lanes, each 8 bytes of the
/// block in little-endian order. RejNTTPoly's kernels read it in place.
pub(crate) type Shake128Block = [u64; SHAKE128_RATE / 8];

/// The bytes of a [`Shake128Block`], for kernels that read bytes.
pub(crate) fn block_bytes(block: &Shake128Block) -> [u8; SHAKE128_RATE] {
    let mut bytes = [0u8; SHAKE128_RATE];
    for (out, lane) in bytes.as_chunks_mut::<8>().0.iter_mut().zip(block) {
        *out = lane.to_le_bytes();
    }
    bytes
}

/// Four SHA-256 compressions from one midstate, digests out (see
/// `crate::portable::sha256::digest_x4`).
pub(crate) type Sha256X4 = fn(&[u32; 8], &[[u8; 64]; 4], &mut [[u8; 32]; 4]);

/// Sixteen SHA-256 compressions from one midstate, the first `live` (1 to 16) of them
/// needed, digests out (each as `crate::portable::sha256::digest_x4` makes it).
pub(crate) type Sha256X16 = fn(&[u32; 8], &[[u8; 64]; 16], usize, &mut [[u8; 32]; 16]);

/// Four SHA-512 compressions from one midstate, the first `live` (1 to 4) of them
/// needed, digests out (see `crate::portable::sha512::digest_x4`).
pub(crate) type Sha512X4 = fn(&[u64; 8], &[[u8; 128]; 4], usize, &mut [[u8; 64]; 4]);

/// A kernel set. Each entry's contract is its portable twin's doc (the path in the
/// entry's doc); `None` is a kernel the set does not have, which the caller replaces by
/// one-at-a-time calls.
#[derive(Clone, Copy)]
pub(crate) struct KernelSet {
    /// `portable`, `avx2`, `avx512`, `neon`, `neon-sha3` or `simd128`: what [`crate::kernels`] reports.
    pub(crate) name: &'static str,
    /// Keccak-f[1600] on one state (`portable::keccak::f1600`).
    pub(crate) f1600: fn(&mut [u64; 25]),
    /// Keccak-f[1600] on the first `live` (1 to 4) of four interleaved states
    /// (`portable::keccak::f1600x4`).
    pub(crate) f1600x4: fn(&mut StateX4, usize),
    /// Keccak-f[1600] on each of two to four states held apart (`None`: an idle place,
    /// neither read nor written), reading and writing them in place; `None` where the
    /// set has no such kernel, and the states are interleaved for `f1600x4`.
    pub(crate) f1600x4_each: Option<fn(&mut SeparateStates<'_>)>,
    /// Keccak-f[1600] on eight interleaved states, where a vector register holds eight
    /// 64-bit words (`portable::keccak::f1600x4` on each half); `None` elsewhere.
    pub(crate) f1600x8: Option<fn(&mut StateX8)>,
    /// Keccak-f[1600] on each of five to eight states held apart (`None`: an idle place,
    /// neither read nor written), in place; `None` where the set has no eight-state kernel.
    pub(crate) f1600x8_each: Option<fn(&mut SeparateStates8<'_>)>,
    /// SHA-256 compression of one block (`portable::sha256::compress_block`).
    pub(crate) sha256_compress: fn(&mut [u32; 8], &[u8; 64]),
    /// SHA-512 compression of one block (`portable::sha512::compress_block`).
    pub(crate) sha512_compress: fn(&mut [u64; 8], &[u8; 128]),
    /// Four SHA-256 blocks for the price of fewer, where a vector unit is wide enough.
    pub(crate) sha256_x4: Option<Sha256X4>,
    /// Sixteen SHA-256 blocks at once, where a vector register holds sixteen 32-bit words;
    /// SLH-DSA-SHA2 then runs sixteen F calls together instead of four.
    pub(crate) sha256_x16: Option<Sha256X16>,
    /// Four SHA-512 blocks for the price of fewer, where a vector unit is wide enough.
    pub(crate) sha512_x4: Option<Sha512X4>,
    /// NTT, FIPS 204 Algorithm 41 (`portable::ntt::ntt`).
    pub(crate) ntt: fn(&mut Poly),
    /// Inverse NTT, Algorithm 42 (`portable::ntt::inv_ntt`).
    pub(crate) inv_ntt: fn(&mut Poly),
    /// acc ± a ∘ b, Algorithm 45 accumulated (`portable::ntt::pointwise`).
    pub(crate) pointwise: fn(&mut Poly, &Poly, &Poly, bool),
    /// out = Σ_j a_j ∘ b_j − c ∘ t, a row of Algorithm 8 line 9 in the NTT domain
    /// (`portable::ntt::w_approx_row`).
    pub(crate) w_approx_row: fn(&mut Poly, &[Poly], &[Poly], &Poly, &Poly),
    /// UseHint over a polynomial, Algorithm 40 (`portable::hint::use_hint_poly`).
    pub(crate) use_hint_poly: fn(&[i32; 256], &[u8; 256], i32, &mut [i32; 256]),
    /// t1·2^d from pkDecode's packing, Algorithm 23 (`portable::encode::unpack_t1_shifted`).
    pub(crate) unpack_t1_shifted: fn(&[u8], u32, &mut Poly),
    /// z from sigDecode's packing, Algorithm 19, and its bound (`portable::encode::unpack_z`).
    pub(crate) unpack_z: fn(&[u8], u32, i32, &mut Poly) -> bool,
    /// w1Encode of one polynomial, Algorithm 28 (`portable::encode::pack_w1`).
    pub(crate) pack_w1: fn(&[i32; 256], usize, &mut [u8]),
    /// RejNTTPoly's loop over one SHAKE128 block, Algorithm 30 (`portable::sample::rej_sample`).
    pub(crate) rej_sample: fn(&Shake128Block, &mut Poly, &mut usize),
}
