//! `cargo xtask profile`: where one ML-DSA verify spends its instructions, per
//! component, for pqverify (one-shot and prepared) beside liboqs 0.16 (mldsa-native):
//! the table of `../shared/NATIVE-PERF-FACTS.md`, made from the project's own driver.
//!
//! Each way runs `pqverify-bench verify-loop` under callgrind twice, with N verifies
//! and with none; the difference of every function's own instruction count, divided
//! by N, is what one verify spends there. Instruction counts, not times: valgrind runs
//! no AVX-512, so pqverify's AVX2 kernels (or the portable ones) are profiled, and
//! liboqs takes its AVX2 code too.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::Result;
use crate::process::{cargo, exec};
use crate::project::root;

/// `cargo xtask profile`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub(crate) struct Flags {
    /// The ML-DSA suite.
    #[arg(long, default_value = "ML-DSA-65")]
    pub(crate) suite: String,
    /// pqverify's kernel set: `avx2` or `portable` (valgrind runs no AVX-512).
    #[arg(long, default_value = "avx2")]
    pub(crate) kernels: String,
    /// Verifies per run.
    #[arg(long, default_value_t = 100)]
    pub(crate) count: u64,
}

/// The components, each with the function-name pieces that belong to it, in the order
/// they are tried (the first match wins: "inverse NTT" before "NTT").
const COMPONENTS: &[(&str, &[&str])] = &[
    (
        "Keccak ×4 permutation",
        &["keccak::permute", "keccak_avx512::permute", "KeccakP1600times4_PermuteAll", "keccak::f1600x4"],
    ),
    ("Keccak ×1 permutation", &["f1600_bmi", "keccak::f1600", "KeccakF1600", "KeccakP1600_Permute"]),
    (
        "Keccak absorb, squeeze, lanes",
        &[
            "xor_bytes",
            "read_bytes",
            "states::SharedShake",
            "states::Round",
            "FedShake256",
            "ExtractBytes",
            "AddBytes",
            "keccak_x4_inc",
            "InitializeAll",
            "shake128_",
            "shake256_",
            "keccak_squeeze",
            "keccak_absorb",
            "keccak_finalize",
            "keccak_init",
        ],
    ),
    ("rejection sampling (ExpandA)", &["rej_sample", "rej_uniform", "MatrixStates", "poly_uniform"]),
    ("inverse NTT", &["inv_ntt", "invntt"]),
    ("NTT", &["ntt::ntt", "ntt_avx2", "nttunpack", "poly_ntt", "polyvecl_ntt", "polyveck_ntt"]),
    ("pointwise products", &["pointwise", "w_approx_row"]),
    (
        "decoding (t1, z, hints)",
        &[
            "unpack_z",
            "unpack_t1",
            "Hints",
            "decode_signature",
            "polyz_unpack",
            "polyt1_unpack",
            "unpack_hints",
            "poly_shiftl",
            "chknorm",
        ],
    ),
    ("SampleInBall", &["sample_in_ball", "poly_challenge", "Challenge"]),
    ("UseHint", &["use_hint"]),
    ("w1 encoding", &["pack_w1", "polyw1_pack"]),
    ("memset, memcpy", &["memset", "memcpy", "memmove"]),
];

/// The ways profiled: (column, `verify-loop` way).
const WAYS: [(&str, &str); 3] =
    [("pqverify one-shot", "pqverify"), ("pqverify prepared", "pqverify-prepared"), ("liboqs 0.16", "liboqs")];

/// `cargo xtask profile`.
pub(crate) fn run(flags: &Flags) -> Result {
    exec(
        "cargo build --release -p pqverify-bench-native",
        cargo().args(["build", "--release", "-p", "pqverify-bench-native", "--bin", "pqverify-bench"]),
    )?;
    let liboqs = crate::liboqs::peer_016()?;
    let driver = root().join("target/release/pqverify-bench");
    let dir = root().join("target/profile");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut columns = Vec::new();
    for (column, way) in WAYS {
        let counts = |n: u64| -> Result<BTreeMap<String, u64>> {
            let out = dir.join(format!("callgrind.{way}.{n}"));
            exec(
                &format!("callgrind: {way} {} × {n}", flags.suite),
                Command::new("valgrind")
                    .arg("--tool=callgrind")
                    .arg(format!("--callgrind-out-file={}", out.display()))
                    .arg(&driver)
                    .args(["verify-loop", "--way", way, "--suite", &flags.suite, "--count", &n.to_string()])
                    .arg("--liboqs")
                    .arg(&liboqs)
                    .args(["--kernels", &flags.kernels]),
            )?;
            per_function(&out, &liboqs)
        };
        let (with, without) = (counts(flags.count)?, counts(0)?);
        let mut per_component: BTreeMap<&str, f64> = BTreeMap::new();
        for (function, n) in &with {
            let spent = n.saturating_sub(without.get(function).copied().unwrap_or(0));
            *per_component.entry(component(function)).or_default() += spent as f64 / flags.count as f64;
        }
        columns.push((column, per_component));
    }
    println!("{}", table(&flags.suite, &flags.kernels, &columns));
    Ok(())
}

