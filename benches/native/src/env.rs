//! The native environment record: the CPU (vendor, family, model and its kernel
//! flags), the OS, the toolchain and every liboqs measured.

use std::time::{SystemTime, UNIX_EPOCH};

use pqverify_bench::{Env, LiboqsInfo, SCHEMA};
use pqverify_native::backend::{Backend, Reference};

use crate::ways::Liboqses;

/// The value of the first `name` line of `/proc/cpuinfo`'s text (the first processor's).
fn cpuinfo_field<'t>(text: &'t str, name: &str) -> Option<&'t str> {
    text.lines().find_map(|l| l.split_once(':').filter(|(key, _)| key.trim() == name).map(|(_, value)| value.trim()))
}

/// The first processor's vendor, family, model and stepping ("AuthenticAMD family 25 model
/// 17 stepping 1") and its flags that decide which kernels run and how fast (vector, bit
/// manipulation and hash extensions), from `/proc/cpuinfo`'s text: the model name alone
/// does not tell a Zen 3 from a Zen 4 in a VM ("AMD EPYC").
fn cpu_identity(text: &str) -> Option<(String, String)> {
    let field = |name| cpuinfo_field(text, name);
    let id = format!(
        "{} family {} model {} stepping {}",
        field("vendor_id")?,
        field("cpu family")?,
        field("model")?,
        field("stepping").unwrap_or_default()
    );
    let kept = |f: &&str| {
        ["avx", "bmi", "sha", "vaes", "vpclmul", "gfni", "aes", "adx", "popcnt", "fma", "amx"]
            .iter()
            .any(|p| f.starts_with(p))
    };
    let flags: Vec<&str> = field("flags").map(|v| v.split_whitespace().filter(kept).collect()).unwrap_or_default();
    Some((id, flags.join(" ")))
}

fn read_trimmed(path: &str) -> Option<String> {
    std::fs::read_to_string(path).ok().map(|s| s.trim().to_owned())
}

/// The native environment record (fixtures digest and ways are filled in by the run):
/// `liboqs` is the dual verifier's primary, `liboqs_ways` every liboqs measured.
pub(crate) fn native_env(run: &str, liboqses: &Liboqses) -> Env {
    let liboqs = liboqses.primary();
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let cpu = cpuinfo_field(&cpuinfo, "model name").map_or_else(|| std::env::consts::ARCH.to_owned(), str::to_owned);
    let os_name = std::fs::read_to_string("/etc/os-release")
        .ok()
        .and_then(|t| t.lines().find_map(|l| l.strip_prefix("PRETTY_NAME=").map(|v| v.trim_matches('"').to_owned())))
        .unwrap_or_else(|| std::env::consts::OS.to_owned());
    let kernel = read_trimmed("/proc/sys/kernel/osrelease").unwrap_or_default();
    let info = liboqs.info();
    let mut extra = serde_json::Map::new();
    extra.insert("pqverify".into(), env!("CARGO_PKG_VERSION").into());
    extra.insert("host".into(), read_trimmed("/proc/sys/kernel/hostname").unwrap_or_default().into());
    if let Some((id, flags)) = cpu_identity(&cpuinfo) {
        extra.insert("cpu_id".into(), id.into());
        extra.insert("cpu_flags".into(), flags.into());
    }
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    extra.insert("time".into(), pqverify_bench::record::utc_timestamp(now).into());
    extra.insert("reference".into(), Reference.version().into());
    extra.insert("liboqs_suites".into(), info.suites.clone().into());
    let mut measured =
        vec![serde_json::json!({"way": "liboqs", "version": liboqses.linked.info().version, "library": "linked"})];
    if let Some(loaded) = &liboqses.loaded {
        measured.push(serde_json::json!({
            "way": Liboqses::loaded_way(loaded),
            "version": loaded.info().version,
            "library": loaded.info().library,
        }));
    }
    if let Some(avx2) = liboqses.avx2_pair() {
        measured.push(serde_json::json!({
            "way": Liboqses::avx2_way(avx2),
            "version": avx2.info().version,
            "library": avx2.info().library,
            "held_to": "avx2",
        }));
    }
    extra.insert("liboqs_ways".into(), measured.into());
    Env {
        schema: SCHEMA.into(),
        target: "native".into(),
        run: run.into(),
        cpu,
        cores: std::thread::available_parallelism().map_or(1, |n| n.get() as u32),
        os: format!("{os_name}, Linux {kernel}"),
        runtime: env!("PQVERIFY_RUSTC_VERSION").into(),
        liboqs: Some(LiboqsInfo {
            version: info.version.clone(),
            avx2: info.avx2,
            library: Some(info.library.clone()),
        }),
        backend: pqverify_core::kernels().into(),
        fixtures: String::new(),
        ways: Vec::new(),
        extra,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cpu_is_named_by_vendor_family_model_and_its_kernel_flags() {
        let text = "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\nmodel\t\t: 17\n\
                    model name\t: AMD EPYC\nstepping\t: 1\nflags\t\t: fpu sse2 avx2 bmi2 avx512f sha_ni ht\n\n\
                    processor\t: 1\nvendor_id\t: Other\n";
        assert_eq!(cpuinfo_field(text, "model name"), Some("AMD EPYC"));
        assert_eq!(cpuinfo_field(text, "model"), Some("17"));
        let (id, flags) = cpu_identity(text).expect("all fields present");
        assert_eq!(id, "AuthenticAMD family 25 model 17 stepping 1");
        assert_eq!(flags, "avx2 bmi2 avx512f sha_ni");
        assert_eq!(cpu_identity("processor\t: 0\n"), None);
    }
}
