//! Records the compiler version for the benchmark's environment record.
fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = std::process::Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "rustc (unknown)".into());
    println!("cargo:rustc-env=PQVERIFY_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
}
