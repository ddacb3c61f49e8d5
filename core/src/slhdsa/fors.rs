//! FORS public key from a signature (FIPS 205, Algorithms 4 and 17).

use super::address::{Adrs, AdrsType};
use super::hash::{Node, TweakableHash};
use super::params::{MAX_K, MAX_N, Params};
use super::xmss::climb;

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
/// The k trees are independent: four at a time go through [`TweakableHash::f_x4`]
/// and [`TweakableHash::h_x4`] in lockstep (every tree has height a).
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
    let trees: &mut dyn Iterator<Item = (usize, &[u8])> = &mut sig.chunks_exact((1 + p.a) * n).enumerate();
    let mut group: [(usize, &[u8]); 4] = [(0, &[]); 4];
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
        // Lanes past `count` repeat the first tree; their results are dropped.
        let lane = |j: usize| if j < count { group[j] } else { group[0] };
        let mut addresses: [Adrs; 4] = core::array::from_fn(|j| {
            let (i, _) = lane(j);
            let mut a = adrs.clone();
            a.set_tree_height(0);
            a.set_tree_index(((i as u32) << p.a) + indices[i]);
            a
        });
        let mut nodes = [[0u8; MAX_N]; 4];
        let live = core::array::from_fn(|j| j < count);
        hash.f_x4(&addresses, core::array::from_fn(|j| &lane(j).1[..n]), live, &mut nodes);
        for height in 0..p.a {
            let mut lefts = [[0u8; MAX_N]; 4];
            let mut rights = [[0u8; MAX_N]; 4];
            for j in 0..4 {
                let (i, tree_sig) = lane(j);
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
            hash.h_x4(
                &addresses,
                core::array::from_fn(|j| &lefts[j][..n]),
                core::array::from_fn(|j| &rights[j][..n]),
                live,
                &mut nodes,
            );
        }
        for node in &nodes[..count] {
            t.absorb(&node[..n]);
        }
    }
    t.finish(out);
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
