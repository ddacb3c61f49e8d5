//! The tweakable hash functions of SLH-DSA: H_msg, F, H and T_l (FIPS 205,
//! Section 11), for the SHAKE sets and the SHA-2 sets.
//!
//! The algorithm code sees only [`TweakableHash`], so faster kernels (several
//! independent F calls at once) can replace these without touching it.

use super::address::Adrs;
use super::params::{MAX_N, Params};
use crate::hash::Shake256;
use crate::hash::lanes::LaneShake256;
use crate::hash::sha2::{C256, C512, Compression, Md, Sha256, Sha512};
use crate::kernel;
use crate::kernel::f1600x4;
use crate::kernel_set::StateX4;

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

    /// Up to four independent F calls, those whose `live` flag is set (a SIMD
    /// kernel may run all four lanes at once; the others' outputs are unspecified).
    fn f_x4(&self, adrs: &[Adrs; 4], m1: [&[u8]; 4], live: [bool; 4], out: &mut [Node; 4]) {
        for j in (0..4).filter(|&j| live[j]) {
            self.f(&adrs[j], m1[j], &mut out[j]);
        }
    }

    /// Up to four independent H calls (as [`f_x4`](Self::f_x4)).
    fn h_x4(&self, adrs: &[Adrs; 4], left: [&[u8]; 4], right: [&[u8]; 4], live: [bool; 4], out: &mut [Node; 4]) {
        for j in (0..4).filter(|&j| live[j]) {
            self.h(&adrs[j], left[j], right[j], &mut out[j]);
        }
    }
}

