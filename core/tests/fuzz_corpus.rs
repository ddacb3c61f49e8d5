//! Replays the committed fuzz corpus of the `verify` target on stable, as ordinary
//! tests: CI checks every corpus input without nightly or libFuzzer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

#[path = "../../fuzz/harness.rs"]
mod harness;

#[test]
fn verify_corpus_replays_without_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/verify");
    let replayed = pqverify_testkit::corpus::replay(&dir, harness::verify_any).unwrap();
    println!("fuzz corpus (verify): {replayed} inputs replayed");
    assert!(replayed > 100, "the corpus is missing");
}
