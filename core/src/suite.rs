//! The parameter sets pqverify verifies, named exactly as FIPS 204 and FIPS 205 name them.

use core::fmt;

use crate::mldsa::params::{self as mldsa_params, Params as MlDsaParams};
use crate::slhdsa::params::{self as slhdsa_params, Params as SlhDsaParams};

/// A suite's parameter set: every suite has one, of its family's kind.
#[derive(Clone, Copy)]
pub(crate) enum Params {
    MlDsa(&'static MlDsaParams),
    SlhDsa(&'static SlhDsaParams),
}

/// A signature scheme and parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suite {
    /// ML-DSA-44 (FIPS 204, security category 2).
    MlDsa44,
    /// ML-DSA-65 (FIPS 204, security category 3).
    MlDsa65,
    /// ML-DSA-87 (FIPS 204, security category 5).
    MlDsa87,
    /// SLH-DSA-SHA2-128s (FIPS 205, security category 1).
    SlhDsaSha2_128s,
    /// SLH-DSA-SHA2-128f (FIPS 205, security category 1).
    SlhDsaSha2_128f,
    /// SLH-DSA-SHA2-192s (FIPS 205, security category 3).
    SlhDsaSha2_192s,
    /// SLH-DSA-SHA2-192f (FIPS 205, security category 3).
    SlhDsaSha2_192f,
    /// SLH-DSA-SHA2-256s (FIPS 205, security category 5).
    SlhDsaSha2_256s,
    /// SLH-DSA-SHA2-256f (FIPS 205, security category 5).
    SlhDsaSha2_256f,
    /// SLH-DSA-SHAKE-128s (FIPS 205, security category 1).
    SlhDsaShake128s,
    /// SLH-DSA-SHAKE-128f (FIPS 205, security category 1).
    SlhDsaShake128f,
    /// SLH-DSA-SHAKE-192s (FIPS 205, security category 3).
    SlhDsaShake192s,
    /// SLH-DSA-SHAKE-192f (FIPS 205, security category 3).
    SlhDsaShake192f,
    /// SLH-DSA-SHAKE-256s (FIPS 205, security category 5).
    SlhDsaShake256s,
    /// SLH-DSA-SHAKE-256f (FIPS 205, security category 5).
    SlhDsaShake256f,
}

/// The standard a suite comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// FIPS 204, module-lattice signatures.
    MlDsa,
    /// FIPS 205, stateless hash-based signatures.
    SlhDsa,
}

impl Suite {
    /// Every suite: ML-DSA as FIPS 204 lists them, then SLH-DSA SHA2 and SHAKE sets.
    pub const ALL: [Suite; 15] = [
        Suite::MlDsa44,
        Suite::MlDsa65,
        Suite::MlDsa87,
        Suite::SlhDsaSha2_128s,
        Suite::SlhDsaSha2_128f,
        Suite::SlhDsaSha2_192s,
        Suite::SlhDsaSha2_192f,
        Suite::SlhDsaSha2_256s,
        Suite::SlhDsaSha2_256f,
        Suite::SlhDsaShake128s,
        Suite::SlhDsaShake128f,
        Suite::SlhDsaShake192s,
        Suite::SlhDsaShake192f,
        Suite::SlhDsaShake256s,
        Suite::SlhDsaShake256f,
    ];

