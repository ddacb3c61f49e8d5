//! Replays the committed fuzz corpus of the `batch_line` target on stable.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

#[path = "../../fuzz/batch_harness.rs"]
mod batch_harness;

#[test]
fn batch_line_corpus_replays_without_panics() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus/batch_line");
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        batch_harness::batch_line(&data);
        for cut in [1, data.len() / 3, data.len().saturating_sub(1)] {
            batch_harness::batch_line(&data[..cut.min(data.len())]);
        }
        replayed += 1;
    }
    println!("fuzz corpus (batch_line): {replayed} inputs replayed");
    assert!(replayed > 20, "the corpus is missing");
}
