//! A/B timing of core's verify paths: one-shot, prepared, verify_each (batch of 64).
use pqverify_core::{Message, PreparedKey, PublicKey, Suite};
use std::time::Instant;

fn time(mut f: impl FnMut() -> bool) -> f64 {
    // warm
    for _ in 0..20 { assert!(f()); }
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let mut n = 0u32;
        while start.elapsed().as_secs_f64() < 0.04 { assert!(f()); n += 1; }
        best = best.min(start.elapsed().as_secs_f64() * 1e9 / n as f64);
    }
    best
}

fn cg(args: &[String]) {
    let fx = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON).unwrap();
    let f = fx.suites.iter().find(|f| f.suite == args[0]).unwrap();
    let suite = Suite::ALL.into_iter().find(|s| s.name() == f.suite).unwrap();
    pqverify_core::force_kernels(Some(&args[3])).unwrap();
    let n: usize = args[2].parse().unwrap();
    let msg = Message::pure(&f.msg, b"");
    let key = PreparedKey::new(PublicKey::from_raw(suite, &f.public_key).unwrap()).unwrap();
    let reqs: Vec<_> = (0..64).map(|_| (&key, msg, &f.sig[..])).collect();
    for _ in 0..n {
        let ok = match args[1].as_str() {
            "one-shot" => PublicKey::from_raw(suite, &f.public_key).and_then(|k| pqverify_core::verify(k, msg, &f.sig)).is_ok(),
            "prepared" => key.verify(msg, &f.sig).is_ok(),
            "batch64" => PreparedKey::verify_each(&reqs).iter().all(|r| r.is_ok()),
            "prepare" => PreparedKey::new(PublicKey::from_raw(suite, &f.public_key).unwrap()).is_ok(),
            _ => panic!(),
        };
        assert!(ok);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("cg") { return cg(&args[1..]); }
    let only: Vec<String> = std::env::args().skip(1).collect();
    let fx = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON).unwrap();
    for set in pqverify_core::available_kernels() {
        pqverify_core::force_kernels(Some(set)).unwrap();
        for f in &fx.suites {
            if !only.is_empty() && !only.iter().any(|o| f.suite.contains(o.as_str())) { continue; }
            let suite = Suite::ALL.into_iter().find(|s| s.name() == f.suite).unwrap();
            let msg = Message::pure(&f.msg, b"");
            let one = time(|| PublicKey::from_raw(suite, &f.public_key).and_then(|k| pqverify_core::verify(k, msg, &f.sig)).is_ok());
            println!("{set} {} one-shot {one:.0}", f.suite);
            let key = PreparedKey::new(PublicKey::from_raw(suite, &f.public_key).unwrap()).unwrap();
            let prep = time(|| key.verify(msg, &f.sig).is_ok());
            println!("{set} {} prepared {prep:.0}", f.suite);
            if f.suite.starts_with("ML-DSA") {
                let reqs: Vec<_> = (0..64).map(|_| (&key, msg, &f.sig[..])).collect();
                let batch = time(|| PreparedKey::verify_each(&reqs).iter().all(|r| r.is_ok())) / 64.0;
                println!("{set} {} batch {batch:.0}", f.suite);
                let prepare = time(|| PreparedKey::new(PublicKey::from_raw(suite, &f.public_key).unwrap()).is_ok());
                println!("{set} {} prepare {prepare:.0}", f.suite);
            }
        }
    }
}
