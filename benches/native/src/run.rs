//! `pqverify-bench run`: the benchmark suite natively, as JSON-lines records.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use pqverify_native::units::UnitTable;

use crate::ways::Liboqses;
use crate::{RunArgs, capacity};
use pqverify_native::command::Failure::{self, BadInput, Internal};
use pqverify_native::command::load_liboqs;
use pqverify_native::command::open_sink;
use pqverify_native::{note, say};

pub(crate) fn run(args: RunArgs) -> Result<ExitCode, Failure> {
    let RunArgs {
        out,
        rounds,
        suites,
        quick,
        no_block,
        run,
        disagreements,
        liboqs,
        liboqs_avx2,
        certificates,
        distinct,
        kernels,
    } = args;
    use pqverify_bench::{Config, Fixtures, Record};
    if let Some(name) = &kernels {
        pqverify_native::command::force_kernels(name)?;
    }
    let fixtures = Fixtures::parse(pqverify_bench::FIXTURES_JSON).map_err(BadInput)?;
    for s in &suites {
        if !fixtures.suites.iter().any(|f| f.suite.eq_ignore_ascii_case(s)) {
            return Err(BadInput(format!("--suites: unknown suite {s:?}")));
        }
    }
    let distinct =
        std::fs::read(&distinct).map_err(|e| BadInput(format!("--distinct: {}: {e}", distinct.display()))).and_then(
            |bytes| pqverify_bench::distinct::DistinctFixtures::parse(&bytes, &fixtures.digest).map_err(BadInput),
        )?;
    let distinct = std::sync::Arc::new(distinct);
    let mut config = if quick { Config::quick() } else { Config::full() };
    if let Some(r) = rounds {
        config.rounds = r.max(1);
    }
    config.suites = suites.clone();
    let run = run.unwrap_or_else(|| {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        format!("{}-native", pqverify_bench::record::utc_timestamp(now))
    });
    note!("pqverify-bench run: for steadier numbers, pin to one core and lower other load, e.g.");
    note!("  nice -n -5 taskset -c 1 pqverify-bench run …   (taskset pins; nice needs root for a negative value)");
    let sink = open_sink(&disagreements)?;
    let liboqs = Liboqses {
        linked: std::sync::Arc::new(pqverify_native::backend::Liboqs::new()),
        loaded: load_liboqs(liboqs.as_deref())?,
        avx2: load_liboqs(liboqs_avx2.as_deref())?,
    };
    let mut writer: Box<dyn Write> = match &out {
        Some(path) => Box::new(BufWriter::new(
            std::fs::File::create(path).map_err(|e| BadInput(format!("--out: {}: {e}", path.display())))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    };
    let mut ways = crate::ways::native_ways(&liboqs, &sink, &distinct);
    let mut env = crate::env::native_env(&run, &liboqs);
    env.extra.insert("distinct-fixtures".into(), distinct.digest.clone().into());
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
        &mut crate::ways::NativeClock::new(),
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
            "pqverify-bench run: worst-case blocks through the parallel batch ({} threads)",
            rayon::current_num_threads()
        );
        let table = UnitTable::default();
        let blocks = crate::blocks::worst_case_blocks(
            &fixtures,
            &distinct,
            &suites,
            &table,
            &run,
            liboqs.primary(),
            &sink,
            quick,
        )
        .map_err(BadInput)?;
        for block in blocks {
            emit(&Record::Block(block));
        }
    }
    // Section 7: first call, memory per prepared key, throughput by threads.
    let chosen: Vec<pqverify_bench::SuiteFixture> = fixtures
        .suites
        .iter()
        .filter(|f| suites.is_empty() || suites.iter().any(|s| s.eq_ignore_ascii_case(&f.suite)))
        .cloned()
        .collect();
    let (handles, duration) = if quick { (3, 40) } else { (9, 300) };
    note!("pqverify-bench run: first calls ({handles} fresh processes per suite)");
    let exe = std::env::current_exe().map_err(|e| Internal(format!("the running executable: {e}")))?;
    for sample in capacity::first_calls(&exe, &chosen, &run, handles).map_err(Internal)? {
        emit(&Record::Sample(sample));
    }
    note!("pqverify-bench run: memory per prepared key ({MEMORY_KEYS} keys per suite)");
    for m in capacity::memory_per_key(&chosen, &run, MEMORY_KEYS).map_err(Internal)? {
        emit(&Record::Memory(m));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
    note!("pqverify-bench run: throughput on {:?} threads", pqverify_bench::thread_counts(cores));
    let dual = crate::ways::dual(liboqs.primary(), pqverify_native::dual::Mode::Enforce, 1, sink.clone());
    let rates = capacity::scaling(&chosen, &run, cores, std::time::Duration::from_millis(duration), &dual);
    for r in rates.map_err(Internal)? {
        emit(&Record::Scaling(r));
    }
    if let Some(path) = &certificates {
        let bytes = std::fs::read(path).map_err(|e| BadInput(format!("--certificates: {}: {e}", path.display())))?;
        let fixtures = pqverify_bench::certificates::CertificateFixtures::parse(&bytes).map_err(BadInput)?;
        note!(
            "pqverify-bench run: quorum certificates of {} validators on {:?} threads",
            fixtures.validators,
            pqverify_bench::thread_counts(cores)
        );
        let budget = if quick {
            pqverify_bench::certificates::CertificateBudget::QUICK
        } else {
            pqverify_bench::certificates::CertificateBudget::FULL
        };
        for c in crate::certificates::certificates(&fixtures, &suites, &env, cores, budget, &liboqs.linked)
            .map_err(Internal)?
        {
            emit(&Record::Certificate(c));
        }
    }
    if let Some(e) = failure {
        return Err(BadInput(format!("writing records: {e}")));
    }
    writer.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// Prepared keys held per suite for the memory-per-key records.
const MEMORY_KEYS: u32 = 200;

/// `pqverify-bench first-call --suite S` (hidden): the first verify of this fresh
/// process, as one JSON line, for `run`'s first-call records.
/// The benchmark fixture of `suite` (named case-insensitively), or the `--suite` error.
pub(crate) fn fixture_for<'a>(
    fixtures: &'a pqverify_bench::Fixtures,
    suite: &str,
) -> Result<&'a pqverify_bench::SuiteFixture, Failure> {
    fixtures
        .suites
        .iter()
        .find(|f| f.suite.eq_ignore_ascii_case(suite))
        .ok_or_else(|| BadInput(format!("--suite: no fixture for {suite:?}")))
}

pub(crate) fn first_call(suite: &str, kernels: Option<&str>) -> Result<ExitCode, Failure> {
    if let Some(name) = kernels {
        pqverify_native::command::force_kernels(name)?;
    }
    let fixtures = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON).map_err(BadInput)?;
    let f = fixture_for(&fixtures, suite)?;
    let measured = capacity::first_call_here(f).map_err(Internal)?;
    say!("{}", serde_json::to_string(&measured).map_err(|e| Internal(e.to_string()))?);
    Ok(ExitCode::SUCCESS)
}
