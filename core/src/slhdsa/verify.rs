//! slh_verify_internal (FIPS 205 Algorithm 20), generic over the hash instantiation.

use super::address::{Adrs, AdrsType};
use super::fors;
use super::hash::{Node, TweakableHash};
use super::params::{MAX_M, MAX_N, Params};
use super::xmss::ht_verify;

/// Reads `bytes` as a big-endian integer and keeps its low `bits` bits (toInt, then mod 2^bits).
fn to_int_mod(bytes: &[u8], bits: usize) -> u64 {
    let v = bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b));
    // bits = 64 for SLH-DSA-*-256f: 1 ≪ 64 would overflow.
    if bits >= 64 { v } else { v & ((1u64 << bits) - 1) }
}

/// Algorithm 20 on M′ (given in parts). The signature has the exact length; the
/// result is whether it verifies.
pub(crate) fn verify_internal(
    p: &Params,
    hash: &dyn TweakableHash,
    pk_root: &[u8],
    m_prime: &[&[u8]],
    sig: &[u8],
) -> bool {
    let n = p.n;
    let (r, rest) = sig.split_at(n);
    let (sig_fors, sig_ht) = rest.split_at(p.fors_sig_len());

    // Lines 6–10: digest = H_msg(R, PK.seed, PK.root, M′), split into md, idx_tree, idx_leaf.
    let mut digest = [0u8; MAX_M];
    let digest = &mut digest[..p.m];
    hash.h_msg(r, pk_root, m_prime, digest);
    let (md, rest) = digest.split_at(p.md_len());
    let (tree_bytes, rest) = rest.split_at(p.tree_idx_len());
    let leaf_bytes = &rest[..p.leaf_idx_len()];
    let idx_tree = to_int_mod(tree_bytes, p.h - p.hp);
    let idx_leaf = to_int_mod(leaf_bytes, p.hp) as u32;

    // Lines 11–14: the FORS public key.
    let mut adrs = Adrs::default();
    adrs.set_tree(idx_tree);
    adrs.set_type_and_clear(AdrsType::ForsTree);
    adrs.set_key_pair(idx_leaf);
    let mut pk_fors: Node = [0; MAX_N];
    fors::pk_from_sig(p, hash, sig_fors, md, &mut adrs, &mut pk_fors[..n]);

    // Line 15: the hypertree signs PK_FORS.
    ht_verify(p, hash, &pk_fors[..n], sig_ht, idx_tree, idx_leaf, pk_root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_index_of_64_bits_does_not_overflow() {
        assert_eq!(to_int_mod(&[0xff; 8], 64), u64::MAX);
        assert_eq!(to_int_mod(&[0xff; 7], 54), (1 << 54) - 1);
        assert_eq!(to_int_mod(&[0x01, 0x02], 9), 0x102 & 0x1ff);
    }
}
