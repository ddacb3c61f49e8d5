//! The Keccak sponge (FIPS 202, Section 4) for SHAKE128, SHAKE256 and SHA3-*.
//!
//! Why not the `sha3` crate's XOF reader: it runs the permutation again as soon as it
//! hands out a block, whether or not more output is ever read. SLH-DSA-SHAKE verify
//! is almost all single-block SHAKE256 calls, so that costs about twice the
//! permutations needed. Here the squeeze permutes only when more output is asked
//! for. The `sha3` crate remains the oracle these sponges are tested against.

#[cfg(test)]
std::thread_local! {
    /// Permutations run by this thread, for tests that check none is wasted.
    pub(crate) static PERMUTATIONS: core::cell::Cell<u64> = const { core::cell::Cell::new(0) };
}

/// Keccak-f[1600] through the chosen kernel set, counted in tests.
#[inline]
fn f1600(a: &mut [u64; 25]) {
    #[cfg(test)]
    PERMUTATIONS.with(|c| c.set(c.get() + 1));
    crate::kernel::f1600(a);
}

/// Domain-separation and first padding bits for SHAKE (FIPS 202, Section 6.2).
const SHAKE_DS: u8 = 0x1f;
/// Domain-separation and first padding bits for SHA-3 (FIPS 202, Section 6.1).
const SHA3_DS: u8 = 0x06;

/// A Keccak-f[1600] sponge with `RATE` bytes of rate and domain byte `DS`.
#[derive(Clone)]
pub(crate) struct Sponge<const RATE: usize, const DS: u8> {
    state: [u64; 25],
    /// Absorbing: bytes already XORed into the current block.
    /// Squeezing: bytes of the current block already handed out.
    pos: usize,
}

/// SHAKE128 (FIPS 202): G in FIPS 204.
pub(crate) type Shake128 = Sponge<168, SHAKE_DS>;
/// SHAKE256 (FIPS 202): H in FIPS 204, and the SLH-DSA-SHAKE hash functions.
pub(crate) type Shake256 = Sponge<136, SHAKE_DS>;
/// SHA3-224.
pub(crate) type Sha3_224 = Sponge<144, SHA3_DS>;
/// SHA3-256.
pub(crate) type Sha3_256 = Sponge<136, SHA3_DS>;
/// SHA3-384.
pub(crate) type Sha3_384 = Sponge<104, SHA3_DS>;
/// SHA3-512.
pub(crate) type Sha3_512 = Sponge<72, SHA3_DS>;

/// XORs `data` into the state's bytes starting at byte `offset` (little-endian lanes).
#[inline]
pub(super) fn xor_bytes(state: &mut [u64; 25], offset: usize, data: &[u8]) {
    let mut pos = offset;
    let mut rest = data;
    // Leading bytes up to a lane boundary.
    while !pos.is_multiple_of(8) {
        let Some((&b, tail)) = rest.split_first() else { return };
        state[pos / 8] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
        rest = tail;
    }
    let mut lanes = rest.chunks_exact(8);
    for chunk in &mut lanes {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        state[pos / 8] ^= u64::from_le_bytes(word);
        pos += 8;
    }
    for &b in lanes.remainder() {
        state[pos / 8] ^= u64::from(b) << (8 * (pos % 8));
        pos += 1;
    }
}

/// Copies the state's bytes starting at byte `offset` into `out`: whole lanes as 8-byte
/// copies where `offset` is lane-aligned (every block read is), bytes otherwise.
#[inline]
pub(super) fn read_bytes(state: &[u64; 25], offset: usize, out: &mut [u8]) {
    let mut out = out;
    let mut pos = offset;
    if pos.is_multiple_of(8) {
        let (words, tail) = out.as_chunks_mut::<8>();
        for (word, lane) in words.iter_mut().zip(&state[pos / 8..]) {
            *word = lane.to_le_bytes();
        }
        pos += 8 * words.len();
        out = tail;
    }
    for (pos, byte) in (pos..).zip(out.iter_mut()) {
        *byte = (state[pos / 8] >> (8 * (pos % 8))) as u8;
    }
}

