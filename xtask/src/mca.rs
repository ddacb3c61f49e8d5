//! llvm-mca's estimate of the Keccak kernels on Arm cores, part of `cargo xtask count`.
//! Instruction counts under qemu do not say whether two NEON states beat one scalar
//! state on a real core; a scheduling model does, roughly. The stream handed to llvm-mca
//! is what one call really executes: the cross-built benchmark driver runs under qemu
//! with a tracing plugin (`xtask/qemu/trace.c`) that records the addresses of the longest
//! call of the kernel during an ML-DSA-44 verify loop, and the addresses are read back
//! as the binary's disassembly. Calls and returns are left out of the stream (llvm-mca
//! does not model them; the kernels traced call nothing else). Estimates of a model,
//! never times: every record and table names the model.

use std::path::Path;
use std::process::Command;

use crate::Result;
use crate::process::exec;

/// One Keccak kernel as traced: what the table calls it, the functions its stream runs
/// through (paths inside pqverify-core, the first the one called), the kernel set
/// whose verify calls it, the states one call permutes, and whether it needs the SHA-3
/// extension.
struct Kernel {
    name: &'static str,
    functions: &'static [&'static str],
    kernels: &'static str,
    states: u32,
    sha3: bool,
}

const KERNELS: [Kernel; 4] = [
    Kernel {
        name: "scalar, one state (`portable::keccak::f1600`)",
        functions: &["portable::keccak::f1600"],
        kernels: "portable",
        states: 1,
        sha3: false,
    },
    Kernel {
        name: "scalar, four states interleaved (`portable::keccak::f1600x4`)",
        functions: &["portable::keccak::f1600x4"],
        kernels: "portable",
        states: 4,
        sha3: false,
    },
    Kernel {
        name: "NEON, four states as two pairs (`neon`)",
        functions: &["arch::aarch64::keccak::f1600x4"],
        kernels: "neon",
        states: 4,
        sha3: false,
    },
    Kernel {
        name: "NEON with EOR3/RAX1/XAR/BCAX, four states as two pairs (`neon-sha3`)",
        functions: &["arch::aarch64::keccak::f1600x4_sha3", "arch::aarch64::keccak::permute_pair_sha3"],
        kernels: "neon-sha3",
        states: 4,
        sha3: true,
    },
];

/// The CPU models asked: the name, what LLVM 16 schedules it by, and whether the core
/// has the SHA-3 extension (Neoverse N1 does not: no estimate for that kernel there).
const MODELS: [(&str, &str, bool); 2] = [
    ("neoverse-n2", "LLVM 16's Neoverse N2 model", true),
    (
        "neoverse-n1",
        "LLVM 16 has no Neoverse N1 model and schedules it by its Cortex-A57 model; N1 has no SHA-3 instructions",
        false,
    ),
];

/// What `estimate` hands back: the Markdown table and the JSON-lines records.
pub(crate) struct Estimates {
    pub(crate) table: String,
    pub(crate) records: String,
}

