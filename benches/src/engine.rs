//! The run loop: rounds × suites × cases × ways (interleaved), each measurement a
//! series of timing samples within a time budget. The clock and the ways are
//! injected; nothing else differs between targets.

use crate::fixtures::{Case, Fixtures, SuiteFixture};
use crate::record::{Env, Record, SCHEMA, Sample};
use crate::stats::{median, quantile};

/// A monotonic clock in nanoseconds (native `Instant`, JS `performance.now()`).
pub trait Clock {
    /// Now, in nanoseconds from any fixed origin.
    fn now_ns(&mut self) -> f64;
}

/// One verify call, bound to a fixture case: returns the verdict, or an error.
pub type Bound<'a> = Box<dyn FnMut() -> Result<bool, String> + 'a>;

/// A way to verify (a backend, a dual verifier, a JS library).
pub trait Way {
    /// The way's name in the records.
    fn name(&self) -> String;
    /// A verify call for `fixture` with (`msg`, `sig`), prepared outside the timing
    /// (e.g. a prepared key is built here); `None` if the way lacks the suite.
    fn bind<'a>(&'a mut self, fixture: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>>;
    /// Disagreements between the way's own verifiers so far (dual ways).
    fn disagreements(&self) -> u64 {
        0
    }
}

/// How long and what to measure.
#[derive(Clone, Debug)]
pub struct Config {
    /// Rounds (each runs every way on every suite and case).
    pub rounds: u32,
    /// Time budget of one measurement, in nanoseconds.
    pub budget_ns: f64,
    /// Minimum duration of one timing sample, in nanoseconds (covers coarse clocks).
    pub sample_ns: f64,
    /// Minimum samples per measurement.
    pub min_samples: u32,
    /// Maximum samples per measurement.
    pub max_samples: u32,
    /// Suites to run (FIPS names); empty = all.
    pub suites: Vec<String>,
    /// Cases to run.
    pub cases: Vec<Case>,
}

impl Config {
    /// The full run: 3 rounds, 300 ms per measurement, all three cases.
    pub fn full() -> Config {
        Config {
            rounds: 3,
            budget_ns: 300e6,
            sample_ns: 2e6,
            min_samples: 7,
            max_samples: 400,
            suites: Vec::new(),
            cases: vec![Case::Valid, Case::Invalid, Case::ValidLong],
        }
    }

    /// A short run: 2 rounds, 40 ms per measurement, valid and invalid only.
    pub fn quick() -> Config {
        Config {
            rounds: 2,
            budget_ns: 40e6,
            sample_ns: 1e6,
            min_samples: 3,
            max_samples: 100,
            suites: Vec::new(),
            cases: vec![Case::Valid, Case::Invalid],
        }
    }

    fn wants(&self, suite: &str) -> bool {
        self.suites.is_empty() || self.suites.iter().any(|s| s.eq_ignore_ascii_case(suite))
    }

    /// Number of (round, suite, case, way) steps for `ways` ways over `fixtures`.
    pub fn steps(&self, fixtures: &Fixtures, ways: usize) -> u64 {
        let suites = fixtures.suites.iter().filter(|f| self.wants(&f.suite)).count();
        u64::from(self.rounds) * suites as u64 * self.cases.len() as u64 * ways as u64
    }
}

/// Where the run is, for progress displays.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Steps done.
    pub done: u64,
    /// Steps in all.
    pub total: u64,
    /// What is being measured now: "round 1: ML-DSA-44 valid pqverify".
    pub current: String,
}

/// How far short samples may grow the calls per sample past calibration's count: far
/// enough for a first call a thousand times the steady one, and bounded where a clock
/// is read but not run (the tests' clocks advance per reading, not per call).
const GROWTH: u64 = 1024;

/// The timing of one measurement, driven by its caller (synchronously natively, or
/// awaiting each call in JS for asynchronous ways): first a calibration of single
/// calls, which sets how many calls fill one sample, then timed samples until the
/// budget is spent. A sample shorter than half the minimum sample time doubles the
/// calls of the next: a calibration on calls a cold start slowed (a JS engine's lazy
/// compilation and first tiers, on a way's first measurement) would otherwise leave
/// every sample a few calls long, near the clock's resolution, and spend the sample
/// cap long before the budget. Each call of a way may verify `batch` signatures at
/// once (N in flight); times are per signature.
pub struct Measurement {
    config: Config,
    expected: bool,
    batch: u64,
    /// When calibration began, once it has.
    start: Option<f64>,
    /// When sampling began, once it has.
    begin: Option<f64>,
    per_sample: u64,
    /// The calls per sample calibration set.
    calibrated: u64,
    samples: Vec<f64>,
    calls: u64,
    wrong: u64,
}

impl Measurement {
    /// A measurement expecting verdict `expected`, of a way verifying `batch`
    /// signatures per call.
    pub fn new(config: &Config, expected: bool, batch: u64) -> Measurement {
        Measurement {
            config: config.clone(),
            expected,
            batch: batch.max(1),
            start: None,
            begin: None,
            per_sample: 0,
            calibrated: 0,
            samples: Vec::new(),
            calls: 0,
            wrong: 0,
        }
    }

