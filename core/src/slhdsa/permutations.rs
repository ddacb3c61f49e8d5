//! Test: SLH-DSA-SHAKE verify runs exactly the Keccak permutations its hash calls
//! need — one per F and H call, ⌈(input + padding)/rate⌉ per T_l and H_msg — and
//! no more (an XOF reader that permutes ahead would double the count).
//!
//! The counting wrapper hashes one call at a time (the scalar path), so the count
//! is that of the algorithm, independent of how many hashes a SIMD kernel runs at once.

use std::cell::Cell;

use super::address::Adrs;
use super::hash::{ShakeHash, TState, TweakableHash};
use super::params::Params;
use super::verify;
use crate::Suite;
use crate::hash::sponge::PERMUTATIONS;

/// SHAKE256's rate in bytes.
const RATE: u64 = 136;

/// Blocks (= permutations) to absorb `bytes` of input plus at least one padding byte.
fn blocks(bytes: u64) -> u64 {
    (bytes + 1).div_ceil(RATE)
}

/// Wraps the SHAKE hash and adds up the permutations its F, H and H_msg calls need
/// at the least (T_l is added from the signature's structure).
struct Counting<'a> {
    inner: ShakeHash<'a>,
    n: u64,
    minimum: Cell<u64>,
}

impl Counting<'_> {
    fn add(&self, perms: u64) {
        self.minimum.set(self.minimum.get() + perms);
    }
}

impl TweakableHash for Counting<'_> {
    fn f(&self, adrs: &Adrs, m1: &[u8], out: &mut [u8]) {
        self.add(blocks(self.n + 32 + m1.len() as u64));
        self.inner.f(adrs, m1, out);
    }

    fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8], out: &mut [u8]) {
        self.add(blocks(self.n + 32 + (left.len() + right.len()) as u64));
        self.inner.h(adrs, left, right, out);
    }

    fn t(&self, adrs: &Adrs) -> TState {
        self.inner.t(adrs)
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8], m_prime: &[&[u8]], out: &mut [u8]) {
        let input = (r.len() + pk_root.len()) as u64 + self.n + m_prime.iter().map(|p| p.len() as u64).sum::<u64>();
        // Squeezing m ≤ 49 bytes needs no permutation beyond the absorbing ones.
        self.add(blocks(input));
        self.inner.h_msg(r, pk_root, m_prime, out);
    }

    // The scalar default of f_each and h_each (live inputs only, one call at a time), so each call is counted.
}

fn shake_params(suite: Suite) -> &'static Params {
    match suite.params() {
        crate::suite::Params::SlhDsa(p) => p,
        crate::suite::Params::MlDsa(_) => panic!("{suite} is not an SLH-DSA suite"),
    }
}

#[test]
fn shake_verify_runs_no_extra_permutation() {
    let cases = pqverify_kats::slh_dsa_sigver().unwrap();
    let mut checked = 0;
    for suite in Suite::ALL.into_iter().filter(|s| s.name().starts_with("SLH-DSA-SHAKE")) {
        let p = shake_params(suite);
        let case = cases
            .iter()
            .find(|c| c.expected && c.suite == suite.name() && c.interface == pqverify_kats::Interface::Internal)
            .unwrap();
        let (seed, root) = case.public_key.split_at(p.n);
        let counting = Counting { inner: ShakeHash::new(seed), n: p.n as u64, minimum: Cell::new(0) };
        let before = PERMUTATIONS.with(Cell::get);
        assert!(verify::verify_internal(p, &counting, root, &[&case.message], &case.signature));
        let measured = PERMUTATIONS.with(Cell::get) - before;
        // T_len once per hypertree layer over len·n bytes, T_k once over k·n bytes.
        let n = p.n as u64;
        let t_calls = p.d as u64 * blocks(n + 32 + p.len() as u64 * n) + blocks(n + 32 + p.k as u64 * n);
        let minimum = counting.minimum.get() + t_calls;
        std::println!("{suite}: {measured} Keccak-f permutations per verify (minimum for its hash calls: {minimum})");
        assert_eq!(measured, minimum, "{suite}");
        checked += 1;
    }
    assert_eq!(checked, 6);
}
