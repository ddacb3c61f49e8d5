//! `pqverify suites`: every suite, its sizes and the backends that have it.

use std::process::ExitCode;
use std::sync::Arc;

use pqverify_core::Suite;
use pqverify_native::backend::{Backend, Interface, Pqverify, Reference};
use pqverify_native::interfaces_of;
use serde_json::json;

use super::verifier::liboqs_or_linked;
use pqverify_native::command::Failure;
use pqverify_native::say;

pub(crate) fn suites(as_json: bool, liboqs: Option<&std::path::Path>) -> Result<ExitCode, Failure> {
    let liboqs = liboqs_or_linked(liboqs)?;
    let info = liboqs.info();
    let (kernels, available) = (pqverify_core::kernels(), pqverify_core::available_kernels());
    if as_json {
        say!("{}", json!({"liboqs": info, "kernels": kernels, "available_kernels": available}));
    } else {
        say!(
            "liboqs {} ({}; AVX2 {}); pqverify kernels {kernels} (this CPU has {})",
            info.version,
            info.library,
            if info.avx2 { "yes" } else { "no" },
            available.join(", ")
        );
    }
    let backends: Vec<Arc<dyn Backend>> = vec![Arc::new(Pqverify::one_shot()), liboqs, Arc::new(Reference)];
    if !as_json {
        say!("{:<20} {:>10} {:>10}  backends (interfaces)", "suite", "public key", "signature");
    }
    for suite in Suite::ALL {
        let support: Vec<(String, Vec<&str>)> = backends
            .iter()
            .map(|b| {
                (
                    b.name().to_owned(),
                    interfaces_of(b.as_ref(), suite).into_iter().map(Interface::name).collect::<Vec<_>>(),
                )
            })
            .filter(|(_, i)| !i.is_empty())
            .collect();
        if as_json {
            let backends: serde_json::Map<String, serde_json::Value> =
                support.into_iter().map(|(n, i)| (n, json!(i))).collect();
            say!(
                "{}",
                json!({"suite": suite.name(), "public_key": suite.public_key_len(),
                       "signature": suite.signature_len(), "backends": backends})
            );
        } else {
            let list: Vec<String> = support.iter().map(|(n, i)| format!("{n} ({})", i.join(", "))).collect();
            say!(
                "{:<20} {:>10} {:>10}  {}",
                suite.name(),
                suite.public_key_len(),
                suite.signature_len(),
                list.join("; ")
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}
