//! The benchmark suite's native ways: each verifier as the suite measures it.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::Instant;

use pqverify_bench::distinct::DistinctFixtures;
use pqverify_bench::names;
use pqverify_bench::{Bound, Case, Clock, SuiteFixture, Way};
use pqverify_core::{Message, PreparedKey, PublicKey, Suite};

use pqverify_native::backend::{Backend, Interface, Liboqs, Pqverify, Reference, Request};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::sink::DisagreementSink;
use pqverify_native::{OneBackend, Verifier};

/// `Instant` as the suite's clock.
pub(crate) struct NativeClock(Instant);

impl NativeClock {
    /// A clock starting now.
    pub(crate) fn new() -> Self {
        NativeClock(Instant::now())
    }
}

impl Default for NativeClock {
    fn default() -> Self {
        Self::new()
    }
}

impl Clock for NativeClock {
    fn now_ns(&mut self) -> f64 {
        self.0.elapsed().as_nanos() as f64
    }
}

/// The suite a fixture names.
pub(crate) fn suite_of(f: &SuiteFixture) -> Option<Suite> {
    f.suite.parse().ok()
}

/// A way through one backend (or the dual verifier) behind [`Verifier`].
pub(crate) struct VerifierWay {
    name: String,
    verifier: Box<dyn Verifier>,
    /// Only bind suites this backend has (pure interface).
    backend: Option<Arc<dyn Backend>>,
    dual: Option<Arc<DualVerifier>>,
}

impl Way for VerifierWay {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let suite = suite_of(f)?;
        if let Some(b) = &self.backend
            && !b.supports(suite, Interface::Pure)
        {
            return None;
        }
        let verifier = &self.verifier;
        let public_key = PublicKey::from_raw(suite, &f.public_key).ok()?;
        let request = Request { public_key, message: Message::pure(msg, b""), signature: sig };
        Some(Box::new(move || verifier.decide(&request).map_err(|e| e.to_string())))
    }

    fn disagreements(&self) -> u64 {
        self.dual.as_ref().map_or(0, |d| d.disagreements())
    }
}

/// pqverify with a prepared key built in `bind` (outside the timing).
pub(crate) struct PreparedWay;

impl Way for PreparedWay {
    fn name(&self) -> String {
        "pqverify-prepared".into()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let key = PublicKey::from_raw(suite_of(f)?, &f.public_key).and_then(PreparedKey::new).ok()?;
        Some(Box::new(move || match key.verify(Message::pure(msg, b""), sig) {
            Ok(()) => Ok(true),
            Err(e) if e.is_rejection() => Ok(false),
            Err(e) => Err(e.to_string()),
        }))
    }
}

/// pqverify one-shot with one kernel set forced (`pqverify_core::force_kernels`) while
/// this way is measured, so that sets are compared in one run: `pqverify-portable` (the
/// portable set), `pqverify-avx2` (the AVX2 set on a CPU whose fastest is AVX-512).
pub(crate) struct ForcedWay {
    /// The kernel set (`pqverify_core::available_kernels`'s name).
    set: &'static str,
    /// The way's name in the records.
    name: &'static str,
}

impl ForcedWay {
    /// The way on the portable kernels.
    pub(crate) fn portable() -> Self {
        ForcedWay { set: "portable", name: names::PQVERIFY_PORTABLE }
    }

    /// The way on the AVX2 kernels.
    pub(crate) fn avx2() -> Self {
        ForcedWay { set: "avx2", name: names::PQVERIFY_AVX2 }
    }
}

/// Restores the kernel set it found when dropped (so that a run forcing another set
/// with `--kernels` stays on it for every other way).
struct ForcedGuard {
    before: Option<&'static str>,
}

impl ForcedGuard {
    /// `None` where this CPU has no set of that name.
    fn new(set: &str) -> Option<Self> {
        pqverify_core::force_kernels(Some(set)).ok().map(|before| ForcedGuard { before: Some(before) })
    }
}

impl Drop for ForcedGuard {
    fn drop(&mut self) {
        // The set that ran before is one this CPU has: restoring it cannot fail.
        let _ = pqverify_core::force_kernels(self.before);
    }
}

impl Way for ForcedWay {
    fn name(&self) -> String {
        self.name.into()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let suite = suite_of(f)?;
        let guard = ForcedGuard::new(self.set)?;
        Some(Box::new(move || {
            let _forced = &guard;
            match pqverify_core::PublicKey::from_raw(suite, &f.public_key)
                .and_then(|key| pqverify_core::verify(key, Message::pure(msg, b""), sig))
            {
                Ok(()) => Ok(true),
                Err(e) if e.is_rejection() => Ok(false),
                Err(e) => Err(e.to_string()),
            }
        }))
    }
}

/// The liboqs builds a run measures: the linked one (the vendored 0.13), the one
/// loaded with `--liboqs`, which is then also the dual verifier's primary, and the one
/// loaded with `--liboqs-avx2` (built without its AVX-512 SHA-3).
pub(crate) struct Liboqses {
    /// The vendored release, linked in.
    pub(crate) linked: Arc<Liboqs>,
    /// A shared library loaded at run time.
    pub(crate) loaded: Option<Arc<Liboqs>>,
    /// A liboqs held to its AVX2 code, measured beside `pqverify-avx2` on a CPU with
    /// AVX-512 (elsewhere the two ways would repeat the loaded liboqs and pqverify).
    pub(crate) avx2: Option<Arc<Liboqs>>,
}

