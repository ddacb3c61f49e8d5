//! The benchmark suite's native ways and environment, the worst-case blocks measured
//! through the parallel batch, and the quorum-certificate scenario.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use pqverify_bench::certificates::{CertificateBudget, CertificateFixtures, CertificateTimes, certificate_record};
use pqverify_bench::distinct::DistinctFixtures;
use pqverify_bench::names;
use pqverify_bench::report::BLOCK_BUDGET;
use pqverify_bench::{Block, Bound, Case, Certificate, Clock, Env, Fixtures, LiboqsInfo, SCHEMA, SuiteFixture, Way};
use pqverify_core::{Message, PreparedKey, Suite};

use pqverify_native::backend::{Backend, Interface, Liboqs, Pqverify, Reference, Request};
use pqverify_native::batch::{Item, OwnedMessage, verify_batch};
use pqverify_native::certificate::{ValidatorSet, verify_one_shot};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::sink::DisagreementSink;
use pqverify_native::units::UnitTable;
use pqverify_native::{Single, Verifier};

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
        let request = Request { suite, public_key: &f.public_key, message: Message::pure(msg, b""), signature: sig };
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
        let key = PreparedKey::new(suite_of(f)?, &f.public_key).ok()?;
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
            match pqverify_core::verify(suite, &f.public_key, Message::pure(msg, b""), sig) {
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
            ..Self::new(name, keys, move || Fresh { verifier: Box::new(Single(verifier.clone())), dual: None })
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
            let request = Request { suite, public_key, message: Message::pure(message, b""), signature };
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
            verifier: Box::new(Single(backend.clone())),
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
            verifier: Box::new(Single(Arc::new(Pqverify::one_shot()))),
            dual: None,
        })),
        Box::new(DistinctWay::new("pqverify-cached-distinct", distinct, || Fresh {
            verifier: Box::new(Single(Arc::new(Pqverify::with_cache(KEY_CACHE)))),
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

/// The value of the first `name` line of `/proc/cpuinfo`'s text (the first processor's).
fn cpuinfo_field<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().find_map(|l| l.split_once(':').filter(|(key, _)| key.trim() == name).map(|(_, value)| value.trim()))
}

/// The first processor's vendor, family, model and stepping ("AuthenticAMD family 25 model
/// 17 stepping 1") and its flags that decide which kernels run and how fast (vector, bit
/// manipulation and hash extensions), from `/proc/cpuinfo`'s text: the model name alone
/// does not tell a Zen 3 from a Zen 4 in a VM ("AMD EPYC").
fn cpu_identity(text: &str) -> Option<(String, String)> {
    let field = |name| cpuinfo_field(text, name);
    let id = format!(
        "{} family {} model {} stepping {}",
        field("vendor_id")?,
        field("cpu family")?,
        field("model")?,
        field("stepping").unwrap_or_default()
    );
    let kept = |f: &&str| {
        ["avx", "bmi", "sha", "vaes", "vpclmul", "gfni", "aes", "adx", "popcnt", "fma", "amx"]
            .iter()
            .any(|p| f.starts_with(p))
    };
    let flags: Vec<&str> = field("flags").map(|v| v.split_whitespace().filter(kept).collect()).unwrap_or_default();
    Some((id, flags.join(" ")))
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

/// The native environment record (fixtures digest and ways are filled in by the run):
/// `liboqs` is the dual verifier's primary, `liboqs_ways` every liboqs measured.
pub(crate) fn native_env(run: &str, liboqses: &Liboqses) -> Env {
    let liboqs = liboqses.primary();
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo_field(&cpuinfo, "model name").map_or_else(|| std::env::consts::ARCH.to_owned(), str::to_owned);
    let os_name = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_owned())))
        .unwrap_or_else(|| std::env::consts::OS.to_owned());
    let kernel = read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default();
    let info = liboqs.info();
    let mut extra = serde_json::Map::new();
    extra.insert("pqverify".into(), env!("CARGO_PKG_VERSION").into());
    extra.insert("host".into(), read_trimmed("/proc/sys/kernel/hostname").unwrap_or_default().into());
    if let Some((id, flags)) = cpu_identity(&cpuinfo) {
        extra.insert("cpu_id".into(), id.into());
        extra.insert("cpu_flags".into(), flags.into());
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    extra.insert("time".into(), pqverify_bench::record::utc_timestamp(now).into());
    extra.insert("reference".into(), Reference.version().into());
    extra.insert("liboqs_suites".into(), info.suites.clone().into());
    let mut measured =
        vec![serde_json::json!({"way": "liboqs", "version": liboqses.linked.info().version, "library": "linked"})];
    if let Some(loaded) = &liboqses.loaded {
        measured.push(serde_json::json!({
            "way": Liboqses::loaded_way(loaded),
            "version": loaded.info().version,
            "library": loaded.info().library,
        }));
    }
    if let Some(avx2) = liboqses.avx2_pair() {
        measured.push(serde_json::json!({
            "way": Liboqses::avx2_way(avx2),
            "version": avx2.info().version,
            "library": avx2.info().library,
            "held_to": "avx2",
        }));
    }
    extra.insert("liboqs_ways".into(), measured.into());
    Env {
        schema: SCHEMA.into(),
        target: "native".into(),
        run: run.into(),
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        os: format!("{os_name}, Linux {kernel}"),
        runtime: env!("PQVERIFY_RUSTC_VERSION").into(),
        liboqs: Some(LiboqsInfo {
            version: info.version.clone(),
            avx2: info.avx2,
            library: Some(info.library.clone()),
        }),
        backend: pqverify_core::kernels().into(),
        fixtures: String::new(),
        ways: Vec::new(),
        extra,
    }
}

/// The worst-case blocks: for each suite, as many valid signatures as the Verify-Unit
/// budget allows, through the parallel batch on all cores with dual-enforce (a fresh
/// verifier each, with an empty key cache): `dual-enforce-distinct`, every signature
/// under its own key (what an attacker's block holds; from the distinct-key fixtures),
/// and `dual-enforce`, the fixture's one key and signature repeated. With `short`
/// (a quick run), a suite with fewer distinct keys than its block needs gets blocks of
/// as many signatures as it has keys, recorded with that smaller budget.
#[allow(clippy::too_many_arguments, reason = "the run's parts, each used once")]
pub(crate) fn worst_case_blocks(
    fixtures: &Fixtures,
    distinct: &DistinctFixtures,
    suites: &[String],
    table: &UnitTable,
    run: &str,
    liboqs: &Arc<Liboqs>,
    sink: &Arc<dyn DisagreementSink>,
    short: bool,
) -> Result<Vec<Block>, String> {
    let threads = rayon::current_num_threads() as u32;
    let mut blocks = Vec::new();
    for f in
        fixtures.suites.iter().filter(|f| suites.is_empty() || suites.iter().any(|s| s.eq_ignore_ascii_case(&f.suite)))
    {
        let Some(suite) = suite_of(f) else { continue };
        let units = table.cost(suite, f.msg.len());
        let mut count = (BLOCK_BUDGET / units.max(1)) as usize;
        let item = |public_key: &[u8], signature: &[u8]| Item {
            suite,
            public_key: public_key.to_vec(),
            message: OwnedMessage::Pure { msg: f.msg.clone(), ctx: Vec::new() },
            signature: signature.to_vec(),
        };
        let keys = distinct.suite(&f.suite).map_or(&[][..], |k| &k.signed[..]);
        if short && !keys.is_empty() {
            count = count.min(keys.len());
        }
        if keys.len() < count {
            return Err(format!(
                "the distinct-key fixtures hold {} keys of {}, its block needs {count}: make them again",
                keys.len(),
                f.suite
            ));
        }
        let distinct_items: Vec<Item> = keys[..count].iter().map(|(k, s)| item(k, s)).collect();
        let repeated_items = vec![item(&f.public_key, &f.sig); count];
        for (way, items) in [("dual-enforce-distinct", distinct_items), ("dual-enforce", repeated_items)] {
            let verifier = dual(liboqs, Mode::Enforce, 1, sink.clone());
            // One warm-up item, under the fixture's key (in neither block's cache: the
            // doorkeeper has seen it once), so the block measures verification, not
            // first use of the thread pool.
            let _ = verify_batch(verifier.as_ref(), &[item(&f.public_key, &f.sig)], None);
            let start = Instant::now();
            let results = verify_batch(verifier.as_ref(), &items, Some((table, BLOCK_BUDGET)));
            let wall_ns = start.elapsed().as_nanos() as f64;
            let valid = results.map_or(0, |r| r.iter().filter(|v| **v == Ok(true)).count() as u64);
            blocks.push(Block {
                schema: SCHEMA.into(),
                target: "native".into(),
                run: run.into(),
                way: way.into(),
                suite: f.suite.clone(),
                signatures: count as u64,
                units,
                budget_units: BLOCK_BUDGET.min(count as u64 * units),
                threads,
                wall_ns,
                valid,
            });
        }
    }
    Ok(blocks)
}

/// One way of verifying the scenario's certificate: its verdicts.
type CertificateCall<'a> = Box<dyn Fn() -> Vec<bool> + 'a>;

/// The certificate scenario natively: for each set, one certificate of all its
/// validators' signatures, timed whole, on a rayon pool of 1, 2, 4, … up to `cores`
/// threads — the set prepared once (`pqverify-prepared`), keys decoded per signature
/// (`pqverify`), and liboqs one-shot on the same pool where it has the suite; only the
/// sets of `suites` where it names any (`run --suites`).
pub(crate) fn certificates(
    fixtures: &CertificateFixtures,
    suites: &[String],
    env: &Env,
    cores: u32,
    budget: CertificateBudget,
    liboqs: &Arc<Liboqs>,
) -> Result<Vec<Certificate>, String> {
    let mut out = Vec::new();
    // Only the run's suites, where `--suites` names them.
    let sets = fixtures
        .sets
        .iter()
        .filter(|set| suites.is_empty() || suites.iter().any(|s| s.eq_ignore_ascii_case(&set.suite)));
    for set in sets {
        let suite: Suite = set.suite.parse().map_err(|e| format!("certificate fixtures: {e}"))?;
        let message = Message::pure(&set.message, b"");
        let signed: Vec<(usize, &[u8])> = set.signatures.iter().map(Vec::as_slice).enumerate().collect();
        let pairs: Vec<(&[u8], &[u8])> =
            set.keys.iter().zip(&set.signatures).map(|(k, s)| (k.as_slice(), s.as_slice())).collect();
        for threads in pqverify_bench::thread_counts(cores) {
            let pool =
                rayon::ThreadPoolBuilder::new().num_threads(threads as usize).build().map_err(|e| e.to_string())?;
            let prepared = ValidatorSet::prepare(suite, &set.keys, Some(&pool)).map_err(|e| e.to_string())?;
            let mut ways: Vec<(&str, CertificateCall<'_>)> = vec![
                (
                    "pqverify-prepared",
                    Box::new(|| {
                        prepared.verify_certificate(message, &signed, Some(&pool)).map_or_else(|_| Vec::new(), |v| v.0)
                    }),
                ),
                (
                    "pqverify",
                    Box::new(|| {
                        verify_one_shot(suite, message, &pairs, Some(&pool)).map_or_else(|_| Vec::new(), |v| v.0)
                    }),
                ),
            ];
            if liboqs.supports(suite, Interface::Pure) {
                ways.push((
                    "liboqs",
                    Box::new(|| {
                        pool.install(|| {
                            use rayon::prelude::*;
                            pairs
                                .par_iter()
                                .map(|&(public_key, signature)| {
                                    let request = Request { suite, public_key, message, signature };
                                    liboqs.verdict(&request) == Ok(true)
                                })
                                .collect()
                        })
                    }),
                ));
            }
            for (way, verify) in &ways {
                let mut measured = CertificateTimes::default();
                // One certificate unmeasured: first use of the pool's threads and caches.
                let _ = verify();
                while budget.more(&measured.times) {
                    let start = Instant::now();
                    let verdicts = verify();
                    measured.times.push(start.elapsed().as_nanos() as f64);
                    if verdicts.len() != set.keys.len() || verdicts.iter().any(|v| !v) {
                        measured.wrong += 1;
                    }
                }
                out.push(certificate_record(env, way, &set.suite, set.keys.len(), threads, measured));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_named_by_vendor_family_model_and_its_kernel_flags() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n\
                    model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse2 avx2 bmi2 avx512f sha_ni ht\n\n\
                    processor\t: 1\nvendor_id\t: Other\n";
        assert_eq!(cpuinfo_field(text, "model name"), Some("AMD EPYC"));
        assert_eq!(cpuinfo_field(text, "model"), Some("17"));
        let (id, flags) = cpu_identity(text).expect("all fields present");
        assert_eq!(id, "AuthenticAMD family 25 model 17 stepping 1");
        assert_eq!(flags, "avx2 bmi2 avx512f sha_ni");
        assert_eq!(cpu_identity("processor\t: 0\n"), None);
    }
}
