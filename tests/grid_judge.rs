//! The grid judge through the library: the sample, bad input, block boundaries and threads.

use bitgames::grid::judge::{Judge, Plain, generate};
use bitgames::grid::reference::Reference;
use bitgames::judge::{JudgeError, Options, run};
use bitgames::rng::Rng;
use proptest::strategy::Strategy;

fn judge(input: &[u8], options: Options) -> (String, Result<u64, String>) {
    judge_with(&Judge, input, options)
}

fn judge_with<F: bitgames::judge::Format>(
    format: &F,
    input: &[u8],
    options: Options,
) -> (String, Result<u64, String>) {
    let mut out = Vec::new();
    let result = run(format, input, &mut out, options);
    (
        String::from_utf8(out).unwrap(),
        result.map(|s| s.datasets).map_err(|e| e.to_string()),
    )
}

#[test]
fn sample() {
    let input = std::fs::read("tests/data/grid.in").unwrap();
    let want = std::fs::read_to_string("tests/data/grid.out").unwrap();
    for options in [Options::single_threaded(), Options::default()] {
        assert_eq!(judge(&input, options), (want.clone(), Ok(8)));
    }
}

#[test]
fn bad_input_names_case_and_position() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "2 2 0\n81 3 0\n",
            "losing\n",
            "2:1: dataset 2: r = 81 is outside 1..=80",
        ),
        (
            "2 2 0\n3 0 0\n",
            "losing\n",
            "2:3: dataset 2: c = 0 is outside 1..=80",
        ),
        (
            "3 3 1 4 1\n",
            "",
            "1:7: dataset 1: the row of a move = 4 is outside 1..=3",
        ),
        (
            "2 2 0 3 3 2 2 2 2 1\n",
            "losing\n",
            "1:17: dataset 2: move 2 at (2, 1) is on a forbidden cell",
        ),
        (
            "2 2 0\n3 3 2 1 1",
            "losing\n",
            "2:10: dataset 2: unexpected end of input, expected the row of a move",
        ),
        (
            "2 2 0\n3 3 x",
            "losing\n",
            "2:5: dataset 2: expected m, the number of moves, an unsigned number, found `x`",
        ),
        (
            "2 2 5 1 1",
            "",
            "1:5: dataset 1: m, the number of moves = 5 is outside 0..=4",
        ),
        (
            "1 1 1 1 -1",
            "",
            "1:9: dataset 1: expected the column of a move, an unsigned number, found `-1`",
        ),
    ];
    for &(input, out, error) in cases {
        for options in [Options::single_threaded(), Options::default()] {
            assert_eq!(
                judge(input.as_bytes(), options),
                (out.to_string(), Err(error.to_string())),
                "{input:?}"
            );
        }
    }
}

/// Generated input judged with tiny blocks and several threads, so that datasets straddle
/// blocks and pieces start at guessed case starts; answers checked against the reference.
#[test]
#[cfg_attr(miri, ignore)]
fn generated_input_any_blocking() {
    let mut input = Vec::new();
    generate(&mut input, &mut Rng::new(7), 300, 30, usize::MAX).unwrap();
    let mut want = String::new();
    let text = String::from_utf8(input.clone()).unwrap();
    let mut tokens = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<u32>().unwrap());
    while let Some(r) = tokens.next() {
        let c = tokens.next().unwrap();
        let m = tokens.next().unwrap();
        let mut p = Reference::new(r, c).unwrap();
        for _ in 0..m {
            p.play(tokens.next().unwrap(), tokens.next().unwrap())
                .unwrap();
        }
        want.push_str(if p.grundy() != 0 {
            "winning\n"
        } else {
            "losing\n"
        });
    }
    for (threads, block) in [(1, 64), (2, 100), (3, 1 << 12), (4, 1 << 20)] {
        let options = Options { threads, block };
        assert_eq!(
            judge(&input, options),
            (want.clone(), Ok(300)),
            "{options:?}"
        );
    }
}

