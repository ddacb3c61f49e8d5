//! WOTS+ public key from a signature (FIPS 205, Section 5: Algorithms 5 and 8).

use super::address::{Adrs, AdrsType};
use super::hash::TweakableHash;
use super::params::{LG_W, MAX_N, Params, W};
use crate::hash::multi::one_block::MAX_AT_ONCE;

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

/// The most chains a WOTS+ key has (len for n = 32).
const MAX_LEN: usize = 2 * MAX_N + 3;

/// wots_pkFromSig (Algorithm 8): completes each chain from its signed value and
/// compresses the chain ends with T_len. `adrs` has type WOTS_HASH and the key-pair
/// address set.
///
/// The chains are independent, so several advance together through
/// [`TweakableHash::f_each`] (as many as the hash's [`at_once`](TweakableHash::at_once)): a
/// finished chain's place takes the next chain, the longest still waiting (so that the
/// last steps are not one long chain alone); the ends are then absorbed into T_len in
/// chain order, as the standard defines it.
pub(crate) fn pk_from_sig(
    p: &Params,
    hash: &dyn TweakableHash,
    sig: &[u8],
    msg: &[u8],
    adrs: &mut Adrs,
    out: &mut [u8],
) {
    let n = p.n;
    let len = p.len();
    let mut ends = [[0u8; MAX_N]; MAX_LEN];
    let mut digit = [0usize; MAX_LEN];
    for ((d, end), (value, x)) in digit.iter_mut().zip(ends.iter_mut()).zip(sig.chunks_exact(n).zip(digits(p, msg))) {
        *d = x;
        end[..n].copy_from_slice(value);
    }
    // The chains longest first (lowest digit first, chain order among equals: a
    // counting sort), without those whose digit w − 1 is already the chain's end.
    // Bytes: len ≤ 67, and the stack stays as small as the verify's other frames.
    let mut first = [0u8; W];
    for &d in &digit[..len] {
        first[d] += 1;
    }
    let mut at = 0;
    for slot in &mut first {
        (*slot, at) = (at, at + *slot);
    }
    let waiting = usize::from(first[W - 1]);
    let mut order = [0u8; MAX_LEN];
    for (chain, &d) in (0u8..).zip(&digit[..len]) {
        order[usize::from(first[d])] = chain;
        first[d] += 1;
    }
    let order = order[..waiting].iter().map(|&chain| usize::from(chain));
    if hash.at_once() == MAX_AT_ONCE {
        complete::<MAX_AT_ONCE>(hash, n, adrs, &digit, order, &mut ends);
    } else {
        complete::<4>(hash, n, adrs, &digit, order, &mut ends);
    }
    let mut pk_adrs = adrs.clone();
    pk_adrs.set_type_and_clear(AdrsType::WotsPk);
    pk_adrs.set_key_pair(adrs.key_pair());
    let mut t = hash.t(&pk_adrs);
    for end in &ends[..len] {
        t.absorb(&end[..n]);
    }
    t.finish(out);
}

/// Chains (Algorithm 5) run to their ends, `L` at a time: each chain in `order` from its
/// `digit` to w − 1, its value in `ends`.
fn complete<const L: usize>(
    hash: &dyn TweakableHash,
    n: usize,
    adrs: &Adrs,
    digit: &[usize],
    mut order: impl Iterator<Item = usize>,
    ends: &mut [[u8; MAX_N]],
) {
    // The chains in flight, in places 0 .. active: (chain, next step), and the place's
    // address (its chain set when the place takes the chain, its hash address at every
    // step). A finished chain's place takes the next waiting chain, or the last place's.
    let mut flying = [(0usize, 0usize); L];
    let mut addresses: [Adrs; L] = core::array::from_fn(|_| adrs.clone());
    let mut results = [[0u8; MAX_N]; L];
    let mut active = 0;
    loop {
        while active < L
            && let Some(chain) = order.next()
        {
            flying[active] = (chain, digit[chain]);
            addresses[active].set_chain(chain as u32);
            active += 1;
        }
        if active == 0 {
            break;
        }
        for (a, &(_, step)) in addresses.iter_mut().zip(&flying[..active]) {
            a.set_hash(step as u32);
        }
        if active == 1 {
            // One chain left: a single F is cheaper than a call for several.
            hash.f(&addresses[0], &ends[flying[0].0][..n], &mut results[0]);
        } else {
            let inputs: [&[u8]; L] = core::array::from_fn(|j| &ends[flying[j].0][..n]);
            hash.f_each(&addresses[..active], &inputs[..active], &mut results[..active]);
        }
        let mut j = 0;
        while j < active {
            let (chain, step) = &mut flying[j];
            // Whole nodes (bytes past n are never read): a fixed-size move, not a
            // call to memcpy for n bytes at every step of every chain.
            ends[*chain] = results[j];
            *step += 1;
            if *step == W - 1 {
                active -= 1;
                flying.swap(j, active);
                addresses.swap(j, active);
                results.swap(j, active);
            } else {
                j += 1;
            }
        }
    }
}