/// The component a function belongs to.
fn component(function: &str) -> &'static str {
    COMPONENTS
        .iter()
        .find(|(_, pieces)| pieces.iter().any(|p| function.contains(p)))
        .map_or("the rest (control, glue)", |(name, _)| name)
}

/// Every function's own instruction count in a callgrind file, by name; functions
/// callgrind shows as bare addresses in `liboqs` (its assembly's local symbols) get
/// their names from the library's symbol table.
fn per_function(file: &Path, liboqs: &Path) -> Result<BTreeMap<String, u64>> {
    let out = Command::new("callgrind_annotate")
        .args(["--threshold=100", "--inclusive=no", "--auto=no"])
        .arg(file)
        .output()
        .map_err(|e| format!("callgrind_annotate: cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!("callgrind_annotate {}: {}", file.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let symbols = local_symbols(liboqs)?;
    let mut counts = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        // "  1,234,567 (12.34%)  file:function [object]"
        let line = line.trim_start();
        let Some((number, rest)) = line.split_once(' ') else { continue };
        let Ok(n) = number.replace(',', "").parse::<u64>() else { continue };
        let Some((_, function)) = rest.split_once(")  ") else { continue };
        if function == "PROGRAM TOTALS" {
            continue;
        }
        let function = function.split(" [").next().unwrap_or(function);
        let function = function.split_once(':').map_or(function, |(_, f)| f);
        let name = match function.strip_prefix("0x").and_then(|a| u64::from_str_radix(a, 16).ok()) {
            Some(address) => symbols.range(..=address).next_back().map_or(function.to_owned(), |(_, s)| s.clone()),
            None => function.to_owned(),
        };
        *counts.entry(name).or_insert(0) += n;
    }
    if counts.is_empty() {
        return Err(format!("callgrind_annotate {}: no functions", file.display()));
    }
    Ok(counts)
}

/// The symbol table of `library` by address (`nm -n`, local symbols included).
fn local_symbols(library: &Path) -> Result<BTreeMap<u64, String>> {
    let real: PathBuf = std::fs::canonicalize(library).map_err(|e| format!("{}: {e}", library.display()))?;
    let out = Command::new("nm").arg("-n").arg(&real).output().map_err(|e| format!("nm: cannot start: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let address = u64::from_str_radix(parts.next()?, 16).ok()?;
            let kind = parts.next()?;
            let name = parts.next()?;
            matches!(kind, "t" | "T").then(|| (address, name.to_owned()))
        })
        .collect())
}

/// The Markdown table: one row per component, one column per way, and the totals.
fn table(suite: &str, kernels: &str, columns: &[(&str, BTreeMap<&str, f64>)]) -> String {
    let mut rows: Vec<&str> = COMPONENTS.iter().map(|(name, _)| *name).collect();
    rows.push("the rest (control, glue)");
    let k = |v: f64| if v >= 1000.0 { format!("{:.1} k", v / 1000.0) } else { format!("{v:.0}") };
    let mut out = format!(
        "{suite}, instructions per verify (callgrind; pqverify on its {kernels} kernels, liboqs 0.16 on its AVX2 code)\n\n| component | {} |\n|---|{}\n",
        columns.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(" | "),
        "---:|".repeat(columns.len())
    );
    for row in rows {
        let cells: Vec<String> = columns.iter().map(|(_, m)| k(m.get(row).copied().unwrap_or(0.0))).collect();
        out.push_str(&format!("| {row} | {} |\n", cells.join(" | ")));
    }
    let totals: Vec<String> = columns.iter().map(|(_, m)| k(m.values().sum())).collect();
    out.push_str(&format!("| **total** | {} |\n", totals.join(" | ")));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_fall_into_their_components() {
        assert_eq!(component("pqverify_core::arch::x86_64::ntt::inv_ntt_avx2"), "inverse NTT");
        assert_eq!(component("pqverify_core::arch::x86_64::ntt::ntt_avx2"), "NTT");
        assert_eq!(component("X86_64_invntt_avx2_asm"), "inverse NTT");
        assert_eq!(component("KeccakP1600times4_PermuteAll_24rounds_avx2"), "Keccak ×4 permutation");
        assert_eq!(component("__KeccakF1600'2"), "Keccak ×1 permutation");
        assert_eq!(component("X86_64_mld_rej_uniform_avx2"), "rejection sampling (ExpandA)");
        assert_eq!(component("pqverify_core::verify"), "the rest (control, glue)");
    }
}
