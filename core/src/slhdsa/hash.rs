//! The tweakable hash functions of SLH-DSA: H_msg, F, H and T_l (FIPS 205,
//! Section 11), for the SHAKE sets and the SHA-2 sets.
//!
//! The algorithm code sees only [`TweakableHash`], so faster kernels (several
//! independent F calls at once) can replace these without touching it.

use super::address::Adrs;
use super::params::{MAX_N, Params};
use crate::hash::Shake256;
use crate::hash::multi::one_block;
use crate::hash::sha2::{C256, C512, Compression, Md, Sha256, Sha512};

/// A T_l computation in progress: its input is absorbed piece by piece, so the
/// l·n-byte input never has to be held in memory.
pub(crate) enum TState {
    /// SHAKE256, n bytes out.
    Shake(Shake256, usize),
    /// SHA-256 (category 1), truncated to n bytes.
    Sha256(Sha256, usize),
    /// SHA-512 (categories 3 and 5), truncated to n bytes.
    Sha512(Sha512, usize),
}

impl TState {
    /// Absorbs the next n-byte value.
    pub(crate) fn absorb(&mut self, value: &[u8]) {
        match self {
            TState::Shake(s, _) => s.absorb(value),
            TState::Sha256(s, _) => s.update(value),
            TState::Sha512(s, _) => s.update(value),
        }
    }

    /// Writes the n-byte output.
    pub(crate) fn finish(self, out: &mut [u8]) {
        match self {
            TState::Shake(s, n) => s.finalize().squeeze(&mut out[..n]),
            TState::Sha256(s, n) => truncated(s, &mut out[..n]),
            TState::Sha512(s, n) => truncated(s, &mut out[..n]),
        }
    }
}

/// H_msg, F, H and T_l bound to one public key's PK.seed. Used as a trait object,
/// so one copy of the algorithm code serves both instantiations.
pub(crate) trait TweakableHash {
    /// F(PK.seed, ADRS, M1), into `out` (n bytes).
    fn f(&self, adrs: &Adrs, m1: &[u8], out: &mut [u8]);
    /// H(PK.seed, ADRS, left ‖ right), into `out` (n bytes).
    fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8], out: &mut [u8]);
    /// Starts T_l(PK.seed, ADRS, ·).
    fn t(&self, adrs: &Adrs) -> TState;
    /// H_msg(R, PK.seed, PK.root, M′) with M′ in parts, into `out` (m bytes).
    fn h_msg(&self, r: &[u8], pk_root: &[u8], m_prime: &[&[u8]], out: &mut [u8]);

    /// How many independent F and H calls [`f_each`](Self::f_each) and
    /// [`h_each`](Self::h_each) should be given at once: 4, or
    /// [`MAX_AT_ONCE`](one_block::MAX_AT_ONCE) where the
    /// hash layer runs that many together.
    fn at_once(&self) -> usize {
        4
    }

    /// Independent F calls, one per entry of `adrs`, `m1` and `out` (at most as many
    /// as [`at_once`](Self::at_once) says): a SIMD kernel runs them together.
    fn f_each(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        for ((adrs, m1), out) in adrs.iter().zip(m1).zip(out) {
            self.f(adrs, m1, out);
        }
    }

    /// Independent H calls (as [`f_each`](Self::f_each)).
    fn h_each(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        for (((adrs, left), right), out) in adrs.iter().zip(left).zip(right).zip(out) {
            self.h(adrs, left, right, out);
        }
    }
}

/// The SHAKE instantiation (FIPS 205, Section 11.1): every function is SHAKE256
/// over PK.seed ‖ ADRS ‖ input (H_msg over R ‖ PK.seed ‖ PK.root ‖ M′).
pub(crate) struct ShakeHash<'a> {
    seed: &'a [u8],
    n: usize,
}

impl<'a> ShakeHash<'a> {
    /// Binds PK.seed (n bytes).
    pub(crate) fn new(seed: &'a [u8]) -> Self {
        ShakeHash { seed, n: seed.len() }
    }

    fn start(&self, adrs: &Adrs) -> Shake256 {
        let mut s = Shake256::new();
        s.absorb(self.seed);
        s.absorb(adrs.bytes());
        s
    }
}

