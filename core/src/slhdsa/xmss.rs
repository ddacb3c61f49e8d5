//! XMSS and the hypertree: root from a signature (FIPS 205, Algorithms 11 and 13).

use super::address::{Adrs, AdrsType};
use super::hash::{Node, TweakableHash};
use super::params::{MAX_N, Params};
use super::wots;

/// Climbs an authentication path from `leaf` (at index `idx`) to the root
/// (Algorithm 11 lines 7–17; Algorithm 17 lines 7–17): at height j the node is
/// the left child when bit j of its index is 0. `adrs` holds the leaf's tree index.
pub(crate) fn climb(hash: &dyn TweakableHash, n: usize, auth: &[u8], idx: u32, adrs: &mut Adrs, node: &mut Node) {
    let mut parent: Node = [0; MAX_N];
    for (j, sibling) in auth.chunks_exact(n).enumerate() {
        adrs.set_tree_height(j as u32 + 1);
        if (idx >> j) & 1 == 0 {
            adrs.set_tree_index(adrs.tree_index() / 2);
            hash.h(adrs, &node[..n], sibling, &mut parent);
        } else {
            adrs.set_tree_index((adrs.tree_index() - 1) / 2);
            hash.h(adrs, sibling, &node[..n], &mut parent);
        }
        *node = parent; // whole nodes: a fixed-size move (bytes past n are never read)
    }
}

/// xmss_pkFromSig (Algorithm 11): the root of the XMSS tree that signed `msg` at leaf `idx`.
fn pk_from_sig(p: &Params, hash: &dyn TweakableHash, idx: u32, sig: &[u8], msg: &[u8], adrs: &mut Adrs) -> Node {
    let (wots_sig, auth) = sig.split_at(p.len() * p.n);
    let mut node: Node = [0; MAX_N];
    adrs.set_type_and_clear(AdrsType::WotsHash);
    adrs.set_key_pair(idx);
    wots::pk_from_sig(p, hash, wots_sig, msg, adrs, &mut node);
    adrs.set_type_and_clear(AdrsType::Tree);
    adrs.set_tree_index(idx);
    climb(hash, p.n, auth, idx, adrs, &mut node);
    node
}

/// ht_verify (Algorithm 13): whether the hypertree signature `sig` on `msg` leads to `pk_root`.
pub(crate) fn ht_verify(
    p: &Params,
    hash: &dyn TweakableHash,
    msg: &[u8],
    sig: &[u8],
    mut idx_tree: u64,
    mut idx_leaf: u32,
    pk_root: &[u8],
) -> bool {
    let mut adrs = Adrs::default();
    let mut node: Node = [0; MAX_N];
    node[..p.n].copy_from_slice(&msg[..p.n]);
    for (layer, xmss_sig) in sig.chunks_exact(p.xmss_sig_len()).enumerate() {
        if layer > 0 {
            // The next layer up signs this root: low h′ bits pick the leaf.
            idx_leaf = (idx_tree & ((1u64 << p.hp) - 1)) as u32;
            idx_tree >>= p.hp;
        }
        adrs.set_layer(layer as u32);
        adrs.set_tree(idx_tree);
        let msg = node;
        node = pk_from_sig(p, hash, idx_leaf, xmss_sig, &msg[..p.n], &mut adrs);
    }
    node[..p.n] == pk_root[..]
}
