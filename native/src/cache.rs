//! A bounded cache of prepared keys, keyed by suite and the exact public-key bytes,
//! that admits a key only on its second sight.
//!
//! Why a doorkeeper: preparing a key (ExpandA into memory, tr, NTT(t1)) costs more than
//! one one-shot verify, so a cache that prepared every new key would make a block of
//! fresh keys (what an attacker builds to be slow) slower than no cache at all. A key is
//! verified one-shot on first sight and only remembered by a 64-bit digest; seen again,
//! it is prepared and kept.

use std::hash::{BuildHasher, RandomState};
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use pqverify_core::{Error, PreparedKey, Suite};

type Key = (Suite, Box<[u8]>);

/// Prepared keys for keys seen again (a node sees the same validators' keys in
/// block after block), evicting the least recently used when full. Prepared keys are
/// only ever built here from the encoded key; nothing expanded is taken from outside.
pub struct KeyCache {
    inner: Mutex<Inner>,
    /// Keyed per process, so that nobody can aim keys at one doorkeeper slot.
    hasher: RandomState,
}

struct Inner {
    prepared: LruCache<Key, Arc<PreparedKey>>,
    seen: Doorkeeper,
}

/// Digests of keys seen once, in a direct-mapped table: a key whose slot holds its
/// digest was seen before. Two keys sharing a slot overwrite each other, so a repeated
/// key may be admitted a sight later than it could be; nothing is ever wrongly reused,
/// because the prepared keys themselves are found by their full bytes.
struct Doorkeeper {
    slots: Box<[u64]>,
}

impl Doorkeeper {
    /// Room for about four times the cache's keys (a power of two, at least 64).
    fn new(capacity: usize) -> Self {
        let slots = capacity.saturating_mul(4).clamp(64, 1 << 22).next_power_of_two();
        Doorkeeper { slots: vec![0; slots].into_boxed_slice() }
    }

    /// Whether `digest` was recorded before; records it either way.
    fn seen_before(&mut self, digest: u64) -> bool {
        // 0 marks an empty slot, so digests are made odd.
        let digest = digest | 1;
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[(digest >> 1) as usize & mask];
        let seen = *slot == digest;
        *slot = digest;
        seen
    }

    /// Forgets one digest (after its key was admitted), so the slot is free for another.
    fn forget(&mut self, digest: u64) {
        let digest = digest | 1;
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[(digest >> 1) as usize & mask];
        if *slot == digest {
            *slot = 0;
        }
    }
}

impl KeyCache {
    /// A cache holding at most `capacity` prepared keys (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        KeyCache {
            inner: Mutex::new(Inner { prepared: LruCache::new(capacity), seen: Doorkeeper::new(capacity.get()) }),
            hasher: RandomState::new(),
        }
    }

    /// The prepared key for (`suite`, `pk`) if the key was seen before: held already (a
    /// hit makes it the most recently used), or built now with `make` on its second
    /// sight and kept. `None` on first sight: the caller verifies one-shot.
    pub fn get_if_seen(
        &self,
        suite: Suite,
        pk: &[u8],
        make: impl FnOnce() -> Result<PreparedKey, Error>,
    ) -> Result<Option<Arc<PreparedKey>>, Error> {
        let key: Key = (suite, pk.into());
        let digest = self.hasher.hash_one(&key);
        {
            let mut inner = self.lock();
            if let Some(found) = inner.prepared.get(&key) {
                return Ok(Some(Arc::clone(found)));
            }
            if !inner.seen.seen_before(digest) {
                return Ok(None);
            }
        }
        // Expand outside the lock; two threads may both build the same key once.
        let prepared = Arc::new(make()?);
        let mut inner = self.lock();
        inner.seen.forget(digest);
        if !inner.prepared.contains(&key) {
            inner.prepared.put(key, Arc::clone(&prepared));
        }
        Ok(Some(prepared))
    }

    /// Number of prepared keys held.
    pub fn len(&self) -> usize {
        self.lock().prepared.len()
    }

    /// Whether the cache holds no prepared key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere cannot leave the cache inconsistent: every update is one call.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> [u8; 32] {
        let mut pk = [0u8; 32];
        pk[0] = b;
        pk
    }

    /// Looks `b` up, counting builds; whether a prepared key came back.
    fn get(cache: &KeyCache, built: &std::cell::Cell<u32>, b: u8) -> bool {
        cache
            .get_if_seen(Suite::SlhDsaShake128f, &key(b), || {
                built.set(built.get() + 1);
                PreparedKey::new(Suite::SlhDsaShake128f, &key(b))
            })
            .unwrap()
            .is_some()
    }

    #[test]
    fn a_key_is_prepared_on_its_second_sight_only() {
        let cache = KeyCache::new(4);
        let built = std::cell::Cell::new(0);
        assert!(!get(&cache, &built, 1), "first sight: one-shot");
        assert_eq!((built.get(), cache.len()), (0, 0));
        assert!(get(&cache, &built, 1), "second sight: prepared and kept");
        assert_eq!((built.get(), cache.len()), (1, 1));
        assert!(get(&cache, &built, 1), "third sight: a hit");
        assert_eq!(built.get(), 1);
        // Keys seen once each are never prepared, however many there are.
        for b in 2..200 {
            assert!(!get(&cache, &built, b));
        }
        assert_eq!((built.get(), cache.len()), (1, 1));
    }

    #[test]
    fn the_least_recently_used_key_is_evicted() {
        let cache = KeyCache::new(2);
        let built = std::cell::Cell::new(0);
        for b in [1, 2] {
            assert!(!get(&cache, &built, b));
            assert!(get(&cache, &built, b));
        }
        get(&cache, &built, 1); // 1 is now the most recently used
        get(&cache, &built, 3);
        get(&cache, &built, 3); // prepared: evicts 2, not 1
        assert_eq!(built.get(), 3);
        get(&cache, &built, 1);
        assert_eq!(built.get(), 3, "1 stayed");
        assert!(!get(&cache, &built, 2), "2 was evicted and is on first sight again");
        assert!(get(&cache, &built, 2));
        assert_eq!(built.get(), 4);
        assert_eq!(cache.len(), 2);
    }

    #[test]
    fn the_doorkeeper_tells_a_digest_seen_before() {
        let mut door = Doorkeeper::new(1);
        assert_eq!(door.slots.len(), 64);
        assert!(!door.seen_before(10));
        assert!(door.seen_before(10));
        door.forget(10);
        assert!(!door.seen_before(10));
        // A digest in the same slot replaces the first one.
        assert!(!door.seen_before(10 + (64 << 1)));
        assert!(!door.seen_before(10));
        // Digest 0 is a real digest, not an empty slot.
        assert!(!door.seen_before(0));
        assert!(door.seen_before(0));
    }
}
