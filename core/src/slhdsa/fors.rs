//! FORS public key from a signature (FIPS 205, Algorithms 4 and 17).

use super::address::{Adrs, AdrsType};
use super::hash::{Node, TState, TweakableHash};
use super::params::{MAX_K, MAX_N, Params};
use super::xmss::climb;
use crate::hash::multi::one_block::MAX_AT_ONCE;

/// base_2b(X, b, out_len) (Algorithm 4): `count` integers of `b` bits read from `x`
/// big-endian. `b` ≤ 14, so the accumulator never needs more than 22 bits.
fn base_2b(x: &[u8], b: usize, count: usize) -> impl Iterator<Item = u32> + '_ {
    let mut bytes = x.iter();
    let mut total: u32 = 0;
    let mut bits = 0;
    (0..count).map(move |_| {
        while bits < b {
            total = ((total << 8) | u32::from(*bytes.next().unwrap_or(&0))) & 0x00ff_ffff;
            bits += 8;
        }
        bits -= b;
        (total >> bits) & ((1 << b) - 1)
    })
}

/// fors_pkFromSig (Algorithm 17): k tree roots from the signature, compressed with
/// T_k in tree order. `adrs` has type FORS_TREE and the key-pair address set.
///
/// The k trees are independent: several at a time (as many as the hash's
/// [`at_once`](TweakableHash::at_once)) go through [`TweakableHash::f_each`] and
/// [`TweakableHash::h_each`] in lockstep (every tree has height a).
pub(crate) fn pk_from_sig(
    p: &Params,
    hash: &dyn TweakableHash,
    sig: &[u8],
    md: &[u8],
    adrs: &mut Adrs,
    out: &mut [u8],
) {
    let n = p.n;
    let mut roots_adrs = adrs.clone();
    roots_adrs.set_type_and_clear(AdrsType::ForsRoots);
    roots_adrs.set_key_pair(adrs.key_pair());
    let mut t = hash.t(&roots_adrs);
    let mut indices = [0u32; MAX_K];
    for (slot, idx) in indices.iter_mut().zip(base_2b(md, p.a, p.k)) {
        *slot = idx;
    }
    let trees = sig.chunks_exact((1 + p.a) * n).enumerate();
    if hash.at_once() == MAX_AT_ONCE {
        roots::<MAX_AT_ONCE>(p, hash, &indices, trees, adrs, &mut t);
    } else {
        roots::<4>(p, hash, &indices, trees, adrs, &mut t);
    }
    t.finish(out);
}

/// Each tree's root (Algorithm 17, lines 2–19), `L` trees at a time, absorbed into `t`
/// in tree order.
fn roots<'a, const L: usize>(
    p: &Params,
    hash: &dyn TweakableHash,
    indices: &[u32],
    mut trees: impl Iterator<Item = (usize, &'a [u8])>,
    adrs: &mut Adrs,
    t: &mut TState,
) {
    let n = p.n;
    let mut group: [(usize, &[u8]); L] = [(0, &[]); L];
    loop {
        let mut count = 0;
        for slot in group.iter_mut() {
            match trees.next() {
                Some(tree) => {
                    *slot = tree;
                    count += 1;
                }
                None => break,
            }
        }
        if count == 0 {
            break;
        }
        if count == 1 {
            let (i, tree_sig) = group[0];
            let (sk, auth) = tree_sig.split_at(n);
            let mut node: Node = [0; MAX_N];
            adrs.set_tree_height(0);
            adrs.set_tree_index(((i as u32) << p.a) + indices[i]);
            hash.f(adrs, sk, &mut node);
            climb(hash, n, auth, indices[i], adrs, &mut node);
            t.absorb(&node[..n]);
            continue;
        }
        // Places 0 .. count hold the group's trees (places past it are not hashed).
        let mut addresses: [Adrs; L] = core::array::from_fn(|j| {
            let (i, _) = group[j];
            let mut a = adrs.clone();
            a.set_tree_height(0);
            a.set_tree_index(((i as u32) << p.a) + indices[i]);
            a
        });
        let mut nodes = [[0u8; MAX_N]; L];
        let leaves: [&[u8]; L] = core::array::from_fn(|j| group[j].1.get(..n).unwrap_or_default());
        hash.f_each(&addresses[..count], &leaves[..count], &mut nodes[..count]);
        for height in 0..p.a {
            let mut lefts = [[0u8; MAX_N]; L];
            let mut rights = [[0u8; MAX_N]; L];
            for j in 0..count {
                let (i, tree_sig) = group[j];
                let sibling = &tree_sig[n * (1 + height)..n * (2 + height)];
                let a = &mut addresses[j];
                a.set_tree_height(height as u32 + 1);
                if (indices[i] >> height) & 1 == 0 {
                    a.set_tree_index(a.tree_index() / 2);
                    lefts[j] = nodes[j];
                    crate::hash::bytes::copy(&mut rights[j][..n], sibling);
                } else {
                    a.set_tree_index((a.tree_index() - 1) / 2);
                    crate::hash::bytes::copy(&mut lefts[j][..n], sibling);
                    rights[j] = nodes[j];
                }
            }
            let left: [&[u8]; L] = core::array::from_fn(|j| &lefts[j][..n]);
            let right: [&[u8]; L] = core::array::from_fn(|j| &rights[j][..n]);
            hash.h_each(&addresses[..count], &left[..count], &right[..count], &mut nodes[..count]);
        }
        for node in &nodes[..count] {
            t.absorb(&node[..n]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_2b_reads_big_endian_bit_groups() {
        let x = [0b1010_1100, 0b0011_1111, 0xff];
        let six: std::vec::Vec<u32> = base_2b(&x, 6, 4).collect();
        assert_eq!(six, [0b101011, 0b000011, 0b111111, 0b111111]);
        let twelve: std::vec::Vec<u32> = base_2b(&x, 12, 2).collect();
        assert_eq!(twelve, [0b1010_1100_0011, 0b1111_1111_1111]);
    }
}