impl Liboqses {
    /// The dual verifier's primary: the loaded library where there is one.
    pub(crate) fn primary(&self) -> &Arc<Liboqs> {
        self.loaded.as_ref().unwrap_or(&self.linked)
    }

    /// The way measuring the loaded library: `liboqs-` and its version.
    pub(crate) fn loaded_way(liboqs: &Liboqs) -> String {
        format!("liboqs-{}", liboqs.info().version)
    }

    /// The way measuring the library held to AVX2: `liboqs-`, its version, `-avx2`.
    pub(crate) fn avx2_way(liboqs: &Liboqs) -> String {
        format!("liboqs-{}{}", liboqs.info().version, names::AVX2_SUFFIX)
    }

    /// The way measuring the dual verifier's primary alone on the distinct-key fixtures:
    /// its own way's name and `-distinct`.
    pub(crate) fn primary_distinct_way(&self) -> String {
        names::distinct(&self.loaded.as_ref().map_or_else(|| "liboqs".to_owned(), |l| Self::loaded_way(l)))
    }

    /// The AVX2-held liboqs, where this CPU's fastest kernels are AVX-512's (the only
    /// CPUs where holding both verifiers to AVX2 measures something the other ways do not).
    pub(crate) fn avx2_pair(&self) -> Option<&Arc<Liboqs>> {
        self.avx2.as_ref().filter(|_| pqverify_core::available_kernels().first() == Some(&"avx512"))
    }
}

/// The key cache the dual verifier's secondary (and the CLI) uses.
const KEY_CACHE: usize = 1024;

/// The dual verifier the benchmark and the blocks use: liboqs (else the reference)
/// as primary, pqverify with a prepared-key cache as secondary; in enforce mode the
/// secondary audits one in `audit_every` rejections (1 all, the CLI's default; 0 none).
pub(crate) fn dual(
    liboqs: &Arc<Liboqs>,
    mode: Mode,
    audit_every: u64,
    sink: Arc<dyn DisagreementSink>,
) -> Arc<DualVerifier> {
    Arc::new(
        DualVerifier::new(
            vec![liboqs.clone(), Arc::new(Reference)],
            Arc::new(Pqverify::with_cache(KEY_CACHE)),
            mode,
            sink,
        )
        .with_audit(audit_every),
    )
}

struct Shared(Arc<DualVerifier>);

impl Verifier for Shared {
    fn decide(&self, r: &Request<'_>) -> Result<bool, pqverify_native::VerifyError> {
        self.0.decide(r)
    }
    fn describe(&self) -> String {
        self.0.describe()
    }
}

/// A verifier made afresh, and its dual verifier where it is one (for its count of
/// disagreements).
pub(crate) struct Fresh {
    verifier: Box<dyn Verifier>,
    dual: Option<Arc<DualVerifier>>,
}

/// A way over the distinct-key fixtures: every call verifies the next key's signature,
/// and each pass over the keys starts from a verifier made afresh, so every key is
/// seen for the first time (what a block built to be slow makes a node do).
pub(crate) struct DistinctWay {
    name: String,
    make: Box<dyn Fn() -> Fresh>,
    /// The backend measured alone, where the way is one (its suites are the way's).
    alone: Option<Arc<dyn Backend>>,
    keys: Arc<DistinctFixtures>,
    /// Disagreements of the verifiers already replaced.
    retired: Cell<u64>,
    /// The verifier in use.
    current: RefCell<Option<Fresh>>,
}

impl DistinctWay {
    fn new(name: &str, keys: &Arc<DistinctFixtures>, make: impl Fn() -> Fresh + 'static) -> Self {
        DistinctWay {
            name: name.into(),
            make: Box::new(make),
            alone: None,
            keys: keys.clone(),
            retired: Cell::new(0),
            current: RefCell::new(None),
        }
    }

    /// `backend` alone on the distinct keys, on the suites it has.
    fn alone(name: &str, keys: &Arc<DistinctFixtures>, backend: Arc<dyn Backend>) -> Self {
        let verifier = backend.clone();
        DistinctWay {
            alone: Some(backend),
            ..Self::new(name, keys, move || Fresh { verifier: Box::new(OneBackend(verifier.clone())), dual: None })
        }
    }

    /// Replaces the verifier in use by a fresh one.
    fn renew(&self) {
        let fresh = (self.make)();
        if let Some(old) = self.current.replace(Some(fresh)) {
            self.retired.set(self.retired.get() + old.dual.map_or(0, |d| d.disagreements()));
        }
    }
}

