//! Dual-verifier semantics with injected faulty backends: enforce rejects what
//! either verifier rejects, shadow keeps the primary's verdict, every disagreement
//! reaches the sink exactly once under a 10,000-item parallel batch, failing
//! backends are contained and never count as valid, and a failing sink is an error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

mod common;

use pqverify_native::backend::Fault;
use std::collections::HashSet;
use std::io::Write;
use std::sync::Arc;

use pqverify_core::Suite;
use pqverify_native::backend::{Backend, Interface, Liboqs, Pqverify, Request};
use pqverify_native::batch::{Item, OwnedMessage, verify_batch};
use pqverify_native::dual::{DualVerifier, Mode};
use pqverify_native::sink::{DisagreementSink, JsonLines};
use pqverify_native::units::UnitTable;
use pqverify_native::{OneBackend, Verifier, VerifyError};

/// Index of an item, carried in the first 8 bytes of its message.
fn index_of(r: &Request<'_>) -> u64 {
    match r.message {
        pqverify_core::Message::Pure { msg, .. } => u64::from_le_bytes(msg[..8].try_into().unwrap()),
        _ => unreachable!(),
    }
}

/// A correct verifier that flips its verdict on every item whose index is a multiple of 13.
struct Flipper;

impl Backend for Flipper {
    fn name(&self) -> &'static str {
        "flipper"
    }
    fn version(&self) -> String {
        "test".into()
    }
    fn supports(&self, _: Suite, i: Interface) -> bool {
        i == Interface::Pure
    }
    fn verdict(&self, r: &Request<'_>) -> Result<bool, Fault> {
        let honest = pqverify_core::verify(r.public_key, r.message, r.signature).is_ok();
        Ok(if index_of(r).is_multiple_of(13) { !honest } else { honest })
    }
}

/// A backend that panics or errors on every call.
struct Broken {
    panics: bool,
}

impl Backend for Broken {
    fn name(&self) -> &'static str {
        if self.panics { "panicker" } else { "erring" }
    }
    fn version(&self) -> String {
        "test".into()
    }
    fn supports(&self, _: Suite, _: Interface) -> bool {
        true
    }
    fn verdict(&self, _: &Request<'_>) -> Result<bool, Fault> {
        if self.panics { panic!("injected panic") } else { Err(Fault::Failed("injected error".into())) }
    }
}

/// 10,000 ML-DSA-44 items with distinct messages (1,000 under an emulator, where signing
/// and verifying them all took minutes); odd indices have a flipped signature byte.
fn items() -> Vec<Item> {
    let (pk, sign) = common::signer(Suite::MlDsa44, 42);
    let count: u64 = if pqverify_testkit::runner::emulated() { 1_000 } else { 10_000 };
    (0..count)
        .map(|i| {
            let mut msg = i.to_le_bytes().to_vec();
            msg.extend_from_slice(b" dual test message");
            let mut signature = sign(&msg, b"");
            if i % 2 == 1 {
                signature[1000] ^= 0x10;
            }
            Item { suite: Suite::MlDsa44, public_key: pk.clone(), message: OwnedMessage::pure(msg), signature }
        })
        .collect()
}

