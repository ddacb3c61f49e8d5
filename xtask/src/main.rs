//! `cargo xtask …`: set-up and orchestration, the README's commands.
//!
//! * `cargo xtask test`  — installs what is missing, then runs every check.
//! * `cargo xtask bench` — installs what is missing, then runs the benchmarks.
//!
//! `main` parses the flags (typed, by clap) and hands off to one module per
//! subcommand; `process` runs commands, `project` knows the paths.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod aarch64;
mod acvp;
mod addon;
mod architecture;
mod bench;
mod builds;
mod certificates;
mod differential;
mod distinct;
mod fixtures;
mod fuzz;
mod glue;
mod liboqs;
mod mca;
mod package;
mod process;
mod profile;
mod project;
mod qemu_plugin;
mod setup;
mod tables;
mod test;
mod wasm2js;
mod wasm_setup;
mod www;

/// A failed step, with what to tell the user.
type Result<T = ()> = std::result::Result<T, String>;

/// Set-up and orchestration for pqverify.
#[derive(Parser)]
#[command(name = "cargo xtask", bin_name = "cargo xtask")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Set up, then every check: fmt, clippy, every test natively, in Node and in Chromium.
    Test {
        /// Only the steps whose name contains this text (for working on one part; CI runs all).
        #[arg(long, value_name = "TEXT")]
        only: Option<String>,
        /// Print the steps, one line each, and run none.
        #[arg(long)]
        list: bool,
    },
    /// Set up, then the benchmark suite natively, in Node and in headless Chromium, and the report.
    Bench(bench::Flags),
    /// Where one ML-DSA verify spends its instructions, per component (callgrind):
    /// pqverify one-shot and prepared beside liboqs 0.16.
    Profile(profile::Flags),
    /// Instructions per verify under qemu-aarch64 (not times): pqverify's AArch64 kernel
    /// sets beside liboqs 0.16's AArch64 code, on the same fixtures.
    Count(aarch64::Flags),
    /// Only install what is missing, saying what was found.
    Setup,
    /// Build the browser benchmark page and serve it on 127.0.0.1:8765.
    Www,
    /// Regenerate benches/fixtures/fixtures.json with the independent signers.
    Fixtures,
    /// Regenerate wasm/js/tables.js (the package's suite and pre-hash tables) from pqverify-core.
    Tables,
    /// The differential campaign: pqverify vs liboqs vs the reference on mutated signatures.
    Differential(differential::Flags),
    /// Run each fuzz target (cargo-fuzz, nightly) for a while.
    Fuzz(fuzz::Flags),
}

fn main() -> ExitCode {
    let outcome = match Cli::parse().command {
        Command::Test { only, list: true } => {
            test::list(only.as_deref());
            Ok(())
        }
        Command::Test { only, list: false } => test::run(only.as_deref()),
        Command::Bench(flags) => bench::run(&flags),
        Command::Profile(flags) => setup::all().and_then(|()| profile::run(&flags)),
        Command::Count(flags) => setup::all().and_then(|()| aarch64::count(&flags)),
        Command::Setup => setup::all().and_then(|()| wasm_setup::tools()),
        Command::Www => bench::serve_page(),
        Command::Fixtures => fixtures::run(),
        Command::Tables => tables::run(),
        Command::Differential(flags) => differential::run(&flags),
        Command::Fuzz(flags) => fuzz::run(flags.seconds),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: FAILED: {e}");
            ExitCode::FAILURE
        }
    }
}
