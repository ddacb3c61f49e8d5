//! Old and new pqverify-core in one process, timed in alternating blocks.
use std::time::Instant;

macro_rules! ways {
    ($m:ident, $suite:expr, $pk:expr, $msg:expr, $sig:expr) => {{
        let suite = $m::Suite::ALL.into_iter().find(|s| s.name() == $suite).unwrap();
        let msg = $m::Message::pure($msg, b"");
        let key = $m::PreparedKey::new($m::PublicKey::from_raw(suite, $pk).unwrap()).unwrap();
        (suite, msg, key)
    }};
}

/// Median-of-blocks ns per call of f, blocks of ~20 ms.
fn block(f: &mut dyn FnMut() -> bool) -> f64 {
    let start = Instant::now();
    let mut n = 0u32;
    while start.elapsed().as_secs_f64() < 0.02 {
        assert!(f());
        n += 1;
    }
    start.elapsed().as_secs_f64() * 1e9 / n as f64
}

fn median(v: &mut Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(15);
    let only: Vec<String> = args.iter().skip(1).cloned().collect();
    let fx = pqverify_bench::Fixtures::parse(pqverify_bench::FIXTURES_JSON).unwrap();
    let sets = std::env::var("SETS").unwrap_or_default();
    for set in new::available_kernels() {
        if !sets.is_empty() && !sets.split(',').any(|s| s == *set) { continue; }
        new::force_kernels(Some(set)).unwrap();
        old::force_kernels(Some(set)).unwrap();
        for f in &fx.suites {
            if !only.is_empty() && !only.iter().any(|o| f.suite.contains(o.as_str())) {
                continue;
            }
            let (os, om, ok) = ways!(old, f.suite, &f.public_key, &f.msg, &f.sig);
            let (ns, nm, nk) = ways!(new, f.suite, &f.public_key, &f.msg, &f.sig);
            let mldsa = f.suite.starts_with("ML-DSA");
            let oreq: Vec<_> = (0..64).map(|_| (&ok, om, &f.sig[..])).collect();
            let nreq: Vec<_> = (0..64).map(|_| (&nk, nm, &f.sig[..])).collect();
            let mut ways: Vec<(&str, Box<dyn FnMut() -> bool>, Box<dyn FnMut() -> bool>)> = vec![
                ("one-shot",
                 Box::new(|| old::PublicKey::from_raw(os, &f.public_key).and_then(|k| old::verify(k, om, &f.sig)).is_ok()),
                 Box::new(|| new::PublicKey::from_raw(ns, &f.public_key).and_then(|k| new::verify(k, nm, &f.sig)).is_ok())),
                ("prepared", Box::new(|| ok.verify(om, &f.sig).is_ok()), Box::new(|| nk.verify(nm, &f.sig).is_ok())),
            ];
            if mldsa {
                ways.push(("batch/64",
                    Box::new(|| old::PreparedKey::verify_each(&oreq).iter().all(|r| r.is_ok())),
                    Box::new(|| new::PreparedKey::verify_each(&nreq).iter().all(|r| r.is_ok()))));
                ways.push(("prepare",
                    Box::new(|| old::PreparedKey::new(old::PublicKey::from_raw(os, &f.public_key).unwrap()).is_ok()),
                    Box::new(|| new::PreparedKey::new(new::PublicKey::from_raw(ns, &f.public_key).unwrap()).is_ok())));
            }
            let way_filter = std::env::var("WAYS").unwrap_or_default();
            for (name, o, n) in &mut ways {
                if !way_filter.is_empty() && !way_filter.split(',').any(|w| w == *name) { continue; }
                let (mut ov, mut nv, mut ratios) = (vec![], vec![], vec![]);
                block(o.as_mut());
                block(n.as_mut());
                for r in 0..rounds {
                    // Alternate which goes first.
                    let (a, b) = if r % 2 == 0 { (block(o.as_mut()), block(n.as_mut())) } else { let b = block(n.as_mut()); (block(o.as_mut()), b) };
                    ov.push(a);
                    nv.push(b);
                    ratios.push(b / a);
                }
                let div = if *name == "batch/64" { 64.0 } else { 1.0 };
                println!("{set:8} {:18} {:9} old {:9.0} ns  new {:9.0} ns  new/old {:.3}", f.suite, name, median(&mut ov) / div, median(&mut nv) / div, median(&mut ratios));
            }
        }
    }
}
