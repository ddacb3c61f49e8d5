//! Generates the distinct-key fixtures (`pqverify_bench::distinct`): for every suite,
//! as many keys as its worst-case block has signatures (at least `MIN_KEYS`), or
//! exactly KEYS when given (a quick run's short blocks), each signing the benchmark
//! fixtures' 32-byte message, the first `LONG_KEYS` also the 1024-byte one; keys and
//! signing randomness from the key's index alone, by the independent signers `fips204`
//! and `fips205` (the testkit's). Written by the benchmark pipeline into `target/` once
//! (all 15 suites' blocks take about 10 minutes on 2 cores: SLH-DSA signing):
//!   cargo run --release -p pqverify-bench-native --example make_distinct -- OUT [KEYS]
#![allow(clippy::unwrap_used, clippy::expect_used, reason = "a generator run by the pipeline")]

use pqverify_bench::distinct::{DISTINCT_SCHEMA, DistinctFile, DistinctSet, LONG_KEYS};
use pqverify_bench::report::BLOCK_BUDGET;
use pqverify_bench::{FIXTURES_JSON, Fixtures};
use pqverify_core::Suite;
use pqverify_native::units::UnitTable;
use pqverify_testkit::{KeyPair, KeySeed};

/// Key i's public key, its signature on the short message and (for the first keys) on
/// the long one, in hex.
type Signed = (String, String, Option<String>);

/// Keys per suite at least: the timing ways cycle through them.
const MIN_KEYS: usize = 16;

fn main() {
    let mut args = std::env::args().skip(1);
    let out = args.next().expect("usage: make_distinct OUT [KEYS]");
    let keys: Option<usize> = args.next().map(|k| k.parse().ok().filter(|k| *k >= 1).expect("KEYS: at least 1"));
    let fixtures = Fixtures::parse(FIXTURES_JSON).unwrap();
    let table = UnitTable::default();
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    let suites = fixtures
        .suites
        .iter()
        .map(|f| {
            let suite: Suite = f.suite.parse().unwrap();
            let n = keys.unwrap_or_else(|| ((BLOCK_BUDGET / table.cost(suite, f.msg.len())) as usize).max(MIN_KEYS));
            // Key i's seeds from i (and the suite), so each suite's keys differ from the
            // fixtures' and from the certificate scenario's.
            let sign = |i: usize| {
                let b = (i as u32).to_le_bytes();
                let mut seed = KeySeed::fill(0xd1, [0x17, 0x3c, 0x5e]);
                seed.xi[..4].copy_from_slice(&b);
                seed.slh[0][..4].copy_from_slice(&b);
                seed.slh[2][..4].copy_from_slice(&b);
                let pair = KeyPair::new(suite, &seed);
                let rnd = [b[0] ^ b[1] ^ 0x5a; 32];
                let long = (i < LONG_KEYS).then(|| hex::encode(pair.sign(&f.msg_long, b"", &rnd)));
                (hex::encode(pair.public_key()), hex::encode(pair.sign(&f.msg, b"", &rnd)), long)
            };
            let mut signed: Vec<(usize, Signed)> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| s.spawn(move || (t..n).step_by(threads).map(|i| (i, sign(i))).collect::<Vec<_>>()))
                    .collect();
                handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
            });
            signed.sort_by_key(|(i, _)| *i);
            eprintln!("make_distinct: {}, {n} keys", f.suite);
            let mut set = DistinctSet {
                suite: f.suite.clone(),
                keys: Vec::new(),
                signatures: Vec::new(),
                signatures_long: Vec::new(),
            };
            for (_, (key, sig, long)) in signed {
                set.keys.push(key);
                set.signatures.push(sig);
                set.signatures_long.extend(long);
            }
            set
        })
        .collect();
    let file = DistinctFile { schema: DISTINCT_SCHEMA.into(), fixtures: fixtures.digest, suites };
    std::fs::write(&out, serde_json::to_string(&file).unwrap() + "\n").unwrap();
    eprintln!("wrote {out}");
}
