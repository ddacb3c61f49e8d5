//! The proof of the one optional feature the AArch64 sets use: the one file that makes
//! a [`Sha3`] token. NEON itself is part of the AArch64 baseline this module is built
//! for (`target_feature = "neon"`) and needs no proof.

cpufeatures::new!(sha3_hwcap, "sha3");

/// Proof that this CPU has Armv8.2's SHA-3 instructions (EOR3, RAX1, XAR, BCAX), as the
/// kernel reports them (HWCAP_SHA3): the only way to call a kernel that uses them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sha3(());

impl Sha3 {
    /// The proof, where the kernel says so (cpufeatures caches the answer).
    pub(crate) fn detect() -> Option<Sha3> {
        sha3_hwcap::get().then_some(Sha3(()))
    }
}

/// The token the SHA-3 set's entries pass on: sound because that set is private to this
/// module's parent, and `set_sha3`, its only way out, takes a token [`Sha3::detect`] made.
pub(super) const PROVEN: Sha3 = Sha3(());
