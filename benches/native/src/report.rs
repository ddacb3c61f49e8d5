//! `pqverify-bench report`: the report of any records, and its completeness check.

use std::io::Write;
use std::process::ExitCode;

use pqverify_native::units::UnitTable;

use pqverify_native::command::Failure::{self, BadInput, Internal};
use pqverify_native::note;

pub(crate) fn report(
    files: &[std::path::PathBuf],
    out_dir: Option<std::path::PathBuf>,
    units: &str,
    check: bool,
) -> Result<ExitCode, Failure> {
    let table = UnitTable::default().with_overrides(units).map_err(|e| BadInput(format!("--units: {e}")))?;
    let mut text = String::new();
    for f in files {
        text.push_str(&std::fs::read_to_string(f).map_err(|e| BadInput(format!("{}: {e}", f.display())))?);
        text.push('\n');
    }
    let report = pqverify_bench::Report::from_lines(text.lines(), table.constants()).map_err(BadInput)?;
    if check {
        let lines: Vec<&str> = text.lines().collect();
        report.check_complete(&lines).map_err(|e| BadInput(format!("incomplete records: {e}")))?;
        note!("pqverify-bench report: records complete for {}", report.targets().join(", "));
    }
    let markdown = report.markdown();
    if let Some(dir) = out_dir {
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("report.md"), &markdown)?;
        std::fs::write(dir.join("chart.svg"), report.svg())?;
        std::fs::write(dir.join("scaling.svg"), report.scaling_svg())?;
        std::fs::write(dir.join("certificates.svg"), report.certificates_svg())?;
    }
    write!(std::io::stdout().lock(), "{markdown}").map_err(|e| Internal(format!("standard output: {e}")))?;
    Ok(ExitCode::SUCCESS)
}
