//! Incremental vs from-scratch: a fuzzed game played on the fast engine and on the reference,
//! compared after every ball (outcome, full-board detector, every cell), with undo checks.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::sequence::reference::Board;
use bitgames::sequence::{Color, Game};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    n: u8,
    m: u8,
    moves: Vec<(u8, u8)>,
    undo_every: u8,
}

fuzz_target!(|input: Input| {
    let n = u32::from(input.n % 8);
    let m = u32::from(input.m % 8);
    let Ok(mut game) = Game::new(n, m) else {
        assert!(!(1..=n).contains(&m) || n == 0);
        return;
    };
    let mut board = Board::new(n, m);
    for (i, &(x, y)) in input.moves.iter().enumerate() {
        let (x, y) = (u32::from(x) % (n + 2), u32::from(y) % (n + 2));
        let before = game.clone();
        let played = game.play(x, y);
        // The same outcome, or the same error (which leaves the game as it was).
        assert_eq!(played, board.play(x, y));
        if played.is_err() {
            assert!(game == before, "a refused move changed the game");
        }
        assert_eq!(game.outcome(), board.outcome());
        for color in [Color::Black, Color::White] {
            assert_eq!(game.has_sequence(color), board.has_sequence(color));
        }
        for cx in 1..=n {
            for cy in 1..=n {
                for cz in 1..=n {
                    assert_eq!(game.ball(cx, cy, cz), board.ball(cx, cy, cz));
                }
            }
        }
        if input.undo_every > 0 && i % usize::from(input.undo_every) == 0 && game != before {
            let mut undone = game.clone();
            undone.undo();
            assert!(undone == before, "undo did not restore the state");
        }
    }
});