impl Way for DistinctWay {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let suite = suite_of(f)?;
        if let Some(b) = &self.alone
            && !b.supports(suite, Interface::Pure)
        {
            return None;
        }
        let keys = self.keys.suite(&f.suite)?;
        // The same case as the bound fixture's, on every distinct key.
        let (message, signed) = match f.case_of(msg, sig) {
            Case::Valid => (&f.msg, keys.signed.clone()),
            Case::Invalid => (&f.msg, keys.signed.iter().map(|(k, s)| (k.clone(), Case::flip(s))).collect()),
            Case::ValidLong => (&f.msg_long, keys.signed_long.clone()),
        };
        if signed.is_empty() {
            return None;
        }
        let this: &'a Self = self;
        this.renew();
        let mut next = 0;
        Some(Box::new(move || {
            if next == signed.len() {
                this.renew();
                next = 0;
            }
            let (public_key, signature) = &signed[next];
            next += 1;
            let public_key = PublicKey::from_raw(suite, public_key).map_err(|e| e.to_string())?;
            let request = Request { public_key, message: Message::pure(message, b""), signature };
            let current = this.current.borrow();
            let fresh = current.as_ref().ok_or_else(|| "no verifier".to_owned())?;
            fresh.verifier.decide(&request).map_err(|e| e.to_string())
        }))
    }

    fn disagreements(&self) -> u64 {
        let current = self.current.borrow();
        self.retired.get() + current.as_ref().and_then(|f| f.dual.as_ref()).map_or(0, |d| d.disagreements())
    }
}

/// The native ways, in record order: liboqs (linked), the loaded liboqs (named by its
/// version), reference, pqverify, pqverify-portable, (on a CPU with AVX-512, given the
/// liboqs held to AVX2) that liboqs and pqverify-avx2, pqverify-prepared, pqverify through
/// the key cache on the fixture's key and on distinct keys, the primary liboqs alone on
/// distinct keys, dual-enforce (auditing every rejection) on the fixture's key and on
/// distinct keys, dual-enforce-unaudited, dual-shadow on the fixture's key and on
/// distinct keys. The dual verifiers' primary is the loaded liboqs where there is one.
pub(crate) fn native_ways(
    liboqs: &Liboqses,
    sink: &Arc<dyn DisagreementSink>,
    distinct: &Arc<DistinctFixtures>,
) -> Vec<Box<dyn Way>> {
    let single = |name: &str, backend: Arc<dyn Backend>| -> Box<dyn Way> {
        Box::new(VerifierWay {
            name: name.into(),
            verifier: Box::new(OneBackend(backend.clone())),
            backend: Some(backend),
            dual: None,
        })
    };
    let primary = liboqs.primary().clone();
    let dual_way = |mode: Mode, audit_every: u64, name: &str| -> Box<dyn Way> {
        let d = dual(&primary, mode, audit_every, sink.clone());
        Box::new(VerifierWay { name: name.into(), verifier: Box::new(Shared(d.clone())), backend: None, dual: Some(d) })
    };
    let dual_distinct = |mode: Mode, name: &str| -> Box<dyn Way> {
        let (primary, sink) = (primary.clone(), sink.clone());
        Box::new(DistinctWay::new(name, distinct, move || {
            let d = dual(&primary, mode, 1, sink.clone());
            Fresh { verifier: Box::new(Shared(d.clone())), dual: Some(d) }
        }))
    };
    let mut ways = vec![single("liboqs", liboqs.linked.clone())];
    if let Some(loaded) = &liboqs.loaded {
        ways.push(single(&Liboqses::loaded_way(loaded), loaded.clone()));
    }
    ways.extend([
        single("reference", Arc::new(Reference)),
        single("pqverify", Arc::new(Pqverify::one_shot())),
        Box::new(ForcedWay::portable()) as Box<dyn Way>,
    ]);
    if let Some(avx2) = liboqs.avx2_pair() {
        ways.push(single(&Liboqses::avx2_way(avx2), avx2.clone()));
        ways.push(Box::new(ForcedWay::avx2()));
    }
    ways.extend([
        Box::new(PreparedWay) as Box<dyn Way>,
        single("pqverify-cached", Arc::new(Pqverify::with_cache(KEY_CACHE))),
        // One-shot on the distinct keys: what the cache on first sight is measured against.
        Box::new(DistinctWay::new("pqverify-distinct", distinct, || Fresh {
            verifier: Box::new(OneBackend(Arc::new(Pqverify::one_shot()))),
            dual: None,
        })),
        Box::new(DistinctWay::new("pqverify-cached-distinct", distinct, || Fresh {
            verifier: Box::new(OneBackend(Arc::new(Pqverify::with_cache(KEY_CACHE)))),
            dual: None,
        })),
        // The primary alone on the same keys: the dual check on distinct keys against
        // what that block costs without the second verifier (both read each key and
        // signature fresh from memory, where a repeated key stays in the cache).
        Box::new(DistinctWay::alone(&liboqs.primary_distinct_way(), distinct, primary.clone())),
        dual_way(Mode::Enforce, 1, "dual-enforce"),
        dual_distinct(Mode::Enforce, "dual-enforce-distinct"),
        dual_way(Mode::Enforce, 0, "dual-enforce-unaudited"),
        dual_way(Mode::Shadow, 1, "dual-shadow"),
        dual_distinct(Mode::Shadow, "dual-shadow-distinct"),
    ]);
    ways
}
