//! Replays the committed fuzz corpora of the `batch_line` and `public_key` targets on stable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

#[path = "../../fuzz/batch_harness.rs"]
mod batch_harness;
#[path = "../../fuzz/key_harness.rs"]
mod key_harness;

#[test]
fn batch_line_corpus_replays_without_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/batch_line");
    let replayed = pqverify_testkit::corpus::replay(&dir, batch_harness::batch_line).unwrap();
    println!("fuzz corpus (batch_line): {replayed} inputs replayed");
    assert!(replayed > 20, "the corpus is missing");
}

#[test]
fn public_key_corpus_replays_without_panics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus/public_key");
    let replayed = pqverify_testkit::corpus::replay(&dir, key_harness::public_key_any).unwrap();
    println!("fuzz corpus (public_key): {replayed} inputs replayed");
    assert!(replayed >= 15, "the corpus is missing");
}
