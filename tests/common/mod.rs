//! What the integration tests share: the binary under test, and a note for a check this CPU
//! cannot run.
#![allow(dead_code)]

use std::io::Write;

use assert_cmd::Command;
use bitgames::simd::Backend;

/// The `bitgames` binary of this build.
pub fn bitgames() -> Command {
    Command::cargo_bin("bitgames").expect("the bitgames binary is built for the tests")
}

/// Says on the test output (not captured by the test harness) that a check was skipped
/// because this CPU cannot run it.
pub fn skipped(test: &str, why: &str) {
    let _ = writeln!(std::io::stderr(), "note: {test}: skipped {why}");
}

/// The SIMD back ends this CPU runs; each one it cannot run is named on the test output.
pub fn backends(test: &str) -> Vec<Backend> {
    Backend::ALL
        .into_iter()
        .filter(|b| {
            let ok = b.is_available();
            if !ok {
                skipped(test, &format!("the {b:?} back end: not on this CPU"));
            }
            ok
        })
        .collect()
}
