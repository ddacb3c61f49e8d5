//! The C2SP CCTV accumulated ML-DSA test (`pqverify_testkit::cctv`) natively: the
//! testkit's signer gives the published digests for N = 100 and N = 10 000, and
//! pqverify accepts every one of those 30 000 signatures on every kernel set this
//! machine has. Its own binary: it flips the process-wide kernel switch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

use pqverify_core::{Message, PublicKey, available_kernels, force_kernels, kernels, verify};
use pqverify_testkit::cctv;

/// The variable that shortens the run to the first 100 signatures (their published
/// digest checked, not the 10 000's): `cargo xtask test` sets it under emulation, where
/// the testkit's signing of 30 000 signatures takes minutes; natively it is unset.
const ITERATIONS_ENV: &str = "PQVERIFY_CCTV_ITERATIONS";

#[test]
fn the_accumulated_signatures_give_the_published_digests_and_all_verify() {
    let n = match std::env::var(ITERATIONS_ENV).as_deref() {
        Ok("100") => 100,
        Ok("") | Err(_) => 10_000,
        Ok(other) => panic!("{ITERATIONS_ENV}={other}: 100, or unset for 10 000"),
    };
    for (suite, at_100, at_10k) in cctv::DIGESTS {
        let mut rejected = Vec::new();
        let mut sets = Vec::new();
        let digests = cctv::accumulate(suite, n, |i, public_key, signature| {
            for &set in available_kernels() {
                force_kernels(Some(set)).unwrap();
                if i == 0 {
                    sets.push(kernels());
                }
                if PublicKey::from_raw(suite, public_key)
                    .and_then(|key| verify(key, Message::pure(b"", b""), signature))
                    .is_err()
                {
                    rejected.push((i, kernels()));
                }
            }
        });
        force_kernels(None).unwrap();
        let expected = if n == 100 { at_100 } else { at_10k };
        assert_eq!(digests, (Some(at_100.to_owned()), expected.to_owned()), "{suite}: the signer is not FIPS 204's");
        println!("{suite}: {n} signatures, kernel sets {}", sets.join(" and "));
        // Every signature on every kernel set: n verifies each, all of which must accept.
        let verifies = n * sets.len();
        pqverify_testkit::report::count(&format!("CCTV accumulated {suite}"), verifies - rejected.len(), verifies)
            .unwrap();
        assert_eq!(rejected, [], "{suite}: pqverify rejected valid signatures (iteration, kernels)");
    }
}