    /// The FIPS name, e.g. `ML-DSA-65`.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::MlDsa44 => "ML-DSA-44",
            Suite::MlDsa65 => "ML-DSA-65",
            Suite::MlDsa87 => "ML-DSA-87",
            Suite::SlhDsaSha2_128s => "SLH-DSA-SHA2-128s",
            Suite::SlhDsaSha2_128f => "SLH-DSA-SHA2-128f",
            Suite::SlhDsaSha2_192s => "SLH-DSA-SHA2-192s",
            Suite::SlhDsaSha2_192f => "SLH-DSA-SHA2-192f",
            Suite::SlhDsaSha2_256s => "SLH-DSA-SHA2-256s",
            Suite::SlhDsaSha2_256f => "SLH-DSA-SHA2-256f",
            Suite::SlhDsaShake128s => "SLH-DSA-SHAKE-128s",
            Suite::SlhDsaShake128f => "SLH-DSA-SHAKE-128f",
            Suite::SlhDsaShake192s => "SLH-DSA-SHAKE-192s",
            Suite::SlhDsaShake192f => "SLH-DSA-SHAKE-192f",
            Suite::SlhDsaShake256s => "SLH-DSA-SHAKE-256s",
            Suite::SlhDsaShake256f => "SLH-DSA-SHAKE-256f",
        }
    }

    /// The standard this suite belongs to.
    pub const fn family(self) -> Family {
        match self.params() {
            Params::MlDsa(_) => Family::MlDsa,
            Params::SlhDsa(_) => Family::SlhDsa,
        }
    }

    /// The suite's parameter set.
    pub(crate) const fn params(self) -> Params {
        match self {
            Suite::MlDsa44 => Params::MlDsa(&mldsa_params::ML_DSA_44),
            Suite::MlDsa65 => Params::MlDsa(&mldsa_params::ML_DSA_65),
            Suite::MlDsa87 => Params::MlDsa(&mldsa_params::ML_DSA_87),
            Suite::SlhDsaSha2_128s => Params::SlhDsa(&slhdsa_params::SHA2_128S),
            Suite::SlhDsaShake128s => Params::SlhDsa(&slhdsa_params::SHAKE_128S),
            Suite::SlhDsaSha2_128f => Params::SlhDsa(&slhdsa_params::SHA2_128F),
            Suite::SlhDsaShake128f => Params::SlhDsa(&slhdsa_params::SHAKE_128F),
            Suite::SlhDsaSha2_192s => Params::SlhDsa(&slhdsa_params::SHA2_192S),
            Suite::SlhDsaShake192s => Params::SlhDsa(&slhdsa_params::SHAKE_192S),
            Suite::SlhDsaSha2_192f => Params::SlhDsa(&slhdsa_params::SHA2_192F),
            Suite::SlhDsaShake192f => Params::SlhDsa(&slhdsa_params::SHAKE_192F),
            Suite::SlhDsaSha2_256s => Params::SlhDsa(&slhdsa_params::SHA2_256S),
            Suite::SlhDsaShake256s => Params::SlhDsa(&slhdsa_params::SHAKE_256S),
            Suite::SlhDsaSha2_256f => Params::SlhDsa(&slhdsa_params::SHA2_256F),
            Suite::SlhDsaShake256f => Params::SlhDsa(&slhdsa_params::SHAKE_256F),
        }
    }

    /// Length of an encoded public key, in bytes.
    pub const fn public_key_len(self) -> usize {
        match self.params() {
            Params::MlDsa(p) => p.public_key_len(),
            Params::SlhDsa(p) => p.public_key_len(),
        }
    }

    /// Length of an encoded signature, in bytes.
    pub const fn signature_len(self) -> usize {
        match self.params() {
            Params::MlDsa(p) => p.signature_len(),
            Params::SlhDsa(p) => p.signature_len(),
        }
    }

    /// The last arc of the suite's NIST algorithm identifier, 2.16.840.1.101.3.4.3.*:
    /// 17–19 for ML-DSA (FIPS 204, RFC 9881), 20–31 for pure SLH-DSA (NIST's
    /// Computer Security Objects Register, as the LAMPS SLH-DSA document uses them).
    pub const fn oid_arc(self) -> u8 {
        match self {
            Suite::MlDsa44 => 17,
            Suite::MlDsa65 => 18,
            Suite::MlDsa87 => 19,
            Suite::SlhDsaSha2_128s => 20,
            Suite::SlhDsaSha2_128f => 21,
            Suite::SlhDsaSha2_192s => 22,
            Suite::SlhDsaSha2_192f => 23,
            Suite::SlhDsaSha2_256s => 24,
            Suite::SlhDsaSha2_256f => 25,
            Suite::SlhDsaShake128s => 26,
            Suite::SlhDsaShake128f => 27,
            Suite::SlhDsaShake192s => 28,
            Suite::SlhDsaShake192f => 29,
            Suite::SlhDsaShake256s => 30,
            Suite::SlhDsaShake256f => 31,
        }
    }

    /// The DER encoding of the suite's OID (tag, length, content octets): the arcs
    /// 2.16.840.1.101.3.4.3 (NIST signature algorithms), then [`oid_arc`](Self::oid_arc).
    pub const fn oid_der(self) -> [u8; 11] {
        [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, self.oid_arc()]
    }

    /// NIST security category (1 to 5).
    pub const fn security_category(self) -> u8 {
        match self {
            Suite::MlDsa44 => 2,
            Suite::MlDsa65 => 3,
            Suite::MlDsa87 => 5,
            Suite::SlhDsaSha2_128s | Suite::SlhDsaSha2_128f | Suite::SlhDsaShake128s | Suite::SlhDsaShake128f => 1,
            Suite::SlhDsaSha2_192s | Suite::SlhDsaSha2_192f | Suite::SlhDsaShake192s | Suite::SlhDsaShake192f => 3,
            Suite::SlhDsaSha2_256s | Suite::SlhDsaSha2_256f | Suite::SlhDsaShake256s | Suite::SlhDsaShake256f => 5,
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
