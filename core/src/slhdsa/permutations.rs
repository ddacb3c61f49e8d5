//! Test: SLH-DSA-SHAKE verify runs exactly the Keccak permutations its hash calls
//! need — one per F and H call, ⌈(input + padding)/rate⌉ per T_l and H_msg — and
//! no more (an XOF reader that permutes ahead would double the count).

use std::cell::{Cell, RefCell};
use std::vec::Vec;

use super::address::Adrs;
use super::hash::{ShakeHash, ShakeT, TStream, TweakableHash};
use super::params::Params;
use super::{params, verify};
use crate::Suite;
use crate::hash::keccak::PERMUTATIONS;

/// SHAKE256's rate in bytes.
const RATE: u64 = 136;

/// Blocks (= permutations) to absorb `bytes` of input plus at least one padding byte.
fn blocks(bytes: u64) -> u64 {
    (bytes + 1).div_ceil(RATE)
}

/// Wraps the SHAKE hash and adds up the permutations its calls need at the least.
struct Counting<'a> {
    inner: ShakeHash<'a>,
    n: u64,
    minimum: Cell<u64>,
    t_inputs: RefCell<Vec<u64>>,
}

struct CountingT<'c> {
    inner: ShakeT,
    bytes: u64,
    log: &'c RefCell<Vec<u64>>,
}

impl TStream for CountingT<'_> {
    fn absorb(&mut self, value: &[u8]) {
        self.bytes += value.len() as u64;
        self.inner.absorb(value);
    }

    fn finish(self, out: &mut [u8]) {
        self.log.borrow_mut().push(self.bytes);
        self.inner.finish(out);
    }
}

impl<'a> Counting<'a> {
    fn add(&self, perms: u64) {
        self.minimum.set(self.minimum.get() + perms);
    }
}

impl<'s> TweakableHash for &'s Counting<'_> {
    type T = CountingT<'s>;

    fn f(&self, adrs: &Adrs, m1: &[u8], out: &mut [u8]) {
        self.add(blocks(self.n + 32 + m1.len() as u64));
        self.inner.f(adrs, m1, out);
    }

    fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8], out: &mut [u8]) {
        self.add(blocks(self.n + 32 + (left.len() + right.len()) as u64));
        self.inner.h(adrs, left, right, out);
    }

    fn t(&self, adrs: &Adrs) -> CountingT<'s> {
        CountingT { inner: self.inner.t(adrs), bytes: self.n + 32, log: &self.t_inputs }
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8], m_prime: &[&[u8]], out: &mut [u8]) {
        let input = (r.len() + pk_root.len()) as u64 + self.n + m_prime.iter().map(|p| p.len() as u64).sum::<u64>();
        // Squeezing m ≤ 49 bytes needs no permutation beyond the absorbing ones.
        self.add(blocks(input));
        self.inner.h_msg(r, pk_root, m_prime, out);
    }
}

fn shake_params(suite: Suite) -> &'static Params {
    params(suite).unwrap_or_else(|| unreachable!())
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
        let counting = Counting {
            inner: ShakeHash::new(seed),
            n: p.n as u64,
            minimum: Cell::new(0),
            t_inputs: RefCell::new(Vec::new()),
        };
        let before = PERMUTATIONS.with(Cell::get);
        assert!(verify::verify_internal(p, &&counting, root, &[&case.message], &case.signature));
        let measured = PERMUTATIONS.with(Cell::get) - before;
        let minimum = counting.minimum.get() + counting.t_inputs.borrow().iter().map(|&b| blocks(b)).sum::<u64>();
        std::println!("{suite}: {measured} Keccak-f permutations per verify (minimum for its hash calls: {minimum})");
        assert_eq!(measured, minimum, "{suite}");
        checked += 1;
    }
    assert_eq!(checked, 6);
}
