//! Incremental vs from-scratch: a fuzzed game played on the fast engine and on the reference,
//! compared after every ball (outcome, full-board detector, every cell), with undo checks; on
//! boards of n ≤ 4 also on `SmallGame` (one u64 a colour), which must match `Game` in
//! everything (outcome, hash, balls, threats, winning pegs) and, at the end, make the same
//! random and decisive playouts from the same seed. On every size the random and decisive
//! playouts (the fastest path of this CPU) must be the portable ones, also after an undo.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::rng::Rng;
use bitgames::sequence::reference::Board;
use bitgames::sequence::{Color, Game, PlayError, SmallGame};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    n: u8,
    m: u8,
    moves: Vec<(u8, u8)>,
    undo_every: u8,
    seed: u64,
}

/// `small` shows the same position as `game`.
fn same(small: &SmallGame, game: &Game) {
    // Both colours' threats computed once from the bitboards (not four times, as the
    // uncached `threats` and `winning_pegs` would).
    let mut game = game.clone();
    game.cache_threats();
    assert_eq!(small.outcome(), game.outcome());
    assert_eq!(small.hash(), game.hash());
    assert_eq!(small.legal_pegs(), game.legal_pegs());
    for color in [Color::Black, Color::White] {
        assert_eq!(small.cube(color), game.cube(color));
        assert_eq!(small.winning_pegs(color), game.winning_pegs(color));
        let threats = game.threats(color);
        for b in 0..64u32 {
            let here = threats.contains(b & 3, b >> 2 & 3, b >> 4);
            assert_eq!(small.threats(color) >> b & 1 == 1, here);
        }
    }
}

fuzz_target!(|input: Input| {
    let n = u32::from(input.n % 8);
    let m = u32::from(input.m % 8);
    let Ok(mut game) = Game::new(n, m) else {
        assert!(!(1..=n).contains(&m) || n == 0);
        return;
    };
    let mut board = Board::new(n, m);
    let mut small = SmallGame::new(n, m).ok();
    for (i, &(x, y)) in input.moves.iter().enumerate() {
        let (x, y) = (u32::from(x) % (n + 2), u32::from(y) % (n + 2));
        let before = game.clone();
        let played = game.play(x, y);
        // The same outcome, or the same error (which leaves the game as it was).
        assert_eq!(played, board.play(x, y));
        if played.is_err() {
            assert!(game == before, "a refused move changed the game");
        }
        if let Some(small) = &mut small {
            let kept = small.clone();
            assert_eq!(small.play(x, y), played);
            if played.is_err() {
                assert!(*small == kept, "a refused move changed the SmallGame");
            }
            same(small, &game);
        }
        if played == Err(PlayError::GameOver) {
            // Every later ball is refused the same way: nothing more to play.
            break;
        }
        assert_eq!(game.outcome(), board.outcome());
        if played.is_err() {
            // Neither board changed (checked above for the engines; the reference checks
            // before it writes).
            continue;
        }
        // The full-board detectors on the mover's balls (the other colour's did not change;
        // both colours are compared again on the final position).
        let mover = before.to_move();
        assert_eq!(game.has_sequence(mover), board.has_sequence(mover));
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
            if let Some(small) = &small {
                let mut undone_small = small.clone();
                undone_small.undo();
                same(&undone_small, &undone);
            }
        }
    }
    // Both colours' full-board detectors on the final position (during the game only the
    // mover's are compared, so this is where a change to the other colour's balls shows).
    for color in [Color::Black, Color::White] {
        assert_eq!(game.has_sequence(color), board.has_sequence(color));
    }
    // Every size: the playout on the fastest path this CPU has (which on AVX-512 VBMI leaves
    // the line bytes of its balls unmarked until an undo) makes the portable playout's moves,
    // and after an undo both games play on alike.
    {
        let (mut fast, mut slow) = (game.clone(), game.clone());
        let (mut a, mut b) = (Rng::new(input.seed), Rng::new(input.seed));
        assert_eq!(fast.playout(&mut a), slow.playout_portable(&mut b));
        assert!(fast == slow, "the playout is not the portable playout");
        if fast.moves_played() > game.moves_played() {
            assert_eq!(fast.undo(), slow.undo());
            for color in [Color::Black, Color::White] {
                assert_eq!(fast.winning_pegs(color), slow.winning_pegs(color));
            }
            assert_eq!(
                fast.playout_decisive(&mut a),
                slow.playout_decisive_portable(&mut b)
            );
            assert!(fast == slow, "the decisive playouts differ after an undo");
        }
        // The same for the decisive playout, and the line-byte one after an undo.
        let (mut fast, mut slow) = (game.clone(), game.clone());
        let (mut a, mut b) = (Rng::new(!input.seed), Rng::new(!input.seed));
        assert_eq!(
            fast.playout_decisive(&mut a),
            slow.playout_decisive_portable(&mut b)
        );
        assert!(fast == slow, "the decisive playout is not the portable one");
        if fast.moves_played() > game.moves_played() {
            assert_eq!(fast.undo(), slow.undo());
            assert_eq!(
                fast.playout_decisive_portable(&mut a),
                slow.playout_decisive_portable(&mut b)
            );
            assert!(fast == slow, "the decisive playouts differ after an undo");
        }
    }
    if let Some(mut small) = small {
        let start = small.clone();
        let (mut a, mut b) = (Rng::new(input.seed), Rng::new(input.seed));
        assert_eq!(small.playout(&mut a), game.clone().playout(&mut b));
        small.rewind_to(&start);
        same(&small, &game);
        assert_eq!(
            small.playout_decisive(&mut a),
            game.playout_decisive(&mut b)
        );
        same(&small, &game);
    }
});
