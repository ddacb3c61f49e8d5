//! Differential test: pqverify vs liboqs vs the RustCrypto reference on valid and
//! mutated signatures for every suite each supports — zero disagreements.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

mod common;

use std::sync::Arc;

use common::Rng;
use pqverify_core::Suite;
use pqverify_native::backend::{Backend, Liboqs, Pqverify, Reference};
use pqverify_native::batch::{Item, OwnedMessage};
use pqverify_native::{OneBackend, Verifier};

/// Mutations of a valid (message, context, signature).
fn mutants(rng: &mut Rng, msg: &[u8], ctx: &[u8], sig: &[u8], count: usize) -> Vec<(Vec<u8>, Vec<u8>, Vec<u8>)> {
    let mut out = vec![(msg.to_vec(), ctx.to_vec(), sig.to_vec())];
    for k in 0..count {
        let (mut m, mut c, mut s) = (msg.to_vec(), ctx.to_vec(), sig.to_vec());
        match k % 6 {
            0..=2 => {
                let bit = rng.below(s.len() * 8);
                s[bit / 8] ^= 1 << (bit % 8);
            }
            3 => s.truncate(s.len() - 1 - rng.below(3)),
            4 => s.push(rng.next_u64() as u8),
            _ => {
                if rng.below(2) == 0 {
                    m.push(0);
                } else {
                    c = rng.bytes_below(10);
                    c.push(1);
                }
            }
        }
        out.push((m, c, s));
    }
    out
}

fn compare(suite: Suite, pk: &[u8], cases: &[(Vec<u8>, Vec<u8>, Vec<u8>)], backends: &[Arc<dyn Backend>]) -> usize {
    let mut compared = 0;
    for (msg, ctx, sig) in cases {
        let item = Item {
            suite,
            public_key: pk.to_vec(),
            message: OwnedMessage::new(pqverify_native::backend::Interface::Pure, msg.clone(), ctx.clone(), None)
                .unwrap(),
            signature: sig.clone(),
        };
        let verdicts: Vec<(&str, bool)> = backends
            .iter()
            .filter(|b| b.supports(suite, pqverify_native::backend::Interface::Pure))
            .map(|b| (b.name(), OneBackend(b.clone()).decide(&item.request().unwrap()).unwrap()))
            .collect();
        assert!(verdicts.len() >= 2, "{suite}: fewer than two backends");
        assert!(verdicts.iter().all(|v| v.1 == verdicts[0].1), "{suite}: disagreement {verdicts:?}");
        compared += 1;
    }
    compared
}

#[test]
fn ml_dsa_three_way() {
    let backends: Vec<Arc<dyn Backend>> =
        vec![Arc::new(Pqverify::one_shot()), Arc::new(Liboqs::new()), Arc::new(Reference)];
    let mut rng = Rng(99);
    for suite in [Suite::MlDsa44, Suite::MlDsa65, Suite::MlDsa87] {
        let mut total = 0;
        for key in 0..4u8 {
            let (pk, sign) = common::signer(suite, key);
            for _ in 0..4 {
                let msg = rng.bytes_below(64);
                let ctx = rng.bytes_below(32);
                let sig = sign(&msg, &ctx);
                total += compare(suite, &pk, &mutants(&mut rng, &msg, &ctx, &sig, 30), &backends);
            }
        }
        println!("{suite}: {total} cases, pqverify = liboqs = rustcrypto on every one");
    }
}

#[test]
fn slh_dsa_against_the_reference() {
    let backends: Vec<Arc<dyn Backend>> =
        vec![Arc::new(Pqverify::one_shot()), Arc::new(Liboqs::new()), Arc::new(Reference)];
    let mut rng = Rng(7);
    // Valid signatures from the ACVP file (one per set, pure interface) and their mutants.
    let cases = pqverify_kats::slh_dsa_sigver().unwrap();
    for suite in Suite::ALL.into_iter().filter(|s| s.name().starts_with("SLH")) {
        let case = cases
            .iter()
            .find(|c| c.expected && c.suite == suite.name() && c.interface == pqverify_kats::Interface::Pure)
            .unwrap();
        let n = compare(
            suite,
            &case.public_key,
            &mutants(&mut rng, &case.message, &case.context, &case.signature, 12),
            &backends,
        );
        println!("{suite}: {n} cases, pqverify = rustcrypto on every one");
    }
}
