//! The `bitgames grid` and `bitgames grid-table` commands.

use assert_cmd::Command;
use predicates::prelude::*;

fn bitgames() -> Command {
    Command::cargo_bin("bitgames").unwrap()
}

#[test]
#[cfg_attr(miri, ignore)]
fn sample_from_file_and_stdin() {
    let want = std::fs::read_to_string("tests/data/grid.out").unwrap();
    bitgames()
        .args(["grid", "tests/data/grid.in"])
        .assert()
        .success()
        .stdout(want.clone());
    bitgames()
        .args(["grid", "-j", "1", "-"])
        .write_stdin(std::fs::read("tests/data/grid.in").unwrap())
        .assert()
        .success()
        .stdout(want);
}

#[test]
#[cfg_attr(miri, ignore)]
fn bad_input_keeps_earlier_answers_and_names_the_place() {
    let cases = [
        (
            "2 2 0\n0 5 0\n",
            "losing\n",
            "error: <stdin>:2:1: dataset 2: r = 0 is outside 1..=80",
        ),
        (
            "2 2 0\n5 81 0\n",
            "losing\n",
            "error: <stdin>:2:3: dataset 2: c = 81 is outside 1..=80",
        ),
        (
            "1 1 0\n3 3 1 2 4\n",
            "winning\n",
            "error: <stdin>:2:9: dataset 2: the column of a move = 4 is outside 1..=3",
        ),
        (
            "3 3 2 2 2 1 2\n",
            "",
            "error: <stdin>:1:11: dataset 1: move 2 at (1, 2) is on a forbidden cell",
        ),
        (
            "2 2 0\n3 3 2 1 1\n",
            "losing\n",
            "error: <stdin>:3:1: dataset 2: unexpected end of input, expected the row of a move",
        ),
        (
            "2 2 0\n3 3 1 1 a1\n",
            "losing\n",
            "error: <stdin>:2:9: dataset 2: expected the column of a move, an unsigned number, found `a1`",
        ),
    ];
    for (input, out, error) in cases {
        bitgames()
            .arg("grid")
            .write_stdin(input)
            .assert()
            .failure()
            .stdout(out)
            .stderr(format!("{error}\n"));
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn missing_file_is_an_error() {
    bitgames()
        .args(["grid", "no/such/file.in"])
        .assert()
        .failure()
        .stderr(predicate::str::starts_with("error: no/such/file.in: "));
}

#[test]
#[cfg_attr(miri, ignore)]
fn table_zeros_and_csv() {
    bitgames()
        .args(["grid-table", "--max", "20", "--zeros"])
        .assert()
        .success()
        .stdout("a,b\n2,2\n4,4\n4,6\n8,12\n10,10\n");
    bitgames()
        .args(["grid-table", "--max", "3"])
        .assert()
        .success()
        .stdout("a\\b,1,2,3\n1,1,1,1\n2,1,0,2\n3,1,2,1\n");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.csv");
    bitgames()
        .args(["grid-table", "--max", "80"])
        .arg(&path)
        .assert()
        .success()
        .stdout("");
    let csv = std::fs::read_to_string(&path).unwrap();
    assert_eq!(csv.lines().count(), 81);
    assert!(csv.lines().nth(80).unwrap().starts_with("80,1,"));
    bitgames()
        .args(["grid-table", "--max", "0"])
        .assert()
        .failure();
}

/// `--resume FILE`: a run saves its census there and a second run goes on from it (here: from
/// a finished census, so it computes nothing and writes the same table); a file of another
/// size or a damaged one is refused with its name.
#[test]
#[cfg_attr(miri, ignore)]
fn table_resumes_from_a_checkpoint() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("census");
    let table = |max: &str| {
        bitgames()
            .args(["grid-table", "--max", max, "--resume"])
            .arg(&file)
            .assert()
    };
    let want = String::from_utf8(table("40").success().get_output().stdout.clone()).unwrap();
    assert!(want.starts_with("a\\b,1,2,"));
    assert!(file.exists());
    table("40").success().stdout(want);
    table("41").code(2).stderr(predicate::str::contains(
        "holds a census to 40, not to --max 41",
    ));
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[60] ^= 0xff;
    std::fs::write(&file, bytes).unwrap();
    table("40")
        .failure()
        .stderr(predicate::str::contains("the checksum does not match"));
}