    /// How many calls the next timed batch makes, given the clock now: 0 when done.
    pub fn next_calls(&mut self, now_ns: f64) -> u64 {
        let c = &self.config;
        if self.begin.is_none() {
            let Some(start) = self.start else {
                self.start = Some(now_ns);
                return 1;
            };
            let elapsed = now_ns - start;
            if elapsed < c.sample_ns && elapsed < c.budget_ns / f64::from(c.min_samples.max(1)) {
                return 1;
            }
            self.begin = Some(now_ns);
            self.calibrated = self.per_sample;
        }
        let begin = self.begin.unwrap_or(now_ns);
        let more = self.samples.len() < c.min_samples as usize
            || (now_ns - begin < c.budget_ns && self.samples.len() < c.max_samples as usize);
        if more { self.per_sample } else { 0 }
    }

    /// Counts one call's verdict (for all `batch` signatures it verified).
    pub fn check(&mut self, verdict: &Result<bool, String>) {
        if *verdict != Ok(self.expected) {
            self.wrong += self.batch;
        }
    }

    /// Records that `calls` calls (as [`next_calls`](Self::next_calls) asked) took
    /// `elapsed_ns`.
    pub fn record(&mut self, calls: u64, elapsed_ns: f64) {
        self.calls += calls * self.batch;
        if self.begin.is_none() {
            self.per_sample += calls;
        } else if calls > 0 {
            self.samples.push(elapsed_ns / (calls * self.batch) as f64);
            if elapsed_ns < self.config.sample_ns / 2.0 && self.per_sample < self.calibrated.saturating_mul(GROWTH) {
                self.per_sample *= 2;
            }
        }
    }

    /// The sample record of this measurement.
    pub fn into_sample(mut self, env: &Env, step: &Step, way: String, suite: &str, dual: u64) -> Sample {
        self.samples.sort_by(f64::total_cmp);
        let s = &self.samples;
        Sample {
            schema: SCHEMA.into(),
            target: env.target.clone(),
            run: env.run.clone(),
            way,
            suite: suite.to_owned(),
            case: step.case.name().into(),
            round: step.round,
            iterations: self.calls,
            samples: s.len() as u32,
            median_ns: median(s),
            p95_ns: quantile(s, 0.95),
            p99_ns: quantile(s, 0.99),
            min_ns: s.first().copied().unwrap_or(f64::NAN),
            checks: self.calls,
            disagreements: self.wrong + dual,
        }
    }
}

/// 1, 2, 4, … below `cores`, then `cores`.
pub fn thread_counts(cores: u32) -> Vec<u32> {
    let mut counts: Vec<u32> =
        std::iter::successors(Some(1u32), |t| t.checked_mul(2)).take_while(|t| *t < cores).collect();
    counts.push(cores.max(1));
    counts.dedup();
    counts
}

/// One (round, suite, case, way) step of a run.
#[derive(Clone, Debug)]
pub struct Step {
    /// 1-based round.
    pub round: u32,
    /// Index of the suite in the fixtures.
    pub fixture: usize,
    /// The case measured.
    pub case: Case,
    /// Index of the way.
    pub way: usize,
}

/// The steps of a run in order: rounds × suites × cases × ways, interleaved so that
/// every way meets the same machine state in each round.
pub fn plan(fixtures: &Fixtures, config: &Config, ways: usize) -> Vec<Step> {
    let mut steps = Vec::new();
    for round in 1..=config.rounds {
        for (fixture, f) in fixtures.suites.iter().enumerate() {
            if !config.wants(&f.suite) {
                continue;
            }
            for &case in &config.cases {
                steps.extend((0..ways).map(|way| Step { round, fixture, case, way }));
            }
        }
    }
    steps
}

/// The environment record of a run: the runner's, with the fixtures and ways filled in.
pub fn env_record(env: &Env, fixtures: &Fixtures, ways: Vec<String>) -> Env {
    let mut env = env.clone();
    env.schema = SCHEMA.into();
    env.fixtures = fixtures.digest.clone();
    env.ways = ways;
    env
}

/// The progress line of a step.
pub fn describe(step: &Step, fixtures: &Fixtures, way: &str) -> String {
    format!("round {}: {} {} {way}", step.round, fixtures.suites[step.fixture].suite, step.case.name())
}