/// Traces each kernel in `binary` (the cross-built `pqverify-bench`) under `qemu` (its
/// words, `-cpu` included) and asks llvm-mca for each model.
pub(crate) fn estimate(binary: &Path, qemu: &[String], liboqs: &Path, dir: &Path) -> Result<Estimates> {
    let mca = crate::setup::llvm_mca()?;
    let plugin = plugin()?;
    let version = tool_version(&mca)?;
    let symbols = symbols(binary)?;
    let mut table = format!(
        "Keccak-f[1600] on AArch64: llvm-mca's estimate (`{version}`, `-iterations=10`) of cycles per state \
         permuted, for the instruction stream one call executes (traced under qemu during ML-DSA-44 verifies, \
         calls and returns left out). A scheduling model's estimate, not a time measured on the core.\n\n\
         | kernel | instructions per state | {} |\n|---|---:|{}\n",
        MODELS.map(|(cpu, _, _)| format!("`{cpu}` cycles per state")).join(" | "),
        "---:|".repeat(MODELS.len())
    );
    let mut records = String::new();
    for (i, kernel) in KERNELS.iter().enumerate() {
        let functions: Vec<&Symbol> = kernel
            .functions
            .iter()
            .map(|f| symbols.iter().find(|s| s.is(f)).ok_or_else(|| format!("{}: no function {f}", binary.display())))
            .collect::<Result<_>>()?;
        let trace = dir.join(format!("keccak-{i}.trace"));
        let names: Vec<&str> = functions.iter().map(|s| s.name.as_str()).collect();
        exec(
            &format!("qemu-aarch64 (tracing {})", kernel.functions[0]),
            Command::new(&qemu[0])
                .args(&qemu[1..])
                .arg("-plugin")
                .arg(format!("{},out={},symbols={}", plugin.display(), trace.display(), names.join(":")))
                .arg(binary)
                .args(["verify-loop", "--way", "pqverify", "--suite", "ML-DSA-44", "--count", "2"])
                .args(["--kernels", kernel.kernels, "--liboqs"])
                .arg(liboqs),
        )?;
        let stream = stream(binary, &functions, &trace)?;
        let source = dir.join(format!("keccak-{i}.s"));
        std::fs::write(&source, stream.join("\n") + "\n").map_err(|e| format!("{}: {e}", source.display()))?;
        let per_state = |n: f64| n / f64::from(kernel.states);
        let mut row = format!("| {} | {:.0} |", kernel.name, per_state(stream.len() as f64));
        for (cpu, model, has_sha3) in MODELS {
            if kernel.sha3 && !has_sha3 {
                row.push_str(" — |");
                continue;
            }
            let cycles = per_state(cycles(&mca, cpu, kernel.sha3, &source)?);
            row.push_str(&format!(" {cycles:.0} |"));
            records.push_str(
                &serde_json::json!({
                    "kind": "llvm-mca",
                    "measure": "cycles per Keccak-f[1600] state, llvm-mca's estimate for the CPU model (not a time)",
                    "tool": version,
                    "cpu_model": cpu,
                    "model": model,
                    "kernel": kernel.name,
                    "kernels": kernel.kernels,
                    "instructions_per_state": per_state(stream.len() as f64).round() as u64,
                    "cycles_per_state": cycles.round() as u64,
                })
                .to_string(),
            );
            records.push('\n');
        }
        table.push_str(&row);
        table.push('\n');
    }
    table.push('\n');
    for (cpu, model, _) in MODELS {
        table.push_str(&format!("`{cpu}`: {model}. "));
    }
    table.push('\n');
    Ok(Estimates { table, records })
}

/// A function of the binary: its symbol as spelled there, address and size.
struct Symbol {
    name: String,
    address: u64,
    size: u64,
}

impl Symbol {
    /// Whether this is pqverify-core's function at `path` (legacy Rust mangling: each
    /// segment as its length and name, then the hash segment).
    fn is(&self, path: &str) -> bool {
        let segments: String =
            ["pqverify_core"].into_iter().chain(path.split("::")).map(|s| format!("{}{s}", s.len())).collect();
        self.name.contains(&format!("{segments}17h"))
    }
}

/// The functions of `binary` with their sizes, from the cross binutils' `nm`.
fn symbols(binary: &Path) -> Result<Vec<Symbol>> {
    let out = Command::new("aarch64-linux-gnu-nm")
        .arg("-S")
        .arg(binary)
        .output()
        .map_err(|e| format!("aarch64-linux-gnu-nm: cannot start: {e}"))?;
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let [address, size, _, name] = line.split_whitespace().collect::<Vec<_>>()[..] else { return None };
            let hex = |s: &str| u64::from_str_radix(s, 16).ok();
            Some(Symbol { name: name.to_owned(), address: hex(address)?, size: hex(size)? })
        })
        .collect())
}

