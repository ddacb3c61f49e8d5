//! A bounded cache of prepared keys, keyed by suite and the exact public-key bytes.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, PoisonError};

use pqverify_core::{Error, PreparedKey, Suite};

type Key = (Suite, Box<[u8]>);

struct Inner {
    keys: HashMap<Key, Arc<PreparedKey>>,
    /// Insertion order, for evicting the oldest key when full.
    order: VecDeque<Key>,
}

/// Prepared keys for keys seen again (a node sees the same validators' keys in
/// block after block). Prepared keys are only ever built here from the encoded
/// key; nothing expanded is taken from outside.
pub struct KeyCache {
    capacity: usize,
    inner: Mutex<Inner>,
}

impl KeyCache {
    /// A cache holding at most `capacity` keys (at least one).
    pub fn new(capacity: usize) -> Self {
        KeyCache {
            capacity: capacity.max(1),
            inner: Mutex::new(Inner { keys: HashMap::new(), order: VecDeque::new() }),
        }
    }

    /// The prepared key for (`suite`, `pk`), built with `make` on a miss.
    pub fn get_or_insert(
        &self,
        suite: Suite,
        pk: &[u8],
        make: impl FnOnce() -> Result<PreparedKey, Error>,
    ) -> Result<Arc<PreparedKey>, Error> {
        let key: Key = (suite, pk.into());
        if let Some(found) = self.lock().keys.get(&key) {
            return Ok(Arc::clone(found));
        }
        // Expand outside the lock; two threads may both build the same key once.
        let prepared = Arc::new(make()?);
        let mut inner = self.lock();
        if !inner.keys.contains_key(&key) {
            if inner.keys.len() >= self.capacity
                && let Some(oldest) = inner.order.pop_front()
            {
                inner.keys.remove(&oldest);
            }
            inner.order.push_back(key.clone());
            inner.keys.insert(key, Arc::clone(&prepared));
        }
        Ok(prepared)
    }

    /// Number of keys held.
    pub fn len(&self) -> usize {
        self.lock().keys.len()
    }

    /// Whether the cache holds no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere cannot leave the map inconsistent: every update is one insert/remove.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
