//! The `pqverify` CLI: every subcommand, every kind of bad input, and the ACVP
//! vectors through `pqverify batch` with each backend.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests")]

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{Value, json};

fn pqverify(args: &[&str], stdin: &[u8]) -> Output {
    // In the temp dir: the default disagreement log is a file in the working directory.
    let mut child = common::pqverify_command()
        .current_dir(std::env::temp_dir())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

fn stdout_lines(out: &Output) -> Vec<Value> {
    String::from_utf8(out.stdout.clone()).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A batch exits 0 when no answer has an error, 2 when some are unusable input.
#[track_caller]
fn assert_batch_status(out: &Output, answers: &[Value]) {
    let unusable = answers.iter().any(|a| a.get("error").is_some());
    assert!(answers.iter().all(|a| !matches!(a["kind"].as_str(), Some("backend" | "sink"))), "no fault expected");
    assert_eq!(out.status.code(), Some(if unusable { 2 } else { 0 }), "{}", stderr(out));
}

/// Runs `pqverify args…` with standard output and error redirected to the given files
/// (`/dev/full`, or a closed descriptor when `None`), through the shell.
fn pqverify_redirected(args: &str, stdout: Option<&str>, stderr: Option<&str>) -> Output {
    let redirect = |fd: u8, to: Option<&str>| to.map_or(format!("{fd}>&-"), |f| format!("{fd}>{f}"));
    let script = format!("{} {args} {} {}", common::pqverify_shell(), redirect(1, stdout), redirect(2, stderr));
    Command::new("sh").args(["-c", &script]).current_dir(std::env::temp_dir()).stdin(Stdio::null()).output().unwrap()
}

#[test]
fn the_disagreement_log_is_a_file_by_default_and_cannot_be_lost() {
    let dir = std::env::temp_dir().join(format!("pqverify-cli-log-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/wycheproof-use-hint/cases.jsonl");
    // liboqs 0.13 rejects these three valid signatures in its AVX2 code and accepts them
    // in its portable C (AArch64, or x86-64 without AVX2): the disagreements expected.
    let suites = pqverify(&["suites", "--json"], b"");
    let avx2 = stdout_lines(&suites)[0]["liboqs"]["avx2"].as_bool().unwrap();
    let expected = if avx2 { 3 } else { 0 };
    // Enforce mode, default log: the answers are liboqs's, and the audit logs every
    // disagreement in ./pqverify-disagreements.jsonl, even with standard error closed.
    let script = format!("{} batch --backend dual --mode enforce < {cases} 2>&-", common::pqverify_shell());
    let out = Command::new("sh").args(["-c", &script]).current_dir(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answers = stdout_lines(&out);
    assert_eq!(answers.len(), 3);
    assert!(answers.iter().all(|a| a["valid"] == json!(!avx2)));
    let log = std::fs::read_to_string(dir.join("pqverify-disagreements.jsonl")).unwrap_or_default();
    assert_eq!(log.lines().count(), expected, "every disagreement in the log file");
    // `-` asks for standard error: closed, it is refused before any verification.
    let script =
        format!("{} batch --backend dual --disagreements - < {cases} 2>&-; echo \"exit $?\"", common::pqverify_shell());
    let out = Command::new("sh").args(["-c", &script]).current_dir(&dir).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "exit 2", "a closed stderr is refused");
    // A full log: each disagreeing request fails (kind sink), and the batch exits 3.
    let out = pqverify(&["batch", "--backend", "dual", "--disagreements", "/dev/full"], &std::fs::read(cases).unwrap());
    let answers = stdout_lines(&out);
    if avx2 {
        assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
        assert!(answers.iter().all(|a| a["kind"] == "sink"));
    } else {
        assert_eq!(out.status.code(), Some(0), "nothing to log: {}", stderr(&out));
        assert!(answers.iter().all(|a| a["valid"] == json!(true)));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn output_failures_are_exit_3_never_a_panic() {
    let (pk, sign) = common::signer(pqverify_core::Suite::MlDsa44, 5);
    let dir = std::env::temp_dir().join(format!("pqverify-cli-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("pk"), &pk).unwrap();
    std::fs::write(dir.join("sig"), sign(b"m", b"")).unwrap();
    let verify =
        format!("verify --suite ML-DSA-44 --pk @{0}/pk --msg 6d --sig @{0}/sig --backend pqverify", dir.display());
    // A full standard output: the verdict cannot be written.
    let out = pqverify_redirected(&verify, Some("/dev/full"), Some("/dev/null"));
    assert_eq!(out.status.code(), Some(3), "verify > /dev/full");
    // Closed standard output, and both closed: still no panic (101).
    for (o, e) in [(None, Some("/dev/null")), (None, None), (Some("/dev/null"), Some("/dev/full"))] {
        let out = pqverify_redirected(&verify, o, e);
        assert_ne!(out.status.code(), Some(101), "panicked with stdout {o:?} stderr {e:?}");
    }
    for cmd in ["suites", "suites --json"] {
        let out = pqverify_redirected(cmd, Some("/dev/full"), Some("/dev/null"));
        assert_eq!(out.status.code(), Some(3), "{cmd} > /dev/full");
        let out = pqverify_redirected(cmd, None, None);
        assert_ne!(out.status.code(), Some(101), "{cmd} into a closed pipe panicked");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_backend_fault_in_verify_is_exit_3_and_bad_input_is_exit_2() {
    let out = pqverify(&["verify", "--suite", "ML-DSA-44", "--pk", "00", "--msg", "00", "--sig", "00"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // The disagreement log cannot be opened: that is an input error (a bad path), exit 2.
    let out = pqverify(
        &[
            "verify",
            "--suite",
            "ML-DSA-44",
            "--pk",
            "00",
            "--msg",
            "00",
            "--sig",
            "00",
            "--disagreements",
            "/nonexistent/x",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Options of the dual verifier without it are an error, not ignored.
    for extra in [&["--mode", "shadow"][..], &["--audit-rejections", "0"]] {
        let mut args = vec!["verify", "--suite", "ML-DSA-44", "--pk", "00", "--msg", "00", "--sig", "00"];
        args.extend_from_slice(&["--backend", "pqverify"]);
        args.extend_from_slice(extra);
        let out = pqverify(&args, b"");
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("need --backend dual"), "{}", stderr(&out));
    }
}

#[test]
fn suites_lists_all_fifteen() {
    let out = pqverify(&["suites"], b"");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 17, "liboqs line, header, 15 suites");
    assert!(text.starts_with("liboqs 0.13.0 (linked; AVX2 "), "{text}");
    assert!(text.lines().next().unwrap().contains("; pqverify kernels "), "{text}");
    assert!(text.contains("ML-DSA-44") && text.contains("SLH-DSA-SHAKE-256f") && text.contains("liboqs (pure)"));
    let out = pqverify(&["suites", "--json"], b"");
    let rows = stdout_lines(&out);
    assert_eq!(rows.len(), 16);
    assert_eq!(rows[0]["liboqs"]["library"], "linked");
    assert_eq!(rows[0]["liboqs"]["suites"], json!(["ML-DSA-44", "ML-DSA-65", "ML-DSA-87"]));
    assert_eq!(
        rows[1],
        json!({"suite": "ML-DSA-44", "public_key": 1312, "signature": 2420,
        "backends": {"pqverify": ["pure", "prehash", "internal", "external-mu"], "liboqs": ["pure"],
                     "rustcrypto": ["pure", "prehash", "internal", "external-mu"]}})
    );
}

#[test]
fn the_kernel_switch_names_the_sets_this_cpu_has() {
    let run = |kernels: &str, args: &[&str]| {
        common::pqverify_command()
            .current_dir(std::env::temp_dir())
            .args(args)
            .env("PQVERIFY_KERNELS", kernels)
            .output()
            .unwrap()
    };
    let available = pqverify_core::available_kernels();
    for set in available {
        let out = run(set, &["suites", "--json"]);
        assert!(out.status.success(), "{set}: {}", stderr(&out));
        let first = &stdout_lines(&out)[0];
        assert_eq!(first["kernels"], *set);
        assert_eq!(first["available_kernels"], json!(available));
    }
    // A set this build has not got: exit 2, one line naming the ones it has.
    let out = run("no-such-set", &["suites"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("pqverify: error: PQVERIFY_KERNELS=no-such-set: no such kernel set"), "{err}");
    assert!(err.contains(&available.join(", ")), "{err}");
    // The verdict is the same on every set.
    let (pk, msg, ctx, sig) = valid_case();
    for set in available {
        let out =
            run(set, &["verify", "--suite", "ML-DSA-44", "--pk", &pk, "--msg", &msg, "--ctx", &ctx, "--sig", &sig]);
        assert_eq!(out.status.code(), Some(0), "{set}: {}", stderr(&out));
    }
}

/// A valid ML-DSA-44 pure case: (pk, msg, ctx, sig) as hex.
fn valid_case() -> (String, String, String, String) {
    let (pk, sign) = common::signer(pqverify_core::Suite::MlDsa44, 3);
    let (msg, ctx) = (b"cli message".to_vec(), b"ctx".to_vec());
    let sig = sign(&msg, &ctx);
    (hex::encode(pk), hex::encode(msg), hex::encode(ctx), hex::encode(sig))
}

#[test]
fn verify_exit_codes() {
    let (pk, msg, ctx, sig) = valid_case();
    let base = |sig: &str, extra: &[&str]| -> Output {
        let mut args = vec!["verify", "--suite", "ML-DSA-44", "--pk", &pk, "--msg", &msg, "--ctx", &ctx, "--sig", sig];
        args.extend_from_slice(extra);
        pqverify(&args, b"")
    };
    for backend in ["dual", "pqverify", "liboqs", "rustcrypto"] {
        let out = base(&sig, &["--backend", backend]);
        assert_eq!(out.status.code(), Some(0), "{backend}: {}", stderr(&out));
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "valid");
    }
    let out = base(&sig, &["--backend", "dual", "--mode", "shadow"]);
    assert_eq!(out.status.code(), Some(0));
    // One flipped byte: invalid, exit 1.
    let mut bad = hex::decode(&sig).unwrap();
    bad[10] ^= 1;
    let out = base(&hex::encode(&bad), &[]);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "invalid");
    // Raw bytes from a file.
    let dir = std::env::temp_dir().join(format!("pqverify-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let sig_path = dir.join("sig.bin");
    std::fs::write(&sig_path, hex::decode(&sig).unwrap()).unwrap();
    let at = format!("@{}", sig_path.display());
    assert_eq!(base(&at, &[]).status.code(), Some(0));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn verify_bad_input_exits_2_with_one_line() {
    let (pk, msg, ctx, sig) = valid_case();
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "--suite".into(),
                "ML-DSA-45".into(),
                "--pk".into(),
                pk.clone(),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                sig.clone(),
            ],
            "invalid value 'ML-DSA-45' for '--suite <SUITE>'",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk[2..].into(),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                sig.clone(),
            ],
            "1311 bytes; ML-DSA-44 public keys are 1312 bytes",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk.clone(),
                "--msg".into(),
                "abc".into(),
                "--sig".into(),
                sig.clone(),
            ],
            "--msg: not hex",
        ),
        (
            vec!["--suite".into(), "ML-DSA-44".into(), "--pk".into(), pk.clone(), "--sig".into(), sig.clone()],
            "give --msg",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk.clone(),
                "--msg".into(),
                msg.clone(),
                "--ctx".into(),
                "00".repeat(256),
                "--sig".into(),
                sig.clone(),
            ],
            "context is 256 bytes",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk.clone(),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                sig.clone(),
                "--prehash".into(),
                "MD5".into(),
            ],
            "invalid value 'MD5' for '--prehash <PREHASH>' [possible values: SHA2-224",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                "@/nonexistent/pk".into(),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                sig.clone(),
            ],
            "cannot read",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk.clone(),
                "--interface".into(),
                "internal".into(),
                "--mu".into(),
                "00".repeat(63),
                "--sig".into(),
                sig.clone(),
            ],
            "exactly 64 bytes",
        ),
        (
            vec![
                "--suite".into(),
                "SLH-DSA-SHAKE-128s".into(),
                "--pk".into(),
                "00".repeat(32),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                "00".into(),
                "--backend".into(),
                "liboqs".into(),
            ],
            "does not support",
        ),
        (
            vec![
                "--suite".into(),
                "SLH-DSA-SHAKE-128s".into(),
                "--pk".into(),
                "00".repeat(32),
                "--interface".into(),
                "internal".into(),
                "--mu".into(),
                "00".repeat(64),
                "--sig".into(),
                "00".into(),
            ],
            "does not support external mu (ML-DSA only)",
        ),
        (
            vec![
                "--suite".into(),
                "ML-DSA-44".into(),
                "--pk".into(),
                pk.clone(),
                "--interface".into(),
                "external-mu".into(),
                "--msg".into(),
                msg.clone(),
                "--sig".into(),
                sig.clone(),
            ],
            "the external-mu interface takes --mu, not --msg",
        ),
    ];
    for (args, expect) in cases {
        let mut full = vec!["verify".to_owned()];
        full.extend(args);
        let refs: Vec<&str> = full.iter().map(String::as_str).collect();
        let out = pqverify(&refs, b"");
        assert_eq!(out.status.code(), Some(2), "{expect}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(err.contains(expect), "expected {expect:?} in {err:?}");
        assert_eq!(err.trim().lines().count(), 1, "one line: {err:?}");
    }
    // Suite and pre-hash names are matched ignoring case.
    let out = pqverify(
        &[
            "verify",
            "--suite",
            "ml-dsa-44",
            "--pk",
            &pk,
            "--msg",
            &msg,
            "--sig",
            &sig,
            "--prehash",
            "sha2-256",
            "--backend",
            "pqverify",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(1), "parsed, and not valid as HashML-DSA: {}", stderr(&out));
    // --interface takes core's names too, as a JSON line's field does.
    let out = pqverify(
        &[
            "verify",
            "--suite",
            "ML-DSA-44",
            "--pk",
            &pk,
            "--msg",
            &msg,
            "--sig",
            &sig,
            "--ctx",
            &ctx,
            "--interface",
            "pure",
            "--backend",
            "pqverify",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "valid under the pure interface: {}", stderr(&out));
    // Usage errors (clap) also exit 2, on one line.
    assert_eq!(pqverify(&["verify", "--backend", "nope"], b"").status.code(), Some(2));
    for args in [&["frobnicate"][..], &["verify", "--interface", "sideways"]] {
        let out = pqverify(args, b"");
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(stderr(&out).trim().lines().count(), 1, "{}", stderr(&out));
    }
    // --help is not an error.
    let out = pqverify(&["batch", "--help"], b"");
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Exit status"));
}

#[test]
fn batch_answers_every_line_in_order() {
    let (pk, msg, ctx, sig) = valid_case();
    let good = json!({"id": "good", "suite": "ML-DSA-44", "pk": pk, "msg": msg, "ctx": ctx, "sig": sig}).to_string();
    let mut bad_sig = hex::decode(&sig).unwrap();
    bad_sig[5] ^= 4;
    let invalid = json!({"id": 2, "suite": "ML-DSA-44", "pk": pk, "msg": msg, "ctx": ctx, "sig": hex::encode(bad_sig)})
        .to_string();
    let huge = format!("{{\"id\": 9, \"msg\": \"{}\"}}", "a".repeat(5 << 20));
    let lines: Vec<(String, Value, Option<&str>)> = vec![
        (good.clone(), json!("good"), None),
        (invalid, json!(2), None),
        ("{not json".into(), Value::Null, Some("bad JSON")),
        ("[1,2]".into(), Value::Null, Some("JSON object")),
        ("".into(), Value::Null, Some("bad JSON")),
        (
            json!({"id": {"a": 1}, "suite": "ML-DSA-99", "pk": pk, "msg": "", "sig": sig}).to_string(),
            json!({"a": 1}),
            Some("unknown suite"),
        ),
        (
            json!({"id": 5, "suite": "ML-DSA-44", "pk": "abc", "msg": "", "sig": sig}).to_string(),
            json!(5),
            Some("not hex"),
        ),
        (
            json!({"id": 6, "suite": "ML-DSA-44", "pk": "00", "msg": "", "sig": sig}).to_string(),
            json!(6),
            Some("1 bytes; ML-DSA-44 public keys are 1312"),
        ),
        (
            json!({"id": 7, "suite": "ML-DSA-44", "pk": pk, "msg": "", "signature": sig}).to_string(),
            json!(7),
            Some("unknown field signature"),
        ),
        (json!({"id": 8, "suite": "ML-DSA-44", "pk": pk, "msg": ""}).to_string(), json!(8), Some("missing field sig")),
        (huge, Value::Null, Some("the limit is")),
        (
            json!({"id": 10, "suite": "ML-DSA-44", "pk": pk, "msg": msg, "sig": sig, "interface": "sideways"})
                .to_string(),
            json!(10),
            Some("unknown interface"),
        ),
        (
            json!({"id": 11, "suite": 44, "pk": pk, "msg": msg, "sig": sig}).to_string(),
            json!(11),
            Some("must be a string"),
        ),
        (good, json!("good"), None),
    ];
    let input: String = lines.iter().map(|(l, _, _)| format!("{l}\n")).collect();
    for backend in ["dual", "pqverify", "liboqs", "rustcrypto"] {
        let out = pqverify(&["batch", "--backend", backend, "--threads", "2"], input.as_bytes());
        let answers = stdout_lines(&out);
        assert_batch_status(&out, &answers);
        assert_eq!(answers.len(), lines.len(), "one answer per line");
        for ((_, id, err), a) in lines.iter().zip(&answers) {
            assert_eq!(&a["id"], id);
            match err {
                Some(e) => {
                    assert_eq!(a["valid"], false);
                    assert!(a["error"].as_str().unwrap().contains(e), "{backend}: expected {e:?} in {a}");
                }
                None => assert!(a.get("error").is_none(), "{a}"),
            }
        }
        assert_eq!(answers[0]["valid"], true);
        assert_eq!(answers[1]["valid"], false);
        assert_eq!(answers[13]["valid"], true);
    }
}

#[test]
fn batch_budget_refuses_before_work() {
    let (pk, msg, ctx, sig) = valid_case();
    let line = json!({"id": 1, "suite": "ML-DSA-44", "pk": pk, "msg": msg, "ctx": ctx, "sig": sig}).to_string();
    let input = format!("{line}\n{line}\n");
    let out = pqverify(&["batch", "--budget", "199"], input.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    let answers = stdout_lines(&out);
    assert_eq!(answers.len(), 2);
    assert!(answers.iter().all(|a| a["valid"] == false && a["error"].as_str().unwrap().contains("budget")));
    let out = pqverify(&["batch", "--budget", "200"], input.as_bytes());
    assert!(out.status.success());
    assert!(stdout_lines(&out).iter().all(|a| a["valid"] == true));
    let out = pqverify(&["batch", "--budget", "150", "--units", "ML-DSA-44=75"], input.as_bytes());
    assert!(out.status.success());
    assert_eq!(pqverify(&["batch", "--units", "ML-DSA-44=x"], b"").status.code(), Some(2));
    // Within its budget a batch is answered exactly as without one, lines without an item included.
    let long = format!("{{\"id\":8,\"msg\":\"{}\"}}", "00".repeat(1 << 21));
    let input = format!("{line}\nnot json\n{{\"id\":7}}\n{long}\n{line}\n");
    let budgeted = pqverify(&["batch", "--budget", "1000"], input.as_bytes());
    let streamed = pqverify(&["batch"], input.as_bytes());
    assert_eq!(budgeted.status.code(), Some(2), "lines with errors");
    assert_eq!(budgeted.stdout, streamed.stdout);
    let answers = stdout_lines(&budgeted);
    assert_eq!(answers.iter().map(|a| a["valid"] == true).collect::<Vec<_>>(), [true, false, false, false, true]);
    assert_eq!(answers[2]["id"], 7);
    assert_eq!(answers[3]["kind"], "input");
    assert!(answers[3]["error"].as_str().unwrap().contains("the limit is"), "over-long: {}", answers[3]);
}

#[test]
fn acvp_through_batch_with_every_backend() {
    let cases = common::acvp_cases();
    let input: String = cases.iter().map(|c| format!("{}\n", common::line_of(c))).collect();
    for args in [
        &["--backend", "pqverify"][..],
        &["--backend", "liboqs"],
        &["--backend", "rustcrypto"],
        &["--backend", "dual", "--mode", "enforce"],
        &["--backend", "dual", "--mode", "shadow"],
    ] {
        let mut full = vec!["batch"];
        full.extend_from_slice(args);
        let out = pqverify(&full, input.as_bytes());
        let answers = stdout_lines(&out);
        assert_batch_status(&out, &answers);
        assert_eq!(answers.len(), cases.len());
        let (mut verified, mut unsupported) = (0, 0);
        for (case, a) in cases.iter().zip(&answers) {
            assert_eq!(a["id"], json!(case.tc_id));
            match a.get("error") {
                None => {
                    assert_eq!(a["valid"], json!(case.expected), "{args:?} tcId {} {}", case.tc_id, case.suite);
                    verified += 1;
                }
                Some(e) => {
                    assert!(e.as_str().unwrap().contains("does not support"), "{args:?} tcId {}: {e}", case.tc_id);
                    unsupported += 1;
                }
            }
        }
        println!("pqverify batch {}: {verified} verified as expected, {unsupported} unsupported", args.join(" "));
        assert!(verified >= 45);
        if args[1] != "liboqs" {
            assert_eq!(unsupported, 0);
        }
        assert!(!stderr(&out).contains("\"primary\""), "no disagreement expected");
    }
}

#[test]
fn batch_of_100k_mixed_lines_answers_every_line_in_order() {
    let (pk, sign) = common::signer(pqverify_core::Suite::MlDsa44, 9);
    let pk = hex::encode(pk);
    let signed: Vec<(String, String)> = (0..50)
        .map(|i| {
            let msg = format!("message {i}").into_bytes();
            (hex::encode(&msg), hex::encode(sign(&msg, b"")))
        })
        .collect();
    let huge = "ab".repeat(1 << 20);
    let mut input = String::new();
    let mut expect: Vec<(Value, Option<bool>)> = Vec::new(); // (id, verdict for the valid lines)
    for i in 0..100_000usize {
        let line = match i % 10 {
            0 => {
                let (msg, sig) = &signed[(i / 10) % signed.len()];
                expect.push((json!(i), Some(true)));
                json!({"id": i, "suite": "ML-DSA-44", "pk": pk, "msg": msg, "sig": sig}).to_string()
            }
            1 => {
                expect.push((Value::Null, None));
                "{\"id\": 1, \"suite\": ".to_owned()
            }
            2 => {
                expect.push((json!(i), None));
                json!({"id": i, "suite": "ML-DSA-1024", "pk": "", "msg": "", "sig": ""}).to_string()
            }
            3 => {
                expect.push((json!(i), None));
                json!({"id": i, "suite": "ML-DSA-44", "pk": "abc", "msg": "", "sig": ""}).to_string()
            }
            4 if i % 10_000 == 4 => {
                // Over the line limit: answered (id unknown), skipped without being held.
                expect.push((Value::Null, None));
                json!({"id": i, "suite": "SLH-DSA-SHAKE-128f", "pk": "00", "msg": huge, "sig": huge}).to_string()
            }
            4 if i % 10_000 == 14 => {
                // A huge field within the limit: parsed, and refused for the key's length.
                expect.push((json!(i), None));
                json!({"id": i, "suite": "SLH-DSA-SHAKE-128f", "pk": "00", "msg": huge, "sig": ""}).to_string()
            }
            5 => {
                let (msg, sig) = &signed[0];
                expect.push((json!(i), Some(false)));
                json!({"id": i, "suite": "ML-DSA-44", "pk": pk, "msg": msg, "ctx": "01", "sig": sig}).to_string()
            }
            _ => {
                expect.push((Value::Null, None));
                "\u{0}\u{1}garbage".to_owned()
            }
        };
        input.push_str(&line);
        input.push('\n');
    }
    let out = pqverify(&["batch", "--backend", "pqverify", "--threads", "2"], input.as_bytes());
    let answers = stdout_lines(&out);
    assert_eq!(out.status.code(), Some(2), "unusable lines make the batch exit 2: {}", stderr(&out));
    assert_eq!(answers.len(), 100_000, "one answer per line");
    for (i, ((id, verdict), a)) in expect.iter().zip(&answers).enumerate() {
        assert_eq!(&a["id"], id, "line {i}: answer out of order");
        match verdict {
            Some(v) => {
                assert_eq!(a["valid"], json!(v), "line {i}");
                assert!(a.get("error").is_none(), "line {i}: {a}");
            }
            None => {
                assert_eq!(a["valid"], false, "line {i}");
                assert!(a["error"].is_string(), "line {i}: {a}");
            }
        }
    }
}

/// One valid ML-DSA-44 request line whose message is `msg_len` bytes.
fn request_line(id: usize, msg_len: usize) -> String {
    let (pk, sign) = common::signer(pqverify_core::Suite::MlDsa44, 11);
    let msg: Vec<u8> = (0..msg_len).map(|i| i as u8).collect();
    let sig = sign(&msg, b"");
    json!({"id": id, "suite": "ML-DSA-44", "pk": hex::encode(pk), "msg": hex::encode(&msg), "sig": hex::encode(sig)})
        .to_string()
}

/// Reads one line from `lines` or gives up after a minute (a hang is the failure).
fn next_line(lines: &std::sync::mpsc::Receiver<String>) -> String {
    lines.recv_timeout(std::time::Duration::from_secs(60)).expect("an answer while the input is still open")
}

/// Starts `pqverify batch` with piped stdin/stdout and a thread forwarding its
/// answer lines.
fn sidecar(args: &[&str]) -> (std::process::Child, std::process::ChildStdin, std::sync::mpsc::Receiver<String>) {
    let mut child = common::pqverify_command()
        .current_dir(std::env::temp_dir())
        .arg("batch")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    (child, stdin, rx)
}

#[test]
fn batch_answers_a_line_while_its_input_stays_open() {
    let (mut child, mut stdin, answers) = sidecar(&["--backend", "dual"]);
    for id in 0..3 {
        let started = std::time::Instant::now();
        writeln!(stdin, "{}", request_line(id, 32)).unwrap();
        stdin.flush().unwrap();
        let answer: Value = serde_json::from_str(&next_line(&answers)).unwrap();
        assert_eq!(answer, json!({"id": id, "valid": true}));
        println!("sidecar round trip {id}: {:.2} ms", started.elapsed().as_secs_f64() * 1e3);
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

/// Peak resident memory of a running process (VmHWM), in bytes.
fn peak_rss(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib * 1024
}

#[test]
fn memory_stays_bounded_under_near_limit_lines() {
    // 200 valid requests of 3.9 MB each (ML-DSA-44, 1.9 MB messages): 780 MB of input.
    let line = request_line(0, 1_950_000);
    assert!(line.len() > 3_900_000 && line.len() < 1 << 22, "{}", line.len());
    let (mut child, mut stdin, answers) = sidecar(&["--backend", "pqverify", "--threads", "2"]);
    let writer = std::thread::spawn(move || {
        for _ in 0..200 {
            writeln!(stdin, "{line}").unwrap();
        }
        stdin
    });
    for _ in 0..200 {
        let answer: Value = serde_json::from_str(&next_line(&answers)).unwrap();
        assert_eq!(answer["valid"], json!(true));
    }
    // The input is still open: the process is alive to be measured.
    let peak = peak_rss(child.id());
    println!("peak RSS with 200 lines of 3.9 MB: {:.0} MiB", peak as f64 / 1048576.0);
    assert!(peak < 400 << 20, "peak RSS {peak} bytes: memory is not bounded by --max-in-flight");
    drop(writer.join().unwrap());
    assert!(child.wait().unwrap().success());
}

/// `key` as a SubjectPublicKeyInfo (RFC 9881 layout, written out here) for NIST arc `arc`.
fn spki_der(arc: u8, key: &[u8]) -> Vec<u8> {
    let n = key.len() + 1;
    let bits = [&[0x03, 0x82, (n >> 8) as u8, n as u8, 0][..], key].concat();
    let alg = [0x30, 0x0b, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x03, arc];
    let total = alg.len() + bits.len();
    [&[0x30, 0x82, (total >> 8) as u8, total as u8][..], &alg, &bits].concat()
}

fn pem_of(der: &[u8]) -> String {
    use base64::Engine;
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let lines: Vec<String> = b64.as_bytes().chunks(64).map(|c| String::from_utf8(c.to_vec()).unwrap()).collect();
    format!("-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n", lines.join("\n"))
}

#[test]
fn keys_in_spki_and_pem_verify_through_verify_and_batch() {
    let (pk, msg, ctx, sig) = valid_case();
    let der = spki_der(17, &hex::decode(&pk).unwrap());
    let pem = pem_of(&der);
    let dir = std::env::temp_dir().join(format!("pqverify-cli-keys-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pem_path = dir.join("key.pem");
    std::fs::write(&pem_path, &pem).unwrap();
    let at_pem = format!("@{}", pem_path.display());
    let mut bad = hex::decode(&sig).unwrap();
    bad[10] ^= 1;
    let bad = hex::encode(bad);
    let run = |format: &str, key: &str, sig: &str| {
        let args =
            ["verify", "--suite", "ML-DSA-44", "--key-format", format, "--pk", key, "--msg", &msg, "--ctx", &ctx];
        pqverify(&[&args[..], &["--sig", sig]].concat(), b"")
    };
    for (format, key) in [("spki", hex::encode(&der)), ("pem", pem.clone()), ("pem", at_pem.clone())] {
        let out = run(format, &key, &sig);
        assert_eq!(out.status.code(), Some(0), "{format}: {}", stderr(&out));
        assert_eq!(run(format, &key, &bad).status.code(), Some(1), "{format}, flipped");
    }
    // Another suite's OID, trailing bytes, a raw key as SPKI, a broken PEM: exit 2, one line.
    let other = spki_der(18, &hex::decode(&pk).unwrap());
    for (format, key, expected) in [
        ("spki", hex::encode(&other), "holds a ML-DSA-65 key; expected a ML-DSA-44 key"),
        ("spki", format!("{}00", hex::encode(&der)), "trailing bytes"),
        ("spki", pk.clone(), "malformed SubjectPublicKeyInfo"),
        ("pem", pem.replace("PUBLIC", "PRIVATE"), "PEM expected"),
        ("raw", hex::encode(&der), "1334 bytes; ML-DSA-44 public keys are 1312 bytes"),
    ] {
        let out = run(format, &key, &sig);
        assert_eq!(out.status.code(), Some(2), "{expected}");
        let err = stderr(&out);
        assert!(err.contains(expected) && err.trim().lines().count() == 1, "{expected}: {err}");
    }
    // The same through batch lines.
    let line = |id: u32, format: &str, key: &str, sig: &str| {
        json!({"id": id, "suite": "ML-DSA-44", "key_format": format, "pk": key, "msg": msg, "ctx": ctx, "sig": sig})
            .to_string()
    };
    let input = [
        line(1, "spki", &hex::encode(&der), &sig),
        line(2, "pem", &pem, &sig),
        line(3, "pem", &pem, &bad),
        line(4, "raw", &pk, &sig),
        line(5, "spki", &hex::encode(&other), &sig),
        line(6, "der", &pk, &sig),
    ]
    .join("\n");
    let out = pqverify(&["batch", "--backend", "pqverify"], input.as_bytes());
    let answers = stdout_lines(&out);
    assert_batch_status(&out, &answers);
    let verdicts: Vec<Value> = answers.iter().map(|a| a["valid"].clone()).collect();
    assert_eq!(verdicts, [true, true, false, true, false, false].map(Value::from));
    assert!(answers[4]["error"].as_str().unwrap().contains("holds a ML-DSA-65 key"));
    assert!(answers[5]["error"].as_str().unwrap().contains("unknown key format \"der\""));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn qc_verifies_a_certificate_against_its_threshold() {
    use pqverify_core::Suite;
    let dir = std::env::temp_dir().join(format!("pqverify-cli-qc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let block = [9u8; 32];
    let signers: Vec<pqverify_testkit::KeyPair> = (0..4u8)
        .map(|i| pqverify_testkit::KeyPair::new(Suite::MlDsa44, &pqverify_testkit::KeySeed::fill(i, [0; 3])))
        .collect();
    let keys: String = signers.iter().map(|k| format!("{}\n", hex::encode(k.public_key()))).collect();
    std::fs::write(dir.join("keys"), keys).unwrap();
    let sig = |i: usize| hex::encode(signers[i].sign(&block, b"", &[0; 32]));
    let mut flipped = signers[2].sign(&block, b"", &[0; 32]);
    flipped[0] ^= 1;
    // Validators 3, 0 and 2 (its signature flipped), in that order.
    let certificate = format!("3 {}\n0 {}\n\n2 {}\n", sig(3), sig(0), hex::encode(&flipped));
    let keys = dir.join("keys");
    let base = ["qc", "--suite", "ml-dsa-44", "--keys", keys.to_str().unwrap(), "--msg", &hex::encode(block)];
    for extra in [&[][..], &["--one-shot"], &["--threads", "1"]] {
        let all = pqverify(&[&base[..], extra].concat(), certificate.as_bytes());
        assert_eq!(all.status.code(), Some(1), "all three must verify by default: {}", stderr(&all));
        let report = &stdout_lines(&all)[0];
        assert_eq!(report["verdicts"], json!([true, true, false]));
        assert_eq!(
            (report["valid"].as_u64(), report["validators"].as_u64(), report["reached"].as_bool()),
            (Some(2), Some(4), Some(false))
        );
        let two = pqverify(&[&base[..], extra, &["--threshold", "2"]].concat(), certificate.as_bytes());
        assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
        assert_eq!(stdout_lines(&two)[0]["reached"], json!(true));
    }
    // A certificate that cannot be checked: exit 2 with one line saying why.
    for (bad, says) in [
        (format!("4 {}\n", sig(0)), "signature 0 names validator 4, not in the set of 4"),
        (format!("0 {}\n0 {}\n", sig(0), sig(0)), "validator 0 signs twice"),
        (format!("x {}\n", sig(0)), "--signatures line 1: index \"x\""),
        ("1 zz\n".to_owned(), "--signatures line 1: not hex"),
    ] {
        let out = pqverify(&base, bad.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(stderr(&out).contains(says), "{}", stderr(&out));
        assert_eq!(stderr(&out).lines().count(), 1, "{}", stderr(&out));
    }
    // Its output cannot be written: exit 3 with one line, never a panic.
    let full = pqverify_redirected(
        &format!("qc --suite ml-dsa-44 --keys {} --msg 00 --signatures /dev/null", keys.display()),
        Some("/dev/full"),
        Some("/dev/stderr"),
    );
    assert_eq!(full.status.code(), Some(3), "{}", stderr(&full));
    std::fs::write(dir.join("short"), "00\n").unwrap();
    let short = dir.join("short");
    let out = pqverify(&["qc", "--suite", "ML-DSA-44", "--keys", short.to_str().unwrap(), "--msg", "00"], b"0 00\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--keys: validator 0: public key is 1 bytes"), "{}", stderr(&out));
    std::fs::remove_dir_all(&dir).unwrap();
}
