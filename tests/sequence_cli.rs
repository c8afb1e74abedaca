//! `bitgames sequence` end to end: the sample, standard input, and every kind of bad input.

use assert_cmd::Command;
use predicates::prelude::*;

const SAMPLE_IN: &str = include_str!("data/sequence.in");
const SAMPLE_OUT: &str = include_str!("data/sequence.out");

fn bitgames() -> Command {
    Command::cargo_bin("bitgames").unwrap()
}

#[test]
fn sample_from_a_file() {
    bitgames()
        .args(["sequence", "tests/data/sequence.in"])
        .assert()
        .success()
        .stdout(SAMPLE_OUT)
        .stderr("");
}

#[test]
fn sample_from_standard_input_with_and_without_dash() {
    for args in [&["sequence"][..], &["sequence", "-"][..]] {
        bitgames()
            .args(args)
            .write_stdin(SAMPLE_IN)
            .assert()
            .success()
            .stdout(SAMPLE_OUT);
    }
}

#[test]
fn help_and_version() {
    bitgames()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("sequence"));
    bitgames()
        .arg("--version")
        .assert()
        .success()
        .stdout(predicate::str::contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn missing_file_is_a_clear_error() {
    bitgames()
        .args(["sequence", "no/such/file.in"])
        .assert()
        .failure()
        .stderr(predicate::str::starts_with("error: no/such/file.in: "));
}

/// Runs `input` after one good dataset (answer `Draw`); expects the `Draw`, then exactly
/// `message` on standard error and a failure exit.
fn rejects(input: &str, message: &str) {
    let good = "3 3 3\n1 1\n1 1\n1 1\n";
    for threads in ["1", "2"] {
        bitgames()
            .args(["sequence", "--threads", threads])
            .write_stdin(format!("{good}{input}"))
            .assert()
            .failure()
            .stdout("Draw\n")
            .stderr(format!("error: <stdin>:{message}\n"));
    }
}

#[test]
fn board_size_out_of_range() {
    rejects(
        "8 3 1\n1 1\n0 0 0\n",
        "5:1: dataset 2: n = 8 is outside 3..=7",
    );
    rejects(
        "2 2 1\n1 1\n0 0 0\n",
        "5:1: dataset 2: n = 2 is outside 3..=7",
    );
}

#[test]
fn sequence_length_out_of_range_or_longer_than_the_board() {
    rejects(
        "4 5 1\n1 1\n0 0 0\n",
        "5:3: dataset 2: m = 5 is outside 3..=4",
    );
    rejects(
        "4 2 1\n1 1\n0 0 0\n",
        "5:3: dataset 2: m = 2 is outside 3..=4",
    );
}

#[test]
fn move_count_out_of_range() {
    rejects("3 3 0\n0 0 0\n", "5:5: dataset 2: p = 0 is outside 1..=27");
    rejects("3 3 28\n", "5:5: dataset 2: p = 28 is outside 1..=27");
}

#[test]
fn coordinate_outside_the_board() {
    rejects(
        "4 3 2\n1 1\n1 5\n0 0 0\n",
        "7:3: dataset 2: y = 5 is outside 1..=4",
    );
    rejects("4 3 2\n0 1\n", "6:1: dataset 2: x = 0 is outside 1..=4");
}

#[test]
fn ball_on_a_full_peg_before_and_after_the_win() {
    rejects(
        "3 3 4\n2 2\n2 2\n2 2\n2 2\n0 0 0\n",
        "9:1: dataset 2: move 4: peg (2, 2) is full, it already holds n = 3 balls",
    );
    // Black wins at move 5; the later overflow of (1, 1) is still an error.
    rejects(
        "3 3 8\n1 1\n2 1\n1 1\n2 1\n1 1\n3 3\n3 3\n1 1\n0 0 0\n",
        "13:1: dataset 2: move 8: peg (1, 1) is full, it already holds n = 3 balls",
    );
}

#[test]
fn missing_and_non_numeric_tokens() {
    rejects(
        "3 3 2\n1 1\n1",
        "7:2: dataset 2: unexpected end of input, expected y",
    );
    rejects(
        "3 3 2\n1 1\n1 b\n",
        "7:3: dataset 2: expected y, an unsigned number, found `b`",
    );
    rejects(
        "3 3 1\n-1 1\n",
        "6:1: dataset 2: expected x, an unsigned number, found `-1`",
    );
}

#[test]
fn missing_end_marker() {
    rejects(
        "",
        "5:1: dataset 2: unexpected end of input, expected n, the board side (3..=7), or `0 0 0` to end",
    );
    rejects(
        "0 0 1\n",
        "5:1: dataset 2: n = 0 is only allowed in the end marker `0 0 0`",
    );
}

#[test]
fn input_after_the_end_marker_is_ignored() {
    bitgames()
        .arg("sequence")
        .write_stdin(format!("{SAMPLE_IN}garbage\n"))
        .assert()
        .success()
        .stdout(SAMPLE_OUT);
}

#[test]
fn garbage_never_panics() {
    for input in [
        "\u{0}\u{1}",
        "99999999999999999999999 1 1",
        "7 7 343\n",
        "3 3 3 3 3 3",
        "\n\n\n",
    ] {
        bitgames()
            .arg("sequence")
            .write_stdin(input)
            .assert()
            .failure()
            .stderr(predicate::str::starts_with("error: <stdin>:"))
            .stderr(predicate::str::contains("panicked").not());
    }
}

#[test]
fn a_directory_is_a_read_error_naming_it() {
    bitgames()
        .args(["sequence", "tests"])
        .assert()
        .failure()
        .stdout("")
        .stderr(predicate::str::starts_with("error: tests: "));
}
