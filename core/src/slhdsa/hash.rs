//! The tweakable hash functions of SLH-DSA: H_msg, F, H and T_l (FIPS 205,
//! Section 11), for the SHAKE sets and the SHA-2 sets.
//!
//! The algorithm code sees only [`TweakableHash`], so faster kernels (several
//! independent F calls at once) can replace these without touching it.

use super::address::Adrs;
use super::params::{MAX_N, Params};
use crate::hash::sha2::{C256, C512, Compression, Md, Sha256, Sha512};
use crate::hash::{Shake256, multi};
use crate::kernel;

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

    /// How many independent F and H calls [`f_lanes`](Self::f_lanes) and
    /// [`h_lanes`](Self::h_lanes) should be given at once: 4, or [`MAX_LANES`] where a
    /// kernel runs that many together.
    fn lanes(&self) -> usize {
        4
    }

    /// Independent F calls, one per entry of `adrs`, `m1` and `out` (at most as many
    /// as [`lanes`](Self::lanes) says): a SIMD kernel runs them together.
    fn f_lanes(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        for ((adrs, m1), out) in adrs.iter().zip(m1).zip(out) {
            self.f(adrs, m1, out);
        }
    }

    /// Independent H calls (as [`f_lanes`](Self::f_lanes)).
    fn h_lanes(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        for (((adrs, left), right), out) in adrs.iter().zip(left).zip(right).zip(out) {
            self.h(adrs, left, right, out);
        }
    }
}

/// The most lanes a multi-lane call takes: sixteen SHA-256 blocks in a 512-bit register
/// (x86-64 with AVX-512); four elsewhere, so that other targets build only the
/// four-lane loops.
pub(crate) const MAX_LANES: usize = if cfg!(target_arch = "x86_64") { 16 } else { 4 };

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

impl ShakeHash<'_> {
    /// F calls (`right` empty) or H calls in lanes: eight at a time where the kernel set
    /// permutes eight states and more than four calls are left, else four at a time.
    fn in_lanes(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        let mut start = 0;
        while start < adrs.len() {
            if adrs.len() - start > 4 && kernel::keccak_lanes() == 8 {
                self.group::<8>(start, adrs, left, right, out);
                start += 8;
            } else {
                self.group::<4>(start, adrs, left, right, out);
                start += 4;
            }
        }
    }

    /// The calls `start .. start + L` (or to the end) through one `L`-lane kernel call:
    /// SHAKE256 over PK.seed ‖ ADRS_j ‖ left_j ‖ right_j, n bytes into `out[j]`. A group
    /// short of `L` repeats its first call in the idle lanes (the kernel's cost is the
    /// same), their outputs dropped.
    fn group<const L: usize>(&self, start: usize, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node])
    where
        [[u64; L]; 25]: multi::Interleaved,
    {
        let lane = |j: usize| if start + j < adrs.len() { start + j } else { start };
        let parts = core::array::from_fn(|j| {
            let i = lane(j);
            [adrs[i].bytes().as_slice(), left[i], right.get(i).copied().unwrap_or_default()]
        });
        // A whole group's outputs go straight to `out`, a short one's through `spare`.
        let end = adrs.len().min(start + L);
        let mut spare = [[0u8; MAX_N]; L];
        match <&mut [Node; L]>::try_from(&mut out[start..end]) {
            Ok(whole) => multi::shake256_lanes(self.seed, parts, self.n, whole),
            Err(_) => {
                multi::shake256_lanes(self.seed, parts, self.n, &mut spare);
                for (o, node) in out[start..end].iter_mut().zip(&spare) {
                    *o = *node;
                }
            }
        }
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

    /// Sixteen in flight where the set permutes eight states at once (two eight-state
    /// calls per step; the loops' sixteen-lane instance, shared with SLH-DSA-SHA2), else four.
    fn lanes(&self) -> usize {
        if kernel::keccak_lanes() > 4 { MAX_LANES } else { 4 }
    }

    fn f_lanes(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        self.in_lanes(adrs, m1, &[], out);
    }

    fn h_lanes(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        self.in_lanes(adrs, left, right, out);
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
    /// SHA-256. The inputs have one length (22 + n or 22 + 2n bytes), so every lane's
    /// block is one padded block with the lane's bytes written over it. False (nothing
    /// written) for inputs not of those lengths or not fitting one block, which no
    /// approved set makes.
    fn one_block_lanes(
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
        if adrs.len() > MAX_LANES || !shaped || !left.iter().chain(right).all(|v| v.len() == n) {
            return false;
        }
        // The padding of a `len`-byte input: that of `len` zero bytes.
        let zeros: &[&[u8]] = &[&[0; 22 + 2 * MAX_N][..len]];
        // Each arm's own closure (one shared by both was compiled as a call per lane).
        let right = |i: usize| right.get(i).copied();
        match big {
            Some(mid) => {
                let mut padded = [0u8; 128];
                if !Sha512::pad_one_block(1, zeros, &mut padded) {
                    return false;
                }
                // Four at a time (the kernel's width): a quarter of the stack.
                for (k, out) in out[..adrs.len()].chunks_mut(4).enumerate() {
                    let mut digests = [[0u8; 64]; 4];
                    let lane = |i: usize| 4 * k + i;
                    let fill =
                        |i: usize, b: &mut [u8; 128]| write_lane(&adrs[lane(i)], left[lane(i)], right(lane(i)), b);
                    multi::sha512_x4(mid, &padded, out.len(), fill, &mut digests);
                    truncate(&digests, out);
                }
                true
            }
            None => {
                let mut padded = [0u8; 64];
                if !Sha256::pad_one_block(1, zeros, &mut padded) {
                    return false;
                }
                let mut digests = [[0u8; 32]; MAX_LANES];
                multi::sha256_lanes(
                    &self.mid.s256,
                    &padded,
                    adrs.len(),
                    |i, b| write_lane(&adrs[i], left[i], right(i), b),
                    &mut digests,
                );
                truncate(&digests, out);
                true
            }
        }
    }
}

/// ADRSc ‖ left ‖ right written over the start of a lane's block. Always inlined: a
/// call per lane cost 8 % of an AVX-512 SLH-DSA-SHA2-128s verify.
#[inline(always)]
fn write_lane(adrs: &Adrs, left: &[u8], right: Option<&[u8]>, block: &mut [u8]) {
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

/// Trunc_n of each digest into its output: the node's first bytes (the bytes of a node
/// past n are never read, so a whole-node move does for every n).
fn truncate<const D: usize>(digests: &[[u8; D]], out: &mut [Node]) {
    for (o, digest) in out.iter_mut().zip(digests) {
        o.copy_from_slice(&digest[..MAX_N]);
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

    /// Sixteen where the kernel set has SHA-256 ×16 (F is SHA-256 in every category).
    fn lanes(&self) -> usize {
        if kernel::has_sha256_x16() { MAX_LANES } else { 4 }
    }

    fn f_lanes(&self, adrs: &[Adrs], m1: &[&[u8]], out: &mut [Node]) {
        // F is SHA-256 in every category.
        if !self.one_block_lanes(None, adrs, m1, &[], out) {
            for ((adrs, m1), out) in adrs.iter().zip(m1).zip(out) {
                self.f(adrs, m1, out);
            }
        }
    }

    fn h_lanes(&self, adrs: &[Adrs], left: &[&[u8]], right: &[&[u8]], out: &mut [Node]) {
        // H is SHA-256 in category 1, SHA-512 in categories 3 and 5.
        if !self.one_block_lanes(self.mid.s512.as_ref(), adrs, left, right, out) {
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
