//! Incremental vs from-scratch for the two-player game: a fuzzed game with undos and swaps on a
//! small board (side 2 to 9, both ring rules, swap on or off), played on the engine and on the
//! flood-fill reference and compared after every step (the result or error, the outcome, whose
//! turn; the cell played, and every cell after an undo, a swap and at the end);
//! a refused move must leave the game unchanged, and after an undo the game must equal a replay
//! of its history from an empty board. At the end, `winning_cell` must find
//! a win for each colour exactly when trying every empty cell with `wins_with` finds one, and
//! `Playouts` (random, decisive and bridge-saving) from the final position must play the moves and reach the
//! outcome of the game's own playouts with the same generator, an outcome the reference
//! confirms by replaying those moves (on sides up to 4).
#![no_main]

use arbitrary::Arbitrary;
use bitgames::havannah::reference::Reference;
use bitgames::havannah::{Color, Game, Move, Playouts, RingRule, Rules};
use bitgames::rng::Rng;
use bitgames::search::Rollout;
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
enum Step {
    Play(u8, u8),
    Undo,
    Swap,
}

#[derive(Debug, Arbitrary)]
struct Input {
    side: u8,
    code_jam: bool,
    swap: bool,
    seed: u64,
    steps: Vec<Step>,
}

/// Every cell (and the frame around) alike.
fn same_cells(game: &Game, slow: &Reference, n: u32) {
    for x in 0..=n + 1 {
        for y in 0..=n + 1 {
            assert_eq!(game.stone(x, y), slow.stone(x, y), "({x}, {y})");
        }
    }
}

fuzz_target!(|input: Input| {
    let side = 2 + u32::from(input.side % 8);
    let n = 2 * side - 1;
    let ring = if input.code_jam {
        RingRule::CodeJam
    } else {
        RingRule::Official
    };
    let rules = Rules::default().ring(ring).swap(input.swap);
    let mut game = Game::with_rules(side, rules).unwrap();
    let mut slow = Reference::new(side, rules).unwrap();
    // The replay an undo is checked against (reset, not rebuilt, for each undo).
    let mut fresh = game.clone();
    for step in input.steps.iter().take(400) {
        let before = game.clone();
        let refused = match *step {
            Step::Play(x, y) => {
                let (x, y) = (u32::from(x) % (n + 2), u32::from(y) % (n + 2));
                let fast = game.play(x, y);
                assert_eq!(fast, slow.play(x, y), "({x}, {y})");
                fast.is_err()
            }
            Step::Swap => {
                let fast = game.swap();
                assert_eq!(fast, slow.swap());
                fast.is_err()
            }
            Step::Undo => {
                assert_eq!(game.undo(), slow.undo());
                fresh.reset();
                for m in game.history() {
                    fresh.play_move(m).unwrap();
                }
                assert_eq!(game, fresh, "undo differs from a replay");
                false
            }
        };
        if refused {
            assert_eq!(game, before, "a refused move changed the game");
        }
        assert_eq!(game.outcome(), slow.outcome());
        assert_eq!(game.to_move(), slow.to_move());
        match *step {
            // A stone changes its own cell only (and a refused one none): that one now,
            // every cell at the end. (`Game`'s equality above does not compare cells.)
            Step::Play(x, y) => {
                let (x, y) = (u32::from(x) % (n + 2), u32::from(y) % (n + 2));
                assert_eq!(game.stone(x, y), slow.stone(x, y), "({x}, {y})");
            }
            _ => same_cells(&game, &slow, n),
        }
    }
    same_cells(&game, &slow, n);
    let mut scratch = game.clone();
    for color in [Color::White, Color::Black] {
        let wins: Vec<_> = game
            .board()
            .iter()
            .filter(|c| {
                scratch
                    .wins_with(color, c.x, c.y)
                    .is_ok_and(|w| !w.is_empty())
            })
            .collect();
        match game.winning_cell(color) {
            Some(cell) => assert!(wins.contains(&cell), "{cell} is no win for {color:?}"),
            None => assert!(
                wins.is_empty(),
                "winning_cell missed {wins:?} for {color:?}"
            ),
        }
    }
    let mut playouts = Playouts::new();
    for policy in [Rollout::Random, Rollout::Decisive, Rollout::Bridges] {
        let mut copy = game.clone();
        let expected = copy.playout_with(policy, &mut Rng::new(input.seed));
        let outcome = playouts.playout_with(&game, policy, &mut Rng::new(input.seed));
        assert_eq!(outcome, expected, "{policy:?}");
        let moves: Vec<Move> = playouts.moves().collect();
        let played: Vec<Move> = copy.history().skip(game.moves_played() as usize).collect();
        assert_eq!(moves, played);
        // The reference's flood fills after every move would cost more than the rest of the
        // input on large boards: replayed on sides up to 4.
        if side <= 4 {
            let mut replay = slow.clone();
            for m in &moves {
                let Move::Place(c) = *m else {
                    unreachable!("playouts place stones")
                };
                replay.play(c.x, c.y).unwrap();
            }
            assert_eq!(replay.outcome(), Some(outcome));
        }
    }
});
