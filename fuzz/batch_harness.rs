// The batch-line harness, shared by the cargo-fuzz target and the corpus replay test.

use std::sync::{Arc, OnceLock};

use pqverify_native::backend::Pqverify;
use pqverify_native::{OneBackend, jsonl};

/// Parses and verifies one line; the line written always has `id` and a boolean
/// `valid`, and says what the tally counts.
pub(crate) fn batch_line(data: &[u8]) {
    static VERIFIER: OnceLock<OneBackend> = OnceLock::new();
    let verifier = VERIFIER.get_or_init(|| OneBackend(Arc::new(Pqverify::with_cache(16))));
    let line = String::from_utf8_lossy(data);
    let answered = jsonl::answer_line(verifier, &line);
    let tally = answered.tally();
    let answer: serde_json::Value = serde_json::from_str(&answered.to_string()).expect("the answer is JSON");
    assert!(answer.get("id").is_some(), "answer without id: {answer}");
    assert!(answer["valid"].is_boolean(), "answer without verdict: {answer}");
    assert_eq!(answer["valid"] == true, tally.valid, "the tally says otherwise: {answer}");
    assert_eq!(answer.get("error").is_some(), tally.error, "the tally says otherwise: {answer}");
    if answer.get("error").is_some() {
        assert_eq!(answer["valid"], false, "an error answer must be invalid");
    }
}
