//! The worst-case blocks: a block's worth of signatures through the parallel batch
//! with dual-enforce, under distinct keys and under one repeated key.

use std::sync::Arc;
use std::time::Instant;

use pqverify_bench::distinct::DistinctFixtures;
use pqverify_bench::report::BLOCK_BUDGET;
use pqverify_bench::{Block, Fixtures, SCHEMA};
use pqverify_native::backend::Liboqs;
use pqverify_native::batch::{Item, OwnedMessage, verify_batch};
use pqverify_native::dual::Mode;
use pqverify_native::sink::DisagreementSink;
use pqverify_native::units::UnitTable;

use crate::ways::{dual, suite_of};

/// The worst-case blocks: for each suite, as many valid signatures as the Verify-Unit
/// budget allows, through the parallel batch on all cores with dual-enforce (a fresh
/// verifier each, with an empty key cache): `dual-enforce-distinct`, every signature
/// under its own key (what an attacker's block holds; from the distinct-key fixtures),
/// and `dual-enforce`, the fixture's one key and signature repeated. With `short`
/// (a quick run), a suite with fewer distinct keys than its block needs gets blocks of
/// as many signatures as it has keys, recorded with that smaller budget.
#[allow(clippy::too_many_arguments, reason = "the run's parts, each used once")]
pub(crate) fn worst_case_blocks(
    fixtures: &Fixtures,
    distinct: &DistinctFixtures,
    suites: &[String],
    table: &UnitTable,
    run: &str,
    liboqs: &Arc<Liboqs>,
    sink: &Arc<dyn DisagreementSink>,
    short: bool,
) -> Result<Vec<Block>, String> {
    let threads = rayon::current_num_threads() as u32;
    let mut blocks = Vec::new();
    for f in
        fixtures.suites.iter().filter(|f| suites.is_empty() || suites.iter().any(|s| s.eq_ignore_ascii_case(&f.suite)))
    {
        let Some(suite) = suite_of(f) else { continue };
        let units = table.cost(suite, f.msg.len());
        let mut count = (BLOCK_BUDGET / units.max(1)) as usize;
        let item = |public_key: &[u8], signature: &[u8]| Item {
            suite,
            public_key: public_key.to_vec(),
            message: OwnedMessage::pure(f.msg.clone()),
            signature: signature.to_vec(),
        };
        let keys = distinct.suite(&f.suite).map_or(&[][..], |k| &k.signed[..]);
        if short && !keys.is_empty() {
            count = count.min(keys.len());
        }
        if keys.len() < count {
            return Err(format!(
                "the distinct-key fixtures hold {} keys of {}, its block needs {count}: make them again",
                keys.len(),
                f.suite
            ));
        }
        let distinct_items: Vec<Item> = keys[..count].iter().map(|(k, s)| item(k, s)).collect();
        let repeated_items = vec![item(&f.public_key, &f.sig); count];
        for (way, items) in [("dual-enforce-distinct", distinct_items), ("dual-enforce", repeated_items)] {
            let verifier = dual(liboqs, Mode::Enforce, 1, sink.clone());
            // One warm-up item, under the fixture's key (in neither block's cache: the
            // doorkeeper has seen it once), so the block measures verification, not
            // first use of the thread pool.
            let _ = verify_batch(verifier.as_ref(), &[item(&f.public_key, &f.sig)], None);
            let start = Instant::now();
            let results = verify_batch(verifier.as_ref(), &items, Some((table, BLOCK_BUDGET)));
            let wall_ns = start.elapsed().as_nanos() as f64;
            let valid = results.map_or(0, |r| r.iter().filter(|v| **v == Ok(true)).count() as u64);
            blocks.push(Block {
                schema: SCHEMA.into(),
                target: "native".into(),
                run: run.into(),
                way: way.into(),
                suite: f.suite.clone(),
                signatures: count as u64,
                units,
                budget_units: BLOCK_BUDGET.min(count as u64 * units),
                threads,
                wall_ns,
                valid,
            });
        }
    }
    Ok(blocks)
}
