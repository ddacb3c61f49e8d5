//! Tests of the architecture invariants that no compiler checks (ARCHITECTURE.md
//! lists each invariant with the test that guards it).

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use crate::project::path;

    /// Every `.rs` file under `dir`.
    fn sources(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                out.extend(sources(&p));
            } else if p.extension().is_some_and(|e| e == "rs") {
                out.push(p);
            }
        }
        out
    }

    /// The code of a file: its lines that are not comments.
    fn code(file: &Path) -> String {
        let text = std::fs::read_to_string(file).unwrap();
        text.lines().filter(|l| !l.trim_start().starts_with("//")).collect::<Vec<_>>().join("\n")
    }

    /// The names in the `[dependencies]` tables (any target) of a manifest.
    fn dependencies(manifest: &Path) -> Vec<String> {
        let text = std::fs::read_to_string(manifest).unwrap();
        let mut names = Vec::new();
        let mut in_deps = false;
        for line in text.lines().map(str::trim) {
            if line.starts_with('[') {
                in_deps =
                    line == "[dependencies]" || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            } else if in_deps && let Some((name, _)) = line.split_once('=') {
                names.push(name.trim().to_owned());
            }
        }
        names
    }

    #[test]
    fn core_knows_nothing_of_js_liboqs_files_threads_or_clocks() {
        // Only hashing and CPU detection: no std, no I/O, no JS, no liboqs.
        let deps = dependencies(&path("core/Cargo.toml"));
        assert_eq!(deps, ["sha2", "cpufeatures"], "pqverify-core's dependencies");
        for file in sources(&path("core/src")) {
            let text = code(&file);
            for word in ["std::fs", "std::thread", "std::time", "std::io", "wasm_bindgen", "oqs"] {
                let outside_tests = text.split("#[cfg(test)]").next().unwrap_or_default();
                assert!(!outside_tests.contains(word), "{} uses {word}", file.display());
            }
        }
    }

    #[test]
    fn only_the_token_module_detects_cpus_and_only_arch_kernels_use_unsafe() {
        let src = path("core/src");
        for file in sources(&src) {
            let rel = file.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            let text = code(&file);
            // Each architecture's token module is its one place that asks the CPU.
            if !(rel.starts_with("arch/") && rel.ends_with("/token.rs")) {
                assert!(!text.contains("cpufeatures"), "{rel} detects CPU features itself");
                assert!(!text.contains("Avx2(())"), "{rel} makes an AVX2 token");
                assert!(!text.contains("Sha3(())"), "{rel} makes a SHA-3 token");
            }
            if !rel.starts_with("arch/") {
                assert!(!text.contains("unsafe {") && !text.contains("unsafe fn"), "{rel} has unsafe code");
            }
        }
    }

    /// The kernels an algorithm may call directly: the ring's arithmetic and its
    /// encodings. Hashing goes through `hash/`, which alone chooses how many hashes share
    /// a kernel call.
    const ALGORITHM_KERNELS: &[&str] = &[
        "ntt",
        "inv_ntt",
        "pointwise",
        "w_approx_row",
        "use_hint_poly",
        "unpack_t1_shifted",
        "unpack_z",
        "pack_w1",
        "rej_sample",
    ];

    /// The names a file takes from `crate::kernel`: its `use crate::kernel::…` items and
    /// its `kernel::name` paths (test modules left out).
    fn kernel_names(text: &str) -> Vec<String> {
        let outside_tests = text.split("#[cfg(test)]").next().unwrap_or_default();
        let mut names = Vec::new();
        let ident = |s: &str| s.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        for (at, _) in outside_tests.match_indices("kernel::") {
            let rest = &outside_tests[at + "kernel::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = group.split('}').next().unwrap_or_default();
                names.extend(group.split(',').map(|n| ident(n.trim())).filter(|n| !n.is_empty()));
            } else {
                names.push(ident(rest));
            }
        }
        names
    }

    #[test]
    fn algorithms_never_ask_the_kernel_table_how_wide_it_is() {
        let src = path("core/src");
        let mut seen = 0;
        for file in sources(&src) {
            let rel = file.strip_prefix(&src).unwrap().to_string_lossy().into_owned();
            if !(rel.starts_with("mldsa/") || rel.starts_with("slhdsa/")) {
                continue;
            }
            let text = code(&file);
            assert!(!text.contains("kernel_set"), "{rel} imports the kernel table (`kernel_set`)");
            for name in kernel_names(&text) {
                assert!(
                    ALGORITHM_KERNELS.contains(&name.as_str()),
                    "{rel} takes `kernel::{name}` from the kernel table: hashes and their widths are `hash::multi`'s"
                );
                seen += 1;
            }
        }
        // The check reads real imports (ML-DSA's NTT and encodings are there).
        assert!(seen >= ALGORITHM_KERNELS.len(), "read {seen} kernel imports");
        assert!(kernel_names("use crate::kernel::{ntt, keccak_states};").contains(&"keccak_states".to_owned()));
        assert_eq!(kernel_names("if kernel::has_sha256_x16() {"), ["has_sha256_x16"]);
    }

    #[test]
    fn production_code_does_not_import_test_helpers() {
        for krate in ["core", "native", "wasm", "benches", "kats"] {
            assert!(
                !dependencies(&path(&format!("{krate}/Cargo.toml"))).iter().any(|d| d == "pqverify-testkit"),
                "{krate} depends on the testkit outside dev-dependencies"
            );
        }
    }

    #[test]
    fn the_native_twin_does_not_depend_on_the_benchmark() {
        // The library and the `pqverify` command are the verifier; the benchmark's driver
        // (`benches/native`) depends on them, never the other way.
        let deps = dependencies(&path("native/Cargo.toml"));
        assert!(!deps.iter().any(|d| d.starts_with("pqverify-bench")), "pqverify-native depends on {deps:?}");
        for file in sources(&path("native/src")) {
            assert!(!code(&file).contains("pqverify_bench"), "{} uses pqverify_bench", file.display());
        }
        assert!(dependencies(&path("benches/native/Cargo.toml")).iter().any(|d| d == "pqverify-native"));
    }

    #[test]
    fn the_campaign_depends_on_the_verifiers_and_nothing_depends_on_the_campaign() {
        // The differential campaign (and the peers it links: libcrux, AWS-LC) is a test
        // tool over the verifiers; no library or the benchmark links it.
        for krate in ["core", "native", "wasm", "benches", "benches/native", "kats", "testkit"] {
            let deps = dependencies(&path(&format!("{krate}/Cargo.toml")));
            for tool in ["pqverify-differential", "libcrux-ml-dsa", "aws-lc-rs"] {
                assert!(!deps.iter().any(|d| d == tool), "{krate} depends on {tool}");
            }
        }
        assert!(dependencies(&path("differential/Cargo.toml")).iter().any(|d| d == "pqverify-native"));
    }

    /// The JavaScript areas: the package, the benchmark, the differential helper and the
    /// shared dev-only helpers.
    const JS_AREAS: &[&str] = &["wasm/", "benches/", "differential/", "testkit/js/"];

    /// Every `.js` / `.mjs` file under `dir`, outside installed, built and generated folders.
    fn scripts(dir: &Path) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let p = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            if p.is_dir() {
                if !["node_modules", "dist", "generated", "target"].contains(&name.as_str()) && !name.starts_with('.') {
                    out.extend(scripts(&p));
                }
            } else if name.ends_with(".js") || name.ends_with(".mjs") {
                out.push(p);
            }
        }
        out
    }

    /// The relative specifiers a script names: `from '…'`, `import('…')`, `new URL('…'`.
    fn relative_specifiers(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in text.lines().map(str::trim_start).filter(|l| !l.starts_with("//") && !l.starts_with('*')) {
            for opener in ["from '", "from \"", "import('", "import(\"", "new URL('", "new URL(\""] {
                for (at, _) in line.match_indices(opener) {
                    let rest = &line[at + opener.len()..];
                    let quote = opener.chars().last().unwrap_or('\'');
                    let spec = rest.split(quote).next().unwrap_or_default();
                    if spec.starts_with("./") || spec.starts_with("../") {
                        out.push(spec.to_owned());
                    }
                }
            }
        }
        out
    }

    /// `dir/spec` with `.` and `..` resolved, relative to the project root.
    fn resolve(dir: &Path, spec: &str) -> String {
        let mut parts: Vec<String> = dir
            .strip_prefix(path(""))
            .unwrap()
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        for part in spec.split('/') {
            match part {
                "." | "" => {}
                ".." => {
                    parts.pop();
                }
                p => parts.push(p.to_owned()),
            }
        }
        parts.join("/")
    }

    /// The area a project path is in.
    fn area(file: &str) -> Option<&'static str> {
        // testkit/js before the others: it is listed last but is the most specific.
        JS_AREAS.iter().rev().copied().find(|a| file.starts_with(a))
    }

    #[test]
    fn the_js_of_the_package_the_benchmark_and_the_differential_import_only_their_own_and_the_testkit() {
        let mut checked = 0;
        for top in ["wasm", "benches", "differential", "testkit/js"] {
            for file in scripts(&path(top)) {
                let from = resolve(file.parent().unwrap(), file.file_name().unwrap().to_str().unwrap());
                let own = area(&from).unwrap();
                for spec in relative_specifiers(&std::fs::read_to_string(&file).unwrap()) {
                    let to = resolve(file.parent().unwrap(), &spec);
                    let target = area(&to);
                    // Outside every area (a build under target/) is no other area's code.
                    let allowed = target.is_none_or(|t| t == own || (t == "testkit/js/" && own != "testkit/js/"));
                    assert!(
                        allowed,
                        "{from} reaches {to} ('{spec}'): the JS areas {JS_AREAS:?} import only their own files and testkit/js/, which imports only its own"
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 100, "only {checked} relative specifiers found: the scan is broken");
    }

    #[test]
    fn js_specifiers_are_found_and_resolved() {
        let text = "// from '../../no'\nimport { a } from '../../testkit/js/serve.mjs';\nconst m = await import(\"./x.mjs\");\nnew URL('../fixtures/f.json', import.meta.url);\nimport 'pkg';";
        assert_eq!(relative_specifiers(text), ["../../testkit/js/serve.mjs", "./x.mjs", "../fixtures/f.json"]);
        assert_eq!(resolve(&path("benches/www/src"), "../../js/ways.mjs"), "benches/js/ways.mjs");
        assert_eq!(area("testkit/js/serve.mjs"), Some("testkit/js/"));
        assert_eq!(area("testkit/src/lib.rs"), None);
        assert_eq!(area("benches/www/check.mjs"), Some("benches/"));
    }
}