/// The fast path (which cuts windows of input into numbers first) gives the plain path's
/// answers and errors: on input longer than its window, with a case longer than the window,
/// and with damage anywhere.
#[test]
#[cfg_attr(miri, ignore)]
fn fast_path_equals_plain_path() {
    let mut rng = Rng::new(9);
    let mut clean = Vec::new();
    generate(&mut clean, &mut rng, 2000, 80, usize::MAX).unwrap();
    // A case padded with white space to more than the window (64 KiB).
    let mut padded = b"7 7 3 1 1".to_vec();
    padded.extend(std::iter::repeat_n(b' ', 70_000));
    padded.extend(b"\n2 2 4\n\t5\r\x0b6\x0c7 5\n");
    clean.extend(&padded);
    generate(&mut clean, &mut rng, 500, 80, usize::MAX).unwrap();
    let damage: [&[u8]; 8] = [b"x", b"0", b"99999", b"00007", b" ", b"\n", b"81", b"-"];
    for round in 0..60 {
        let mut input = clean.clone();
        if round > 0 {
            let at = rng.below(input.len() as u32) as usize;
            let with = damage[rng.below(damage.len() as u32) as usize];
            if round % 3 == 0 {
                input.splice(at..at, with.iter().copied());
            } else {
                input.splice(at..(at + 1).min(input.len()), with.iter().copied());
            }
        }
        if round % 5 == 4 {
            input.truncate(rng.below(input.len() as u32) as usize);
        }
        for options in [
            Options::single_threaded(),
            Options {
                threads: 2,
                block: 1 << 14,
            },
        ] {
            assert_eq!(
                judge(&input, options),
                judge_with(&Plain, &input, options),
                "round {round}, {options:?}"
            );
        }
    }
}

/// A forbidden move deep in a long case, wherever it falls in the fast path's two streams:
/// the answers before it and the error are the plain path's. (When the second stream meets
/// the bad move, the first goes on alone from the token its stream had reached: an offset
/// wrong by one move there replays a move onto a forbidden cell or skips one.)
#[test]
#[cfg_attr(miri, ignore)]
fn a_forbidden_move_in_either_stream_keeps_the_answers_before_it() {
    let mut rng = Rng::new(21);
    let mut clean = Vec::new();
    generate(&mut clean, &mut rng, 120, 80, usize::MAX).unwrap();
    let lines: Vec<&[u8]> = clean
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    for bad in (0..lines.len()).step_by(3) {
        let mut tokens: Vec<String> = String::from_utf8_lossy(lines[bad])
            .split_whitespace()
            .map(str::to_owned)
            .collect();
        // r c m, then the moves: the last move made a repeat of the first (now forbidden).
        if tokens.len() < 3 + 2 * 20 {
            continue;
        }
        let n = tokens.len();
        tokens[n - 2] = tokens[3].clone();
        tokens[n - 1] = tokens[4].clone();
        let mut input = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if i == bad {
                input.extend(tokens.join(" ").bytes());
            } else {
                input.extend_from_slice(line);
            }
            input.push(b'\n');
        }
        let want = judge_with(&Plain, &input, Options::single_threaded());
        assert!(want.1.is_err(), "case {bad} is refused");
        for options in [
            Options::single_threaded(),
            Options {
                threads: 2,
                block: 1 << 14,
            },
        ] {
            assert_eq!(judge(&input, options), want, "bad case {bad}, {options:?}");
        }
    }
}

#[test]
fn error_type_is_input() {
    let mut out = Vec::new();
    let e = run(&Judge, &b"0 1 0"[..], &mut out, Options::default()).unwrap_err();
    assert!(matches!(
        e,
        JudgeError::Input {
            dataset: 1,
            line: 1,
            column: 1,
            ..
        }
    ));
}

proptest::proptest! {
    #![proptest_config(proptest::test_runner::Config::with_cases(if cfg!(miri) { 2 } else { 256 }))]

    /// Whatever the bytes: no panic, and one thread and several threads (small blocks, so
    /// pieces start at guessed case starts) give the same answers and the same error, which
    /// are those of the plain path.
    #[test]
    fn any_bytes_same_answers_any_threads(
        tokens in proptest::collection::vec(
            proptest::prop_oneof![
                8 => (0u32..12).prop_map(|n| n.to_string()),
                1 => (0u32..100).prop_map(|n| n.to_string()),
                1 => proptest::string::string_regex("[ \n\t]|x|-1|99999999999999999999|\r").unwrap(),
            ],
            0..400,
        )
    ) {
        let input = tokens.join(" ");
        let one = judge(input.as_bytes(), Options::single_threaded());
        let many = judge(input.as_bytes(), Options { threads: 3, block: 64 });
        let plain = judge_with(&Plain, input.as_bytes(), Options::single_threaded());
        proptest::prop_assert_eq!(&one, &many);
        proptest::prop_assert_eq!(one, plain);
    }
}
