//! The suite in JS engines: the same engine, with the clock and the ways supplied
//! by JavaScript (`performance.now()`; functions calling the pqverify package and
//! its peers such as noble).

use js_sys::{Array, Function, Reflect, Uint8Array};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::engine::{Bound, Clock, Config, Way, run};
use crate::fixtures::{Case, Fixtures, SuiteFixture};
use crate::record::{Env, Record};

/// JS `performance.now()` (milliseconds) as a nanosecond clock.
struct JsClock(Function);

impl Clock for JsClock {
    fn now_ns(&mut self) -> f64 {
        self.0.call0(&JsValue::NULL).ok().and_then(|v| v.as_f64()).unwrap_or(f64::NAN) * 1e6
    }
}

/// A way given as `{ name, bind(suite, publicKey, message, signature) => (() => boolean) | null }`.
struct JsWay {
    name: String,
    bind: Function,
    this: JsValue,
}

fn message_of(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map_or_else(|| format!("{e:?}"), |e| String::from(e.message()))
}

impl Way for JsWay {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn bind<'a>(&'a mut self, f: &'a SuiteFixture, msg: &'a [u8], sig: &'a [u8]) -> Option<Bound<'a>> {
        let args = Array::of4(
            &JsValue::from_str(&f.suite),
            &Uint8Array::from(f.public_key.as_slice()),
            &Uint8Array::from(msg),
            &Uint8Array::from(sig),
        );
        let bound = self.bind.apply(&self.this, &args).ok()?;
        let call: Function = bound.dyn_into().ok()?;
        Some(Box::new(move || match call.call0(&JsValue::NULL) {
            Ok(v) => v.as_bool().ok_or_else(|| "the way did not return a boolean".to_owned()),
            Err(e) => Err(message_of(e)),
        }))
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

    /// Runs the suite. `env_json` is the runner's environment record (target, cpu,
    /// cores, os, runtime, backend, …); `ways` an array of `{name, bind}`; `now`
    /// returns milliseconds; `emit` receives each record as a JSON line; `progress`
    /// receives `(done, total, current)`.
    pub fn run(
        &self,
        options_json: &str,
        env_json: &str,
        ways: Array,
        now: Function,
        emit: Function,
        progress: Function,
    ) -> Result<(), JsError> {
        let config = config(options_json)?;
        let env: Env = serde_json::from_str(env_json).map_err(|e| JsError::new(&format!("env record: {e}")))?;
        let mut js_ways: Vec<Box<dyn Way>> = Vec::new();
        for w in ways.iter() {
            let name = Reflect::get(&w, &"name".into()).ok().and_then(|v| v.as_string());
            let bind = Reflect::get(&w, &"bind".into()).ok().and_then(|v| v.dyn_into::<Function>().ok());
            match (name, bind) {
                (Some(name), Some(bind)) => js_ways.push(Box::new(JsWay { name, bind, this: w })),
                _ => return Err(JsError::new("each way must be { name: string, bind: function }")),
            }
        }
        let mut emit_error = None;
        run(
            &mut js_ways,
            &self.fixtures,
            &mut JsClock(now),
            &config,
            &env,
            &mut |r: &Record| {
                if let Err(e) = emit.call1(&JsValue::NULL, &JsValue::from_str(&r.to_line())) {
                    emit_error.get_or_insert(message_of(e));
                }
            },
            &mut |p| {
                let _ = progress.call3(
                    &JsValue::NULL,
                    &JsValue::from_f64(p.done as f64),
                    &JsValue::from_f64(p.total as f64),
                    &JsValue::from_str(&p.current),
                );
            },
        );
        match emit_error {
            Some(e) => Err(JsError::new(&format!("emit failed: {e}"))),
            None => Ok(()),
        }
    }
}