// The sponge's three steps over a rate given at run time. Inlined always: the typed
// sponges below pass their constant `RATE` (the hot SHAKE calls of both schemes compile
// as if it were written in), and [`digest_at_rate`] holds one copy for the rest.

/// Absorbs `data` into `state`, whose current block holds `pos` bytes; returns the new `pos`.
#[inline(always)]
fn absorb_at(state: &mut [u64; 25], mut pos: usize, rate: usize, mut data: &[u8]) -> usize {
    while !data.is_empty() {
        let take = (rate - pos).min(data.len());
        let (now, later) = data.split_at(take);
        xor_bytes(state, pos, now);
        pos += take;
        data = later;
        if pos == rate {
            f1600(state);
            pos = 0;
        }
    }
    pos
}

/// Pads the input (domain byte `ds`, FIPS 202 Section 5.1's pad10*1) and permutes.
#[inline(always)]
fn pad_at(state: &mut [u64; 25], pos: usize, rate: usize, ds: u8) {
    state[pos / 8] ^= u64::from(ds) << (8 * (pos % 8));
    state[(rate - 1) / 8] ^= 0x80 << (8 * ((rate - 1) % 8));
    f1600(state);
}

/// Fills `out` with output bytes, `pos` of the current block already handed out;
/// permutes only when a fresh block is needed. Returns the new `pos`.
#[inline(always)]
fn squeeze_at(state: &mut [u64; 25], mut pos: usize, rate: usize, mut out: &mut [u8]) -> usize {
    while !out.is_empty() {
        if pos == rate {
            f1600(state);
            pos = 0;
        }
        let take = (rate - pos).min(out.len());
        let (now, later) = out.split_at_mut(take);
        read_bytes(state, pos, now);
        pos += take;
        out = later;
    }
    pos
}

/// One-call hash of `msg` into `out` by the sponge of `rate` bytes and domain byte `ds`
/// (SHA3-* with [`SHA3_DS`], SHAKE with [`SHAKE_DS`]). One copy for every rate: the
/// pre-hash functions, where the message's length, not the code's, sets the time.
#[inline(never)]
pub(crate) fn digest_at_rate(rate: usize, ds: u8, msg: &[u8], out: &mut [u8]) {
    let mut state = [0u64; 25];
    let pos = absorb_at(&mut state, 0, rate, msg);
    pad_at(&mut state, pos, rate, ds);
    squeeze_at(&mut state, 0, rate, out);
}

impl<const RATE: usize, const DS: u8> Sponge<RATE, DS> {
    /// The sponge's rate in bytes.
    pub(crate) const RATE: usize = RATE;
    /// The sponge's domain-separation byte.
    pub(crate) const DS: u8 = DS;

    /// An empty sponge.
    #[inline]
    pub(crate) const fn new() -> Self {
        Self { state: [0; 25], pos: 0 }
    }

    /// Absorbs more input. (Not inlined in wasm modules without SLH-DSA: one copy per
    /// sponge type for ML-DSA's many callers keeps the module small, its hot hashes going
    /// through the multi-state kernels. Inlined where SLH-DSA's T_l, F and H absorb here:
    /// out of line, V8 inlined the call or not from one Node process to the next, and
    /// SLH-DSA's speed with it.)
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "slh-dsa")), inline(never))]
    #[cfg_attr(not(all(target_arch = "wasm32", not(feature = "slh-dsa"))), inline)]
    pub(crate) fn absorb(&mut self, data: &[u8]) {
        self.pos = absorb_at(&mut self.state, self.pos, RATE, data);
    }

    /// Pads the input and switches to squeezing.
    #[inline]
    pub(crate) fn finalize(mut self) -> Reader<RATE> {
        pad_at(&mut self.state, self.pos, RATE, DS);
        Reader { state: self.state, pos: 0 }
    }

    /// One-call hash: absorbs each part in turn and fills `out` (the tests' reference).
    #[cfg(test)]
    pub(crate) fn digest(parts: &[&[u8]], out: &mut [u8]) {
        let mut sponge = Self::new();
        for part in parts {
            sponge.absorb(part);
        }
        sponge.finalize().squeeze(out);
    }
}

