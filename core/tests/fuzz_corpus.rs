//! Replays the committed fuzz corpus of the `verify` target on stable, as ordinary
//! tests: CI checks every corpus input without nightly or libFuzzer.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

#[path = "../../fuzz/harness.rs"]
mod harness;

#[test]
fn verify_corpus_replays_without_panics() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../fuzz/corpus/verify");
    let mut replayed = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let data = std::fs::read(entry.unwrap().path()).unwrap();
        harness::verify_any(&data);
        // Truncations of each input reach the length checks and early returns.
        for cut in [0, 1, 5, data.len() / 2] {
            harness::verify_any(&data[..cut.min(data.len())]);
        }
        replayed += 1;
    }
    println!("fuzz corpus (verify): {replayed} inputs replayed");
    assert!(replayed > 100, "the corpus is missing");
}
