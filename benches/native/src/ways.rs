//! The benchmark suite's native ways and environment, the worst-case block measured
//! through the parallel batch, and the quorum-certificate scenario.

use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use pqverify_bench::certificates::{CertificateBudget, CertificateFixtures, CertificateTimes, certificate_record};
use pqverify_bench::report::BLOCK_BUDGET;
use pqverify_bench::{Block, Bound, Certificate, Clock, Env, Fixtures, LiboqsInfo, SCHEMA, SuiteFixture, Way};
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

/// pqverify one-shot with the portable kernels forced (`pqverify_core::force_portable`)
/// while this way is measured, so SIMD and portable code are compared in one run.
pub(crate) struct PortableWay;

/// Restores the kernel setting it found when dropped (so that a process run with
/// `PQVERIFY_FORCE_PORTABLE=1` stays portable for every way).
struct PortableGuard {
    was_portable: bool,
}

impl PortableGuard {
    fn new() -> Self {
        PortableGuard { was_portable: pqverify_core::force_portable(true) }
    }
}

impl Drop for PortableGuard {
    fn drop(&mut self) {
        pqverify_core::force_portable(self.was_portable);
    }
}

impl Way for PortableWay {
    fn name(&self) -> String {
        "pqverify-portable".into()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let suite = suite_of(f)?;
        let guard = PortableGuard::new();
        Some(Box::new(move || {
            let _portable = &guard;
            match pqverify_core::verify(suite, &f.public_key, Message::pure(msg, b""), sig) {
                Ok(()) => Ok(true),
                Err(e) if e.is_rejection() => Ok(false),
                Err(e) => Err(e.to_string()),
            }
        }))
    }
}

/// The dual verifier the benchmark and the block use: liboqs (else the reference)
/// as primary, pqverify with a prepared-key cache as secondary; in enforce mode the
/// secondary audits one in `audit_every` rejections (1 all, the CLI's default; 0 none).
pub(crate) fn dual(
    liboqs: &Arc<Liboqs>,
    mode: Mode,
    audit_every: u64,
    sink: Arc<dyn DisagreementSink>,
) -> Arc<DualVerifier> {
    Arc::new(
        DualVerifier::new(vec![liboqs.clone(), Arc::new(Reference)], Arc::new(Pqverify::with_cache(1024)), mode, sink)
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

/// The native ways, in record order: liboqs, reference, pqverify, pqverify-portable,
/// pqverify-prepared, dual-enforce (auditing every rejection), dual-enforce-unaudited,
/// dual-shadow; `liboqs` is the library measured and used as primary.
pub(crate) fn native_ways(liboqs: &Arc<Liboqs>, sink: &Arc<dyn DisagreementSink>) -> Vec<Box<dyn Way>> {
    let single = |name: &str, backend: Arc<dyn Backend>| -> Box<dyn Way> {
        Box::new(VerifierWay {
            name: name.into(),
            verifier: Box::new(Single(backend.clone())),
            backend: Some(backend),
            dual: None,
        })
    };
    let dual_way = |mode: Mode, audit_every: u64, name: &str| -> Box<dyn Way> {
        let d = dual(liboqs, mode, audit_every, sink.clone());
        Box::new(VerifierWay { name: name.into(), verifier: Box::new(Shared(d.clone())), backend: None, dual: Some(d) })
    };
    vec![
        single("liboqs", liboqs.clone()),
        single("reference", Arc::new(Reference)),
        single("pqverify", Arc::new(Pqverify::one_shot())),
        Box::new(PortableWay),
        Box::new(PreparedWay),
        dual_way(Mode::Enforce, 1, "dual-enforce"),
        dual_way(Mode::Enforce, 0, "dual-enforce-unaudited"),
        dual_way(Mode::Shadow, 1, "dual-shadow"),
    ]
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

/// The native environment record (fixtures digest and ways are filled in by the run).
pub(crate) fn native_env(run: &str, liboqs: &Liboqs) -> Env {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|s| s.trim().to_owned())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_owned());
    let os_name = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_owned())))
        .unwrap_or_else(|| std::env::consts::OS.to_owned());
    let kernel = read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default();
    let info = liboqs.info();
    let mut extra = serde_json::Map::new();
    extra.insert("pqverify".into(), env!("CARGO_PKG_VERSION").into());
    extra.insert("host".into(), read_trimmed("/proc/sys/kernel/hostname").unwrap_or_default().into());
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    extra.insert("time".into(), pqverify_bench::record::utc_timestamp(now).into());
    extra.insert("reference".into(), Reference.version().into());
    extra.insert("liboqs_suites".into(), info.suites.clone().into());
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

/// Verifies, for each suite, a block of its valid fixture signature filling the
/// Verify-Unit budget, through the parallel batch on all cores with dual-enforce.
pub(crate) fn worst_case_blocks(
    fixtures: &Fixtures,
    suites: &[String],
    table: &UnitTable,
    run: &str,
    liboqs: &Arc<Liboqs>,
    sink: &Arc<dyn DisagreementSink>,
) -> Vec<Block> {
    let verifier = dual(liboqs, Mode::Enforce, 1, sink.clone());
    let threads = rayon::current_num_threads() as u32;
    let mut blocks = Vec::new();
    for f in
        fixtures.suites.iter().filter(|f| suites.is_empty() || suites.iter().any(|s| s.eq_ignore_ascii_case(&f.suite)))
    {
        let Some(suite) = suite_of(f) else { continue };
        let units = table.cost(suite, f.msg.len());
        let count = BLOCK_BUDGET / units.max(1);
        let item = Item {
            suite,
            public_key: f.public_key.clone(),
            message: OwnedMessage::Pure { msg: f.msg.clone(), ctx: Vec::new() },
            signature: f.sig.clone(),
        };
        let items = vec![item; count as usize];
        // One warm-up item so the block measures verification, not first-use set-up.
        let _ = verify_batch(verifier.as_ref(), &items[..1], None);
        let start = Instant::now();
        let results = verify_batch(verifier.as_ref(), &items, Some((table, BLOCK_BUDGET)));
        let wall_ns = start.elapsed().as_nanos() as f64;
        let valid = results.map_or(0, |r| r.iter().filter(|v| **v == Ok(true)).count() as u64);
        blocks.push(Block {
            schema: SCHEMA.into(),
            target: "native".into(),
            run: run.into(),
            way: "dual-enforce".into(),
            suite: f.suite.clone(),
            signatures: count,
            units,
            budget_units: BLOCK_BUDGET,
            threads,
            wall_ns,
            valid,
        });
    }
    blocks
}

/// One way of verifying the scenario's certificate: its verdicts.
type CertificateCall<'a> = Box<dyn Fn() -> Vec<bool> + 'a>;

/// The certificate scenario natively: for each set, one certificate of all its
/// validators' signatures, timed whole, on a rayon pool of 1, 2, 4, … up to `cores`
/// threads — the set prepared once (`pqverify-prepared`), keys decoded per signature
/// (`pqverify`), and liboqs one-shot on the same pool where it has the suite.
pub(crate) fn certificates(
    fixtures: &CertificateFixtures,
    env: &Env,
    cores: u32,
    budget: CertificateBudget,
    liboqs: &Arc<Liboqs>,
) -> Result<Vec<Certificate>, String> {
    let mut out = Vec::new();
    for set in &fixtures.sets {
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
