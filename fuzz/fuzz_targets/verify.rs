//! Every verify entry point (all suites and interfaces, one-shot and prepared) on
//! arbitrary keys, messages, contexts and signatures.
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::verify_any(data));
