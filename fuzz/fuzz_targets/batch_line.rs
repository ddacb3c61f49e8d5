//! The `pqverify batch` line parser and verifier on arbitrary lines: an answer for
//! every line, never a panic.
#![no_main]

#[path = "../batch_harness.rs"]
mod batch_harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| batch_harness::batch_line(data));
