//! The suite in JS engines: the same engine, with the clock and the ways supplied
//! by JavaScript (`performance.now()`; functions calling the pqverify package and
//! its peers such as noble).

use js_sys::{Array, Function, Promise, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{JsFuture, future_to_promise};

use crate::engine::{Clock, Config, Measurement, describe, env_record, plan};
use crate::fixtures::{Case, Fixtures, SuiteFixture};
use crate::record::{Env, Record};

/// JS `performance.now()` (milliseconds) as a nanosecond clock.
struct JsClock(Function);

impl Clock for JsClock {
    fn now_ns(&mut self) -> f64 {
        self.0.call0(&JsValue::NULL).ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN) * 1e6
    }
}

/// A way given as `{ name, bind(suite, publicKey, message, signature), batch? }`:
/// `bind` returns a call (`() => boolean`, or `() => Promise<boolean>` for an
/// asynchronous way, awaited one by one) or `null` when the way lacks the suite;
/// `batch` is how many signatures one call verifies (N in flight; default 1).
struct JsWay {
    name: String,
    bind: Function,
    batch: u64,
    this: JsValue,
}

fn message_of(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}

/// A call's verdict: its value, or, for a promise, what it settles to.
async fn verdict(result: Result<JsValue, JsValue>) -> Result<bool, String> {
    let value = match result {
        Ok(v) if v.is_instance_of::<Promise>() => JsFuture::from(Promise::from(v)).await,
        other => other,
    };
    match value {
        Ok(v) => v.as_bool().ok_or_else(|| "the way did not return a boolean".to_owned()),
        Err(e) => Err(message_of(e)),
    }
}

impl JsWay {
    fn bind(&self, f: &SuiteFixture, msg: &[u8], sig: &[u8]) -> Option<Function> {
        let args = Array::of4(
            &JsValue::from_str(&f.suite),
            &Uint8Array::from(f.public_key.as_slice()),
            &Uint8Array::from(msg),
            &Uint8Array::from(sig),
        );
        self.bind.apply(&self.this, &args).ok()?.dyn_into().ok()
    }
}

/// Run options from JS: `{ quick, rounds, suites, budgetMs }`.
#[derive(Deserialize, Default)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    #[serde(default)]
    quick: bool,
    rounds: Option<u32>,
    #[serde(default)]
    suites: Vec<String>,
    budget_ms: Option<f64>,
}

fn config(options_json: &str) -> Result<Config, JsError> {
    let o: Options = serde_json::from_str(options_json).map_err(|e| JsError::new(&format!("bench options: {e}")))?;
    let mut c = if o.quick { Config::quick() } else { Config::full() };
    if let Some(r) = o.rounds {
        c.rounds = r.max(1);
    }
    if let Some(ms) = o.budget_ms {
        c.budget_ns = ms * 1e6;
    }
    c.suites = o.suites;
    Ok(c)
}

/// The benchmark suite over the committed fixtures.
#[wasm_bindgen]
pub struct BenchSuite {
    fixtures: Fixtures,
}

#[wasm_bindgen]
impl BenchSuite {
    /// The record line of one certificate measurement in a JS engine, built as natively
    /// (`certificates::certificate_record`): `env_json` the run's environment record,
    /// `measurement_json` `{ way, suite, validators, threads, times_ns, wrong, blocked_ns }`.
    #[wasm_bindgen(js_name = certificateRecord)]
    pub fn certificate_record_line(env_json: &str, measurement_json: &str) -> Result<String, JsError> {
        let env: Env = serde_json::from_str(env_json).map_err(|e| JsError::new(&format!("env: {e}")))?;
        let m: CertificateMeasurement = serde_json::from_str(measurement_json)
            .map_err(|e| JsError::new(&format!("certificate measurement: {e}")))?;
        let measured =
            crate::certificates::CertificateTimes { times: m.times_ns, wrong: m.wrong, blocked_ns: m.blocked_ns };
        let record = crate::certificates::certificate_record(&env, &m.way, &m.suite, m.validators, m.threads, measured);
        Ok(Record::Certificate(record).to_line())
    }

    /// Parses the fixture file (the same bytes as natively: check `digest`).
    #[wasm_bindgen(constructor)]
    pub fn new(fixture_bytes: &[u8]) -> Result<BenchSuite, JsError> {
        Fixtures::parse(fixture_bytes).map(|fixtures| BenchSuite { fixtures }).map_err(|e| JsError::new(&e))
    }

    /// `sha256:<hex>` of the fixtures.
    #[wasm_bindgen(getter)]
    pub fn digest(&self) -> String {
        self.fixtures.digest.clone()
    }

