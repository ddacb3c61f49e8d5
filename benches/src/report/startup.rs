//! Section 7's cold start and sizes: what a fresh Node process or browser worker pays to
//! import a verifier and verify once, what each build of the package weighs, and what a
//! bundler ships for each import.

use std::fmt::Write as _;

use super::Report;

/// Milliseconds as "14.1".
fn ms(ns: f64) -> String {
    format!("{:.1}", ns / 1e6)
}

impl Report {
    /// The cold-start table (every way measured, in record order) and the size table.
    pub(super) fn startup(&self, out: &mut String) {
        out.push_str("### Cold start\n\n");
        out.push_str("| target | way | suite | processes | import ms | import + first verify ms |\n|---|---|---|---:|---:|---:|\n");
        let mut any = false;
        for (target, run) in &self.runs {
            for c in &run.cold_starts {
                any = true;
                let _ = writeln!(
                    out,
                    "| {target} | {} | {} | {} | {} | {} |",
                    c.way,
                    c.suite,
                    c.processes,
                    ms(c.import_ns),
                    ms(c.first_verify_ns)
                );
            }
        }
        if !any {
            out.push_str("| — | — | — | — | — | — |\n");
        }
        out.push_str("\nMedians over fresh Node processes, and in each browser over fresh workers of the page (the process's or worker's own start-up is not counted): from just before the import to the end of the first verify of the valid fixture; every way loads and verifies the same bytes. In a worker the import fetches the bundled page's module from the local server (the browser's HTTP cache may hold it, as on a user's second visit). `import ms` includes what the way needs before its first call (`init()`, liboqs-js's instance).\n\n");

        out.push_str("### Package size\n\n| build | .wasm bytes | gzip bytes |\n|---|---:|---:|\n");
        let mut any = false;
        for run in self.runs.values() {
            for s in &run.wasm_sizes {
                any = true;
                let _ = writeln!(out, "| {} | {} | {} |", s.build, s.bytes, s.gzip_bytes);
            }
        }
        if !any {
            out.push_str("| — | — | — |\n");
        }
        out.push_str("\nThe `.wasm` files of the installed package, gzip at level 9: `wasm-ml-dsa` and `wasm-slh-dsa` (simd128) are embedded in `pqverify/ml-dsa` and `pqverify/slh-dsa` (and so in the default entry), `wasm` (baseline, every suite) in `pqverify/baseline`; `wasm-simd` (every suite) is what `pqverify/manual` fetches.\n\n");

        out.push_str("### What a bundler ships\n\n| import | bytes | gzip bytes |\n|---|---:|---:|\n");
        let mut any = false;
        for run in self.runs.values() {
            for b in &run.bundle_sizes {
                any = true;
                let _ = writeln!(out, "| `{}` | {} | {} |", b.import, b.bytes, b.gzip_bytes);
            }
        }
        if !any {
            out.push_str("| — | — | — |\n");
        }
        out.push_str("\nEach import alone, bundled by esbuild with `--bundle --minify` for the browser, gzip at level 9 (embedded `.wasm` included; liboqs-js fetches its `.wasm` at run time, which is not counted).\n\n");
    }
}