fn sink_lines(sink: Arc<JsonLines<Vec<u8>>>) -> Vec<serde_json::Value> {
    let bytes = Arc::into_inner(sink).expect("sole owner").into_inner();
    String::from_utf8(bytes).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

#[test]
fn enforce_and_shadow_under_a_parallel_batch() {
    let items = items();
    for (mode, audit_every) in [(Mode::Enforce, 1), (Mode::Enforce, 0), (Mode::Shadow, 1)] {
        let sink = Arc::new(JsonLines::new(Vec::new()));
        let dual = DualVerifier::new(vec![Arc::new(Flipper)], Arc::new(Pqverify::with_cache(4)), mode, sink.clone())
            .with_audit(audit_every);
        let results = rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .unwrap()
            .install(|| verify_batch(&dual, &items, None).unwrap());
        let mut expected_disagreements = 0;
        for (i, result) in results.iter().enumerate() {
            let honest = i % 2 == 0;
            let primary = if i.is_multiple_of(13) { !honest } else { honest };
            let expected = match mode {
                Mode::Enforce => primary && honest,
                Mode::Shadow => primary,
            };
            assert_eq!(result, &Ok(expected), "{} item {i}: verdict out of order or wrong", mode.name());
            // Enforce: the secondary confirms acceptances and audits rejections (all or none here).
            let secondary_ran = mode == Mode::Shadow || primary || audit_every == 1;
            if secondary_ran && primary != honest {
                expected_disagreements += 1;
            }
        }
        assert_eq!(dual.disagreements(), expected_disagreements);
        drop(dual);
        let records = sink_lines(sink);
        assert_eq!(records.len() as u64, expected_disagreements, "{}: each disagreement written once", mode.name());
        let distinct: HashSet<&str> = records.iter().map(|r| r["msg_sha256"].as_str().unwrap()).collect();
        assert_eq!(distinct.len(), records.len(), "no disagreement written twice");
        for r in &records {
            assert_eq!(r["mode"], mode.name());
            assert_eq!(r["suite"], "ML-DSA-44");
            assert_eq!(r["primary"]["backend"], "flipper");
            assert_eq!(r["secondary"]["backend"], "pqverify");
            assert_eq!(r["pk_sha256"].as_str().unwrap().len(), 64);
        }
        println!("{}: 10000 items, {expected_disagreements} disagreements, all recorded once", mode.name());
    }
}

#[test]
fn failing_backends_are_contained_and_never_valid() {
    let (pk, sign) = common::signer(Suite::MlDsa44, 7);
    let msg = [0u8; 8];
    let sig = sign(&msg, b"");
    let item =
        Item { suite: Suite::MlDsa44, public_key: pk, message: OwnedMessage::pure(msg.to_vec()), signature: sig };
    // The injected panics are expected; keep their messages out of the test output.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if info.payload().downcast_ref::<&str>() != Some(&"injected panic") {
            default_hook(info);
        }
    }));
    for panics in [true, false] {
        for mode in [Mode::Enforce, Mode::Shadow] {
            // Broken primary: the verdict is never "valid", and the failure is reported.
            let sink = Arc::new(JsonLines::new(Vec::new()));
            let dual = DualVerifier::new(vec![Arc::new(Broken { panics })], Arc::new(Pqverify::one_shot()), mode, sink);
            let got = dual.decide(&item.request().unwrap());
            assert!(matches!(got, Err(VerifyError::Backend(_))), "{got:?}");
            assert_eq!(dual.faults(), 1);
            // Broken secondary: enforce fails the request; shadow records it and keeps the primary's verdict.
            let sink = Arc::new(JsonLines::new(Vec::new()));
            let dual = DualVerifier::new(
                vec![Arc::new(Pqverify::one_shot())],
                Arc::new(Broken { panics }),
                mode,
                sink.clone(),
            );
            let got = dual.decide(&item.request().unwrap());
            match mode {
                Mode::Enforce => assert!(matches!(got, Err(VerifyError::Backend(_))), "{got:?}"),
                Mode::Shadow => assert_eq!(got, Ok(true)),
            }
            assert_eq!(dual.disagreements(), 1);
            drop(dual);
            let records = sink_lines(sink);
            assert_eq!(records.len(), 1);
            assert!(records[0]["secondary"]["outcome"]["fault"].as_str().unwrap().contains("injected"));
        }
    }
}

/// A writer that always fails, like /dev/full.
struct Full;

impl Write for Full {
    fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
        Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "no space left on device"))
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_sink_is_an_error_not_a_silent_loss() {
    let items: Vec<Item> = items().into_iter().take(200).collect();
    let sinks: Vec<Arc<dyn DisagreementSink>> = {
        let mut v: Vec<Arc<dyn DisagreementSink>> = vec![Arc::new(JsonLines::new(Full))];
        if let Ok(f) = std::fs::OpenOptions::new().write(true).open("/dev/full") {
            v.push(Arc::new(JsonLines::new(f)));
        }
        v
    };
    for sink in sinks {
        let dual = DualVerifier::new(vec![Arc::new(Flipper)], Arc::new(Pqverify::one_shot()), Mode::Shadow, sink);
        let results = verify_batch(&dual, &items, None).unwrap();
        let sink_errors = results.iter().filter(|r| matches!(r, Err(VerifyError::Sink(_)))).count() as u64;
        assert!(sink_errors > 0);
        assert_eq!(sink_errors, dual.disagreements());
        assert_eq!(dual.sink_failures(), dual.disagreements());
    }
}

