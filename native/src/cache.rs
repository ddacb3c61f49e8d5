//! A bounded cache of prepared keys, found by a keyed digest of suite and public-key
//! bytes and checked against the exact bytes, that admits a key only when it has been
//! seen more often than the key it would displace.
//!
//! Why admission: preparing a key (ExpandA into memory, tr, NTT(t1)) costs more than
//! one one-shot verify, and pays back only if the key is used again before it leaves.
//! - A key seen once (what an attacker's block of fresh keys holds) is verified
//!   one-shot and only its digest is remembered (the doorkeeper): a cache that
//!   prepared every new key would make such a block slower than no cache at all.
//! - A key seen again is counted (a small table of sight counts, halved every ten
//!   counted sights per cached key so that old counts fade) and, when the cache is full,
//!   displaces the least recently used key only if it has been seen more often. Without
//!   this, more keys in turn than the cache holds (a validator set larger than
//!   `--key-cache`, or an attacker's keys each sent twice) would evict every key before
//!   its next use: every sight would pay a one-shot verify or a preparation, and the
//!   cache would lose.
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
/// block after block), evicting the least recently used when one seen more often comes.
/// Prepared keys are only ever built here from the encoded key; nothing expanded is
/// taken from outside.
pub struct KeyCache {
    inner: Mutex<Inner>,
    /// Keyed per cache, so that nobody can aim keys at one digest or count.
    hasher: foldhash::quality::RandomState,
}

struct Inner {
    /// By digest. Two keys with one digest share an entry: the later one admitted
    /// replaces the other, and a lookup whose bytes differ is a miss.
    prepared: LruCache<u64, Held>,
    seen: Doorkeeper,
    sights: Sights,
    /// Digests of keys being prepared now: a sight of one meanwhile (on another
    /// thread) verifies one-shot rather than preparing it a second time.
    preparing: Vec<u64>,
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

/// Slots of the doorkeeper's and the counts' tables for a cache of `capacity` keys: about
/// four per key, a power of two (the slot is a digest's low bits), at least 64.
fn table_len(capacity: usize) -> usize {
    capacity.saturating_mul(4).clamp(64, 1 << 22).next_power_of_two()
}

/// Digests of keys seen, in a direct-mapped table: a key whose slot holds its digest
/// was seen before. Two keys sharing a slot overwrite each other, so a repeated key may
/// be counted a sight later than it could be. Keys seen once never reach [`Sights`].
struct Doorkeeper {
    slots: Box<[u64]>,
}

impl Doorkeeper {
    /// Room for about four times the cache's keys ([`table_len`]).
    fn new(capacity: usize) -> Self {
        Doorkeeper { slots: vec![0; table_len(capacity)].into_boxed_slice() }
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
}

/// How often each key past the doorkeeper was seen lately, estimated: two counters per
/// digest in one table (the smaller is the estimate; keys sharing a counter only ever
/// raise each other's estimates), all halved every `period` counted sights. A wrong
/// estimate only changes which key is prepared; a prepared key is used only for the
/// bytes it was prepared from.
struct Sights {
    counts: Box<[u8]>,
    since_halving: usize,
    period: usize,
}

impl Sights {
    /// Counts saturate here (recency matters more than old popularity).
    const MAX: u8 = 15;

    /// Counters for about four times the cache's keys ([`table_len`]), halved every
    /// ten sights per cached key.
    fn new(capacity: usize) -> Self {
        Sights {
            counts: vec![0; table_len(capacity)].into_boxed_slice(),
            since_halving: 0,
            period: capacity.saturating_mul(10),
        }
    }

    fn slots(&self, digest: u64) -> [usize; 2] {
        let mask = self.counts.len() - 1;
        [digest as usize & mask, (digest >> 32) as usize & mask]
    }

    /// Counts one sight of `digest`; its estimate after it.
    fn record(&mut self, digest: u64) -> u8 {
        for slot in self.slots(digest) {
            self.counts[slot] = (self.counts[slot] + 1).min(Self::MAX);
        }
        self.since_halving += 1;
        if self.since_halving >= self.period {
            self.counts.iter_mut().for_each(|c| *c >>= 1);
            self.since_halving = 0;
        }
        self.estimate(digest)
    }

