//! The bitboard engine against the plain reference, move by move.

use bitgames::grid::reference::Reference;
use bitgames::grid::{Cell, Game, PlayError};
use proptest::prelude::*;

/// Plays `moves` (cells given as numbers reduced onto the grid, plus some off-grid probes) on
/// both implementations and compares them after every move.
fn compare(rows: u32, cols: u32, moves: &[(u32, u32)], check_hints_every: usize) {
    let mut fast = Game::new(rows, cols).unwrap();
    let mut slow = Reference::new(rows, cols).unwrap();
    assert_eq!(fast.grundy(), slow.grundy());
    for (k, &(x, y)) in moves.iter().enumerate() {
        let got = fast.play(x, y);
        let want = slow.play(x, y);
        match (&got, &want) {
            (Ok(_), Ok(())) => {}
            // The same error: which one, and what it names.
            (Err(a), Err(b)) => assert_eq!(a, b),
            _ => panic!("move {k} ({x}, {y}): engine {got:?}, reference {want:?}\n{fast:?}"),
        }
        assert_eq!(
            fast.rectangles(),
            slow.rectangles(),
            "after move {k}\n{fast:?}"
        );
        assert_eq!(fast.grundy(), slow.grundy(), "after move {k}\n{fast:?}");
        for row in 0..=rows + 1 {
            for col in 0..=cols + 1 {
                assert_eq!(fast.is_permitted(row, col), !slow.is_forbidden(row, col));
            }
        }
        if check_hints_every > 0 && k % check_hints_every == 0 {
            assert_eq!(fast.winning_moves(), slow.winning_moves(), "after move {k}");
        }
    }
    assert_eq!(fast.winning_moves().is_empty(), !fast.is_winning());
}

/// A side and a list of moves, mostly on the grid and mostly on permitted cells.
fn game(max_side: u32, max_moves: usize) -> impl Strategy<Value = (u32, u32, Vec<(u32, u32)>)> {
    (1..=max_side, 1..=max_side).prop_flat_map(move |(r, c)| {
        let mv = (0..=r + 1, 0..=c + 1);
        (
            Just(r),
            Just(c),
            proptest::collection::vec(mv, 0..max_moves),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 256 }))]

    #[test]
    fn engine_matches_reference_up_to_80(g in game(80, 60)) {
        compare(g.0, g.1, &g.2, 0);
    }

    #[test]
    fn engine_matches_reference_up_to_128(g in game(128, 40)) {
        compare(g.0, g.1, &g.2, 0);
    }

    #[test]
    fn winning_moves_match_reference(g in game(12, 30)) {
        compare(g.0, g.1, &g.2, 1);
    }
}

/// Whole random games (every move legal) on large grids, hints checked along the way.
#[test]
#[cfg_attr(miri, ignore)]
fn whole_games_with_hints() {
    let mut rng = bitgames::rng::Rng::new(42);
    for (rows, cols) in [
        (80, 80),
        (128, 128),
        (1, 128),
        (128, 1),
        (37, 80),
        (20, 20),
        (9, 23),
    ] {
        let mut fast = Game::new(rows, cols).unwrap();
        let mut slow = Reference::new(rows, cols).unwrap();
        let mut k = 0;
        loop {
            let free: Vec<Cell> = (1..=rows)
                .flat_map(|row| (1..=cols).map(move |col| Cell { row, col }))
                .filter(|c| fast.is_permitted(c.row, c.col))
                .collect();
            if free.is_empty() {
                break;
            }
            // The reference's hints cost a flood fill per cell: checked sparingly on big grids.
            if (rows * cols <= 400 && k % 3 == 0) || (k == 5 && rows * cols <= 80 * 80) {
                assert_eq!(fast.winning_moves(), slow.winning_moves());
            }
            let c = free[rng.below(free.len() as u32) as usize];
            fast.play(c.row, c.col).unwrap();
            slow.play(c.row, c.col).unwrap();
            assert_eq!(fast.grundy(), slow.grundy(), "{rows} × {cols}, move {k}");
            assert_eq!(
                fast.play(c.row, c.col),
                Err(PlayError::Forbidden { cell: c }),
                "a played cell is forbidden"
            );
            k += 1;
        }
        assert_eq!(fast.grundy(), 0);
        assert!(fast.rectangles().is_empty());
        assert!(fast.outcome().is_some());
    }
}

/// Random games with random undos: after every undo the engine equals the reference replayed
/// from scratch through the engine's history, and the history is the moves still played.
#[test]
#[cfg_attr(miri, ignore)]
fn undo_equals_replaying_the_history() {
    let mut rng = bitgames::rng::Rng::new(17);
    for game in 0..120 {
        let side = |rng: &mut bitgames::rng::Rng| match game % 3 {
            0 => rng.range(1, 10),
            1 => rng.range(60, 70),
            _ => rng.range(100, 128),
        };
        let (rows, cols) = (side(&mut rng), side(&mut rng));
        let mut fast = Game::new(rows, cols).unwrap();
        let mut played: Vec<Cell> = Vec::new();
        for step in 0..400 {
            if !played.is_empty() && rng.below(3) == 0 {
                assert_eq!(fast.undo(), played.pop());
                let mut slow = Reference::new(rows, cols).unwrap();
                for cell in fast.history() {
                    slow.play(cell.row, cell.col).unwrap();
                }
                assert!(fast.history().eq(played.iter().copied()));
                assert_eq!(fast.rectangles(), slow.rectangles(), "step {step}");
                assert_eq!(fast.grundy(), slow.grundy(), "step {step}");
                let area: u32 = slow.rectangles().iter().map(|r| r.rows * r.cols).sum();
                assert_eq!(fast.permitted(), area);
                if rows * cols <= 100 {
                    assert_eq!(fast.winning_moves(), slow.winning_moves());
                }
            } else {
                let free: Vec<Cell> = fast.legal_moves().collect();
                let Some(&cell) = free.get(rng.below(free.len() as u32) as usize) else {
                    assert!(fast.outcome().is_some());
                    continue;
                };
                fast.play(cell.row, cell.col).unwrap();
                played.push(cell);
            }
        }
    }
}
