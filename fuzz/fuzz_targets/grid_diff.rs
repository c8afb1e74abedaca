//! Incremental vs from-scratch: a fuzzed move list played on the bitboard grid and on the plain
//! reference, compared after every move (legality, rectangles, Grundy value, every cell), with
//! the winning moves checked on small grids. Some moves are played with `play_undoable`, and a
//! row of 255 takes the last of those back (`Grid::undo`), the reference going back to its copy
//! from before it.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::grid::reference::Reference;
use bitgames::grid::{Cell, Grid, MAX_SIDE, Undo};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    rows: u8,
    cols: u8,
    moves: Vec<(u8, u8)>,
}

fuzz_target!(|input: Input| {
    let (rows, cols) = (usize::from(input.rows), usize::from(input.cols));
    let (fast, slow) = (Grid::new(rows, cols), Reference::new(rows, cols));
    let (Ok(mut fast), Ok(mut slow)) = (fast, slow) else {
        assert!(Grid::new(rows, cols).is_err() && Reference::new(rows, cols).is_err());
        assert!(rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE);
        return;
    };
    // The moves that can be taken back, each with the reference from before it.
    let mut undoable: Vec<(Undo, Reference)> = Vec::new();
    for &(x, y) in &input.moves {
        let before = fast.clone();
        if x == u8::MAX {
            let Some((undo, earlier)) = undoable.pop() else {
                continue;
            };
            if let Some(&(older, _)) = undoable.last() {
                assert!(fast.undo(older).is_err(), "not the last move, yet taken back");
                assert_eq!(format!("{fast:?}"), format!("{before:?}"));
            }
            assert_eq!(fast.undo(undo), Ok(undo.cell()));
            slow = earlier;
        } else {
            // Mostly on the grid, sometimes just off it; odd columns of the input undoable.
            let with_undo = y % 2 == 1;
            let (x, y) = (usize::from(x) % (rows + 2), usize::from(y) % (cols + 2));
            let earlier = slow.clone();
            let played = if with_undo {
                fast.play_undoable(x, y).map(|undo| {
                    assert_eq!(undo.cell(), Cell { row: x, col: y });
                    undoable.push((undo, earlier));
                    undo.rect()
                })
            } else {
                fast.play(x, y)
            };
            match (played, slow.play(x, y)) {
                (Ok(_), Ok(())) => {
                    if !with_undo {
                        // A plain move: the earlier ones can no longer be taken back.
                        if let Some(&(last, _)) = undoable.last() {
                            let now = fast.clone();
                            assert!(fast.undo(last).is_err());
                            assert_eq!(format!("{fast:?}"), format!("{now:?}"));
                        }
                        undoable.clear();
                    }
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b);
                    assert_eq!(
                        format!("{fast:?}"),
                        format!("{before:?}"),
                        "a refused move changed the grid"
                    );
                }
                (a, b) => panic!("fast {a:?} vs reference {b:?}"),
            }
        }
        assert_eq!(fast.rectangles(), slow.rectangles());
        assert_eq!(fast.grundy(), slow.grundy());
        for row in 0..=rows + 1 {
            for col in 0..=cols + 1 {
                assert_eq!(fast.is_permitted(row, col), !slow.is_forbidden(row, col));
            }
        }
        if rows * cols <= 64 {
            assert_eq!(fast.winning_moves(), slow.winning_moves());
        }
    }
});