#[test]
fn budget_is_charged_before_any_work() {
    let items: Vec<Item> = items().into_iter().take(10).collect();
    let table = UnitTable::default();
    let dual = DualVerifier::new(
        vec![Arc::new(Broken { panics: false })],
        Arc::new(Pqverify::one_shot()),
        Mode::Enforce,
        Arc::new(JsonLines::new(Vec::new())),
    );
    // 10 × 100 units > 999: refused, and no backend ran (the failing one would count a fault).
    let refused = verify_batch(&dual, &items, Some((&table, 999)));
    assert!(matches!(refused, Err(VerifyError::Budget(_))), "{refused:?}");
    assert_eq!(dual.faults(), 0);
    assert!(verify_batch(&dual, &items, Some((&table, 1000))).is_ok());
    assert_eq!(dual.faults(), 10);
}

/// A primary that rejects every signature: the stand-in for liboqs 0.13 where the
/// linked liboqs runs its portable C, which accepts the three cases below.
struct RejectsAll;

impl Backend for RejectsAll {
    fn name(&self) -> &'static str {
        "liboqs"
    }
    fn version(&self) -> String {
        "rejects every signature".into()
    }
    fn supports(&self, _: Suite, i: Interface) -> bool {
        i == Interface::Pure
    }
    fn verdict(&self, _: &Request<'_>) -> Result<bool, Fault> {
        Ok(false)
    }
}

/// Three valid Wycheproof signatures (UseHint(1, 0), zero public key) that liboqs
/// 0.13 rejects in its AVX2 code: enforce mode answers with the primary's "invalid",
/// and its audit of rejections logs each one as a disagreement; without the audit they
/// were invisible. Where the linked liboqs runs its portable C (AArch64, or x86-64
/// without AVX2) it accepts them, and a primary that rejects everything takes its place.
#[test]
fn enforce_mode_audits_the_primarys_false_rejections() {
    let text = include_str!("data/wycheproof-use-hint/cases.jsonl");
    let items: Vec<Item> = text.lines().map(|l| pqverify_native::jsonl::parse_line(l).unwrap().1).collect();
    assert_eq!(items.len(), 3);
    let linked = Arc::new(Liboqs::new());
    let avx2 = linked.info().avx2;
    for item in &items {
        assert_eq!(
            OneBackend(Arc::new(Pqverify::one_shot())).decide(&item.request().unwrap()),
            Ok(true),
            "pqverify accepts"
        );
        assert_eq!(
            OneBackend(linked.clone()).decide(&item.request().unwrap()),
            Ok(!avx2),
            "liboqs 0.13 rejects in its AVX2 code only"
        );
    }
    let liboqs: Arc<dyn Backend> = if avx2 { linked } else { Arc::new(RejectsAll) };
    for (mode, audit_every, logged) in [(Mode::Enforce, 1, 3), (Mode::Enforce, 0, 0), (Mode::Shadow, 1, 3)] {
        let sink = Arc::new(JsonLines::new(Vec::new()));
        let dual = DualVerifier::new(vec![liboqs.clone()], Arc::new(Pqverify::one_shot()), mode, sink.clone())
            .with_audit(audit_every);
        for item in &items {
            assert_eq!(dual.decide(&item.request().unwrap()), Ok(false), "the primary's verdict stands");
        }
        assert_eq!(dual.disagreements(), logged, "{} audit {audit_every}", mode.name());
        drop(dual);
        let records = sink_lines(sink);
        assert_eq!(records.len() as u64, logged);
        for r in &records {
            assert_eq!(r["primary"]["backend"], "liboqs");
            assert_eq!(r["primary"]["outcome"], "invalid");
            assert_eq!(r["secondary"]["outcome"], "valid");
        }
    }
    // One in two audited: of four rejections, the first and the third.
    let sink = Arc::new(JsonLines::new(Vec::new()));
    let dual = DualVerifier::new(vec![liboqs], Arc::new(Pqverify::one_shot()), Mode::Enforce, sink).with_audit(2);
    for item in items.iter().chain(&items[..1]) {
        assert_eq!(dual.decide(&item.request().unwrap()), Ok(false));
    }
    assert_eq!(dual.disagreements(), 2);
}
