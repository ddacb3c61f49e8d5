//! The parameter sets pqverify verifies, named exactly as FIPS 204 and FIPS 205 name them.

use core::fmt;
use core::str::FromStr;

use crate::Error;
use crate::mldsa;

/// A signature scheme and parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suite {
    /// ML-DSA-44 (FIPS 204, security category 2).
    MlDsa44,
    /// ML-DSA-65 (FIPS 204, security category 3).
    MlDsa65,
    /// ML-DSA-87 (FIPS 204, security category 5).
    MlDsa87,
}

/// The standard a suite comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// FIPS 204, module-lattice signatures.
    MlDsa,
}

impl Suite {
    /// Every suite, in the order FIPS lists them.
    pub const ALL: [Suite; 3] = [Suite::MlDsa44, Suite::MlDsa65, Suite::MlDsa87];

    /// The FIPS name, e.g. `ML-DSA-65`.
    pub const fn name(self) -> &'static str {
        match self {
            Suite::MlDsa44 => "ML-DSA-44",
            Suite::MlDsa65 => "ML-DSA-65",
            Suite::MlDsa87 => "ML-DSA-87",
        }
    }

    /// The standard this suite belongs to.
    pub const fn family(self) -> Family {
        match self {
            Suite::MlDsa44 | Suite::MlDsa65 | Suite::MlDsa87 => Family::MlDsa,
        }
    }

    /// Length of an encoded public key, in bytes.
    pub const fn public_key_len(self) -> usize {
        match self.family() {
            Family::MlDsa => mldsa::params(self).public_key_len(),
        }
    }

    /// Length of an encoded signature, in bytes.
    pub const fn signature_len(self) -> usize {
        match self.family() {
            Family::MlDsa => mldsa::params(self).signature_len(),
        }
    }

    /// NIST security category (1 to 5).
    pub const fn security_category(self) -> u8 {
        match self {
            Suite::MlDsa44 => 2,
            Suite::MlDsa65 => 3,
            Suite::MlDsa87 => 5,
        }
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Suite {
    type Err = Error;

    /// Parses a FIPS name such as `ML-DSA-44`, ignoring ASCII case.
    fn from_str(s: &str) -> Result<Self, Error> {
        Suite::ALL.into_iter().find(|suite| suite.name().eq_ignore_ascii_case(s)).ok_or(Error::UnknownSuite)
    }
}
