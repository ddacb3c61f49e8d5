//! The pre-hash functions of HashML-DSA (FIPS 204, Section 5.4) and HashSLH-DSA
//! (FIPS 205, Section 10.2), with their DER-encoded object identifiers.

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::hash::sha2::{
    C256, C512, Compression, Md, SHA224_IV, SHA256_IV, SHA384_IV, SHA512_224_IV, SHA512_256_IV, SHA512_IV,
};
use crate::hash::{Sha3_224, Sha3_256, Sha3_384, Sha3_512, Shake128, Shake256, digest_at_rate};

/// An approved pre-hash function. Names are the ones ACVP uses (`SHA2-256`, `SHAKE-128`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PreHash {
    /// SHA-224 (FIPS 180-4).
    Sha2_224,
    /// SHA-256.
    Sha2_256,
    /// SHA-384.
    Sha2_384,
    /// SHA-512.
    Sha2_512,
    /// SHA-512/224.
    Sha2_512_224,
    /// SHA-512/256.
    Sha2_512_256,
    /// SHA3-224 (FIPS 202).
    Sha3_224,
    /// SHA3-256.
    Sha3_256,
    /// SHA3-384.
    Sha3_384,
    /// SHA3-512.
    Sha3_512,
    /// SHAKE128 with 256 bits of output.
    Shake128,
    /// SHAKE256 with 512 bits of output.
    Shake256,
}

/// The longest digest any pre-hash function produces (SHA-512, SHA3-512, SHAKE256).
pub(crate) const MAX_DIGEST: usize = 64;
/// Length of every DER-encoded hash OID used here (`06 09` + 9 arc bytes).
pub(crate) const OID_LEN: usize = 11;

impl PreHash {
    /// Every approved pre-hash function.
    pub const ALL: [PreHash; 12] = [
        PreHash::Sha2_224,
        PreHash::Sha2_256,
        PreHash::Sha2_384,
        PreHash::Sha2_512,
        PreHash::Sha2_512_224,
        PreHash::Sha2_512_256,
        PreHash::Sha3_224,
        PreHash::Sha3_256,
        PreHash::Sha3_384,
        PreHash::Sha3_512,
        PreHash::Shake128,
        PreHash::Shake256,
    ];

    /// The ACVP name, e.g. `SHA2-512/256`.
    pub const fn name(self) -> &'static str {
        match self {
            PreHash::Sha2_224 => "SHA2-224",
            PreHash::Sha2_256 => "SHA2-256",
            PreHash::Sha2_384 => "SHA2-384",
            PreHash::Sha2_512 => "SHA2-512",
            PreHash::Sha2_512_224 => "SHA2-512/224",
            PreHash::Sha2_512_256 => "SHA2-512/256",
            PreHash::Sha3_224 => "SHA3-224",
            PreHash::Sha3_256 => "SHA3-256",
            PreHash::Sha3_384 => "SHA3-384",
            PreHash::Sha3_512 => "SHA3-512",
            PreHash::Shake128 => "SHAKE-128",
            PreHash::Shake256 => "SHAKE-256",
        }
    }

    /// The last arc of the NIST hash-algorithm OID 2.16.840.1.101.3.4.2.x.
    const fn oid_arc(self) -> u8 {
        match self {
            PreHash::Sha2_256 => 0x01,
            PreHash::Sha2_384 => 0x02,
            PreHash::Sha2_512 => 0x03,
            PreHash::Sha2_224 => 0x04,
            PreHash::Sha2_512_224 => 0x05,
            PreHash::Sha2_512_256 => 0x06,
            PreHash::Sha3_224 => 0x07,
            PreHash::Sha3_256 => 0x08,
            PreHash::Sha3_384 => 0x09,
            PreHash::Sha3_512 => 0x0a,
            PreHash::Shake128 => 0x0b,
            PreHash::Shake256 => 0x0c,
        }
    }

    /// The DER encoding of the function's OID, as it enters M′.
    pub const fn oid_der(self) -> [u8; OID_LEN] {
        [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, self.oid_arc()]
    }

    /// Finds the function whose DER-encoded OID is `der`.
    pub fn from_oid_der(der: &[u8]) -> Option<PreHash> {
        PreHash::ALL.into_iter().find(|h| h.oid_der() == der)
    }

    /// Length in bytes of PH(M).
    pub const fn digest_len(self) -> usize {
        match self {
            PreHash::Sha2_224 | PreHash::Sha2_512_224 | PreHash::Sha3_224 => 28,
            PreHash::Sha2_256 | PreHash::Sha2_512_256 | PreHash::Sha3_256 | PreHash::Shake128 => 32,
            PreHash::Sha2_384 | PreHash::Sha3_384 => 48,
            PreHash::Sha2_512 | PreHash::Sha3_512 | PreHash::Shake256 => 64,
        }
    }

    /// Computes PH(`msg`) into the first [`digest_len`](Self::digest_len) bytes of `out`.
    /// (Not inlined, and one copy per hash family: every function of a family runs the
    /// same code with its own IV or rate, so the module holds SHA-256's, SHA-512's and the
    /// Keccak sponge's code once each.)
    #[inline(never)]
    pub(crate) fn digest_into(self, msg: &[u8], out: &mut [u8; MAX_DIGEST]) {
        let out = &mut out[..self.digest_len()];
        let sha3 = |rate, ds, out: &mut [u8]| digest_at_rate(rate, ds, msg, out);
        match self {
            // SHA-224 and the SHA-512/t variants are the full hash with another IV, truncated.
            PreHash::Sha2_224 => md::<C256>(SHA224_IV, msg, out),
            PreHash::Sha2_256 => md::<C256>(SHA256_IV, msg, out),
            PreHash::Sha2_384 => md::<C512>(SHA384_IV, msg, out),
            PreHash::Sha2_512 => md::<C512>(SHA512_IV, msg, out),
            PreHash::Sha2_512_224 => md::<C512>(SHA512_224_IV, msg, out),
            PreHash::Sha2_512_256 => md::<C512>(SHA512_256_IV, msg, out),
            PreHash::Sha3_224 => sha3(Sha3_224::RATE, Sha3_224::DS, out),
            PreHash::Sha3_256 => sha3(Sha3_256::RATE, Sha3_256::DS, out),
            PreHash::Sha3_384 => sha3(Sha3_384::RATE, Sha3_384::DS, out),
            PreHash::Sha3_512 => sha3(Sha3_512::RATE, Sha3_512::DS, out),
            PreHash::Shake128 => sha3(Shake128::RATE, Shake128::DS, out),
            PreHash::Shake256 => sha3(Shake256::RATE, Shake256::DS, out),
        }
    }
}

