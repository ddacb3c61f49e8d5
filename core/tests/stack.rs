//! Stack use of one-shot verification.
//!
//! * Every suite verifies on a thread with a 64 KiB stack.
//! * `peak_stack_per_suite` measures, for each suite, the smallest thread stack a
//!   verify runs on (binary search over child processes: an overflow kills only the
//!   child), minus the smallest stack a thread doing nothing needs. That difference
//!   is the figure in the README.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail by panicking")]

mod common;

use std::process::Command;

use common::{message_of, suite_of};
use pqverify_core::{Message, PublicKey, Suite, verify};
use pqverify_kats::Case;

const PROBE_ENV: &str = "PQVERIFY_STACK_PROBE";

/// One valid ACVP case per suite.
fn one_valid_case_per_suite() -> Vec<Case> {
    let mut all = pqverify_kats::ml_dsa_sigver().unwrap();
    all.extend(pqverify_kats::slh_dsa_sigver().unwrap());
    Suite::ALL
        .iter()
        .map(|suite| {
            all.iter()
                .find(|c| c.expected && c.suite == suite.name() && c.interface == pqverify_kats::Interface::Internal)
                .cloned()
                .unwrap()
        })
        .collect()
}

/// Runs `work` on a fresh thread with `stack` bytes of stack and waits for it.
fn on_stack<T: Send + 'static>(stack: usize, work: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new().stack_size(stack).spawn(work).unwrap().join().unwrap()
}

#[test]
fn every_suite_verifies_on_a_64_kib_stack() {
    for case in one_valid_case_per_suite() {
        let suite = suite_of(&case);
        let result = on_stack(64 * 1024, move || {
            PublicKey::from_raw(suite, &case.public_key).and_then(|key| verify(key, message_of(&case), &case.signature))
        });
        assert_eq!(result, Ok(()), "{suite}");
    }
}

/// Stack for the measuring thread; verification runs at the bottom of a chain of
/// padding frames that use up most of it.
const PROBE_STACK: usize = 1 << 20;

/// Recurses `depth` times through frames of about 512 bytes, then runs `work`;
/// returns the stack bytes the padding used (from frame addresses, never dereferenced).
#[inline(never)]
fn descend(depth: usize, top: usize, work: &mut dyn FnMut()) -> usize {
    let pad = std::hint::black_box([0u8; 512]);
    let here = std::ptr::from_ref(&pad) as usize;
    let used = if depth == 0 {
        work();
        top - here
    } else {
        descend(depth - 1, top, work)
    };
    std::hint::black_box(&pad);
    used
}

/// Child side of the measurement: verify the case in the probe file below `depth`
/// padding frames. Run only by `peak_stack_per_suite`.
#[test]
#[ignore = "run by peak_stack_per_suite in a child process"]
fn stack_probe_child() {
    let path = std::env::var(PROBE_ENV).expect("probe file");
    let text = std::fs::read_to_string(path).unwrap();
    let fields: Vec<String> = text.lines().map(str::to_owned).collect();
    let depth: usize = fields[1].parse().unwrap();
    let used = on_stack(PROBE_STACK, move || {
        let top_marker = 0u8;
        let top = std::ptr::from_ref(&top_marker) as usize;
        let mut work: Box<dyn FnMut()> = if fields[0] == "baseline" {
            Box::new(|| {})
        } else {
            let suite: Suite = fields[0].parse().unwrap();
            let (pk, msg, sig) =
                (hex::decode(&fields[2]).unwrap(), hex::decode(&fields[3]).unwrap(), hex::decode(&fields[4]).unwrap());
            Box::new(move || {
                assert_eq!(
                    PublicKey::from_raw(suite, &pk).and_then(|key| verify(key, Message::Internal(&msg), &sig)),
                    Ok(())
                )
            })
        };
        descend(depth, top, &mut *work)
    });
    println!("padding-bytes: {used}");
}

/// This test binary as a command, under the emulator `PQVERIFY_TEST_RUNNER` names (its
/// words split at spaces) when the binary is cross-built, else directly.
fn this_test_binary() -> Command {
    let runner = std::env::var("PQVERIFY_TEST_RUNNER").unwrap_or_default();
    let mut words = runner.split_whitespace();
    match words.next() {
        Some(program) => {
            let mut cmd = Command::new(program);
            cmd.args(words).arg(std::env::current_exe().unwrap());
            cmd
        }
        None => Command::new(std::env::current_exe().unwrap()),
    }
}

/// Runs the child with `depth` padding frames; the padding's bytes if it succeeded.
fn padding_if_ok(probe: &std::path::Path, head: &str, depth: usize, tail: &str) -> Option<usize> {
    std::fs::write(probe, format!("{head}\n{depth}\n{tail}")).unwrap();
    let out = this_test_binary()
        .args(["--ignored", "--exact", "stack_probe_child", "--test-threads", "1", "--nocapture"])
        .env(PROBE_ENV, probe)
        .output()
        .unwrap();
    if !out.status.success() {
        return None;
    }
    // libtest may print its own "test … " prefix on the same line.
    let stdout = String::from_utf8_lossy(&out.stdout);
    stdout.lines().find_map(|l| l.split("padding-bytes: ").nth(1)?.trim().parse().ok())
}

/// The most padding (in bytes) under which the child still succeeds.
fn most_padding(probe: &std::path::Path, head: &str, tail: &str) -> usize {
    let (mut ok, mut fail) = (0usize, PROBE_STACK / 512);
    let mut best = padding_if_ok(probe, head, 0, tail).unwrap_or_else(|| panic!("{head} fails with no padding"));
    while fail - ok > 1 {
        let mid = (ok + fail) / 2;
        match padding_if_ok(probe, head, mid, tail) {
            Some(bytes) => (ok, best) = (mid, bytes),
            None => fail = mid,
        }
    }
    best
}

#[test]
fn peak_stack_per_suite() {
    let probe = std::env::temp_dir().join(format!("pqverify-stack-probe-{}", std::process::id()));
    let baseline = most_padding(&probe, "baseline", "");
    for case in one_valid_case_per_suite() {
        let tail = format!(
            "{}\n{}\n{}\n",
            hex::encode(&case.public_key),
            hex::encode(&case.message),
            hex::encode(&case.signature)
        );
        let peak = baseline.saturating_sub(most_padding(&probe, &case.suite, &tail));
        println!("peak stack: {}: {:.1} KiB", case.suite, peak as f64 / 1024.0);
        assert!(peak > 0 && peak <= 64 * 1024, "{}: measured {peak} bytes", case.suite);
    }
    let _ = std::fs::remove_file(probe);
}
