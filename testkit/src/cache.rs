//! Where signing is slow (SLH-DSA, most of all under an emulator), the independent
//! signer's outputs can be kept in a directory named by [`CACHE_ENV`] and read back by a
//! later run with the same inputs: `cargo xtask test` sets it for the native tests and
//! for the AArch64 tests under qemu, which then verify the signatures the native run
//! made instead of signing for minutes again. Signing is deterministic (SLH-DSA here;
//! ML-DSA from its `rnd`), so a hit is the signature the signer would have made; an
//! entry is named by the SHA-256 of everything that determines it. ML-DSA, fast
//! everywhere, is never cached. Unset, nothing is cached.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use pqverify_core::{Family, Suite};
use sha2::{Digest, Sha256};

/// The variable naming the cache directory.
pub const CACHE_ENV: &str = "PQVERIFY_SIGNATURE_CACHE";

/// One cache entry's file, or none when nothing is cached for it.
pub(crate) struct Key(Option<PathBuf>);

impl Key {
    /// The entry of `suite`'s key pair derived from `seed` (its parts) for what `parts`
    /// name (the public key, or a signature's request and randomness).
    pub(crate) fn new(suite: Suite, seed: [&[u8]; 2], parts: &[&[u8]]) -> Self {
        let dir = std::env::var_os(CACHE_ENV).filter(|d| !d.is_empty());
        Key(dir.filter(|_| suite.family() == Family::SlhDsa).map(|dir| {
            let mut hash = Sha256::new();
            hash.update(b"pqverify-testkit signer cache 1");
            for part in [suite.name().as_bytes()].into_iter().chain(seed).chain(parts.iter().copied()) {
                hash.update((part.len() as u64).to_le_bytes());
                hash.update(part);
            }
            PathBuf::from(dir).join(hex::encode(hash.finalize()))
        }))
    }

    /// The entry, if the cache has it.
    pub(crate) fn read(&self) -> Option<Vec<u8>> {
        std::fs::read(self.0.as_ref()?).ok()
    }

    /// Keeps `bytes` as the entry (written whole, then renamed, so that a reader in
    /// another test process sees all of it or nothing). A cache that cannot be written
    /// only means signing again next time.
    pub(crate) fn write(&self, bytes: &[u8]) {
        static WRITES: AtomicU64 = AtomicU64::new(0);
        let Some(file) = &self.0 else { return };
        let part = file.with_extension(format!("{}.{}", std::process::id(), WRITES.fetch_add(1, Ordering::Relaxed)));
        let _ = file
            .parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| std::fs::write(&part, bytes))
            .and_then(|()| std::fs::rename(&part, file));
    }
}
