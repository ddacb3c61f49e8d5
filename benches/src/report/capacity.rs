//! Section 7, capacity planning: what the first call costs beside the steady state,
//! what a prepared key holds in memory, how throughput grows with threads, and (in
//! `startup.rs`) cold start and package size.

use std::fmt::Write as _;

use super::{Report, per_s, us};
use crate::names;

/// A ratio as "1.08×" below 10, "212×" above.
fn times(r: f64) -> String {
    if r < 10.0 { format!("{r:.2}×") } else { format!("{r:.0}×") }
}

/// Bytes as "57.3 KiB" / "412 B".
fn bytes(b: f64) -> String {
    if b >= 1024.0 { format!("{:.1} KiB", b / 1024.0) } else { format!("{b:.0} B") }
}

impl Report {
    /// Section 7.
    pub(super) fn capacity(&self, out: &mut String) {
        out.push_str("## 7. Capacity planning\n\n");
        self.first_call(out);
        self.memory_per_key(out);
        self.scaling_table(out);
        self.startup(out);
    }

    /// First call (fresh process or worker; fresh prepared key) beside the steady median.
    fn first_call(&self, out: &mut String) {
        out.push_str("### First call\n\n");
        out.push_str(
            "| target | way | suite | first call µs | steady µs | first / steady |\n|---|---|---|---:|---:|---:|\n",
        );
        let mut any = false;
        for (target, run) in &self.runs {
            // The package's native build in Node and Bun beside its WebAssembly build.
            for way in ["pqverify", "pqverify-prepared", names::PQVERIFY_NATIVE, names::PQVERIFY_NATIVE_PREPARED] {
                for suite in &self.suites {
                    let (Some(first), steady) = (run.get(way, suite, "first-call"), run.get(way, suite, "valid"))
                    else {
                        continue;
                    };
                    any = true;
                    let steady = steady.map(|c| c.median_ns);
                    let _ = writeln!(
                        out,
                        "| {target} | {way} | {suite} | {} | {} | {} |",
                        us(first.median_ns),
                        steady.map_or("—".into(), us),
                        steady.map_or("—".into(), |s| times(first.median_ns / s))
                    );
                }
            }
        }
        if !any {
            out.push_str("| — | — | — | — | — | — |\n");
        }
        out.push_str("\n`pqverify`: the first verify in a fresh process (natively) or a fresh worker that has just imported the package (Node, browser), import and compilation included in JS; `pqverify-prepared`: preparing a new key and its first verify, in that fresh process or worker; `pqverify-native` and `pqverify-native-prepared`: the same through the package's native build (Node, Bun), the addon's loading included. Median over fresh handles.\n\n");
    }

    /// Memory per prepared key, per target.
    fn memory_per_key(&self, out: &mut String) {
        out.push_str("### Memory per prepared key\n\n");
        out.push_str(
            "| target | way | suite | keys | bytes per key | RSS per key | JS heap per key |\n|---|---|---|---:|---:|---:|---:|\n",
        );
        for (target, run) in &self.runs {
            let mut ways: Vec<&str> = run.memory.iter().map(|m| m.way.as_str()).collect();
            ways.sort_unstable();
            ways.dedup();
            for (way, suite) in ways.iter().flat_map(|w| self.suites.iter().map(move |s| (*w, s))) {
                let Some(m) = run.memory.iter().find(|m| m.way == way && &m.suite == suite) else { continue };
                let _ = writeln!(
                    out,
                    "| {target} | {way} | {suite} | {} | {} | {} | {} |",
                    m.keys,
                    bytes(m.bytes_per_key),
                    m.rss_bytes_per_key.map_or("—".into(), bytes),
                    m.js_heap_bytes_per_key.map_or("—".into(), bytes)
                );
            }
        }
        out.push_str("\nNatively and through the package's native build (`pqverify-native-prepared`), heap bytes counted by the allocator (natively the RSS growth beside it); in wasm, the growth of the module's linear memory, which grows by 64 KiB pages (a small key can show 0 or a page's share); in JS engines also the JS heap's growth.\n\n");
    }

    /// Throughput by threads, and the scaling ratio (most threads over one).
    fn scaling_table(&self, out: &mut String) {
        out.push_str("### Throughput by threads\n\n");
        let threads: std::collections::BTreeSet<u32> =
            self.runs.values().flat_map(|r| r.scaling.iter().map(|s| s.threads)).collect();
        let header: Vec<String> =
            threads.iter().map(|t| format!("{t} thread{}", if *t == 1 { "" } else { "s" })).collect();
        let _ = writeln!(
            out,
            "| target | way | suite | {} | scaling |\n|---|---|---|{}---:|",
            header.join(" | "),
            "---:|".repeat(header.len())
        );
        for (target, run) in &self.runs {
            let mut ways: Vec<&str> = run.scaling.iter().map(|s| s.way.as_str()).collect();
            ways.dedup();
            ways.sort_unstable();
            ways.dedup();
            for way in ways {
                for suite in &self.suites {
                    let rate = |t: u32| {
                        run.scaling
                            .iter()
                            .find(|s| s.way == way && &s.suite == suite && s.threads == t)
                            .map(|s| s.ops_per_s)
                    };
                    if rate(1).is_none() {
                        continue;
                    }
                    let cells: Vec<String> = threads.iter().map(|&t| rate(t).map_or("—".into(), per_s)).collect();
                    let most = threads.iter().rev().find_map(|&t| rate(t).map(|r| (t, r)));
                    let scaling = match (rate(1), most) {
                        (Some(one), Some((t, r))) if t > 1 && one > 0.0 => format!("{:.2}× on {t}", r / one),
                        _ => "—".into(),
                    };
                    let _ = writeln!(out, "| {target} | {way} | {suite} | {} | {scaling} |", cells.join(" | "));
                }
            }
        }
        out.push_str("\nVerifications per second of the valid fixture, all threads together: natively through a rayon pool of that many threads (the batch's), in Node through that many worker threads, each with its own instance of the package; `pqverify-native-batch`: the package's `verifyMany` of 2,000 ML-DSA-44 signatures under distinct keys on the native build's pool of that many threads, awaited from the JS thread (best of the rounds). Scaling: the rate on the most threads over the rate on one (the chart `scaling.svg`).\n\n");
        self.event_loop_table(out);
    }

