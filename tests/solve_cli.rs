//! `bitgames solve` end to end: values of small positions against the reference minimax (run in
//! this process), the principal variation and the proof checker, the time limit ending in
//! "unknown", and every kind of bad flag and bad position file.

mod common;

use std::io::Write;

use bitgames::rng::Rng;
use bitgames::sequence::solver::{Value, reference};
use bitgames::sequence::{Color, Game, Outcome, Peg};
use common::bitgames;
use predicates::prelude::*;
use serde_json::Value as Json;

/// A random position of n×n×n, m in a row, with no win yet and at most `empty` empty cells
/// where random play reaches that far (else the last position of the game): its moves.
fn position(n: u32, m: u32, empty: usize, rng: &mut Rng) -> Vec<Peg> {
    let mut game = Game::new(n, m).unwrap();
    let mut moves = Vec::new();
    let cells = (n * n * n) as usize;
    while moves.len() + empty < cells {
        let quiet: Vec<Peg> = game
            .legal_moves()
            .filter(|p| game.clone().play(p.x, p.y).unwrap().is_none())
            .collect();
        if quiet.is_empty() {
            break;
        }
        let p = quiet[rng.below(quiet.len() as u32) as usize];
        game.play(p.x, p.y).unwrap();
        moves.push(p);
    }
    moves
}

/// The moves as `--moves` takes them.
fn moves_flag(moves: &[Peg]) -> String {
    moves
        .iter()
        .map(|p| format!("{} {}", p.x, p.y))
        .collect::<Vec<_>>()
        .join(",")
}

/// Runs `bitgames solve` with `args` and `--json`: the parsed output.
fn solve_json(args: &[&str]) -> Json {
    let out = bitgames()
        .arg("solve")
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn value_key(v: Value) -> &'static str {
    match v {
        Value::BlackWins => "black",
        Value::Draw => "draw",
        Value::WhiteWins => "white",
    }
}

fn peg_of(j: &Json) -> Peg {
    Peg::new(j[0].as_u64().unwrap() as u32, j[1].as_u64().unwrap() as u32)
}

#[test]
#[cfg_attr(miri, ignore)]
fn values_agree_with_the_reference_minimax() {
    let mut rng = Rng::new(15);
    let mut compared = 0;
    for (n, m, empty) in [(3, 3, 10), (4, 3, 9), (4, 4, 10)] {
        for i in 0..8 {
            let moves = position(n, m, empty, &mut rng);
            let Some(want) = reference::value_within(n, m, &moves, 3_000_000).unwrap() else {
                continue;
            };
            let (n_s, m_s, list) = (n.to_string(), m.to_string(), moves_flag(&moves));
            let mut args = vec!["--n", &n_s, "--m", &m_s, "--tt-size", "1MiB"];
            // Half the positions through --moves, half through a file.
            let file = tempfile::NamedTempFile::new().unwrap();
            if i % 2 == 0 {
                args.extend(["--moves", &list]);
            } else {
                let mut f = file.as_file();
                for p in &moves {
                    writeln!(f, "{} {} # a comment", p.x, p.y).unwrap();
                }
                args.extend(["--position", file.path().to_str().unwrap()]);
            }
            let full = solve_json(&args);
            assert_eq!(full["value"], value_key(want), "{n} {m} {list}: {full}");
            assert_eq!(full["answered"], true);
            assert_eq!(full["stopped"], false);
            assert_eq!(full["moves"].as_array().unwrap().len(), moves.len());
            // The best move keeps the value.
            let best = peg_of(&full["best_move"]);
            let mut after = moves.clone();
            after.push(best);
            assert_eq!(reference::value(n, m, &after).unwrap(), want, "{list}");
            // Proof numbers: the same value and best move.
            let mut proof_number = args.clone();
            proof_number.extend(["--algorithm", "proof-number"]);
            let pn = solve_json(&proof_number);
            assert_eq!(pn["algorithm"], "proof-number");
            assert_eq!(
                (&pn["value"], &pn["best_move"]),
                (&full["value"], &full["best_move"]),
                "{list}: {pn}"
            );
            // The one-sided question: "does Black win?".
            args.push("--one-sided");
            let one = solve_json(&args);
            assert_eq!(one["answered"], true);
            if want == Value::BlackWins {
                assert_eq!(one["value"], "black", "{one}");
            } else {
                assert_eq!(one["upper"], "draw", "{one}");
                assert!(
                    one["answer"].as_str().unwrap().contains("does not win"),
                    "{one}"
                );
            }
            compared += 1;
        }
    }
    assert!(compared >= 16, "only {compared} positions compared");
}