    fn estimate(&self, digest: u64) -> u8 {
        self.slots(digest).into_iter().map(|slot| self.counts[slot]).min().unwrap_or(0)
    }
}

impl Inner {
    /// Whether a key not held, past the doorkeeper with `sights` counted, is worth
    /// preparing: not being prepared already and, when the cache is full, seen more
    /// often than the least recently used key it would evict.
    fn admits(&self, digest: u64, sights: u8) -> bool {
        if self.preparing.contains(&digest) {
            return false;
        }
        match self.prepared.peek_lru() {
            Some((victim, _)) if self.prepared.len() == self.prepared.cap().get() => {
                sights > self.sights.estimate(*victim)
            }
            _ => true,
        }
    }
}

impl KeyCache {
    /// A cache holding at most `capacity` prepared keys (at least one).
    pub fn new(capacity: usize) -> Self {
        let capacity = NonZeroUsize::new(capacity).unwrap_or(NonZeroUsize::MIN);
        KeyCache {
            inner: Mutex::new(Inner {
                prepared: LruCache::new(capacity),
                seen: Doorkeeper::new(capacity.get()),
                sights: Sights::new(capacity.get()),
                preparing: Vec::new(),
            }),
            hasher: foldhash::quality::RandomState::default(),
        }
    }

    /// The prepared key for (`suite`, `pk`): held already (a hit makes it the most
    /// recently used), or built now with `make` and kept when the key is admitted (see
    /// the module's text). `None` otherwise: the caller verifies one-shot.
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
                let key = Arc::clone(&held.key);
                inner.sights.record(digest);
                return Ok(Some(key));
            }
            if !inner.seen.seen_before(digest) {
                return Ok(None);
            }
            let sights = inner.sights.record(digest);
            if !inner.admits(digest, sights) {
                return Ok(None);
            }
            inner.preparing.push(digest);
        }
        // Expand outside the lock.
        let made = make();
        let mut inner = self.lock();
        if let Some(at) = inner.preparing.iter().position(|d| *d == digest) {
            inner.preparing.swap_remove(at);
        }
        let key = Arc::new(made?);
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
    use pqverify_core::PublicKey;

    fn key(b: u8) -> [u8; 32] {
        let mut pk = [0u8; 32];
        pk[0] = b;
        pk
    }

    /// A digest for key `b` whose doorkeeper slot and two counters no other `b` below
    /// 16 shares in the smallest tables (the cache's own digests are keyed at random;
    /// these keep the tests deterministic).
    fn digest(b: u8) -> u64 {
        u64::from(b) << 1 | (u64::from(b) + 16) << 33
    }

    /// What a lookup of key `b` did.
    #[derive(Debug, PartialEq)]
    enum Got {
        OneShot,
        Prepared,
        Hit,
    }

    /// Looks `b` up, counting builds.
    fn get(cache: &KeyCache, built: &std::cell::Cell<u32>, b: u8) -> Got {
        let before = built.get();
        let suite = Suite::SlhDsaShake128f;
        let found = cache
            .get_by_digest(digest(b), suite, &key(b), || {
                built.set(built.get() + 1);
                PublicKey::from_raw(suite, &key(b)).and_then(PreparedKey::new)
            })
            .unwrap();
        match (found, built.get() > before) {
            (None, _) => Got::OneShot,
            (Some(_), true) => Got::Prepared,
            (Some(_), false) => Got::Hit,
        }
    }

    #[test]
    fn a_key_is_prepared_on_its_second_sight_only() {
        let cache = KeyCache::new(4);
        let built = std::cell::Cell::new(0);
        assert_eq!(get(&cache, &built, 1), Got::OneShot, "first sight");
        assert_eq!(cache.len(), 0);
        assert_eq!(get(&cache, &built, 1), Got::Prepared, "second sight: prepared and kept");
        assert_eq!(get(&cache, &built, 1), Got::Hit);
        // Keys seen once each are never prepared, however many there are.
        for b in 2..200 {
            assert_eq!(get(&cache, &built, b), Got::OneShot);
        }
        assert_eq!((built.get(), cache.len()), (1, 1));
    }

    #[test]
    fn a_full_cache_admits_only_a_key_seen_more_often_than_its_least_recently_used() {
        let cache = KeyCache::new(2);
        let built = std::cell::Cell::new(0);
        for b in [1, 2] {
            get(&cache, &built, b);
            assert_eq!(get(&cache, &built, b), Got::Prepared);
        }
        assert_eq!(get(&cache, &built, 1), Got::Hit); // 1 is now the most recently used
        assert_eq!(get(&cache, &built, 3), Got::OneShot);
        assert_eq!(get(&cache, &built, 3), Got::OneShot, "seen as often as 2: not admitted");
        assert_eq!(get(&cache, &built, 3), Got::Prepared, "seen more often: evicts 2, not 1");
        assert_eq!(get(&cache, &built, 1), Got::Hit, "1 stayed");
        assert_eq!(get(&cache, &built, 2), Got::OneShot, "2 was evicted");
        assert_eq!(cache.len(), 2);
    }