/// SHA-256 or SHA-512 (by `C`) of `msg` from initial value `iv`, truncated to `out`.
#[inline(never)]
fn md<C: Compression>(iv: C::State, msg: &[u8], out: &mut [u8]) {
    let mut h = Md::<C>::with_iv(iv);
    h.update(msg);
    h.finalize_into(out);
}

impl fmt::Display for PreHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for PreHash {
    type Err = Error;

    /// Parses an ACVP hash name (`SHA2-256`, `SHA3-512`, `SHAKE-128`, …), ignoring case.
    fn from_str(s: &str) -> Result<Self, Error> {
        PreHash::ALL.into_iter().find(|h| h.name().eq_ignore_ascii_case(s)).ok_or(Error::UnknownPreHash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;
    use shake::{ExtendableOutput, Update, XofReader};

    #[test]
    fn every_prehash_matches_the_reference_crates() {
        for len in [0usize, 1, 55, 56, 63, 64, 111, 112, 127, 128, 129, 1000] {
            let msg: std::vec::Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
            let want = |h: PreHash| -> std::vec::Vec<u8> {
                match h {
                    PreHash::Sha2_224 => sha2::Sha224::digest(&msg).to_vec(),
                    PreHash::Sha2_256 => sha2::Sha256::digest(&msg).to_vec(),
                    PreHash::Sha2_384 => sha2::Sha384::digest(&msg).to_vec(),
                    PreHash::Sha2_512 => sha2::Sha512::digest(&msg).to_vec(),
                    PreHash::Sha2_512_224 => sha2::Sha512_224::digest(&msg).to_vec(),
                    PreHash::Sha2_512_256 => sha2::Sha512_256::digest(&msg).to_vec(),
                    PreHash::Sha3_224 => sha3::Sha3_224::digest(&msg).to_vec(),
                    PreHash::Sha3_256 => sha3::Sha3_256::digest(&msg).to_vec(),
                    PreHash::Sha3_384 => sha3::Sha3_384::digest(&msg).to_vec(),
                    PreHash::Sha3_512 => sha3::Sha3_512::digest(&msg).to_vec(),
                    PreHash::Shake128 | PreHash::Shake256 => {
                        let mut out = std::vec![0u8; h.digest_len()];
                        if h == PreHash::Shake128 {
                            let mut x = shake::Shake128::default();
                            x.update(&msg);
                            x.finalize_xof().read(&mut out);
                        } else {
                            let mut x = shake::Shake256::default();
                            x.update(&msg);
                            x.finalize_xof().read(&mut out);
                        }
                        out
                    }
                }
            };
            for h in PreHash::ALL {
                let mut out = [0u8; MAX_DIGEST];
                h.digest_into(&msg, &mut out);
                assert_eq!(out[..h.digest_len()], want(h)[..], "{h} len {len}");
            }
        }
    }
}
