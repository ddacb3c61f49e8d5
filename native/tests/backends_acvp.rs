//! Every ACVP case through every backend that supports its suite and interface, and
//! through the dual verifier in both modes: the expected verdict every time, and no
//! disagreement.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

mod common;

use std::sync::Arc;

use pqverify_native::backend::{Backend, Liboqs, Pqverify, Reference};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::sink::JsonLines;
use pqverify_native::{OneBackend, Verifier};

#[test]
fn every_backend_gives_the_expected_verdict() {
    let cases = common::acvp_cases();
    let liboqs = Arc::new(Liboqs::new());
    println!("liboqs {} (AVX2 {}), suites: {:?}", liboqs.info().version, liboqs.info().avx2, liboqs.info().suites);
    let backends: Vec<Arc<dyn Backend>> =
        vec![Arc::new(Pqverify::one_shot()), Arc::new(Pqverify::with_cache(8)), liboqs.clone(), Arc::new(Reference)];
    for backend in backends {
        let single = OneBackend(backend.clone());
        let (mut ran, mut passed) = (0, 0);
        for case in &cases {
            let item = common::item_of(case);
            let r = item.request().unwrap();
            if !backend.supports(r.suite(), r.interface()) {
                continue;
            }
            ran += 1;
            match single.decide(&r) {
                Ok(v) if v == case.expected => passed += 1,
                other => eprintln!(
                    "{} tcId {} ({}): expected {}, got {other:?}",
                    backend.name(),
                    case.tc_id,
                    case.suite,
                    case.expected
                ),
            }
        }
        pqverify_testkit::report::count(&format!("backend {}", backend.name()), passed, ran).unwrap();
        assert!(ran > 0, "{} ran no case", backend.name());
        assert_eq!(passed, ran, "{}", backend.name());
    }
    // liboqs 0.13 has ML-DSA pure: 45 cases at least.
    assert!(liboqs.info().suites.iter().any(|s| s == "ML-DSA-44"));
}

#[test]
fn dual_verifier_agrees_on_every_case() {
    let cases = common::acvp_cases();
    for mode in [Mode::Enforce, Mode::Shadow] {
        let sink = Arc::new(JsonLines::new(Vec::new()));
        let dual = DualVerifier::new(
            vec![Arc::new(Liboqs::new()), Arc::new(Reference)],
            Arc::new(Pqverify::with_cache(64)),
            mode,
            sink.clone(),
        );
        let mut passed = 0;
        for case in &cases {
            let item = common::item_of(case);
            let d = dual.check(&item.request().unwrap()).unwrap();
            // liboqs is primary exactly where it has the suite and interface.
            let expected_primary =
                if case.suite.starts_with("ML-DSA") && case.interface == pqverify_kats::Interface::Pure {
                    "liboqs"
                } else {
                    "rustcrypto"
                };
            assert_eq!(d.primary.0, expected_primary, "tcId {}", case.tc_id);
            if d.valid == case.expected {
                passed += 1;
            }
        }
        println!("dual-{}: {} disagreements", mode.name(), dual.disagreements());
        pqverify_testkit::report::count(&format!("dual-{}", mode.name()), passed, cases.len()).unwrap();
        assert_eq!(passed, cases.len());
        assert_eq!(dual.disagreements(), 0);
        assert_eq!(dual.faults(), 0);
    }
}
