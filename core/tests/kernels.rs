//! Every ACVP case through every kernel set this machine has — the portable code and
//! the SIMD kernels (AVX2, and AVX-512 where the CPU has them), each forced in turn —
//! with identical verdicts, one-shot, with a prepared key, and all of them at once
//! through `PreparedKey::verify_each` (the same results, errors included). One test in its own binary, so flipping the process-wide switch cannot
//! race with other tests.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

mod common;

use common::{message_of, suite_of};
use pqverify_core::{PreparedKey, PublicKey, available_kernels, force_kernels, kernels, verify};

#[test]
fn all_kernels_give_the_same_verdicts() {
    let cases = pqverify_testkit::acvp::all_cases().unwrap();
    assert_eq!(cases.len(), 684);
    let mut runs = Vec::new();
    for &set in available_kernels().iter().rev() {
        force_kernels(Some(set)).unwrap();
        let name = kernels();
        assert_eq!(name, set);
        let keys: Vec<PreparedKey> = cases
            .iter()
            .map(|c| PublicKey::from_raw(suite_of(c), &c.public_key).and_then(PreparedKey::new).unwrap())
            .collect();
        let verdicts: Vec<bool> = cases
            .iter()
            .zip(&keys)
            .map(|(c, key)| {
                let (suite, message) = (suite_of(c), message_of(c));
                let one_shot = PublicKey::from_raw(suite, &c.public_key)
                    .and_then(|key| verify(key, message, &c.signature))
                    .is_ok();
                let prepared = key.verify(message, &c.signature).is_ok();
                assert_eq!(one_shot, prepared, "{name} tcId {}", c.tc_id);
                assert_eq!(one_shot, c.expected, "{name} tcId {} {}", c.tc_id, c.suite);
                one_shot
            })
            .collect();
        // All cases in one batch (suites, interfaces and verdicts mixed in every group).
        let requests: Vec<_> = cases.iter().zip(&keys).map(|(c, key)| (key, message_of(c), &c.signature[..])).collect();
        let each = PreparedKey::verify_each(&requests);
        for ((c, key), got) in cases.iter().zip(&keys).zip(&each) {
            assert_eq!(
                *got,
                key.verify(message_of(c), &c.signature),
                "{name} verify_each tcId {} {}",
                c.tc_id,
                c.suite
            );
        }
        let agreed = verdicts.iter().zip(&cases).filter(|(v, c)| **v == c.expected).count();
        pqverify_testkit::report::count(&format!("kernels {name}"), agreed, cases.len()).unwrap();
        runs.push((name, verdicts));
    }
    force_kernels(None).unwrap();
    assert_eq!(runs[0].0, "portable");
    // On x86-64 at least AVX2 beside it (every x86-64 server has it).
    assert!(cfg!(not(target_arch = "x86_64")) || runs.len() >= 2, "only {:?} here", available_kernels());
    for (name, verdicts) in &runs[1..] {
        assert_eq!(&runs[0].1, verdicts, "portable and {name} differ");
    }
}
