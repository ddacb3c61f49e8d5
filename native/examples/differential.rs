//! The differential campaign: valid signatures from independent signers (`fips204`,
//! `fips205`) for all 15 suites, mutated in every region, verified by pqverify (every
//! kernel set it has here), liboqs (where it has the suite) and the RustCrypto
//! reference. Any disagreement is written out as a reproducible JSON case and fails
//! the run.
//!
//! `cargo run --release -p pqverify-native --example differential -- --count N [--seed S] [--out DIR] [--portable]`
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a campaign driver; failures must stop it")]

use pqverify_native::backend::Fault;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use pqverify_core::{Message, Suite};
use pqverify_native::backend::{Backend, Liboqs, Reference, Request};
use pqverify_testkit::{KeyPair, KeySeed, Rng};
use rayon::prelude::*;

/// A valid (pure) signature: key, message, context, signature; plus a second key.
struct Signed {
    pk: Vec<u8>,
    other_pk: Vec<u8>,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    sig: Vec<u8>,
}

/// A verifier's answer: `valid`, `invalid`, or `error: …` — an error is never taken
/// for a rejection, so an erroring verifier shows up as a disagreement.
fn core_outcome(r: Result<(), pqverify_core::Error>) -> String {
    match r {
        Ok(()) => "valid".into(),
        Err(e) if e.is_rejection() => "invalid".into(),
        Err(e) => format!("error: {e}"),
    }
}

/// As [`core_outcome`], for a backend.
fn backend_outcome(r: Result<bool, Fault>) -> String {
    match r {
        Ok(true) => "valid".into(),
        Ok(false) => "invalid".into(),
        Err(e) => format!("error: {e}"),
    }
}

/// The outcome of every backend that has the request's suite and interface.
fn backend_verdicts(backends: &[&Arc<dyn Backend>], request: &Request<'_>) -> Vec<(String, String)> {
    backends
        .iter()
        .filter(|b| b.supports(request.suite, request.interface()))
        .map(|b| (b.name().to_owned(), backend_outcome(b.verdict(request))))
        .collect()
}

/// Whether any two outcomes differ (an error differs from both verdicts).
fn disagree(verdicts: &[(String, String)]) -> bool {
    verdicts.iter().any(|v| v.1 != verdicts[0].1)
}

fn sign(suite: Suite, rng: &mut Rng) -> Signed {
    let msg = rng.bytes(rng.clone().below(128));
    let ctx = rng.bytes(rng.clone().below(40));
    let pair = KeyPair::new(suite, &KeySeed::draw(suite, rng));
    let other = KeyPair::new(suite, &KeySeed::draw(suite, rng));
    let sig = pair.sign(&msg, &ctx, &rng.array());
    Signed { pk: pair.public_key().to_vec(), other_pk: other.public_key().to_vec(), msg, ctx, sig }
}

/// (region start, region end) of the signature parts, for region-aimed bit flips.
fn regions(suite: Suite) -> Vec<(&'static str, usize, usize)> {
    let len = suite.signature_len();
    match suite {
        Suite::MlDsa44 | Suite::MlDsa65 | Suite::MlDsa87 => {
            let (c, zpoly, l, omega, k) = match suite {
                Suite::MlDsa44 => (32, 576, 4, 80, 4),
                Suite::MlDsa65 => (48, 640, 5, 55, 6),
                _ => (64, 640, 7, 75, 8),
            };
            vec![
                ("c-tilde", 0, c),
                ("z", c, c + l * zpoly),
                ("hint-indices", c + l * zpoly, len - k),
                ("hint-counts", len - k, len),
            ]
            .into_iter()
            .map(|(n, a, b)| (n, a, b.max(a + 1).min(len)))
            .chain(std::iter::once(("hint-all", c + l * zpoly, len)).take(if omega > 0 { 1 } else { 0 }))
            .collect()
        }
        _ => {
            let n = suite.public_key_len() / 2;
            // R, then SIG_FORS (k(1+a)n), then the hypertree (d XMSS signatures).
            let (k, a) = match suite {
                Suite::SlhDsaSha2_128s | Suite::SlhDsaShake128s => (14, 12),
                Suite::SlhDsaSha2_128f | Suite::SlhDsaShake128f => (33, 6),
                Suite::SlhDsaSha2_192s | Suite::SlhDsaShake192s => (17, 14),
                Suite::SlhDsaSha2_192f | Suite::SlhDsaShake192f => (33, 8),
                Suite::SlhDsaSha2_256s | Suite::SlhDsaShake256s => (22, 14),
                _ => (35, 9),
            };
            let fors_end = n + k * (1 + a) * n;
            vec![
                ("R", 0, n),
                ("FORS", n, fors_end),
                ("WOTS-and-auth", fors_end, len),
                ("last-layer", len - len / 8, len),
            ]
        }
    }
}