impl TweakableHash for ShakeHash<'_> {
    #[inline]
    fn f(&self, adrs: &Adrs, m1: &[u8], out: &mut [u8]) {
        let mut s = self.start(adrs);
        s.absorb(m1);
        s.finalize().squeeze(&mut out[..self.n]);
    }

    #[inline]
    fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8], out: &mut [u8]) {
        let mut s = self.start(adrs);
        s.absorb(left);
        s.absorb(right);
        s.finalize().squeeze(&mut out[..self.n]);
    }

    fn t(&self, adrs: &Adrs) -> TState {
        TState::Shake(self.start(adrs), self.n)
    }

    fn at_once(&self) -> usize {
        one_block::shake256_at_once()
    }

    /// SHAKE256 over PK.seed ‖ ADRS ‖ M1 of each.
    fn f_each(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        one_block::shake256_each(
            self.seed,
            |i| [adrs[i].bytes().as_slice(), m1[i], &[]],
            self.n,
            &mut out[..adrs.len()],
        );
    }

    /// SHAKE256 over PK.seed ‖ ADRS ‖ left ‖ right of each.
    fn h_each(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        let parts = |i: usize| [adrs[i].bytes().as_slice(), left[i], right[i]];
        one_block::shake256_each(self.seed, parts, self.n, &mut out[..adrs.len()]);
    }

    fn h_msg(&self, r: &[u8], pk_root: &[u8], m_prime: &[&[u8]], out: &mut [u8]) {
        let mut s = Shake256::new();
        for part in [r, self.seed, pk_root].into_iter().chain(m_prime.iter().copied()) {
            s.absorb(part);
        }
        s.finalize().squeeze(out);
    }
}

/// PK.seed's block already compressed: the per-key state of the SHA-2 sets.
#[derive(Clone, Debug)]
pub(crate) struct Sha2Midstates {
    /// SHA-256 state after PK.seed ‖ toByte(0, 64 − n).
    s256: [u32; 8],
    /// SHA-512 state after PK.seed ‖ toByte(0, 128 − n) (categories 3 and 5).
    s512: Option<[u64; 8]>,
}

impl Sha2Midstates {
    /// Compresses PK.seed's padded block(s) for the set `p`.
    pub(crate) fn new(p: &Params, seed: &[u8]) -> Self {
        let mut block = [0u8; 128];
        block[..seed.len()].copy_from_slice(seed);
        let mut s256 = Sha256::new();
        s256.update(&block[..64]);
        let s512 = p.sha2_uses_sha512().then(|| {
            let mut s = Sha512::new();
            s.update(&block);
            s.midstate()
        });
        Sha2Midstates { s256: s256.midstate(), s512 }
    }
}

/// The SHA-2 instantiation (FIPS 205, Sections 11.2.1 and 11.2.2).
pub(crate) struct Sha2Hash<'a> {
    seed: &'a [u8],
    n: usize,
    mid: &'a Sha2Midstates,
}

impl<'a> Sha2Hash<'a> {
    /// Binds PK.seed and its midstates.
    pub(crate) fn new(seed: &'a [u8], mid: &'a Sha2Midstates) -> Self {
        Sha2Hash { seed, n: seed.len(), mid }
    }

    fn start256(&self, adrs: &Adrs) -> Sha256 {
        let mut s = Md::<C256>::resume(self.mid.s256, 1);
        s.update(&adrs.compressed());
        s
    }

    /// SHA-512 for categories 3 and 5, SHA-256 for category 1: the hash of H and T_l.
    fn start_big(&self, adrs: &Adrs) -> TState {
        match self.mid.s512 {
            Some(state) => {
                let mut s = Md::<C512>::resume(state, 1);
                s.update(&adrs.compressed());
                TState::Sha512(s, self.n)
            }
            None => TState::Sha256(self.start256(adrs), self.n),
        }
    }
}

impl Sha2Hash<'_> {
    /// F calls (`right` empty) or H calls, each over ADRSc ‖ left ‖ right resumed from
    /// PK.seed's block, n bytes into each `out`: SHA-512 from `big` where given, else
    /// SHA-256. False (nothing written) for inputs not n bytes each or not fitting one
    /// block, which no approved set makes.
    fn one_block_each(
        &self,
        big: Option<&[u64; 8]>,
        adrs: &[Adrs],
        left: &[&[u8]],
        right: &[&[u8]],
        out: &mut [Node],
    ) -> bool {
        let n = self.n;
        let len = 22 + n + if right.is_empty() { 0 } else { n };
        let shaped =
            left.len() == adrs.len() && out.len() >= adrs.len() && (right.is_empty() || right.len() == adrs.len());
        if !shaped || !left.iter().chain(right).all(|v| v.len() == n) {
            return false;
        }
        let right = |i: usize| right.get(i).copied();
        let out = &mut out[..adrs.len()];
        // Each arm's own closure (one shared by both was compiled as a call per input).
        match big {
            Some(mid) => one_block::sha512_each(mid, len, |i, b| write_input(&adrs[i], left[i], right(i), b), out),
            None => {
                one_block::sha256_each(&self.mid.s256, len, |i, b| write_input(&adrs[i], left[i], right(i), b), out)
            }
        }
    }
}

