//! `pqverify`: verify post-quantum signatures from the command line, one at a time
//! or as a JSON-lines batch, with one backend or two (dual verification). This file
//! parses and dispatches; each subcommand is a module of `cli/`.

use std::process::ExitCode;

use clap::Parser;

mod cli;

use cli::{Cli, Command};
use pqverify_native::note;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e),
    };
    if let Err(message) = pqverify_native::kernels::force_from_env() {
        note!("pqverify: error: {message}");
        return ExitCode::from(2);
    }
    let result = match cli.command {
        Command::Suites { json, liboqs } => cli::suites::suites(json, liboqs.as_deref()),
        Command::Verify(args) => cli::verify::verify_one(args),
        Command::Batch { verifier, threads, budget, units, max_in_flight } => {
            cli::batch::batch(&verifier, threads, budget, &units, max_in_flight)
        }
        Command::Qc(args) => cli::qc::qc(args),
    };
    result.unwrap_or_else(|failure| failure.exit("pqverify"))
}

/// `--help` and `--version` print as clap renders them (exit 0); a usage error is one
/// line on standard error with exit 2, like every other bad input.
fn usage_error(e: &clap::Error) -> ExitCode {
    if !e.use_stderr() {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    let text = e.render().to_string();
    let line = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information"))
        .collect::<Vec<_>>()
        .join(" ");
    note!("pqverify: error: {}", line.trim_start_matches("error: "));
    ExitCode::from(2)
}
