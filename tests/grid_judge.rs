//! The grid judge through the library: the sample, bad input, block boundaries and threads.

use bitgames::grid::judge::{Judge, generate};
use bitgames::grid::reference::Reference;
use bitgames::judge::{JudgeError, Options, run};
use bitgames::rng::Rng;
use proptest::strategy::Strategy;

fn judge(input: &[u8], options: Options) -> (String, Result<u64, String>) {
    let mut out = Vec::new();
    let result = run(&Judge, input, &mut out, options);
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
    generate(&mut Rng::new(7), 300, 30, usize::MAX, &mut input);
    let mut want = String::new();
    let text = String::from_utf8(input.clone()).unwrap();
    let mut tokens = text
        .split_ascii_whitespace()
        .map(|t| t.parse::<usize>().unwrap());
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
    /// pieces start at guessed case starts) give the same answers and the same error.
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
        proptest::prop_assert_eq!(one, many);
    }
}
