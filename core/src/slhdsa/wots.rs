//! WOTS+ public key from a signature (FIPS 205, Section 5: Algorithms 5 and 8).

use super::address::{Adrs, AdrsType};
use super::hash::{Node, TStream, TweakableHash};
use super::params::{LG_W, MAX_N, Params, W};

/// The i-th base-w digit of msg ‖ checksum (Algorithm 8, lines 1–7, one digit at a time).
fn digits(p: &Params, msg: &[u8]) -> impl Iterator<Item = usize> {
    // base_2b(M, lg w, len1) with lg w = 4: the nibbles of M, high nibble first.
    let message = msg[..p.n].iter().flat_map(|&b| [usize::from(b >> 4), usize::from(b & 0x0f)]);
    let checksum: usize = message.clone().map(|d| W - 1 - d).sum();
    // csum ≪ ((8 − (len2·lg w) mod 8) mod 8), written on ⌈len2·lg w/8⌉ bytes, read as
    // len2 base-w digits: with len2·lg w = 12 these are csum's three nibbles, high first.
    let len2 = p.len2();
    let checksum_digits = (0..len2).map(move |i| (checksum >> (LG_W * (len2 - 1 - i))) & (W - 1));
    message.chain(checksum_digits)
}

/// wots_pkFromSig (Algorithm 8): completes each chain from its signed value and
/// compresses the chain ends with T_len, streaming. `adrs` has type WOTS_HASH and
/// the key-pair address set.
pub(crate) fn pk_from_sig<H: TweakableHash>(
    p: &Params,
    hash: &H,
    sig: &[u8],
    msg: &[u8],
    adrs: &mut Adrs,
    out: &mut [u8],
) {
    let n = p.n;
    let mut pk_adrs = adrs.clone();
    pk_adrs.set_type_and_clear(AdrsType::WotsPk);
    pk_adrs.set_key_pair(adrs.key_pair());
    let mut t = hash.t(&pk_adrs);
    let mut tmp: Node = [0; MAX_N];
    let mut next: Node = [0; MAX_N];
    for ((i, digit), value) in digits(p, msg).enumerate().zip(sig.chunks_exact(n)) {
        adrs.set_chain(i as u32);
        // chain(X, i = digit, s = w − 1 − digit) (Algorithm 5).
        tmp[..n].copy_from_slice(value);
        for j in digit..W - 1 {
            adrs.set_hash(j as u32);
            hash.f(adrs, &tmp[..n], &mut next);
            tmp[..n].copy_from_slice(&next[..n]);
        }
        t.absorb(&tmp[..n]);
    }
    t.finish(out);
}
