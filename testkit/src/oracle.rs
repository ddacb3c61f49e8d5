//! Hashes computed by the `sha2`, `sha3` and `shake` crates: oracles independent of
//! pqverify's own hashing, for building inputs and checking results.

use pqverify_core::PreHash;
use sha2::Digest;
use shake::{ExtendableOutput, Update, XofReader};

/// PH(M) for HashML-DSA / HashSLH-DSA: the digest of `msg` under `hash`
/// (SHAKE128 gives 32 bytes, SHAKE256 64, as FIPS 204/205 fix them).
pub fn prehash(hash: PreHash, msg: &[u8]) -> Vec<u8> {
    match hash {
        PreHash::Sha2_224 => sha2::Sha224::digest(msg).to_vec(),
        PreHash::Sha2_256 => sha2::Sha256::digest(msg).to_vec(),
        PreHash::Sha2_384 => sha2::Sha384::digest(msg).to_vec(),
        PreHash::Sha2_512 => sha2::Sha512::digest(msg).to_vec(),
        PreHash::Sha2_512_224 => sha2::Sha512_224::digest(msg).to_vec(),
        PreHash::Sha2_512_256 => sha2::Sha512_256::digest(msg).to_vec(),
        PreHash::Sha3_224 => sha3::Sha3_224::digest(msg).to_vec(),
        PreHash::Sha3_256 => sha3::Sha3_256::digest(msg).to_vec(),
        PreHash::Sha3_384 => sha3::Sha3_384::digest(msg).to_vec(),
        PreHash::Sha3_512 => sha3::Sha3_512::digest(msg).to_vec(),
        PreHash::Shake128 => xof(shake::Shake128::default(), &[msg], 32),
        PreHash::Shake256 => xof(shake::Shake256::default(), &[msg], 64),
    }
}

/// SHAKE256(parts…) to `len` bytes.
pub fn shake256(parts: &[&[u8]], len: usize) -> Vec<u8> {
    xof(shake::Shake256::default(), parts, len)
}

fn xof<const R: usize>(mut h: shake::Shake<R>, parts: &[&[u8]], len: usize) -> Vec<u8> {
    for p in parts {
        h.update(p);
    }
    let mut out = vec![0u8; len];
    h.finalize_xof().read(&mut out);
    out
}
