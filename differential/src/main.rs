//! `pqverify-differential`: the differential campaign over every verifier reachable
//! here, and the replay of one case file.
//!
//! Exit codes: 0 no unexplained disagreement, 1 an unexplained disagreement (each is
//! in `DIR/disagreement-*.json` and `.cases`), 2 bad arguments or a failure to run.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use pqverify_differential::{campaign, generate};

#[derive(Parser)]
#[command(
    name = "pqverify-differential",
    about = "The differential campaign: every verifier reachable here, one case file"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Run pqverify on its portable kernels.
    #[arg(long, global = true)]
    portable: bool,
}

#[derive(Subcommand)]
enum Command {
    /// Generate cases, ask every verifier, and write the summary and each disagreement.
    Run {
        /// Cases in all.
        #[arg(long, default_value_t = 10_000)]
        count: u64,
        /// The generator's seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where case files, answers, disagreements and the summary go.
        #[arg(long, value_name = "DIR", default_value = "target/differential")]
        out: PathBuf,
        /// Cases per case file.
        #[arg(long, default_value_t = 2_000)]
        chunk: u64,
        /// Parts of the cases per ML-DSA set to one per SLH-DSA set.
        #[arg(long, value_name = "W", default_value_t = generate::ML_DSA_WEIGHT)]
        ml_dsa_weight: u64,
        #[command(flatten)]
        peers: Peers,
    },
    /// Ask the verifiers again about the cases of one case file.
    Replay {
        /// A `.cases` file (a disagreement's, or one of a run's).
        file: PathBuf,
        #[command(flatten)]
        peers: Peers,
    },
}

/// The verifiers beyond those linked in.
#[derive(Args)]
struct Peers {
    /// A liboqs shared library to load as a second liboqs.
    #[arg(long, value_name = "LIB.so")]
    liboqs: Option<PathBuf>,
    /// The Node binary that runs the helper (Node 24: OpenSSL 3.5).
    #[arg(long, requires = "helper")]
    node: Option<PathBuf>,
    /// The Node helper (`js/answer.mjs`): OpenSSL and noble.
    #[arg(long, value_name = "answer.mjs", requires = "node")]
    helper: Option<PathBuf>,
    /// A Chromium whose WebCrypto the helper asks too.
    #[arg(long, requires = "node")]
    chromium: Option<PathBuf>,
}

impl Peers {
    fn node(&self) -> Option<campaign::NodeHelper> {
        let (node, script) = (self.node.clone()?, self.helper.clone()?);
        Some(campaign::NodeHelper { node, script, chromium: self.chromium.clone() })
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { ExitCode::from(2) } else { ExitCode::SUCCESS };
        }
    };
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("pqverify-differential: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<bool, String> {
    if cli.portable {
        pqverify_core::force_portable(true);
    }
    pqverify_native::kernels::force_from_env()?;
    match cli.command {
        Command::Run { count, seed, out, chunk, ml_dsa_weight, peers } => {
            let node = peers.node();
            let opts = campaign::Options { count, seed, out, chunk, ml_dsa_weight, liboqs: peers.liboqs, node };
            let summary = campaign::run(&opts)?;
            print!("{}", summary.markdown(&opts));
            Ok(summary.unexplained == 0)
        }
        Command::Replay { file, peers } => {
            let rows = campaign::replay(&file, peers.liboqs.as_deref(), peers.node().as_ref())?;
            let mut agreed = true;
            for (i, row) in rows.iter().enumerate() {
                let line: Vec<String> = row.iter().map(|(n, a)| format!("{n} {}", a.letter())).collect();
                println!("case {i}: {}", line.join(", "));
                agreed &= !campaign::disagree(row);
            }
            Ok(agreed)
        }
    }
}
