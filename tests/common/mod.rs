//! What the integration tests share: the binary under test, a note for a check this CPU
//! cannot run, and the slow answers some fast engine calls are checked against.
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

/// The empty cells where `color` would win at once in a Havannah game, found by trying each
/// one with `wins_with` (which plays it and takes it back): the slow answer that
/// `Game::winning_cell` is checked against.
pub fn winning_cells(
    game: &bitgames::havannah::Game,
    color: bitgames::havannah::Color,
) -> Vec<bitgames::havannah::Cell> {
    let mut scratch = game.clone();
    game.board()
        .iter()
        .filter(|c| {
            scratch
                .wins_with(color, c.x, c.y)
                .is_ok_and(|w| !w.is_empty())
        })
        .collect()
}
