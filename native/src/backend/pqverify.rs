//! The pqverify core as a backend, one-shot or with a cache of prepared keys.

use super::Fault;
use pqverify_core::{PreparedKey, Suite};

use super::{Backend, Interface, Request};
use crate::cache::KeyCache;

/// pqverify-core. With a key cache, keys seen again skip decoding and expansion; a key
/// seen for the first time is verified one-shot (see [`KeyCache`]).
pub struct Pqverify {
    cache: Option<KeyCache>,
}

impl Pqverify {
    /// One-shot verification: every call decodes and expands the key.
    pub fn one_shot() -> Self {
        Pqverify { cache: None }
    }

    /// Verification through a bounded cache of prepared keys (see [`KeyCache`] for which keys it admits).
    pub fn with_cache(capacity: usize) -> Self {
        Pqverify { cache: Some(KeyCache::new(capacity)) }
    }
}

impl Backend for Pqverify {
    fn name(&self) -> &'static str {
        "pqverify"
    }

    fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_owned()
    }

    fn supports(&self, suite: Suite, interface: Interface) -> bool {
        interface.exists_for(suite)
    }

    fn verdict(&self, r: &Request<'_>) -> Result<bool, Fault> {
        let result = match &self.cache {
            None => pqverify_core::verify(r.public_key, r.message, r.signature),
            Some(cache) => {
                match cache.get_if_seen(r.suite(), r.public_key.as_bytes(), || PreparedKey::new(r.public_key)) {
                    Ok(Some(key)) => key.verify(r.message, r.signature),
                    Ok(None) => pqverify_core::verify(r.public_key, r.message, r.signature),
                    Err(e) => Err(e),
                }
            }
        };
        match result {
            Ok(()) => Ok(true),
            Err(e) if e.is_rejection() => Ok(false),
            Err(e) => Err(Fault::Core(e)),
        }
    }
}
