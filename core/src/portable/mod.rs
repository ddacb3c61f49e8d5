//! The portable kernels: scalar code for every target, the reference every
//! architecture's kernel matches bit for bit, and the entries a set does not replace.
//! Files mirror `crate::arch::<cpu>/`. Nothing here imports the chooser
//! (`crate::kernel`) or an algorithm: only the ring's types and the kernel interface.

pub(crate) mod encode;
pub(crate) mod hint;
pub(crate) mod keccak;
pub(crate) mod ntt;
pub(crate) mod sample;
pub(crate) mod sha256;
pub(crate) mod sha2_rounds;
pub(crate) mod sha512;

use crate::kernel_set::KernelSet;

/// The portable set: every entry filled, no multi-state SHA-2 (one block at a time is
/// as fast in scalar code, and skips idle states).
pub(crate) const SET: KernelSet = KernelSet {
    name: "portable",
    f1600: keccak::f1600,
    f1600x4: keccak::f1600x4,
    f1600x4_each: None,
    f1600x8: None,
    f1600x8_each: None,
    sha256_compress: sha256::compress_block,
    sha512_compress: sha512::compress_block,
    sha256_x4: None,
    sha256_x16: None,
    sha512_x4: None,
    ntt: ntt::ntt,
    inv_ntt: ntt::inv_ntt,
    pointwise: ntt::pointwise,
    w_approx_row: ntt::w_approx_row,
    use_hint_poly: hint::use_hint_poly,
    unpack_t1_shifted: encode::unpack_t1_shifted,
    unpack_z: encode::unpack_z,
    pack_w1: encode::pack_w1,
    rej_sample: sample::rej_sample,
};
