//! Running commands: echoed, their failure an error naming the step.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::Result;

/// `cargo` as the one running xtask (the `CARGO` it was started with).
pub(crate) fn cargo() -> Command {
    Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
}

/// Runs a command with inherited output; fails if it fails.
pub(crate) fn exec(what: &str, cmd: &mut Command) -> Result {
    eprintln!("xtask: {what}");
    let status = cmd.status().map_err(|e| format!("{what}: cannot start: {e}"))?;
    if status.success() { Ok(()) } else { Err(format!("{what}: {status}")) }
}

/// Runs a command with `input` on its standard input and its output captured.
pub(crate) fn run_with_input(what: &str, cmd: &mut Command, input: &[u8]) -> Result<std::process::Output> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        stdin.write_all(input).map_err(|e| format!("{what}: {e}"))?;
    }
    child.wait_with_output().map_err(|e| format!("{what}: {e}"))
}

/// Runs a command, echoing its standard output line by line, and returns it.
pub(crate) fn exec_capture(what: &str, cmd: &mut Command) -> Result<String> {
    eprintln!("xtask: {what}");
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("{what}: cannot start: {e}"))?;
    let mut seen = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines() {
            let line = line.map_err(|e| format!("{what}: reading output: {e}"))?;
            println!("{line}");
            seen.push_str(&line);
            seen.push('\n');
        }
    }
    let status = child.wait().map_err(|e| format!("{what}: {e}"))?;
    if status.success() { Ok(seen) } else { Err(format!("{what}: {status}")) }
}

/// True when `cmd args…` runs and exits 0.
pub(crate) fn succeeds(cmd: &str, args: &[&str]) -> bool {
    Command::new(cmd).args(args).stdout(Stdio::null()).stderr(Stdio::null()).status().is_ok_and(|s| s.success())
}