/// The squeezing phase of a sponge.
#[derive(Clone)]
pub(crate) struct Reader<const RATE: usize> {
    state: [u64; 25],
    pos: usize,
}

impl<const RATE: usize> Reader<RATE> {
    /// Fills `out` with the next output bytes; permutes only when a fresh block is needed.
    #[inline]
    pub(crate) fn squeeze(&mut self, out: &mut [u8]) {
        self.pos = squeeze_at(&mut self.state, self.pos, RATE, out);
    }

    /// Next output byte.
    #[inline]
    pub(crate) fn squeeze_byte(&mut self) -> u8 {
        let mut b = [0u8; 1];
        self.squeeze(&mut b);
        b[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha3::Digest;
    use shake::{ExtendableOutput, Update, XofReader};

    fn pattern(len: usize) -> std::vec::Vec<u8> {
        (0..len).map(|i| (i * 7 + 3) as u8).collect()
    }

    /// Every absorb length around the block boundaries, split at every point, against the `sha3` crate.
    #[test]
    fn matches_sha3_crate() {
        for len in (0..=600).chain([1000, 4096]) {
            let msg = pattern(len);
            let split = len / 3;
            let mut ours = [0u8; 400];
            let mut s = Shake128::new();
            s.absorb(&msg[..split]);
            s.absorb(&msg[split..]);
            let mut reader = s.finalize();
            // Squeeze in uneven pieces across block boundaries.
            reader.squeeze(&mut ours[..5]);
            reader.squeeze(&mut ours[5..200]);
            reader.squeeze(&mut ours[200..]);
            let mut theirs = [0u8; 400];
            let mut x = shake::Shake128::default();
            x.update(&msg);
            x.finalize_xof().read(&mut theirs);
            assert_eq!(ours, theirs, "SHAKE128 len {len}");

            let mut ours = [0u8; 300];
            Shake256::digest(&[&msg[..split], &msg[split..]], &mut ours);
            let mut theirs = [0u8; 300];
            let mut x = shake::Shake256::default();
            x.update(&msg);
            x.finalize_xof().read(&mut theirs);
            assert_eq!(ours, theirs, "SHAKE256 len {len}");

            let mut out = [0u8; 64];
            Sha3_224::digest(&[&msg], &mut out[..28]);
            assert_eq!(out[..28], sha3::Sha3_224::digest(&msg)[..]);
            Sha3_256::digest(&[&msg], &mut out[..32]);
            assert_eq!(out[..32], sha3::Sha3_256::digest(&msg)[..]);
            Sha3_384::digest(&[&msg], &mut out[..48]);
            assert_eq!(out[..48], sha3::Sha3_384::digest(&msg)[..]);
            Sha3_512::digest(&[&msg], &mut out);
            assert_eq!(out[..], sha3::Sha3_512::digest(&msg)[..]);
            // The one-copy path the pre-hash functions take, against the typed sponges.
            type DigestFn = fn(&[&[u8]], &mut [u8]);
            let typed: [(usize, u8, DigestFn); 6] = [
                (Sha3_224::RATE, Sha3_224::DS, Sha3_224::digest),
                (Sha3_256::RATE, Sha3_256::DS, Sha3_256::digest),
                (Sha3_384::RATE, Sha3_384::DS, Sha3_384::digest),
                (Sha3_512::RATE, Sha3_512::DS, Sha3_512::digest),
                (Shake128::RATE, Shake128::DS, Shake128::digest),
                (Shake256::RATE, Shake256::DS, Shake256::digest),
            ];
            for (rate, ds, digest) in typed {
                let (mut one, mut other) = ([0u8; 400], [0u8; 400]);
                digest_at_rate(rate, ds, &msg, &mut one);
                digest(&[&msg], &mut other);
                assert_eq!(one, other, "rate {rate} len {len}");
            }
        }
    }
}
