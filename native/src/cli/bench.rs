//! `pqverify bench`: the benchmark suite natively, as JSON-lines records.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use pqverify_native::units::UnitTable;

use super::BenchArgs;
use super::failure::Failure::{self, BadInput};
use super::verifier::{load_liboqs, open_sink};

pub(crate) fn bench(args: BenchArgs) -> Result<ExitCode, Failure> {
    let BenchArgs { out, rounds, suites, quick, no_block, run, disagreements, liboqs } = args;
    use pqverify_bench::{Config, Fixtures, Record};
    let fixtures = Fixtures::parse(pqverify_bench::FIXTURES_JSON).map_err(BadInput)?;
    for s in &suites {
        if !fixtures.suites.iter().any(|f| f.suite.eq_ignore_ascii_case(s)) {
            return Err(BadInput(format!("--suites: unknown suite {s:?}")));
        }
    }
    let mut config = if quick { Config::quick() } else { Config::full() };
    if let Some(r) = rounds {
        config.rounds = r.max(1);
    }
    config.suites = suites.clone();
    let run = run.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        format!("{}-native", pqverify_bench::record::utc_timestamp(now))
    });
    note!("pqverify bench: for steadier numbers, pin to one core and lower other load, e.g.");
    note!("  nice -n -5 taskset -c 1 pqverify bench …   (taskset pins; nice needs root for a negative value)");
    let sink = open_sink(&disagreements)?;
    let liboqs = load_liboqs(liboqs.as_deref())?;
    let mut writer: Box<dyn Write> = match &out {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).map_err(|e| BadInput(format!("--out: {}: {e}", path.display())))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    };
    let mut ways = pqverify_native::bench::native_ways(&liboqs, &sink);
    let env = pqverify_native::bench::native_env(&run, &liboqs);
    let bar = indicatif::ProgressBar::new(config.steps(&fixtures, ways.len()));
    bar.set_style(
        indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {msg} [{elapsed}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let mut failure = None;
    let mut emit = |r: &Record| {
        if let Err(e) = writeln!(writer, "{}", r.to_line()) {
            failure.get_or_insert(e);
        }
    };
    pqverify_bench::run(
        &mut ways,
        &fixtures,
        &mut pqverify_native::bench::NativeClock::new(),
        &config,
        &env,
        &mut emit,
        &mut |p| {
            bar.set_position(p.done);
            bar.set_message(p.current.clone());
        },
    );
    bar.finish_and_clear();
    if !no_block {
        note!(
            "pqverify bench: worst-case blocks through the parallel batch ({} threads)",
            rayon::current_num_threads()
        );
        let table = UnitTable::default();
        for block in pqverify_native::bench::worst_case_blocks(&fixtures, &suites, &table, &run, &liboqs, &sink) {
            emit(&Record::Block(block));
        }
    }
    if let Some(e) = failure {
        return Err(BadInput(format!("writing records: {e}")));
    }
    writer.flush()?;
    Ok(ExitCode::SUCCESS)
}
