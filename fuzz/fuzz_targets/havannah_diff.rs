//! Incremental vs from-scratch: a fuzzed Havannah game on a small board played on the fast
//! engine (dense or hash-table layout) and on the flood-fill reference, compared after every
//! move (the result, refused moves leaving the game unchanged, the first win, the occupancy);
//! boards of side 33 to 45 reach the sparse layout's row-segment edges (y = 63, 64), their
//! moves in a 24 × 24 window placed by the first move (the reference's cost follows the
//! stones; bridges and forks are left to the small boards there). And raw
//! judge input: the fast move parser must give the scanner-only judge's answers and error.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::havannah::Stones;
use bitgames::havannah::judge::{Judge, ScannerOnly};
use bitgames::havannah::reference::Stones as Reference;
use bitgames::judge::{Format, Options, run};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    side: u8,
    sparse: bool,
    moves: Vec<(u8, u8)>,
    raw: Vec<u8>,
}

/// Answers and error message of judging `input` in `format` on one thread.
fn outcome<F: Format>(format: &F, input: &[u8]) -> (Vec<u8>, Option<String>) {
    let mut out = Vec::new();
    let result = run(format, input, &mut out, Options::single_threaded());
    (out, result.err().map(|e| e.to_string()))
}

fuzz_target!(|input: Input| {
    if !input.raw.is_empty() {
        assert_eq!(
            outcome(&Judge, &input.raw),
            outcome(&ScannerOnly, &input.raw)
        );
    }
    let side = if input.side >= 240 {
        33 + u32::from(input.side % 13)
    } else {
        2 + u32::from(input.side % 11)
    };
    let n = 2 * side - 1;
    let mut game = if input.sparse {
        Stones::with_capacity(side, 1).unwrap()
    } else {
        Stones::new(side).unwrap()
    };
    let mut slow = Reference::new(side).unwrap();
    // On the large boards, a 24 × 24 window placed by the first move (so that the reference's
    // flood fill, which follows the stones' bounding box, stays small): anywhere on the board,
    // the row-segment edges and the border included (but never two corners or three edges).
    let origin = match input.moves.first() {
        Some(&(x, y)) if side > 12 => (u32::from(x) % (n - 22), u32::from(y) % (n - 22)),
        _ => (0, 0),
    };
    for &(x, y) in &input.moves {
        let (x, y) = if side > 12 {
            (origin.0 + u32::from(x) % 24, origin.1 + u32::from(y) % 24)
        } else {
            (u32::from(x) % (n + 2), u32::from(y) % (n + 2))
        };
        let before = game.stones().len();
        let fast = game.play(x, y);
        assert_eq!(fast, slow.play(x, y), "({x}, {y}) on S = {side}");
        if fast.is_err() {
            assert_eq!(
                game.stones().len(),
                before,
                "a refused move changed the game"
            );
        }
        assert_eq!(game.first_win(), slow.first_win());
        assert!(game.is_occupied(x, y) == slow.is_occupied(x, y));
    }
    for x in 0..=n + 1 {
        for y in 0..=n + 1 {
            assert_eq!(game.is_occupied(x, y), slow.is_occupied(x, y));
        }
    }
});