/// The traced call as assembly llvm-mca reads: each executed address's instruction
/// from the disassembly (the load address qemu chose taken off: the call starts at
/// the first function's entry), calls and returns left out, address operands named by
/// a label.
fn stream(binary: &Path, functions: &[&Symbol], trace: &Path) -> Result<Vec<String>> {
    let mut text = std::collections::HashMap::new();
    for f in functions {
        let out = Command::new("aarch64-linux-gnu-objdump")
            .args(["-d", "--no-show-raw-insn"])
            .arg(format!("--start-address={:#x}", f.address))
            .arg(format!("--stop-address={:#x}", f.address + f.size))
            .arg(binary)
            .output()
            .map_err(|e| format!("aarch64-linux-gnu-objdump: cannot start: {e}"))?;
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let Some((address, instruction)) = line.trim_start().split_once(":\t") else { continue };
            let Ok(address) = u64::from_str_radix(address, 16) else { continue };
            text.insert(address, assembly(instruction));
        }
    }
    let addresses: Vec<u64> = std::fs::read_to_string(trace)
        .map_err(|e| format!("{}: {e}", trace.display()))?
        .lines()
        .map(|l| u64::from_str_radix(l, 16).map_err(|e| format!("{}: {l:?}: {e}", trace.display())))
        .collect::<Result<_>>()?;
    let first = *addresses.first().ok_or_else(|| format!("{}: the kernel never ran", trace.display()))?;
    let bias = first.wrapping_sub(functions[0].address);
    let mut stream = vec![".Lt:".to_owned()];
    for at in addresses {
        let file_address = at.wrapping_sub(bias);
        let instruction =
            text.get(&file_address).ok_or_else(|| format!("{file_address:#x}: not in the disassembly"))?;
        let mnemonic = instruction.split_whitespace().next().unwrap_or_default();
        if !["bl", "blr", "ret"].contains(&mnemonic) {
            stream.push(instruction.clone());
        }
    }
    Ok(stream)
}

/// objdump's instruction as assembly: its comment dropped, an address operand
/// (`1190ec <symbol>`) replaced by the label `.Lt`.
fn assembly(instruction: &str) -> String {
    let code = instruction.split("//").next().unwrap_or_default().trim().replace('\t', " ");
    match code.find(" <") {
        Some(at) => {
            let operand = code[..at].trim_end_matches(|c: char| c.is_ascii_hexdigit());
            format!("{operand}.Lt")
        }
        None => code,
    }
}

/// llvm-mca's cycles for one pass of `source` on `cpu`.
fn cycles(mca: &Path, cpu: &str, sha3: bool, source: &Path) -> Result<f64> {
    const ITERATIONS: f64 = 10.0;
    let mut cmd = Command::new(mca);
    cmd.args(["-mtriple=aarch64", &format!("-mcpu={cpu}"), "-iterations=10"]);
    if sha3 {
        cmd.arg("-mattr=+sha3");
    }
    let out = cmd.arg(source).output().map_err(|e| format!("llvm-mca: cannot start: {e}"))?;
    if !out.status.success() {
        return Err(format!("llvm-mca {}: {}", source.display(), String::from_utf8_lossy(&out.stderr)));
    }
    let report = String::from_utf8_lossy(&out.stdout);
    let total = report
        .lines()
        .find_map(|l| l.strip_prefix("Total Cycles:"))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .ok_or_else(|| format!("llvm-mca {}: no total cycles in its report", source.display()))?;
    Ok(total / ITERATIONS)
}

/// `llvm-mca --version`'s LLVM line.
fn tool_version(mca: &Path) -> Result<String> {
    let out = Command::new(mca).arg("--version").output().map_err(|e| format!("llvm-mca: cannot start: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let version = text.lines().map(str::trim).find(|l| l.contains("LLVM version")).unwrap_or("LLVM (unknown)");
    Ok(format!("llvm-mca, {version}"))
}

/// The tracing plugin (`xtask/qemu/trace.c`), built with the host's C compiler.
fn plugin() -> Result<std::path::PathBuf> {
    crate::qemu_plugin::build("trace")
}