    /// The suites' FIPS names, in order.
    pub fn suites(&self) -> Vec<String> {
        self.fixtures.suites.iter().map(|f| f.suite.clone()).collect()
    }

    /// The case names a run with these options measures.
    pub fn cases(&self, options_json: &str) -> Result<Vec<String>, JsError> {
        Ok(config(options_json)?.cases.iter().map(|c: &Case| c.name().to_owned()).collect())
    }

    /// Steps (round × suite × case × way) a run with these options takes.
    pub fn steps(&self, options_json: &str, ways: u32) -> Result<f64, JsError> {
        Ok(config(options_json)?.steps(&self.fixtures, ways as usize) as f64)
    }

    /// Runs the suite; resolves when done. `env_json` is the runner's environment
    /// record (target, cpu, cores, os, runtime, backend, …); `ways` an array of ways
    /// (see `JsWay`); `now` returns milliseconds; `emit` receives each record as a
    /// JSON line; `progress` receives `(done, total, current)`.
    pub fn run(
        &self,
        options_json: &str,
        env_json: &str,
        ways: Array,
        now: Function,
        emit: Function,
        progress: Function,
    ) -> Result<Promise, JsError> {
        let config = config(options_json)?;
        let env: Env = serde_json::from_str(env_json).map_err(|e| JsError::new(&format!("env record: {e}")))?;
        let mut js_ways = Vec::new();
        for w in ways.iter() {
            let name = Reflect::get(&w, &"name".into()).ok().and_then(|v| v.as_string());
            let bind = Reflect::get(&w, &"bind".into()).ok().and_then(|v| v.dyn_into::<Function>().ok());
            let batch = Reflect::get(&w, &"batch".into()).ok().and_then(|v| v.as_f64()).unwrap_or(1.0);
            match (name, bind) {
                (Some(name), Some(bind)) if batch >= 1.0 => {
                    js_ways.push(JsWay { name, bind, batch: batch as u64, this: w })
                }
                _ => return Err(JsError::new("each way must be { name: string, bind: function, batch?: number ≥ 1 }")),
            }
        }
        let fixtures = self.fixtures.clone();
        Ok(future_to_promise(async move {
            drive(&js_ways, &fixtures, &config, &env, &now, &emit, &progress).await.map(|()| JsValue::UNDEFINED)
        }))
    }
}

/// The run loop of [`engine::run`](crate::engine::run), awaiting asynchronous calls.
async fn drive(
    ways: &[JsWay],
    fixtures: &Fixtures,
    config: &Config,
    env: &Env,
    now: &Function,
    emit: &Function,
    progress: &Function,
) -> Result<(), JsValue> {
    let mut clock = JsClock(now.clone());
    let emit = |r: &Record| emit.call1(&JsValue::NULL, &JsValue::from_str(&r.to_line())).map(|_| ());
    let report = |done: usize, total: usize, current: &str| {
        let _ = progress.call3(
            &JsValue::NULL,
            &JsValue::from_f64(done as f64),
            &JsValue::from_f64(total as f64),
            &JsValue::from_str(current),
        );
    };
    let env = env_record(env, fixtures, ways.iter().map(|w| w.name.clone()).collect());
    emit(&Record::Env(env.clone()))?;
    let steps = plan(fixtures, config, ways.len());
    for (done, step) in steps.iter().enumerate() {
        let way = &ways[step.way];
        report(done, steps.len(), &describe(step, fixtures, &way.name));
        let fixture = &fixtures.suites[step.fixture];
        let (msg, sig) = fixture.case(step.case);
        let Some(call) = way.bind(fixture, &msg, &sig) else { continue };
        let mut m = Measurement::new(config, step.case.expected(), way.batch);
        loop {
            let n = m.next_calls(clock.now_ns());
            if n == 0 {
                break;
            }
            let t0 = clock.now_ns();
            for _ in 0..n {
                m.check(&verdict(call.call0(&JsValue::NULL)).await);
            }
            m.record(n, clock.now_ns() - t0);
        }
        emit(&Record::Sample(m.into_sample(&env, step, way.name.clone(), &fixture.suite, 0)))?;
    }
    report(steps.len(), steps.len(), "done");
    Ok(())
}

/// One certificate measurement of a JS runner (benches/js/certificates.mjs).
#[derive(Deserialize)]
struct CertificateMeasurement {
    way: String,
    suite: String,
    validators: usize,
    threads: u32,
    /// Wall time of each certificate.
    times_ns: Vec<f64>,
    /// Certificates not all valid.
    wrong: u64,
    /// How late a timer on the calling thread fired meanwhile.
    blocked_ns: Option<f64>,
}
