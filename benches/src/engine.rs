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

/// Measures one bound verify call: (per-call sample times, calls, wrong verdicts).
fn measure(call: &mut Bound<'_>, expected: bool, clock: &mut dyn Clock, config: &Config) -> (Vec<f64>, u64, u64) {
    let mut calls = 0u64;
    let mut wrong = 0u64;
    let mut check = |r: Result<bool, String>| {
        if r != Ok(expected) {
            wrong += 1;
        }
    };
    // Warm-up and calibration: how many calls fill one sample.
    let start = clock.now_ns();
    let mut per_sample = 0u64;
    loop {
        check(call());
        calls += 1;
        per_sample += 1;
        let elapsed = clock.now_ns() - start;
        if elapsed >= config.sample_ns || elapsed >= config.budget_ns / f64::from(config.min_samples.max(1)) {
            break;
        }
    }
    let mut samples = Vec::new();
    let begin = clock.now_ns();
    while samples.len() < config.min_samples as usize
        || (clock.now_ns() - begin < config.budget_ns && samples.len() < config.max_samples as usize)
    {
        let t0 = clock.now_ns();
        for _ in 0..per_sample {
            check(call());
        }
        let t1 = clock.now_ns();
        calls += per_sample;
        samples.push((t1 - t0) / per_sample as f64);
    }
    (samples, calls, wrong)
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
    let mut env = env.clone();
    env.schema = SCHEMA.into();
    env.fixtures = fixtures.digest.clone();
    env.ways = ways.iter().map(|w| w.name()).collect();
    emit(&Record::Env(env.clone()));
    let total = config.steps(fixtures, ways.len());
    let mut done = 0;
    for round in 1..=config.rounds {
        for fixture in fixtures.suites.iter().filter(|f| config.wants(&f.suite)) {
            for &case in &config.cases {
                let (msg, sig) = fixture.case(case);
                for way in ways.iter_mut() {
                    let name = way.name();
                    progress(&Progress {
                        done,
                        total,
                        current: format!("round {round}: {} {} {name}", fixture.suite, case.name()),
                    });
                    done += 1;
                    let before = way.disagreements();
                    let Some(mut call) = way.bind(fixture, &msg, &sig) else { continue };
                    let (mut samples, calls, wrong) = measure(&mut call, case.expected(), clock, config);
                    drop(call);
                    samples.sort_by(f64::total_cmp);
                    emit(&Record::Sample(Sample {
                        schema: SCHEMA.into(),
                        target: env.target.clone(),
                        run: env.run.clone(),
                        way: name,
                        suite: fixture.suite.clone(),
                        case: case.name().into(),
                        round,
                        iterations: calls,
                        samples: samples.len() as u32,
                        median_ns: median(&samples),
                        p95_ns: quantile(&samples, 0.95),
                        p99_ns: quantile(&samples, 0.99),
                        min_ns: samples.first().copied().unwrap_or(f64::NAN),
                        checks: calls,
                        disagreements: wrong + way.disagreements().saturating_sub(before),
                    }));
                }
            }
        }
    }
    progress(&Progress { done: total, total, current: "done".into() });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::FIXTURES_JSON;

    /// A clock that advances 1 µs per reading.
    struct FakeClock(f64);

    impl Clock for FakeClock {
        fn now_ns(&mut self) -> f64 {
            self.0 += 1000.0;
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
