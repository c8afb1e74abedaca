//! The bitboard engine against the plain reference, move by move.

use bitgames::grid::reference::Reference;
use bitgames::grid::{Cell, Grid, PlayError};
use proptest::prelude::*;

/// Plays `moves` (cells given as numbers reduced onto the grid, plus some off-grid probes) on
/// both implementations and compares them after every move.
fn compare(rows: usize, cols: usize, moves: &[(usize, usize)], check_hints_every: usize) {
    let mut fast = Grid::new(rows, cols).unwrap();
    let mut slow = Reference::new(rows, cols).unwrap();
    assert_eq!(fast.grundy(), slow.grundy());
    for (k, &(x, y)) in moves.iter().enumerate() {
        let got = fast.play(x, y);
        let want = slow.play(x, y);
        match (&got, &want) {
            (Ok(_), Ok(())) => {}
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
fn game(
    max_side: usize,
    max_moves: usize,
) -> impl Strategy<Value = (usize, usize, Vec<(usize, usize)>)> {
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
        let mut fast = Grid::new(rows, cols).unwrap();
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
                Err(PlayError::Forbidden(c)),
                "a played cell is forbidden"
            );
            k += 1;
        }
        assert_eq!(fast.grundy(), 0);
        assert!(fast.rectangles().is_empty());
    }
}