/// ADRSc ‖ left ‖ right written over the start of an input's block. Always inlined: a
/// call per input was a measurable part of an AVX-512 SLH-DSA-SHA2 verify.
#[inline(always)]
fn write_input(adrs: &Adrs, left: &[u8], right: Option<&[u8]>, block: &mut [u8]) {
    if let Some((adrs_c, values)) = block.split_first_chunk_mut::<22>()
        && let Some((l, r)) = values.split_at_mut_checked(left.len())
    {
        adrs.write_compressed(adrs_c);
        crate::hash::bytes::copy(l, left);
        if let Some(right) = right {
            crate::hash::bytes::copy(&mut r[..right.len()], right);
        }
    }
}

/// Trunc_n of a digest.
fn truncated<C: Compression>(s: Md<C>, out: &mut [u8]) {
    let mut full = [0u8; 64];
    s.finalize_into(&mut full);
    out.copy_from_slice(&full[..out.len()]);
}

/// MGF1 (RFC 8017, Appendix B.2.1) over `seed` parts, into `out`.
fn mgf1<C: Compression>(fresh: &Md<C>, seed: &[&[u8]], digest_len: usize, out: &mut [u8]) {
    let mut prefix = fresh.clone();
    for part in seed {
        prefix.update(part);
    }
    for (counter, chunk) in (0u32..).zip(out.chunks_mut(digest_len)) {
        let mut s = prefix.clone();
        s.update(&counter.to_be_bytes());
        let mut block = [0u8; 64];
        s.finalize_into(&mut block[..digest_len]);
        chunk.copy_from_slice(&block[..chunk.len()]);
    }
}

impl TweakableHash for Sha2Hash<'_> {
    #[inline]
    fn f(&self, adrs: &Adrs, m1: &[u8], out: &mut [u8]) {
        // F is SHA-256 in every category; ADRSc ‖ M1 and the padding fit one block.
        let mut full = [0u8; 32];
        if Sha256::one_block(&self.mid.s256, 1, &[&adrs.compressed(), m1], &mut full) {
            out[..self.n].copy_from_slice(&full[..self.n]);
        } else {
            let mut s = self.start256(adrs);
            s.update(m1);
            truncated(s, &mut out[..self.n]);
        }
    }

    #[inline]
    fn h(&self, adrs: &Adrs, left: &[u8], right: &[u8], out: &mut [u8]) {
        let adrs_c = adrs.compressed();
        let parts: [&[u8]; 3] = [&adrs_c, left, right];
        let mut full = [0u8; 64];
        let fits = match &self.mid.s512 {
            Some(state) => Sha512::one_block(state, 1, &parts, &mut full),
            None => Sha256::one_block(&self.mid.s256, 1, &parts, &mut full[..32]),
        };
        if fits {
            out[..self.n].copy_from_slice(&full[..self.n]);
        } else {
            let mut t = self.start_big(adrs);
            t.absorb(left);
            t.absorb(right);
            t.finish(out);
        }
    }

    fn t(&self, adrs: &Adrs) -> TState {
        self.start_big(adrs)
    }

    /// As many as SHA-256 runs at once (F is SHA-256 in every category).
    fn at_once(&self) -> usize {
        one_block::sha256_at_once()
    }

    fn f_each(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        // F is SHA-256 in every category.
        if !self.one_block_each(None, adrs, m1, &[], out) {
            for ((adrs, m1), out) in adrs.iter().zip(m1).zip(out) {
                self.f(adrs, m1, out);
            }
        }
    }

    fn h_each(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        // H is SHA-256 in category 1, SHA-512 in categories 3 and 5.
        if !self.one_block_each(self.mid.s512.as_ref(), adrs, left, right, out) {
            for (((adrs, left), right), out) in adrs.iter().zip(left).zip(right).zip(out) {
                self.h(adrs, left, right, out);
            }
        }
    }

    /// MGF1-SHA-x(R ‖ PK.seed ‖ SHA-x(R ‖ PK.seed ‖ PK.root ‖ M′), m).
    fn h_msg(&self, r: &[u8], pk_root: &[u8], m_prime: &[&[u8]], out: &mut [u8]) {
        let parts = [r, self.seed, pk_root].into_iter().chain(m_prime.iter().copied());
        if self.mid.s512.is_some() {
            let mut inner = Sha512::new();
            parts.for_each(|p| inner.update(p));
            let mut digest = [0u8; 64];
            inner.finalize_into(&mut digest);
            mgf1(&Sha512::new(), &[r, self.seed, &digest], 64, out);
        } else {
            let mut inner = Sha256::new();
            parts.for_each(|p| inner.update(p));
            let mut digest = [0u8; 32];
            inner.finalize_into(&mut digest);
            mgf1(&Sha256::new(), &[r, self.seed, &digest], 32, out);
        }
    }
}

/// An n-byte hash value on the stack.
pub(crate) type Node = [u8; MAX_N];
