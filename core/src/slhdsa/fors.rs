//! FORS public key from a signature (FIPS 205, Algorithms 4 and 17).

use super::address::{Adrs, AdrsType};
use super::hash::{Node, TStream, TweakableHash};
use super::params::{MAX_N, Params};
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
/// T_k as they are computed. `adrs` has type FORS_TREE and the key-pair address set.
pub(crate) fn pk_from_sig<H: TweakableHash>(
    p: &Params,
    hash: &H,
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
    let mut node: Node = [0; MAX_N];
    for ((i, idx), tree_sig) in base_2b(md, p.a, p.k).enumerate().zip(sig.chunks_exact((1 + p.a) * n)) {
        let (sk, auth) = tree_sig.split_at(n);
        adrs.set_tree_height(0);
        adrs.set_tree_index(((i as u32) << p.a) + idx);
        hash.f(adrs, sk, &mut node);
        climb(hash, n, auth, idx, adrs, &mut node);
        t.absorb(&node[..n]);
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
