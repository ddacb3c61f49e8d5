//! Running a built binary the way the tests were run: directly, or under the program
//! named by [`RUNNER_ENV`] (an emulator with its arguments, such as
//! `qemu-aarch64 -L /usr/aarch64-linux-gnu` for a cross-built binary).

use std::process::Command;

/// The variable naming a program to run the binaries under, split at spaces; unset or
/// empty, they run directly.
pub const RUNNER_ENV: &str = "PQVERIFY_TEST_RUNNER";

/// The runner's words, if one is set.
fn runner() -> Vec<String> {
    std::env::var(RUNNER_ENV).unwrap_or_default().split_whitespace().map(str::to_owned).collect()
}

/// Whether the tests run under a runner (an emulator): a test whose point needs many
/// items but not a particular number of them may run fewer there.
pub fn emulated() -> bool {
    !runner().is_empty()
}

/// `binary` as a command, under the runner when one is set.
pub fn command(binary: &str) -> Command {
    match runner().split_first() {
        Some((program, args)) => {
            let mut cmd = Command::new(program);
            cmd.args(args).arg(binary);
            cmd
        }
        None => Command::new(binary),
    }
}

/// `binary` as the start of a shell command line, under the runner when one is set.
pub fn shell(binary: &str) -> String {
    let mut words = runner();
    words.push(binary.to_owned());
    words.join(" ")
}
