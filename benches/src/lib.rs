//! THE pqverify benchmark suite, one for every target.
//!
//! The same code runs natively (ways are Rust closures over the backends of
//! `pqverify-native`) and in JS engines through wasm (feature `wasm`; ways are JS
//! functions calling the npm package and its peers): same fixtures, same timing,
//! same statistics, same records. [`report`] turns records from any mix of targets
//! into the published tables.

pub mod certificates;
pub mod distinct;
pub mod engine;
pub mod fixtures;
pub mod names;
pub mod record;
pub mod report;
pub mod stats;
#[cfg(feature = "wasm")]
mod wasm;

pub use engine::{Bound, Clock, Config, Progress, Way, run, thread_counts};
pub use fixtures::{Case, FIXTURES_JSON, Fixtures, SuiteFixture};
pub use record::{
    Block, BundleSize, Certificate, ColdStart, Env, LiboqsInfo, Memory, Record, SCHEMA, Sample, Scaling, WasmSize,
};
pub use report::Report;
