//! `pqverify-differential`: the differential campaign over every verifier reachable
//! here, and the replay of one case file.
//!
//! ```text
//! pqverify-differential run [--count N] [--seed S] [--out DIR] [--chunk N] [--ml-dsa-weight W]
//!                           [--liboqs LIB.so] [--node NODE --helper answer.mjs [--chromium PATH]] [--portable]
//! pqverify-differential replay FILE.cases [--liboqs LIB.so] [--node NODE --helper answer.mjs [--chromium PATH]]
//! ```
//!
//! Exit codes: 0 no unexplained disagreement, 1 an unexplained disagreement (each is
//! in `DIR/disagreement-*.json` and `.cases`), 2 bad arguments or a failure to run.

use pqverify_differential::campaign;
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pqverify-differential: {e}");
            ExitCode::from(2)
        }
    }
}

/// The value after `name`, parsed.
fn opt<T: std::str::FromStr>(args: &[String], name: &str) -> Result<Option<T>, String> {
    match args.iter().position(|a| a == name) {
        None => Ok(None),
        Some(i) => {
            let v = args.get(i + 1).ok_or_else(|| format!("{name} needs a value"))?;
            v.parse().map(Some).map_err(|_| format!("{name} {v}: not a valid value"))
        }
    }
}

fn node(args: &[String]) -> Result<Option<campaign::NodeHelper>, String> {
    let chromium = opt::<PathBuf>(args, "--chromium")?;
    match (opt::<PathBuf>(args, "--node")?, opt::<PathBuf>(args, "--helper")?) {
        (Some(node), Some(script)) => Ok(Some(campaign::NodeHelper { node, script, chromium })),
        (None, None) if chromium.is_none() => Ok(None),
        _ => Err("--node and --helper go together (and --chromium needs them)".into()),
    }
}

fn run() -> Result<bool, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--portable") {
        pqverify_core::force_portable(true);
    }
    pqverify_native::kernels::force_from_env()?;
    match args.first().map(String::as_str) {
        Some("run") => {
            let opts = campaign::Options {
                count: opt(&args, "--count")?.unwrap_or(10_000),
                seed: opt(&args, "--seed")?.unwrap_or(1),
                out: opt(&args, "--out")?.unwrap_or_else(|| PathBuf::from("target/differential")),
                chunk: opt(&args, "--chunk")?.unwrap_or(2_000),
                ml_dsa_weight: opt(&args, "--ml-dsa-weight")?.unwrap_or(pqverify_differential::generate::ML_DSA_WEIGHT),
                liboqs: opt(&args, "--liboqs")?,
                node: node(&args)?,
            };
            let summary = campaign::run(&opts)?;
            print!("{}", summary.markdown(&opts));
            Ok(summary.unexplained == 0)
        }
        Some("replay") => {
            let file = PathBuf::from(args.get(1).ok_or("replay needs a case file")?);
            let rows = campaign::replay(&file, opt::<PathBuf>(&args, "--liboqs")?.as_deref(), node(&args)?.as_ref())?;
            let mut agreed = true;
            for (i, row) in rows.iter().enumerate() {
                let line: Vec<String> = row.iter().map(|(n, a)| format!("{n} {}", a.letter())).collect();
                println!("case {i}: {}", line.join(", "));
                agreed &= !campaign::disagree(row);
            }
            Ok(agreed)
        }
        _ => Err("usage: pqverify-differential run [--count N] [--seed S] [--out DIR] [--chunk N] [--ml-dsa-weight W] [--liboqs LIB] [--node NODE --helper answer.mjs [--chromium PATH]] [--portable] | replay FILE".into()),
    }
}
