//! A bounded cache of prepared keys, found by a keyed digest of suite and public-key
//! bytes and checked against the exact bytes, that admits a key only on its second sight.
//!
//! Why a doorkeeper: preparing a key (ExpandA into memory, tr, NTT(t1)) costs more than
//! one one-shot verify, so a cache that prepared every new key would make a block of
//! fresh keys (what an attacker builds to be slow) slower than no cache at all. A key is
//! verified one-shot on first sight and only remembered by its digest; seen again, it is
//! prepared and kept.
//!
//! Why one digest: a call hashes the key's bytes once (foldhash, keyed per cache) and
//! copies nothing unless it admits the key, so a miss costs the one-shot verify and a
//! few tens of nanoseconds (hashing with SipHash and boxing a copy of the key for the
//! lookup cost 4–7 % of an ML-DSA-44 one-shot verify).

use std::hash::BuildHasher;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use pqverify_core::{Error, PreparedKey, Suite};

/// Prepared keys for keys seen again (a node sees the same validators' keys in
/// block after block), evicting the least recently used when full. Prepared keys are
/// only ever built here from the encoded key; nothing expanded is taken from outside.
pub struct KeyCache {
    inner: Mutex<Inner>,
    /// Keyed per cache, so that nobody can aim keys at one digest or doorkeeper slot.
    hasher: foldhash::quality::RandomState,
}

struct Inner {
    /// By digest. Two keys with one digest share an entry: the later one admitted
    /// replaces the other, and a lookup whose bytes differ is a miss.
    prepared: LruCache<u64, Held>,
    seen: Doorkeeper,
}

/// A prepared key and what it was prepared from, compared on every hit.
struct Held {
    suite: Suite,
    public_key: Box<[u8]>,
    key: Arc<PreparedKey>,
}

impl Held {
    fn is(&self, suite: Suite, public_key: &[u8]) -> bool {
        self.suite == suite && *self.public_key == *public_key
    }
}

/// Digests of keys seen once, in a direct-mapped table: a key whose slot holds its
/// digest was seen before. Two keys sharing a slot overwrite each other, so a repeated
/// key may be admitted a sight later than it could be (or, sharing a digest, a sight
/// earlier); nothing is ever wrongly reused,
/// because a prepared key is used only for the bytes it was prepared from.
struct Doorkeeper {
    slots: Box<[u64]>,
}

impl Doorkeeper {
    /// Room for about four times the cache's keys (a power of two, at least 64).
    fn new(capacity: usize) -> Self {
        let slots = capacity.saturating_mul(4).clamp(64, 1 << 22).next_power_of_two();
        Doorkeeper { slots: vec![0; slots].into_boxed_slice() }
    }

    /// Whether `digest` was recorded before. A digest seen before is taken out (its
    /// key is about to be prepared: a sight of it meanwhile, on another thread, verifies
    /// one-shot instead of preparing it twice); one not seen before is recorded.
    fn second_sight(&mut self, digest: u64) -> bool {
        // 0 marks an empty slot, so digests are made odd.
        let digest = digest | 1;
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[(digest >> 1) as usize & mask];
        let seen = *slot == digest;
        *slot = if seen { 0 } else { digest };
        seen
    }
}

impl KeyCache {
    /// A cache holding at most `capacity` prepared keys (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        KeyCache {
            inner: Mutex::new(Inner { prepared: LruCache::new(capacity), seen: Doorkeeper::new(capacity.get()) }),
            hasher: foldhash::quality::RandomState::default(),
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
        self.get_by_digest(self.hasher.hash_one((suite, pk)), suite, pk, make)
    }

    /// [`Self::get_if_seen`] with the digest given (tests give two keys one digest).
    fn get_by_digest(
        &self,
        digest: u64,
        suite: Suite,
        pk: &[u8],
        make: impl FnOnce() -> Result<PreparedKey, Error>,
    ) -> Result<Option<Arc<PreparedKey>>, Error> {
        {
            let mut inner = self.lock();
            if let Some(held) = inner.prepared.get(&digest)
                && held.is(suite, pk)
            {
                return Ok(Some(Arc::clone(&held.key)));
            }
            if !inner.seen.second_sight(digest) {
                return Ok(None);
            }
        }
        // Expand outside the lock.
        let key = Arc::new(make()?);
        let mut inner = self.lock();
        if !inner.prepared.peek(&digest).is_some_and(|held| held.is(suite, pk)) {
            inner.prepared.put(digest, Held { suite, public_key: pk.into(), key: Arc::clone(&key) });
        }
        Ok(Some(key))
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
    fn keys_sharing_a_digest_never_get_each_others_prepared_key() {
        let cache = KeyCache::new(4);
        let suite = Suite::SlhDsaShake128f;
        let get = |b: u8| cache.get_by_digest(7, suite, &key(b), || PreparedKey::new(suite, &key(b))).unwrap();
        assert!(get(1).is_none());
        let one = get(1).expect("second sight of 1: prepared");
        assert!(Arc::ptr_eq(&get(1).expect("a hit"), &one));
        // 2 has 1's digest: a miss (one-shot), then prepared in 1's place.
        assert!(get(2).is_none(), "2 must not get 1's prepared key");
        let two = get(2).expect("second sight of 2: prepared");
        assert!(!Arc::ptr_eq(&two, &one));
        assert!(Arc::ptr_eq(&get(2).expect("a hit"), &two));
        // The same bytes under another suite are another key.
        let other = Suite::SlhDsaSha2_128f;
        let under_other = cache.get_by_digest(7, other, &key(2), || PreparedKey::new(other, &key(2))).unwrap();
        assert!(under_other.is_none(), "another suite must not get 2's prepared key");
        // 1 was replaced: whatever comes back for it (the digest was just seen, so it
        // is prepared again), it is never 2's key.
        assert!(get(1).is_none_or(|k| !Arc::ptr_eq(&k, &two)));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn the_doorkeeper_tells_a_second_sight_once() {
        let mut door = Doorkeeper::new(1);
        assert_eq!(door.slots.len(), 64);
        assert!(!door.second_sight(10));
        assert!(door.second_sight(10));
        // Taken out on its second sight: the next is a first sight again.
        assert!(!door.second_sight(10));
        // A digest in the same slot replaces the first one.
        assert!(!door.second_sight(10 + (64 << 1)));
        assert!(!door.second_sight(10));
        // Digest 0 is a real digest, not an empty slot.
        assert!(!door.second_sight(0));
        assert!(door.second_sight(0));
    }
}
