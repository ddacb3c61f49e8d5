//! The C2SP CCTV accumulated ML-DSA test (`pqverify_testkit::cctv`) natively: the
//! testkit's signer gives the published digests for N = 100 and N = 10 000, and
//! pqverify accepts every one of those 30 000 signatures on every kernel set this
//! machine has. Its own binary: it flips the process-wide portable switch.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

use pqverify_core::{Message, force_portable, kernels, verify};
use pqverify_testkit::cctv;

#[test]
fn the_accumulated_signatures_give_the_published_digests_and_all_verify() {
    for (suite, at_100, at_10k) in cctv::DIGESTS {
        let mut rejected = Vec::new();
        let mut sets = Vec::new();
        let digests = cctv::accumulate(suite, 10_000, |i, public_key, signature| {
            for portable in [true, false] {
                force_portable(portable);
                if i == 0 {
                    sets.push(kernels());
                }
                if verify(suite, public_key, Message::pure(b"", b""), signature).is_err() {
                    rejected.push((i, kernels()));
                }
            }
        });
        force_portable(false);
        assert_eq!(digests, (Some(at_100.to_owned()), at_10k.to_owned()), "{suite}: the signer is not FIPS 204's");
        println!("{suite}: kernel sets {}", sets.join(" and "));
        // Every signature on both kernel sets: 20 000 verifies, all of which must accept.
        pqverify_testkit::report::count(&format!("CCTV accumulated {suite}"), 20_000 - rejected.len(), 20_000).unwrap();
        assert_eq!(rejected, [], "{suite}: pqverify rejected valid signatures (iteration, kernels)");
    }
}