    /// The event loop's delay while the native build's batch ran.
    fn event_loop_table(&self, out: &mut String) {
        let rows: Vec<String> = self
            .runs
            .iter()
            .flat_map(|(target, run)| {
                run.scaling.iter().filter_map(move |s| {
                    let (p99, max) = (s.event_loop_p99_ns?, s.event_loop_max_ns?);
                    let ms = |v: Option<f64>| v.map_or("—".into(), |v| format!("{:.2}", v / 1e6));
                    Some(format!(
                        "| {target} | {} | {} | {} | {} | {:.2} | {:.2} | {} |",
                        s.way,
                        s.suite,
                        s.threads,
                        ms(s.call_ns),
                        p99 / 1e6,
                        max / 1e6,
                        ms(s.event_loop_idle_p99_ns)
                    ))
                })
            })
            .collect();
        if rows.is_empty() {
            return;
        }
        out.push_str("### The event loop while a batch verifies\n\n| target | way | suite | threads | the call ms | event-loop delay p99 ms | max ms | idle p99 ms |\n|---|---|---|---:|---:|---:|---:|---:|\n");
        for r in rows {
            let _ = writeln!(out, "{r}");
        }
        out.push_str("\nThe call: the median time `verifyMany` takes to return its promise, every item checked and copied on the JS thread (which waits for it). Then the batch verifies on the native build's threads, and the loop only waits for its promise: the delay `perf_hooks.monitorEventLoopDelay` (1 ms resolution, which its figures include) sampled on the JS thread from the call's return to the promise's settling, each round's own histogram (the table shows the largest round's 99th percentile and the largest delay), a 1 ms timer keeping the loop turning; idle: the same histogram over half a second with the loop idle, in the same process: the floor of the figures beside it.\n\n");
    }

    /// A bar chart of the scaling ratio (most threads over one) per suite and (target, way).
    pub fn scaling_svg(&self) -> String {
        let mut series: Vec<(String, String)> = Vec::new();
        for (target, run) in &self.runs {
            for s in &run.scaling {
                let key = (target.clone(), s.way.clone());
                if !series.contains(&key) {
                    series.push(key);
                }
            }
        }
        let colours = ["#2563eb", "#1e3a8a", "#7c3aed", "#16a34a", "#86efac", "#f59e0b"];
        let (left, bar, gap, width) = (170.0, 9.0, 10.0, 700.0);
        let group = bar * series.len().max(1) as f64 + gap;
        let height = 60.0 + group * self.suites.len() as f64 + 20.0 * series.len() as f64;
        let max_ratio = 1.0 + self.runs.values().map(|r| r.env.cores.max(1)).max().unwrap_or(1) as f64;
        let x = |ratio: f64| left + (width - left - 20.0) * (ratio / max_ratio).clamp(0.0, 1.0);
        let mut svg = format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height:.0}" font-family="sans-serif" font-size="11"><text x="10" y="20" font-size="14">Throughput on the most threads ÷ on one thread</text>"#
        );
        for k in 0..=(max_ratio as u32) {
            super::svg::grid_line(&mut svg, x(f64::from(k)), height - 20.0 * series.len() as f64, &format!("{k}×"));
        }
        for (i, suite) in self.suites.iter().enumerate() {
            let y0 = 50.0 + group * i as f64;
            super::svg::group_label(&mut svg, left, y0, group, suite);
            for (j, (target, way)) in series.iter().enumerate() {
                let run = &self.runs[target];
                let rate = |t: u32| {
                    run.scaling
                        .iter()
                        .find(|s| &s.way == way && &s.suite == suite && s.threads == t)
                        .map(|s| s.ops_per_s)
                };
                let most = run.scaling.iter().filter(|s| &s.way == way && &s.suite == suite).map(|s| s.threads).max();
                if let (Some(one), Some(Some(r))) = (rate(1), most.map(rate)) {
                    let _ = write!(
                        svg,
                        r#"<rect x="{left}" y="{:.1}" width="{:.1}" height="{bar}" fill="{}"/>"#,
                        y0 + bar * j as f64,
                        x(r / one) - left,
                        colours[j % colours.len()]
                    );
                }
            }
        }
        super::svg::close_with_legend(&mut svg, &series, &colours, left, height);
        svg
    }
}