#[test]
#[cfg_attr(miri, ignore)]
fn tiny_empty_boards_against_the_reference() {
    for (n, m) in [(1, 1), (2, 1), (2, 2)] {
        let want = reference::value(n, m, &[]).unwrap();
        let j = solve_json(&["--n", &n.to_string(), "--m", &m.to_string()]);
        assert_eq!(j["value"], value_key(want), "{n} {m}: {j}");
        assert_eq!(j["moves"], serde_json::json!([]));
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn a_win_is_checked_and_its_variation_wins() {
    for n in 3..=5 {
        let j = solve_json(&["--n", &n.to_string(), "--m", "3", "--check"]);
        assert_eq!(j["value"], "black", "{j}");
        assert_eq!(j["proof"]["checked"], true, "{j}");
        assert!(j["proof"]["positions"].as_u64().unwrap() > 0);
        // The principal variation is legal and ends with Black's sequence.
        let mut game = Game::new(n, 3).unwrap();
        let pv: Vec<Peg> = j["principal_variation"]
            .as_array()
            .unwrap()
            .iter()
            .map(peg_of)
            .collect();
        assert_eq!(pv[0], peg_of(&j["best_move"]));
        for p in &pv {
            assert_eq!(game.outcome(), None);
            game.play(p.x, p.y).unwrap();
        }
        assert!(matches!(
            game.outcome(),
            Some(Outcome::Win {
                color: Color::Black,
                ..
            })
        ));
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn text_output_names_every_figure() {
    bitgames()
        .args(["solve", "--n", "3", "--m", "3", "--moves", "2 2"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("position: n = 3, m = 3, 1 balls played, White to move")
                .and(predicate::str::contains("value: first player (Black) wins"))
                .and(predicate::str::contains("best move: "))
                .and(predicate::str::contains("principal variation: "))
                .and(predicate::str::contains("nodes: "))
                .and(predicate::str::contains("nodes/s: "))
                .and(predicate::str::contains("table hit rate: "))
                .and(predicate::str::contains("(256 MiB table)"))
                .and(predicate::str::contains("time: ")),
        )
        .stderr("");
    // The table's size as allocated: rounded down to a power of two of 16-byte buckets.
    for (asked, got) in [("3000", "(2 KiB table)"), ("16", "(16 bytes table)")] {
        bitgames()
            .args(["solve", "--n", "3", "--m", "3", "--tt-size", asked])
            .assert()
            .success()
            .stdout(predicate::str::contains(got));
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn the_time_limit_ends_in_unknown_never_a_guess() {
    // The empty Score Four board is unsolved: a short limit cannot settle it.
    let j = solve_json(&["--n", "4", "--m", "4", "--time-limit", "300ms"]);
    assert_eq!(j["answered"], false, "{j}");
    assert_eq!(j["stopped"], true);
    assert_eq!(j["value"], Json::Null);
    assert_eq!(j["best_move"], Json::Null);
    assert_eq!(j["principal_variation"], serde_json::json!([]));
    assert!(j["seconds"].as_f64().unwrap() < 5.0, "{j}");
    bitgames()
        .args(["solve", "--n", "4", "--m", "4", "--time-limit", "0.2s"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains("value: unknown (the time limit of 0.2 s ended the search)")
                .and(predicate::str::contains("best move").not()),
        );
    bitgames()
        .args(["solve", "--n", "4", "--m", "4", "--one-sided"])
        .args(["--time-limit", "200ms"])
        .assert()
        .success()
        .stdout(predicate::str::contains("value: unknown"));
}

#[test]
fn bad_flags_exit_2_and_say_what_was_expected() {
    let cases: &[(&[&str], &str)] = &[
        (&["--n", "8", "--m", "3"], "8 is not in 1..=7"),
        (&["--n", "0", "--m", "1"], "0 is not in 1..=7"),
        (&["--n", "4", "--m", "5"], "--m 5 is larger than --n 4"),
        (&["--n", "4"], "--m <M>"),
        (
            &["--n", "4", "--m", "4", "--moves", "1 1,2"],
            "move 2 (\"2\"): expected two numbers \"x y\"",
        ),
        (
            &["--n", "4", "--m", "4", "--moves", "1 1,a 2"],
            "move 2 (\"a 2\"): expected two whole numbers",
        ),
        (
            &["--n", "4", "--m", "4", "--moves", "1 1,2 2,5 1"],
            "--moves: move 3 (5 1): peg (5, 1) is not on the board: x and y must be in 1..=4",
        ),
        (
            &["--n", "3", "--m", "3", "--moves", "1 1,1 1,1 1,1 1"],
            "--moves: move 4 (1 1): peg (1, 1) is full",
        ),
        (
            &["--n", "3", "--m", "3", "--moves", "1 1,2 1,1 2,2 2,1 3,3 3"],
            "--moves: move 6 (3 3): the game is already decided (Black won with move 5)",
        ),
        (
            &["--n", "3", "--m", "3", "--moves", "1 1,2 1,1 2,2 2,1 3"],
            "--moves: the moves end the game (Black won with move 5)",
        ),
        (
            &["--n", "4", "--m", "4", "--algorithm", "dfpn"],
            "[possible values: alpha-beta, proof-number]",
        ),
        (
            &["--n", "4", "--m", "4", "--tt-size", "lots"],
            "expected a size such as 4GiB",
        ),
        (
            &["--n", "4", "--m", "4", "--tt-size", "4TB"],
            "expected a size such as 4GiB",
        ),
        (
            &["--n", "4", "--m", "4", "--tt-size", "0"],
            "the table needs at least 16 bytes",
        ),
        (
            &["--n", "4", "--m", "4", "--tt-size", "99999999999G"],
            "too large",
        ),
        (
            &["--n", "4", "--m", "4", "--time-limit", "30"],
            "expected a duration such as 30s",
        ),
        (
            &["--n", "4", "--m", "4", "--time-limit=-1s"],
            "expected a duration such as 30s",
        ),
        (
            &["--n", "4", "--m", "4", "--time-limit", "1e999s"],
            "expected a duration such as 30s",
        ),
        (
            &["--n", "4", "--m", "4", "--threads", "0"],
            "0 is not in 1..=1024",
        ),
        (
            &["--n", "4", "--m", "4", "--moves", "1 1", "--position", "x"],
            "cannot be used with",
        ),
    ];
    for (args, message) in cases {
        bitgames()
            .arg("solve")
            .args(*args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(*message));
    }
}

#[test]
fn bad_position_files_exit_1_with_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    bitgames()
        .args(["solve", "--n", "4", "--m", "4", "--position"])
        .arg(&missing)
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("missing.txt: "));
    let cases = [
        (
            "1 1\n2 x\n",
            ":2: move 2 (\"2 x\"): expected two whole numbers",
        ),
        (
            "# opening\n1 1, 2 2\n\n3\n",
            ":4: move 3 (\"3\"): expected two numbers",
        ),
        (
            "1 1\n1 9\n",
            ": move 2 (1 9): peg (1, 9) is not on the board",
        ),
        ("1 1\n1 1\n1 1\n1 1\n", ": move 4 (1 1): peg (1, 1) is full"),
    ];
    for (text, message) in cases {
        let path = dir.path().join("position.txt");
        std::fs::write(&path, text).unwrap();
        bitgames()
            .args(["solve", "--n", "3", "--m", "3", "--position"])
            .arg(&path)
            .assert()
            .code(1)
            .stdout("")
            .stderr(predicate::str::contains(format!(
                "error: {}{message}",
                path.display()
            )));
    }
}