/// Runs the suite, emitting the environment record first and then one sample record
/// per (way, suite, case, round).
pub fn run(
    ways: &mut [Box<dyn Way + '_>],
    fixtures: &Fixtures,
    clock: &mut dyn Clock,
    config: &Config,
    env: &Env,
    emit: &mut dyn FnMut(&Record),
    progress: &mut dyn FnMut(&Progress),
) {
    let env = env_record(env, fixtures, ways.iter().map(|w| w.name()).collect());
    emit(&Record::Env(env.clone()));
    let steps = plan(fixtures, config, ways.len());
    let total = steps.len() as u64;
    for (done, step) in steps.iter().enumerate() {
        let way = &mut ways[step.way];
        let name = way.name();
        progress(&Progress { done: done as u64, total, current: describe(step, fixtures, &name) });
        let fixture = &fixtures.suites[step.fixture];
        let (msg, sig) = fixture.case(step.case);
        let before = way.disagreements();
        let Some(mut call) = way.bind(fixture, &msg, &sig) else { continue };
        let mut m = Measurement::new(config, step.case.expected(), 1);
        loop {
            let n = m.next_calls(clock.now_ns());
            if n == 0 {
                break;
            }
            let t0 = clock.now_ns();
            for _ in 0..n {
                m.check(&call());
            }
            m.record(n, clock.now_ns() - t0);
        }
        drop(call);
        let dual = way.disagreements().saturating_sub(before);
        emit(&Record::Sample(m.into_sample(&env, step, name, &fixture.suite, dual)));
    }
    progress(&Progress { done: total, total, current: "done".into() });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::FIXTURES_JSON;

    /// A clock that advances 1 ms per reading (so that every sample lasts the quick
    /// run's minimum and none grows).
    struct FakeClock(f64);

    impl Clock for FakeClock {
        fn now_ns(&mut self) -> f64 {
            self.0 += 1e6;
            self.0
        }
    }

    /// Accepts exactly the fixture's valid signatures (byte comparison).
    struct Exact;

    impl Way for Exact {
        fn name(&self) -> String {
            "exact".into()
        }
        fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
            Some(Box::new(move || Ok((msg == f.msg && sig == f.sig) || (msg == f.msg_long && sig == f.sig_long))))
        }
    }

    #[test]
    fn thread_counts_double_up_to_the_cores() {
        assert_eq!(thread_counts(1), [1]);
        assert_eq!(thread_counts(2), [1, 2]);
        assert_eq!(thread_counts(6), [1, 2, 4, 6]);
        assert_eq!(thread_counts(8), [1, 2, 4, 8]);
    }

    #[test]
    fn samples_grow_to_the_minimum_length_after_a_cold_first_call() {
        // The first call takes 10 ms (a cold start), every later one 10 µs: calibration
        // ends after that one call, so sampling starts at one call per sample.
        let config = Config::full();
        let mut m = Measurement::new(&config, true, 1);
        let (mut now, mut calls_made, mut sizes) = (0.0, 0u64, Vec::new());
        loop {
            let n = m.next_calls(now);
            if n == 0 {
                break;
            }
            let cost = n as f64 * 10e3 + if calls_made == 0 { 10e6 - 10e3 } else { 0.0 };
            if m.begin.is_some() {
                sizes.push(n);
            }
            calls_made += n;
            now += cost;
            m.record(n, cost);
        }
        assert_eq!(sizes[0], 1);
        // Doubled until a sample lasts at least half the minimum sample time, then kept.
        let steady = (config.sample_ns / 2.0 / 10e3).ceil() as u64;
        assert!(sizes.iter().all(|&n| n <= 2 * steady), "{sizes:?}");
        assert!(sizes.ends_with(&[sizes[sizes.len() - 1]; 5]), "{sizes:?}");
        assert!(sizes[sizes.len() - 1] >= steady, "{sizes:?}");
        // The budget, not the sample cap, ends it; the median is the steady per-call time.
        assert!(sizes.len() < config.max_samples as usize && now >= config.budget_ns, "{} samples", sizes.len());
        m.samples.sort_by(f64::total_cmp);
        assert_eq!(median(&m.samples), 10e3);
    }

    #[test]
    fn emits_env_then_one_sample_per_measurement() {
        let fixtures = Fixtures::parse(FIXTURES_JSON).unwrap();
        assert_eq!(fixtures.suites.len(), 15);
        let mut config = Config::quick();
        config.suites = vec!["ML-DSA-44".into(), "SLH-DSA-SHAKE-128s".into()];
        let env = Env {
            schema: String::new(),
            target: "native".into(),
            run: "test".into(),
            cpu: "cpu".into(),
            cores: 1,
            os: "os".into(),
            runtime: "rt".into(),
            liboqs: None,
            backend: "portable".into(),
            fixtures: String::new(),
            ways: Vec::new(),
            extra: Default::default(),
        };
        let mut records = Vec::new();
        let mut ways: Vec<Box<dyn Way>> = vec![Box::new(Exact)];
        run(&mut ways, &fixtures, &mut FakeClock(0.0), &config, &env, &mut |r| records.push(r.clone()), &mut |_| {});
        assert!(matches!(&records[0], Record::Env(e) if e.fixtures.starts_with("sha256:") && e.ways == ["exact"]));
        let samples: Vec<&Sample> =
            records.iter().filter_map(|r| if let Record::Sample(s) = r { Some(s) } else { None }).collect();
        assert_eq!(samples.len(), 2 * 2 * 2);
        for s in samples {
            assert_eq!(s.disagreements, 0, "{s:?}");
            assert!(s.samples >= 3 && s.median_ns > 0.0 && s.p99_ns >= s.median_ns && s.min_ns <= s.median_ns);
            let line = Record::Sample(s.clone()).to_line();
            assert_eq!(Record::parse(&line).unwrap(), Record::Sample(s.clone()));
        }
    }
}
