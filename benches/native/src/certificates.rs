//! The quorum-certificate scenario natively: whole certificates on 1 … all cores.

use std::sync::Arc;
use std::time::Instant;

use pqverify_bench::certificates::{CertificateBudget, CertificateFixtures, CertificateTimes, certificate_record};
use pqverify_bench::{Certificate, Env};
use pqverify_core::{Message, PublicKey, Suite};
use pqverify_native::backend::{Backend, Interface, Liboqs, Request};
use pqverify_native::certificate::{ValidatorSet, verify_one_shot};

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
                                .map(|&(key, signature)| {
                                    PublicKey::from_raw(suite, key).is_ok_and(|public_key| {
                                        liboqs.verdict(&Request { public_key, message, signature }) == Ok(true)
                                    })
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
