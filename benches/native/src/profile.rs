//! `pqverify-bench verify-loop` (hidden): one way's verifies of a fixture in a loop,
//! nothing else, for a profiler to count (`cargo xtask profile` runs it under callgrind
//! twice, with N and with 0 verifies, and keeps the difference).

use std::process::ExitCode;
use std::sync::Arc;

use pqverify_core::{Message, PreparedKey, PublicKey};
use pqverify_native::backend::{Backend, Liboqs, Request};

use pqverify_native::command::Failure::{self, BadInput};

/// The ways `verify-loop` runs.
pub(crate) const LOOP_WAYS: [&str; 3] = ["pqverify", "pqverify-prepared", "liboqs"];

/// Verifies the fixture's valid signature of `suite` `count` times through `way`
/// (`liboqs`: the library at `liboqs`, else the linked one); fails unless every verdict
/// is "valid".
pub(crate) fn verify_loop(
    way: &str,
    suite: &str,
    count: u64,
    liboqs: Option<Arc<Liboqs>>,
) -> Result<ExitCode, Failure> {
    let fixtures = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON).map_err(BadInput)?;
    let f = crate::run::fixture_for(&fixtures, suite)?;
    let s = crate::ways::suite_of(f).ok_or_else(|| BadInput(format!("--suite: {suite:?} is not a suite")))?;
    let message = Message::pure(&f.msg, b"");
    let mut valid = 0;
    match way {
        "pqverify" => {
            for _ in 0..count {
                valid += u64::from(
                    pqverify_core::PublicKey::from_raw(s, &f.public_key)
                        .and_then(|key| pqverify_core::verify(key, message, &f.sig))
                        .is_ok(),
                );
            }
        }
        "pqverify-prepared" => {
            let key = PublicKey::from_raw(s, &f.public_key)
                .and_then(PreparedKey::new)
                .map_err(|e| BadInput(e.to_string()))?;
            for _ in 0..count {
                valid += u64::from(key.verify(message, &f.sig).is_ok());
            }
        }
        "liboqs" => {
            let liboqs = liboqs.unwrap_or_else(|| Arc::new(Liboqs::new()));
            let public_key = PublicKey::from_raw(s, &f.public_key).map_err(|e| BadInput(e.to_string()))?;
            let request = Request { public_key, message, signature: &f.sig };
            for _ in 0..count {
                valid += u64::from(liboqs.verdict(&request) == Ok(true));
            }
        }
        other => return Err(BadInput(format!("--way {other:?}: one of {}", LOOP_WAYS.join(", ")))),
    }
    if valid != count {
        return Err(BadInput(format!("{way} {suite}: {valid} of {count} verdicts valid")));
    }
    Ok(ExitCode::SUCCESS)
}