/// SHAKE256's rate in bytes.
const RATE: usize = LaneShake256::RATE;

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
    /// Four single-block SHAKE256 calls on PK.seed ‖ ADRS_j ‖ parts_j, n bytes out each.
    /// Every input is a whole number of 8-byte words (n is 16, 24 or 32) and fits one
    /// block, so the state is built word by word: the seed's words once for all four
    /// lanes, then each lane's address and message words, then the padding.
    fn x4(&self, adrs: &[Adrs; 4], parts: [[&[u8]; 2]; 4], out: &mut [Node; 4]) {
        let len = self.seed.len() + 32 + parts[0][0].len() + parts[0][1].len();
        let whole_words = parts.iter().flatten().chain([&self.seed]).all(|p| p.len().is_multiple_of(8));
        let same_length = parts.iter().all(|p| p[0].len() + p[1].len() + self.seed.len() + 32 == len);
        if !(whole_words && same_length && len < RATE) {
            // Unreachable for the approved sets (inputs are at most 128 bytes).
            for ((adrs, parts), o) in adrs.iter().zip(parts).zip(out.iter_mut()) {
                let mut s = self.start(adrs);
                parts.iter().for_each(|p| s.absorb(p));
                s.finalize().squeeze(&mut o[..self.n]);
            }
            return;
        }
        let mut state: StateX4 = [[0; 4]; 25];
        for (lane, chunk) in state.iter_mut().zip(self.seed.as_chunks::<8>().0) {
            *lane = [u64::from_le_bytes(*chunk); 4];
        }
        let first = self.seed.len() / 8;
        for (j, (adrs, parts)) in adrs.iter().zip(parts).enumerate() {
            let words = [adrs.bytes().as_slice(), parts[0], parts[1]].into_iter().flat_map(|p| p.as_chunks::<8>().0);
            for (lane, chunk) in state[first..].iter_mut().zip(words) {
                lane[j] = u64::from_le_bytes(*chunk);
            }
        }
        // SHAKE padding: 0x1f after the input, 0x80 in the last byte of the block.
        for word in &mut state[len / 8] {
            *word ^= 0x1f;
        }
        for word in &mut state[RATE / 8 - 1] {
            *word ^= 0x80 << 56;
        }
        f1600x4(&mut state, 4);
        for (j, o) in out.iter_mut().enumerate() {
            for (bytes, lane) in o[..self.n].chunks_exact_mut(8).zip(&state) {
                bytes.copy_from_slice(&lane[j].to_le_bytes());
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

    fn f_x4(&self, adrs: &[Adrs; 4], m1: [&[u8]; 4], _live: [bool; 4], out: &mut [Node; 4]) {
        self.x4(adrs, m1.map(|m| [m, &[][..]]), out);
    }

    fn h_x4(&self, adrs: &[Adrs; 4], left: [&[u8]; 4], right: [&[u8]; 4], _live: [bool; 4], out: &mut [Node; 4]) {
        self.x4(adrs, core::array::from_fn(|j| [left[j], right[j]]), out);
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
    /// Four SHA-256 calls resumed from PK.seed's midstate, each on `parts` (F in every
    /// category; H in category 1): n bytes out each. Lanes whose flag is clear are not
    /// written. The blocks are padded once; the kernel hashes all four, or answers "not
    /// here" and each live block is compressed on its own. False (nothing written) if
    /// any input does not fit one block with the padding: never for the approved sets.
    fn sha256_x4(&self, parts: [[&[u8]; 3]; 4], live: [bool; 4], out: &mut [Node; 4]) -> bool {
        let mut blocks = [[0u8; 64]; 4];
        if !blocks.iter_mut().zip(parts).all(|(block, parts)| Sha256::pad_one_block(1, &parts, block)) {
            return false;
        }
        let mut digests = [[0u8; 32]; 4];
        if !kernel::sha256_x4(&self.mid.s256, &blocks, &mut digests) {
            for ((digest, block), _) in digests.iter_mut().zip(&blocks).zip(live).filter(|(_, live)| *live) {
                let mut state = self.mid.s256;
                C256::compress(&mut state, block);
                C256::output(&state, digest);
            }
        }
        for ((o, digest), live) in out.iter_mut().zip(&digests).zip(live) {
            if live {
                crate::hash::bytes::copy(&mut o[..self.n], &digest[..self.n]);
            }
        }
        true
    }

    /// Four SHA-512 calls resumed from `mid` (H in categories 3 and 5), two lanes per
    /// kernel call, as [`Self::sha256_x4`].
    fn sha512_x4(&self, mid: &[u64; 8], parts: [[&[u8]; 3]; 4], live: [bool; 4], out: &mut [Node; 4]) -> bool {
        // Lane j is block j % 2 of pair j / 2: each pair is one kernel call.
        let mut pairs = [[[0u8; 128]; 2]; 2];
        if !pairs.as_flattened_mut().iter_mut().zip(parts).all(|(block, parts)| Sha512::pad_one_block(1, &parts, block))
        {
            return false;
        }
        for (half, blocks) in pairs.iter().enumerate() {
            let lanes = [2 * half, 2 * half + 1];
            if !live[lanes[0]] && !live[lanes[1]] {
                continue;
            }
            let mut digests = [[0u8; 64]; 2];
            if !kernel::sha512_x2(mid, blocks, &mut digests) {
                for ((digest, block), _) in digests.iter_mut().zip(blocks).zip(lanes).filter(|&(_, j)| live[j]) {
                    let mut state = *mid;
                    C512::compress(&mut state, block);
                    C512::output(&state, digest);
                }
            }
            for (digest, j) in digests.iter().zip(lanes) {
                if live[j] {
                    crate::hash::bytes::copy(&mut out[j][..self.n], &digest[..self.n]);
                }
            }
        }
        true
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

    fn f_x4(&self, adrs: &[Adrs; 4], m1: [&[u8]; 4], live: [bool; 4], out: &mut [Node; 4]) {
        // ADRSc (22 bytes) ‖ M1 (n ≤ 32) and the 9 bytes of padding fit one block.
        let adrs_c = adrs.each_ref().map(Adrs::compressed);
        if self.sha256_x4(core::array::from_fn(|j| [&adrs_c[j][..], m1[j], &[][..]]), live, out) {
            return;
        }
        for j in (0..4).filter(|&j| live[j]) {
            self.f(&adrs[j], m1[j], &mut out[j]);
        }
    }

    fn h_x4(&self, adrs: &[Adrs; 4], left: [&[u8]; 4], right: [&[u8]; 4], live: [bool; 4], out: &mut [Node; 4]) {
        // ADRSc (22) ‖ left ‖ right (2n) and the padding fit one block: SHA-256's in
        // category 1, SHA-512's (H) in categories 3 and 5.
        let adrs_c = adrs.each_ref().map(Adrs::compressed);
        let parts = core::array::from_fn(|j| [&adrs_c[j][..], left[j], right[j]]);
        let done = match &self.mid.s512 {
            Some(mid) => self.sha512_x4(mid, parts, live, out),
            None => self.sha256_x4(parts, live, out),
        };
        if done {
            return;
        }
        for j in (0..4).filter(|&j| live[j]) {
            self.h(&adrs[j], left[j], right[j], &mut out[j]);
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
