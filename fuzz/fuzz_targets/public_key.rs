//! The public-key decoders (SubjectPublicKeyInfo DER, PEM, raw) on arbitrary bytes.
#![no_main]

#[path = "../key_harness.rs"]
mod key_harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| key_harness::public_key_any(data));
