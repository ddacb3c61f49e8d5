//! The interfaces a verifier is asked for (FIPS 204 Algorithms 3, 5 and 8; FIPS 205
//! Algorithms 24, 25 and 20): the one list every layer names them by.

use crate::{Family, Suite};

/// The ways a signature can be asked to be verified: one per variant of [`Message`](crate::Message).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Interface {
    /// ML-DSA.Verify / slh_verify: a message and a context.
    Pure,
    /// HashML-DSA.Verify / hash_slh_verify: a message, a context and a pre-hash function.
    PreHash,
    /// Verify_internal on M′.
    Internal,
    /// ML-DSA Verify_internal with a caller-supplied μ.
    ExternalMu,
}

impl Interface {
    /// Every interface.
    pub const ALL: [Interface; 4] = [Interface::Pure, Interface::PreHash, Interface::Internal, Interface::ExternalMu];

    /// A short name: `pure`, `prehash`, `internal`, `external-mu`.
    pub const fn name(self) -> &'static str {
        match self {
            Interface::Pure => "pure",
            Interface::PreHash => "prehash",
            Interface::Internal => "internal",
            Interface::ExternalMu => "external-mu",
        }
    }

    /// Whether `suite` has this interface at all (external μ is ML-DSA's).
    pub fn exists_for(self, suite: Suite) -> bool {
        self != Interface::ExternalMu || suite.family() == Family::MlDsa
    }
}

impl core::fmt::Display for Interface {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.name())
    }
}
