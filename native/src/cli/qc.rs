//! `pqverify qc`: one quorum certificate — n validators' signatures on one message, the
//! validator set's keys prepared once — verified on all cores by pqverify-core
//! (`pqverify_native::certificate`). Exit 0 when at least the threshold of signatures
//! verify, 1 when fewer do, 2 bad input, 3 I/O.

use std::io::{Read, Write};
use std::process::ExitCode;

use pqverify_core::Message;
use pqverify_core::certificate::check_certificate;
use pqverify_native::certificate::{ValidatorSet, Verdicts, verify_one_shot};

use super::SuiteArg;
use super::verifier::bytes_arg;
use pqverify_native::command::Failure::{self, BadInput};

/// The command's options.
#[derive(clap::Args)]
pub(crate) struct Qc {
    /// FIPS suite name of every validator's key.
    #[arg(long, value_enum, ignore_case = true, hide_possible_values = true)]
    pub(crate) suite: SuiteArg,
    /// The validator set: one raw public key in hex per line (validator i on line i+1).
    #[arg(long, value_name = "FILE")]
    pub(crate) keys: std::path::PathBuf,
    /// The signed message (a block hash): hex, or @FILE.
    #[arg(long)]
    pub(crate) msg: String,
    /// Context string: hex, or @FILE (default empty).
    #[arg(long)]
    pub(crate) ctx: Option<String>,
    /// The certificate: one "INDEX SIGNATURE-HEX" per line (`-`: standard input).
    #[arg(long, value_name = "FILE", default_value = "-")]
    pub(crate) signatures: std::path::PathBuf,
    /// Signatures that must verify (default: all of them).
    #[arg(long)]
    pub(crate) threshold: Option<usize>,
    /// Worker threads (default: all cores).
    #[arg(long)]
    pub(crate) threads: Option<usize>,
    /// Decode each key per signature instead of preparing the set (a set seen once).
    #[arg(long)]
    pub(crate) one_shot: bool,
}

/// The text of `path` (`-`: standard input).
fn read_text(option: &str, path: &std::path::Path) -> Result<String, Failure> {
    let mut text = String::new();
    let read = if path.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text).map(|_| ())
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_string(&mut text)).map(|_| ())
    };
    read.map_err(|e| BadInput(format!("--{option}: cannot read {}: {e}", path.display())))?;
    Ok(text)
}

/// The lines of `text` that are not blank, with their line numbers (from 1).
fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().map(|(n, l)| (n + 1, l.trim())).filter(|(_, l)| !l.is_empty())
}

pub(crate) fn qc(args: Qc) -> Result<ExitCode, Failure> {
    let SuiteArg(suite) = args.suite;
    let keys: Vec<Vec<u8>> = lines(&read_text("keys", &args.keys)?)
        .map(|(n, l)| hex::decode(l).map_err(|e| BadInput(format!("--keys line {n}: not hex ({e})"))))
        .collect::<Result<_, _>>()?;
    let signed: Vec<(usize, Vec<u8>)> = lines(&read_text("signatures", &args.signatures)?)
        .map(|(n, l)| {
            let bad = |what: String| {
                BadInput(format!(
                    "--signatures line {n}: {what}; expected a validator index, a space, the signature in hex"
                ))
            };
            let (index, sig) = l.split_once(char::is_whitespace).ok_or_else(|| bad("one field".into()))?;
            let index = index.parse::<usize>().map_err(|e| bad(format!("index {index:?}: {e}")))?;
            Ok((index, hex::decode(sig.trim()).map_err(|e| bad(format!("not hex ({e})")))?))
        })
        .collect::<Result<_, Failure>>()?;
    let msg = bytes_arg("msg", &args.msg)?;
    let ctx = args.ctx.map(|c| bytes_arg("ctx", &c)).transpose()?.unwrap_or_default();
    let message = Message::pure(&msg, &ctx);
    let threshold = args.threshold.unwrap_or(signed.len());
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        builder = builder.num_threads(n.max(1));
    }
    let pool = builder.build().map_err(|e| Failure::Internal(format!("thread pool: {e}")))?;
    let verdicts: Verdicts = if args.one_shot {
        check_certificate(suite, message, keys.len(), signed.iter().map(|(index, _)| *index))
            .map_err(|e| BadInput(e.to_string()))?;
        let pairs: Vec<(&[u8], &[u8])> = signed.iter().map(|(i, s)| (keys[*i].as_slice(), s.as_slice())).collect();
        verify_one_shot(suite, message, &pairs, Some(&pool))
    } else {
        let set = ValidatorSet::prepare(suite, &keys, Some(&pool)).map_err(|e| BadInput(format!("--keys: {e}")))?;
        let signatures: Vec<(usize, &[u8])> = signed.iter().map(|(i, s)| (*i, s.as_slice())).collect();
        set.verify_certificate(message, &signatures, Some(&pool))
    }
    .map_err(|e| BadInput(e.to_string()))?;
    let report = serde_json::json!({
        "suite": suite.name(),
        "validators": keys.len(),
        "signatures": signed.len(),
        "valid": verdicts.valid(),
        "threshold": threshold,
        "reached": verdicts.reaches(threshold),
        "verdicts": verdicts.0,
    });
    let mut out = std::io::stdout().lock();
    writeln!(out, "{report}")?;
    out.flush()?;
    Ok(if verdicts.reaches(threshold) { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
