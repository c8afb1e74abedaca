//! `bitgames havannah` end to end: the sample from a file and from standard input, and bad
//! input (earlier answers kept, one message naming file, line, column and case).

use assert_cmd::Command;
use predicates::prelude::*;

const SAMPLE_IN: &str = include_str!("data/havannah.in");
const SAMPLE_OUT: &str = include_str!("data/havannah.out");

fn bitgames() -> Command {
    Command::cargo_bin("bitgames").unwrap()
}

#[test]
fn sample_from_a_file() {
    for threads in ["1", "2", "8"] {
        bitgames()
            .args(["havannah", "tests/data/havannah.in", "--threads", threads])
            .assert()
            .success()
            .stdout(SAMPLE_OUT)
            .stderr("");
    }
}

#[test]
fn sample_from_standard_input_with_and_without_dash() {
    for args in [&["havannah"][..], &["havannah", "-"][..]] {
        bitgames()
            .args(args)
            .write_stdin(SAMPLE_IN)
            .assert()
            .success()
            .stdout(SAMPLE_OUT)
            .stderr("");
    }
}

#[test]
fn help_lists_havannah() {
    bitgames()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("havannah"));
}

#[test]
fn missing_file_is_a_clear_error() {
    bitgames()
        .args(["havannah", "no/such/file.in"])
        .assert()
        .failure()
        .stderr(predicate::str::starts_with("error: no/such/file.in: "));
}

/// Runs `body` as cases 2.. after a first case answered `bridge in move 2`, from a file;
/// expects that answer, then exactly `message` (after `error: FILE:`) and a failure exit.
fn rejects(cases: u32, body: &str, message: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.in");
    std::fs::write(&path, format!("{cases}\n2 2\n1 1\n1 2\n{body}")).unwrap();
    bitgames()
        .arg("havannah")
        .arg(&path)
        .assert()
        .failure()
        .stdout("Case #1: bridge in move 2\n")
        .stderr(format!("error: {}:{message}\n", path.display()));
    // The same from standard input.
    bitgames()
        .arg("havannah")
        .write_stdin(format!("{cases}\n2 2\n1 1\n1 2\n{body}"))
        .assert()
        .failure()
        .stdout("Case #1: bridge in move 2\n")
        .stderr(format!("error: <stdin>:{message}\n"));
}

#[test]
fn off_board_cells_are_rejected() {
    rejects(2, "3 1\n6 1\n", "6:1: dataset 2: x = 6 is outside 1..=5");
    rejects(
        2,
        "3 1\n1 4\n",
        "6:1: dataset 2: move 1: cell (1, 4) is off the board: |x - y| must be at most S - 1 = 2",
    );
}

#[test]
fn repeated_cells_are_rejected_even_after_the_win() {
    rejects(
        2,
        "2 4\n1 1\n1 2\n2 2\n1 1\n",
        "9:1: dataset 2: move 4: cell (1, 1) was played before",
    );
}

#[test]
fn small_boards_are_rejected() {
    rejects(
        2,
        "1 1\n1 1\n",
        "5:1: dataset 2: the board side S = 1 is outside 2..=1073741824",
    );
}

#[test]
fn missing_and_non_numeric_tokens_are_rejected() {
    rejects(
        2,
        "3 2\n2 2\n",
        "7:1: dataset 2: unexpected end of input, expected x",
    );
    rejects(
        2,
        "3 2\n2 2\n2 y\n",
        "7:3: dataset 2: expected y, an unsigned number, found `y`",
    );
}

#[test]
fn fewer_cases_than_announced_are_rejected() {
    bitgames()
        .arg("havannah")
        .write_stdin("3\n2 2\n1 1\n1 2\n2 0\n")
        .assert()
        .failure()
        .stdout("Case #1: bridge in move 2\nCase #2: none\n")
        .stderr(
            "error: <stdin>:6:1: dataset 3: unexpected end of input, expected the board side S\n",
        );
}