    /// More keys in turn than the cache holds: an LRU that admitted every key seen
    /// again would evict each before its next use; this one keeps some and never costs
    /// more than no cache (costs in ML-DSA-44 one-shot verifies, measured natively:
    /// preparing 0.77, a prepared verify 0.43).
    #[test]
    fn keys_in_turn_beyond_the_capacity_cost_less_than_no_cache() {
        let cache = KeyCache::new(4);
        let built = std::cell::Cell::new(0);
        let (mut cost, mut hits, mut sights) = (0.0, 0, 0);
        for _ in 0..50 {
            for b in 1..=8 {
                sights += 1;
                match get(&cache, &built, b) {
                    Got::OneShot => cost += 1.0,
                    Got::Prepared => cost += 0.77 + 0.43,
                    Got::Hit => {
                        cost += 0.43;
                        hits += 1;
                    }
                }
            }
        }
        assert!(hits >= 4 * 45, "{hits} hits in {sights} sights");
        assert!(cost < 0.8 * f64::from(sights), "cost {cost} for {sights} sights, {} preparations", built.get());
    }

    #[test]
    fn a_key_seen_often_displaces_keys_no_longer_seen() {
        let cache = KeyCache::new(2);
        let built = std::cell::Cell::new(0);
        for _ in 0..20 {
            for b in [1, 2] {
                get(&cache, &built, b);
            }
        }
        assert_eq!(get(&cache, &built, 1), Got::Hit);
        // Counts fade: 3, seen on and on, gets in although 1 and 2 were seen 20 times.
        let sight = (1..=40).find(|_| get(&cache, &built, 3) == Got::Prepared);
        assert!(sight.is_some_and(|n| n > 2), "3 admitted at sight {sight:?}");
        assert_eq!(get(&cache, &built, 3), Got::Hit);
    }

    #[test]
    fn keys_sharing_a_digest_never_get_each_others_prepared_key() {
        let cache = KeyCache::new(4);
        let suite = Suite::SlhDsaShake128f;
        let get = |b: u8| {
            cache
                .get_by_digest(7, suite, &key(b), || PublicKey::from_raw(suite, &key(b)).and_then(PreparedKey::new))
                .unwrap()
        };
        let until_prepared = |b: u8| (0..4).find_map(|_| get(b)).expect("prepared by its second sight");
        let one = until_prepared(1);
        assert!(Arc::ptr_eq(&get(1).expect("a hit"), &one));
        // 2 has 1's digest: whatever comes back for it is never 1's key.
        let two = until_prepared(2);
        assert!(!Arc::ptr_eq(&two, &one));
        assert!(Arc::ptr_eq(&get(2).expect("a hit"), &two));
        // The same bytes under another suite are another key.
        let other = Suite::SlhDsaSha2_128f;
        let under_other = cache
            .get_by_digest(7, other, &key(2), || PublicKey::from_raw(other, &key(2)).and_then(PreparedKey::new))
            .unwrap();
        assert!(under_other.is_none_or(|k| !Arc::ptr_eq(&k, &two)));
        assert!(get(1).is_none_or(|k| !Arc::ptr_eq(&k, &two) && !Arc::ptr_eq(&k, &one)));
        assert_eq!(cache.len(), 1);
    }

    #[test]
    fn the_doorkeeper_tells_a_digest_seen_before() {
        let mut door = Doorkeeper::new(1);
        assert_eq!(door.slots.len(), 64);
        assert!(!door.seen_before(10));
        assert!(door.seen_before(10));
        // A digest in the same slot replaces the first one.
        assert!(!door.seen_before(10 + (64 << 1)));
        assert!(!door.seen_before(10));
        // Digest 0 is a real digest, not an empty slot.
        assert!(!door.seen_before(0));
        assert!(door.seen_before(0));
    }

    #[test]
    fn sight_counts_saturate_and_fade() {
        let mut sights = Sights::new(1);
        assert_eq!((sights.counts.len(), sights.period), (64, 10));
        let d = digest(5);
        assert_eq!(sights.record(d), 1);
        assert_eq!(sights.record(d), 2);
        assert_eq!(sights.estimate(digest(6)), 0, "another key's count");
        for _ in 0..7 {
            sights.record(d);
        }
        assert_eq!(sights.estimate(d), 9);
        assert_eq!(sights.record(d), 5, "the tenth sight halves every count");
        // Saturation: a period of 20 holds more sights than the cap.
        let mut sights = Sights::new(2);
        for _ in 0..19 {
            sights.record(d);
        }
        assert_eq!(sights.estimate(d), Sights::MAX, "19 sights count as 15");
        assert_eq!(sights.record(d), Sights::MAX / 2, "the twentieth sight halves 15");
        assert!(sights.counts.iter().all(|c| *c <= Sights::MAX));
    }
}
