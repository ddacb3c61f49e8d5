//! SHA-256 and SHA-512 (FIPS 180-4) that can start from a saved midstate.
//!
//! SLH-DSA-SHA2 hashes PK.seed padded to a full block in front of almost every call
//! (FIPS 205, Section 11.2); compressing that block once per key and resuming from
//! the saved state halves the work of F. The compressions are the chosen kernel set's
//! (`crate::kernel`: the written-out rounds of `portable::sha2_rounds`, or natively with
//! AVX2 the `sha2` crate's, with SHA-NI where the CPU has it); only the Merkle–Damgård
//! framing (buffering, padding, length) lives here.

/// A SHA-2 compression function and its framing constants.
pub(crate) trait Compression: Clone {
    /// Block length in bytes.
    const BLOCK: usize;
    /// Bytes of the message-length field in the padding.
    const LEN_BYTES: usize;
    /// The chaining state.
    type State: Copy;
    /// Compresses one block (`block.len() == BLOCK`) into `state`.
    fn compress(state: &mut Self::State, block: &[u8]);
    /// Writes the big-endian state, truncated to `out.len()` bytes.
    fn output(state: &Self::State, out: &mut [u8]);
}

/// SHA-256's compression function.
#[derive(Clone)]
pub(crate) struct C256;
/// SHA-512's compression function.
#[derive(Clone)]
pub(crate) struct C512;

impl Compression for C256 {
    const BLOCK: usize = 64;
    const LEN_BYTES: usize = 8;
    type State = [u32; 8];

    #[inline]
    fn compress(state: &mut [u32; 8], block: &[u8]) {
        let mut b = [0u8; 64];
        b.copy_from_slice(block);
        crate::kernel::sha256_compress(state, &b);
    }

    #[inline]
    fn output(state: &[u32; 8], out: &mut [u8]) {
        for (chunk, word) in out.chunks_mut(4).zip(state) {
            chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
        }
    }
}

impl Compression for C512 {
    const BLOCK: usize = 128;
    const LEN_BYTES: usize = 16;
    type State = [u64; 8];

    #[inline]
    fn compress(state: &mut [u64; 8], block: &[u8]) {
        let mut b = [0u8; 128];
        b.copy_from_slice(block);
        crate::kernel::sha512_compress(state, &b);
    }

    #[inline]
    fn output(state: &[u64; 8], out: &mut [u8]) {
        for (chunk, word) in out.chunks_mut(8).zip(state) {
            chunk.copy_from_slice(&word.to_be_bytes()[..chunk.len()]);
        }
    }
}

