//! Every NIST ACVP sigVer case, one-shot and through a prepared key.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

mod common;

use common::{message_of, suite_of};
use pqverify_core::{PreparedKey, PublicKey, verify};
use pqverify_kats::Case;

/// Runs every case both ways; returns how many agreed with the expected verdict.
fn run(cases: &[Case]) -> usize {
    let mut passed = 0;
    for case in cases {
        let suite = suite_of(case);
        let message = message_of(case);
        let one_shot =
            PublicKey::from_raw(suite, &case.public_key).and_then(|key| verify(key, message, &case.signature));
        let prepared = PublicKey::from_raw(suite, &case.public_key)
            .and_then(PreparedKey::new)
            .and_then(|key| key.verify(message, &case.signature));
        assert_eq!(one_shot, prepared, "tcId {}: prepared and one-shot disagree", case.tc_id);
        if let Err(e) = &one_shot {
            assert!(e.is_rejection(), "tcId {}: input error on a well-formed case: {e}", case.tc_id);
        }
        if one_shot.is_ok() == case.expected {
            passed += 1;
        } else {
            eprintln!(
                "tcId {} ({} {}): expected {}, got {:?}",
                case.tc_id,
                case.suite,
                case.interface.name(),
                case.expected,
                one_shot
            );
        }
    }
    passed
}

#[test]
fn ml_dsa_acvp_sigver() {
    let cases = pqverify_kats::ml_dsa_sigver().expect("ML-DSA vectors load");
    assert_eq!(cases.len(), 180, "the file holds 180 cases");
    let passed = run(&cases);
    pqverify_testkit::report::count("ML-DSA ACVP sigVer", passed, cases.len()).unwrap();
    assert_eq!(passed, cases.len());
}

#[test]
fn slh_dsa_acvp_sigver() {
    let cases = pqverify_kats::slh_dsa_sigver().expect("SLH-DSA vectors load");
    assert_eq!(cases.len(), 504, "the file holds 504 cases");
    let passed = run(&cases);
    pqverify_testkit::report::count("SLH-DSA ACVP sigVer", passed, cases.len()).unwrap();
    assert_eq!(passed, cases.len());
}
