//! The Havannah judge through the library: the sample, generated inputs on any number of
//! threads against the reference, and every kind of bad input.

use bitgames::havannah::judge::{Judge, generate};
use bitgames::havannah::reference;
use bitgames::judge::{JudgeError, Options, run};
use bitgames::rng::Rng;

const SAMPLE_IN: &[u8] = include_bytes!("data/havannah.in");
const SAMPLE_OUT: &str = include_str!("data/havannah.out");

fn judge(input: &[u8], options: Options) -> (String, Result<u64, JudgeError>) {
    let mut out = Vec::new();
    let result = run(&Judge, input, &mut out, options).map(|s| s.datasets);
    (String::from_utf8(out).unwrap(), result)
}

#[test]
fn sample_gives_the_expected_output() {
    let (out, result) = judge(SAMPLE_IN, Options::default());
    assert_eq!(out, SAMPLE_OUT);
    assert_eq!(result.unwrap(), 7);
}

/// The same cases parsed by hand and solved by the reference.
fn reference_answers(input: &[u8]) -> String {
    let text = std::str::from_utf8(input).unwrap();
    let mut numbers = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    let cases = numbers.next().unwrap();
    let mut out = String::new();
    for t in 1..=cases {
        let side = numbers.next().unwrap();
        let m = numbers.next().unwrap();
        let moves: Vec<(u32, u32)> = (0..m)
            .map(|_| (numbers.next().unwrap(), numbers.next().unwrap()))
            .collect();
        match reference::solve(side, &moves).unwrap() {
            Some((wins, k)) => out += &format!("Case #{t}: {wins} in move {k}\n"),
            None => out += &format!("Case #{t}: none\n"),
        }
    }
    out
}

#[test]
#[cfg_attr(miri, ignore)]
fn generated_inputs_match_the_reference_on_any_threads() {
    for (seed, side, moves) in [(1, 2, 7), (2, 3, 19), (3, 4, 20), (4, 6, 40), (5, 9, 120)] {
        let mut input = Vec::new();
        generate(&mut input, &mut Rng::new(seed), 60, side, moves).unwrap();
        let expected = reference_answers(&input);
        for options in [
            Options::single_threaded(),
            Options {
                threads: 3,
                block: 64,
            },
            Options::default(),
        ] {
            let (out, result) = judge(&input, options);
            assert_eq!(out, expected, "S = {side}, {options:?}");
            assert_eq!(result.unwrap(), 60);
        }
    }
}

#[test]
#[cfg_attr(miri, ignore)]
fn large_generated_input_is_the_same_on_one_and_many_threads() {
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(9), 40, 3000, 10_000).unwrap();
    let (one, r1) = judge(&input, Options::single_threaded());
    let (many, r2) = judge(
        &input,
        Options {
            threads: 4,
            block: 1 << 16,
        },
    );
    assert_eq!(one, many);
    assert_eq!((r1.unwrap(), r2.unwrap()), (40, 40));
}

/// Judges `input`, expects the answers `kept` and then the error `message`.
fn rejects(input: &str, kept: &str, message: &str) {
    for options in [
        Options::single_threaded(),
        Options {
            threads: 2,
            block: 64,
        },
    ] {
        let (out, result) = judge(input.as_bytes(), options);
        assert_eq!(out, kept, "{input:?}");
        let error = result.expect_err(input);
        assert_eq!(error.to_string(), message, "{input:?}");
    }
}

#[test]
fn later_moves_are_read_and_checked_but_ignored() {
    let (out, result) = judge(b"1\n2 4\n1 1\n1 2\n2 2\n3 3\n", Options::default());
    assert_eq!(out, "Case #1: bridge in move 2\n");
    assert_eq!(result.unwrap(), 1);
    rejects(
        "1\n2 4\n1 1\n1 2\n2 2\n1 2\n",
        "",
        "6:1: dataset 1: move 4: cell (1, 2) was played before",
    );
    rejects(
        "1\n2 4\n1 1\n1 2\n2 2\n1 3\n",
        "",
        "6:1: dataset 1: move 4: cell (1, 3) is off the board: |x - y| must be at most S - 1 = 1",
    );
}

#[test]
fn bad_inputs_name_line_column_and_case() {
    let good = "2 2\n1 1\n1 2\n";
    let kept = "Case #1: bridge in move 2\n";
    // A coordinate outside 1..=n.
    rejects(
        &format!("2\n{good}3 1\n6 1\n"),
        kept,
        "6:1: dataset 2: x = 6 is outside 1..=5",
    );
    rejects(
        &format!("2\n{good}3 1\n1  0\n"),
        kept,
        "6:4: dataset 2: y = 0 is outside 1..=5",
    );
    // On the square but off the hexagon.
    rejects(
        &format!("2\n{good}3 1\n5 1\n"),
        kept,
        "6:1: dataset 2: move 1: cell (5, 1) is off the board: |x - y| must be at most S - 1 = 2",
    );
    // A repeated cell.
    rejects(
        &format!("2\n{good}3 2\n2 2\n2 2\n"),
        kept,
        "7:1: dataset 2: move 2: cell (2, 2) was played before",
    );
    // S < 2.
    rejects(
        &format!("2\n{good}1 0\n"),
        kept,
        "5:1: dataset 2: the board side S = 1 is outside 2..=1073741824",
    );
    // A missing token.
    rejects(
        &format!("2\n{good}3 2\n2 2\n2"),
        kept,
        "7:2: dataset 2: unexpected end of input, expected y",
    );
    // A non-numeric token.
    rejects(
        &format!("2\n{good}3 2\n2 2\n2 -3\n"),
        kept,
        "7:3: dataset 2: expected y, an unsigned number, found `-3`",
    );
    rejects(
        &format!("2\n{good}3 two\n"),
        kept,
        "5:3: dataset 2: expected the number of moves M, an unsigned number, found `two`",
    );
    // Fewer cases than T.
    rejects(
        &format!("3\n{good}3 0\n"),
        "Case #1: bridge in move 2\nCase #2: none\n",
        "6:1: dataset 3: unexpected end of input, expected the board side S",
    );
    // A bad T.
    rejects(
        "x\n",
        "",
        "1:1: header: expected the number of cases T, an unsigned number, found `x`",
    );
}

#[test]
fn huge_numbers_are_errors_not_panics() {
    rejects(
        "1\n99999999999999999999 1\n",
        "",
        "2:1: dataset 1: the board side S is too large",
    );
    rejects(
        "1\n1073741824 18446744073709551615\n1 1\n1 1\n",
        "",
        "4:1: dataset 1: move 2: cell (1, 1) was played before",
    );
    let (out, result) = judge(
        b"1\n1073741824 1\n2147483647 2147483647\n",
        Options::default(),
    );
    assert_eq!(out, "Case #1: none\n");
    assert_eq!(result.unwrap(), 1);
}