/// SHA-256 initial hash value H(0) (FIPS 180-4, Section 5.3.3).
pub(crate) const SHA256_IV: [u32; 8] =
    [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/// SHA-512 initial hash value H(0) (FIPS 180-4, Section 5.3.5).
pub(crate) const SHA512_IV: [u64; 8] = [
    0x6a09e667f3bcc908,
    0xbb67ae8584caa73b,
    0x3c6ef372fe94f82b,
    0xa54ff53a5f1d36f1,
    0x510e527fade682d1,
    0x9b05688c2b3e6c1f,
    0x1f83d9abfb41bd6b,
    0x5be0cd19137e2179,
];

/// SHA-224 H(0) (FIPS 180-4, Section 5.3.2).
pub(crate) const SHA224_IV: [u32; 8] =
    [0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939, 0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4];

/// SHA-384 H(0) (FIPS 180-4, Section 5.3.4).
pub(crate) const SHA384_IV: [u64; 8] = [
    0xcbbb9d5dc1059ed8,
    0x629a292a367cd507,
    0x9159015a3070dd17,
    0x152fecd8f70e5939,
    0x67332667ffc00b31,
    0x8eb44a8768581511,
    0xdb0c2e0d64f98fa7,
    0x47b5481dbefa4fa4,
];

/// SHA-512/224 H(0) (FIPS 180-4, Section 5.3.6.1).
pub(crate) const SHA512_224_IV: [u64; 8] = [
    0x8c3d37c819544da2,
    0x73e1996689dcd4d6,
    0x1dfab7ae32ff9c82,
    0x679dd514582f9fcf,
    0x0f6d2b697bd44da8,
    0x77e36f7304c48942,
    0x3f9d85a86a1d36c8,
    0x1112e6ad91d692a1,
];

/// SHA-512/256 H(0) (FIPS 180-4, Section 5.3.6.2).
pub(crate) const SHA512_256_IV: [u64; 8] = [
    0x22312194fc2bf72c,
    0x9f555fa3c84c64c2,
    0x2393b86b6f53b151,
    0x963877195940eabd,
    0x96283ee2a88effe3,
    0xbe5e1e2553863992,
    0x2b0199fc2c85b8aa,
    0x0eb72ddc81c52ca2,
];

/// A streaming SHA-2 hash, possibly resumed from a midstate.
#[derive(Clone)]
pub(crate) struct Md<C: Compression> {
    state: C::State,
    buf: [u8; 128],
    buf_len: usize,
    /// Bytes hashed so far, including those already compressed into a midstate.
    total: u64,
}

/// SHA-256 with midstates.
pub(crate) type Sha256 = Md<C256>;
/// SHA-512 with midstates.
pub(crate) type Sha512 = Md<C512>;

impl Sha256 {
    /// A fresh SHA-256.
    pub(crate) const fn new() -> Self {
        Md { state: SHA256_IV, buf: [0; 128], buf_len: 0, total: 0 }
    }
}

impl Sha512 {
    /// A fresh SHA-512.
    pub(crate) const fn new() -> Self {
        Md { state: SHA512_IV, buf: [0; 128], buf_len: 0, total: 0 }
    }
}

impl<C: Compression> Md<C> {
    /// Starts from an initial hash value (a SHA-2 variant's IV).
    pub(crate) const fn with_iv(iv: C::State) -> Self {
        Self::resume(iv, 0)
    }

    /// Resumes from `state`, reached after compressing `blocks` whole blocks.
    pub(crate) const fn resume(state: C::State, blocks: u64) -> Self {
        Md { state, buf: [0; 128], buf_len: 0, total: blocks * C::BLOCK as u64 }
    }

    /// Writes `parts` and the padding (FIPS 180-4, Sections 5.1.1 and 5.1.2: 1, zeros,
    /// the length in bits of the whole message) into `block[..BLOCK]`, which must be
    /// zeros: the last block of a message whose first `blocks` whole blocks are in a
    /// midstate. Returns false (and writes nothing) when the parts and the padding do
    /// not fit one block. Natively always inlined: SLH-DSA-SHA2 pads up to sixteen
    /// blocks per multi-state call, and the call and its loop over parts cost more than
    /// the copies they save.
    #[cfg_attr(target_arch = "wasm32", inline)]
    #[cfg_attr(not(target_arch = "wasm32"), inline(always))]
    pub(crate) fn pad_one_block(blocks: u64, parts: &[&[u8]], block: &mut [u8]) -> bool {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        if len + 1 + C::LEN_BYTES > C::BLOCK || block.len() < C::BLOCK {
            return false;
        }
        let mut at = 0;
        for part in parts {
            super::bytes::copy(&mut block[at..at + part.len()], part);
            at += part.len();
        }
        block[at] = 0x80;
        let bits = (u128::from(blocks) * C::BLOCK as u128 + len as u128) * 8;
        block[C::BLOCK - C::LEN_BYTES..C::BLOCK].copy_from_slice(&bits.to_be_bytes()[16 - C::LEN_BYTES..]);
        true
    }

    /// Hashes `parts` after a midstate of `blocks` whole blocks and writes the digest
    /// truncated to `out.len()` bytes, when the parts and the padding fit one block:
    /// the hot path of SLH-DSA-SHA2's F and H, with no buffering.
    /// Returns false (and writes nothing) when they do not fit.
    #[inline]
    pub(crate) fn one_block(state: &C::State, blocks: u64, parts: &[&[u8]], out: &mut [u8]) -> bool {
        let mut block = [0u8; 128];
        if !Self::pad_one_block(blocks, parts, &mut block) {
            return false;
        }
        let mut state = *state;
        C::compress(&mut state, &block[..C::BLOCK]);
        C::output(&state, out);
        true
    }

    /// The chaining state; only meaningful on a block boundary.
    pub(crate) fn midstate(&self) -> C::State {
        self.state
    }

    /// Hashes more input.
    #[inline]
    pub(crate) fn update(&mut self, mut data: &[u8]) {
        self.total += data.len() as u64;
        if self.buf_len > 0 {
            let take = (C::BLOCK - self.buf_len).min(data.len());
            self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
            self.buf_len += take;
            data = &data[take..];
            if self.buf_len < C::BLOCK {
                return;
            }
            C::compress(&mut self.state, &self.buf[..C::BLOCK]);
            self.buf_len = 0;
        }
        let mut blocks = data.chunks_exact(C::BLOCK);
        for block in &mut blocks {
            C::compress(&mut self.state, block);
        }
        let rest = blocks.remainder();
        self.buf[..rest.len()].copy_from_slice(rest);
        self.buf_len = rest.len();
    }

    /// Pads (FIPS 180-4, Section 5.1) and writes the digest truncated to `out.len()` bytes.
    #[inline]
    pub(crate) fn finalize_into(mut self, out: &mut [u8]) {
        let bits = u128::from(self.total) * 8;
        self.buf[self.buf_len] = 0x80;
        self.buf[self.buf_len + 1..C::BLOCK].fill(0);
        if self.buf_len + 1 + C::LEN_BYTES > C::BLOCK {
            C::compress(&mut self.state, &self.buf[..C::BLOCK]);
            self.buf[..C::BLOCK].fill(0);
        }
        let len_bytes = bits.to_be_bytes();
        self.buf[C::BLOCK - C::LEN_BYTES..C::BLOCK].copy_from_slice(&len_bytes[16 - C::LEN_BYTES..]);
        C::compress(&mut self.state, &self.buf[..C::BLOCK]);
        C::output(&self.state, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn matches_sha2_crate_at_every_length_and_split() {
        for len in 0..300 {
            let msg: std::vec::Vec<u8> = (0..len).map(|i| (i * 13 + 1) as u8).collect();
            let split = len / 2;
            let mut h = Sha256::new();
            h.update(&msg[..split]);
            h.update(&msg[split..]);
            let mut out = [0u8; 32];
            h.finalize_into(&mut out);
            assert_eq!(out[..], sha2::Sha256::digest(&msg)[..], "SHA-256 len {len}");

            let mut h = Sha512::new();
            h.update(&msg[..split]);
            h.update(&msg[split..]);
            let mut out = [0u8; 64];
            h.finalize_into(&mut out);
            assert_eq!(out[..], sha2::Sha512::digest(&msg)[..], "SHA-512 len {len}");
        }
    }

    #[test]
    fn one_block_matches_streaming() {
        let prefix = [0x11u8; 64];
        let mut first = Sha256::new();
        first.update(&prefix);
        for len in 0..70 {
            let msg = [0x22u8; 70];
            let mut out = [0u8; 32];
            let fits = Sha256::one_block(&first.midstate(), 1, &[&msg[..len / 2], &msg[len / 2..len]], &mut out);
            assert_eq!(fits, len <= 55);
            if fits {
                assert_eq!(out[..], sha2::Sha256::digest([&prefix[..], &msg[..len]].concat())[..]);
            }
        }
        let mut first = Sha512::new();
        first.update(&[0x33u8; 128]);
        let mut out = [0u8; 64];
        assert!(Sha512::one_block(&first.midstate(), 1, &[&[0x44u8; 111]], &mut out));
        assert_eq!(out[..], sha2::Sha512::digest([&[0x33u8; 128][..], &[0x44u8; 111]].concat())[..]);
    }

    #[test]
    fn resumes_from_a_midstate() {
        let msg = [0x5au8; 200];
        let mut first = Sha256::new();
        first.update(&msg[..64]);
        let mut resumed = Sha256::resume(first.midstate(), 1);
        resumed.update(&msg[64..]);
        let mut out = [0u8; 32];
        resumed.finalize_into(&mut out);
        assert_eq!(out[..], sha2::Sha256::digest(msg)[..]);
    }
}