/// One mutated request: what was done, and the bytes.
struct Case {
    kind: String,
    pk: Vec<u8>,
    msg: Vec<u8>,
    ctx: Vec<u8>,
    sig: Vec<u8>,
}

fn mutate(suite: Suite, s: &Signed, rng: &mut Rng) -> Case {
    let mut c =
        Case { kind: String::new(), pk: s.pk.clone(), msg: s.msg.clone(), ctx: s.ctx.clone(), sig: s.sig.clone() };
    let regions = regions(suite);
    match rng.below(12) {
        0 => c.kind = "valid".into(),
        1..=5 => {
            let (name, a, b) = regions[rng.below(regions.len())];
            let bit = a * 8 + rng.below((b - a) * 8);
            c.sig[bit / 8] ^= 1 << (bit % 8);
            c.kind = format!("flip-{name}");
        }
        6 => {
            let cut = 1 + rng.below(8);
            c.sig.truncate(c.sig.len() - cut);
            c.kind = "truncate".into();
        }
        7 => {
            c.sig.extend(rng.bytes(1 + rng.clone().below(8)));
            c.kind = "extend".into();
        }
        8 if suite.family() == pqverify_core::Family::MlDsa => {
            // z pushed to the norm bound: the first z coefficient set to γ1 − β (or −(γ1 − β)).
            let (c_len, bits, gamma1, beta): (usize, usize, i64, i64) = match suite {
                Suite::MlDsa44 => (32, 18, 1 << 17, 78),
                Suite::MlDsa65 => (48, 20, 1 << 19, 196),
                _ => (64, 20, 1 << 19, 120),
            };
            let z = if rng.below(2) == 0 { gamma1 - beta } else { -(gamma1 - beta) };
            let v = (gamma1 - z) as u32;
            for b in 0..bits {
                let pos = c_len * 8 + b;
                let bit = ((v >> b) & 1) as u8;
                c.sig[pos / 8] = (c.sig[pos / 8] & !(1 << (pos % 8))) | (bit << (pos % 8));
            }
            c.kind = "z-at-bound".into();
        }
        8 => {
            // SLH-DSA: a whole n-byte node replaced.
            let n = suite.public_key_len() / 2;
            let at = rng.below(c.sig.len() / n) * n;
            c.sig[at..at + n].copy_from_slice(&rng.bytes(n));
            c.kind = "node-replaced".into();
        }
        9 if suite.family() == pqverify_core::Family::MlDsa => {
            // A non-canonical hint list: a count made to decrease, or an index repeated.
            let k = match suite {
                Suite::MlDsa44 => 4,
                Suite::MlDsa65 => 6,
                _ => 8,
            };
            let len = c.sig.len();
            let i = rng.below(k - 1);
            c.sig[len - k + i] = c.sig[len - k + i + 1].wrapping_add(1);
            c.kind = "hint-non-canonical".into();
        }
        9 => {
            c.msg.push(rng.next_u64() as u8);
            c.kind = "message-extended".into();
        }
        10 => {
            c.ctx = rng.bytes(rng.clone().below(20) + 1);
            c.kind = "wrong-context".into();
        }
        _ => {
            c.pk = s.other_pk.clone();
            c.kind = "other-key".into();
        }
    }
    c
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let count: u64 = opt("--count").and_then(|v| v.parse().ok()).unwrap_or(10_000);
    let seed: u64 = opt("--seed").and_then(|v| v.parse().ok()).unwrap_or(1);
    let out = std::path::PathBuf::from(opt("--out").unwrap_or_else(|| "target/differential".into()));
    std::fs::create_dir_all(&out).unwrap();
    let liboqs: Arc<dyn Backend> = Arc::new(Liboqs::new());
    let reference: Arc<dyn Backend> = Arc::new(Reference);
    // Cases per signature: SLH-DSA signing is slow, so each of its signatures is mutated more.
    let per_signature = |s: Suite| if s.family() == pqverify_core::Family::MlDsa { 64 } else { 512 };
    let per_suite = count.div_ceil(Suite::ALL.len() as u64);
    let disagreements = AtomicU64::new(0);
    let kinds = std::sync::Mutex::new(BTreeMap::<(String, String), u64>::new());
    let started = std::time::Instant::now();
    // The kernel switch is process-wide: --portable runs the whole campaign on the portable code.
    if args.iter().any(|a| a == "--portable") {
        pqverify_core::force_portable(true);
    }
    let kernels = pqverify_core::kernels();
    Suite::ALL.par_iter().for_each(|&suite| {
        let mut rng = Rng(seed ^ (suite as u64).wrapping_mul(0x1000_0001));
        let mut done = 0u64;
        while done < per_suite {
            let signed = sign(suite, &mut rng);
            for _ in 0..per_signature(suite).min(per_suite - done) {
                let case = mutate(suite, &signed, &mut rng);
                done += 1;
                let request = Request {
                    suite,
                    public_key: &case.pk,
                    message: Message::pure(&case.msg, &case.ctx),
                    signature: &case.sig,
                };
                let one_shot = core_outcome(pqverify_core::verify(suite, &case.pk, request.message, &case.sig));
                let prepared = core_outcome(
                    pqverify_core::PreparedKey::new(suite, &case.pk).and_then(|k| k.verify(request.message, &case.sig)),
                );
                let mut verdicts = vec![("pqverify".to_owned(), one_shot), ("pqverify-prepared".to_owned(), prepared)];
                verdicts.extend(backend_verdicts(&[&liboqs, &reference], &request));
                *kinds.lock().unwrap().entry((suite.name().to_owned(), case.kind.clone())).or_default() += 1;
                if disagree(&verdicts) {
                    let n = disagreements.fetch_add(1, Ordering::Relaxed);
                    let record = serde_json::json!({
                        "suite": suite.name(), "mutation": case.kind, "verdicts": verdicts,
                        "pk": hex::encode(&case.pk), "msg": hex::encode(&case.msg), "ctx": hex::encode(&case.ctx),
                        "sig": hex::encode(&case.sig),
                    });
                    std::fs::write(out.join(format!("disagreement-{n}.json")), record.to_string()).unwrap();
                }
            }
        }
    });
    let kinds = kinds.into_inner().unwrap();
    let total: u64 = kinds.values().sum();
    let mut summary = std::io::stdout().lock();
    writeln!(summary, "differential: {total} cases, seed {seed}, {:.0} s", started.elapsed().as_secs_f64()).unwrap();
    let mut per_suite_totals: BTreeMap<&str, u64> = BTreeMap::new();
    let mut per_kind: BTreeMap<&str, u64> = BTreeMap::new();
    for ((suite, kind), n) in &kinds {
        *per_suite_totals.entry(suite).or_default() += n;
        *per_kind.entry(kind).or_default() += n;
    }
    writeln!(summary, "per suite: {per_suite_totals:?}").unwrap();
    writeln!(summary, "per mutation: {per_kind:?}").unwrap();
    let d = disagreements.load(Ordering::Relaxed);
    writeln!(
        summary,
        "differential: {d} disagreements (pqverify kernels {kernels}, one-shot and prepared; liboqs {}; rustcrypto)",
        Liboqs::new().version()
    )
    .unwrap();
    if d > 0 {
        eprintln!("differential: disagreements written to {}", out.display());
        std::process::exit(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pqverify_native::backend::{Interface, Pqverify};

    /// A backend that fails on every request.
    struct Erroring;

    impl Backend for Erroring {
        fn name(&self) -> &'static str {
            "erroring"
        }
        fn version(&self) -> String {
            "0".into()
        }
        fn supports(&self, _: Suite, _: Interface) -> bool {
            true
        }
        fn verdict(&self, _: &Request<'_>) -> Result<bool, Fault> {
            Err(Fault::Failed("out of memory".into()))
        }
    }

    #[test]
    fn an_erroring_backend_is_a_disagreement_on_valid_and_invalid_signatures() {
        let suite = Suite::MlDsa44;
        let signed = sign(suite, &mut Rng(3));
        let pqverify: Arc<dyn Backend> = Arc::new(Pqverify::one_shot());
        let erroring: Arc<dyn Backend> = Arc::new(Erroring);
        let mut bad_sig = signed.sig.clone();
        bad_sig[7] ^= 1;
        for (sig, expected) in [(&signed.sig, "valid"), (&bad_sig, "invalid")] {
            let request = Request {
                suite,
                public_key: &signed.pk,
                message: Message::pure(&signed.msg, &signed.ctx),
                signature: sig,
            };
            let verdicts = backend_verdicts(&[&pqverify, &erroring], &request);
            assert_eq!(verdicts[0].1, expected);
            assert_eq!(verdicts[1].1, "error: out of memory");
            assert!(disagree(&verdicts), "{verdicts:?}");
            let agreeing = backend_verdicts(&[&pqverify, &pqverify], &request);
            assert!(!disagree(&agreeing));
        }
    }
}
