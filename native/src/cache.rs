//! A bounded cache of prepared keys, keyed by suite and the exact public-key bytes.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use pqverify_core::{Error, PreparedKey, Suite};

type Key = (Suite, Box<[u8]>);

/// Prepared keys for keys seen again (a node sees the same validators' keys in
/// block after block), evicting the least recently used when full. Prepared keys are
/// only ever built here from the encoded key; nothing expanded is taken from outside.
pub struct KeyCache {
    inner: Mutex<LruCache<Key, Arc<PreparedKey>>>,
}

impl KeyCache {
    /// A cache holding at most `capacity` keys (at least one).
    pub fn new(capacity: usize) -> Self {
        KeyCache { inner: Mutex::new(LruCache::new(NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN))) }
    }

    /// The prepared key for (`suite`, `pk`), built with `make` on a miss; a hit makes
    /// the key the most recently used.
    pub fn get_or_insert(
        &self,
        suite: Suite,
        pk: &[u8],
        make: impl FnOnce() -> Result<PreparedKey, Error>,
    ) -> Result<Arc<PreparedKey>, Error> {
        let key: Key = (suite, pk.into());
        if let Some(found) = self.lock().get(&key) {
            return Ok(Arc::clone(found));
        }
        // Expand outside the lock; two threads may both build the same key once.
        let prepared = Arc::new(make()?);
        let mut inner = self.lock();
        if !inner.contains(&key) {
            inner.put(key, Arc::clone(&prepared));
        }
        Ok(prepared)
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether the cache holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, LruCache<Key, Arc<PreparedKey>>> {
        // A panic elsewhere cannot leave the cache inconsistent: every update is one call.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_used_key_is_evicted() {
        let cache = KeyCache::new(2);
        let key = |b: u8| {
            let mut pk = [0u8; 32];
            pk[0] = b;
            pk
        };
        let built = std::cell::Cell::new(0);
        let get = |b: u8| {
            cache
                .get_or_insert(Suite::SlhDsaShake128f, &key(b), || {
                    built.set(built.get() + 1);
                    PreparedKey::new(Suite::SlhDsaShake128f, &key(b))
                })
                .unwrap();
        };
        get(1);
        get(2);
        get(1); // 1 is now the most recently used
        get(3); // evicts 2, not 1
        assert_eq!(built.get(), 3);
        get(1);
        assert_eq!(built.get(), 3, "1 stayed");
        get(2);
        assert_eq!(built.get(), 4, "2 was evicted");
        assert_eq!(cache.len(), 2);
    }
}
