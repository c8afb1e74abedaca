//! Incremental vs from-scratch: a fuzzed move list played on the bitboard game and on the plain
//! reference, compared after every move (legality and which error, rectangles, Grundy value,
//! permitted cells, every cell), with the winning moves checked on small grids. A row of 255
//! takes the last move back (`Game::undo`), the reference going back to its copy from before
//! it; and every undo is checked against the reference replayed from the game's history.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::grid::reference::Reference;
use bitgames::grid::{Game, MAX_SIDE};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    rows: u8,
    cols: u8,
    moves: Vec<(u8, u8)>,
}

fuzz_target!(|input: Input| {
    let (rows, cols) = (u32::from(input.rows), u32::from(input.cols));
    let (fast, slow) = (Game::new(rows, cols), Reference::new(rows, cols));
    let (Ok(mut fast), Ok(mut slow)) = (fast, slow) else {
        assert_eq!(
            Game::new(rows, cols).err(),
            Reference::new(rows, cols).err()
        );
        assert!(rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE);
        return;
    };
    // The reference before each move still played.
    let mut earlier: Vec<Reference> = Vec::new();
    for &(x, y) in &input.moves {
        let before = fast.clone();
        if x == u8::MAX {
            let last = fast.history().last();
            assert_eq!(fast.undo(), last);
            if let Some(back) = earlier.pop() {
                slow = back;
                let mut replayed = Reference::new(rows, cols).unwrap();
                for cell in fast.history() {
                    replayed.play(cell.row, cell.col).unwrap();
                }
                assert_eq!(replayed, slow);
            } else {
                assert_eq!(format!("{fast:?}"), format!("{before:?}"));
            }
        } else {
            // Mostly on the grid, sometimes just off it.
            let (x, y) = (u32::from(x) % (rows + 2), u32::from(y) % (cols + 2));
            let copy = slow.clone();
            match (fast.play(x, y), slow.play(x, y)) {
                (Ok(_), Ok(())) => earlier.push(copy),
                (Err(a), Err(b)) => {
                    assert_eq!(a, b);
                    assert_eq!(
                        format!("{fast:?}"),
                        format!("{before:?}"),
                        "a refused move changed the game"
                    );
                }
                (a, b) => panic!("fast {a:?} vs reference {b:?}"),
            }
        }
        let rects = slow.rectangles();
        assert_eq!(fast.rectangles(), rects);
        assert_eq!(fast.grundy(), slow.grundy());
        let area: u32 = rects.iter().map(|r| r.rows * r.cols).sum();
        assert_eq!(fast.permitted(), area);
        assert_eq!(fast.outcome().is_some(), area == 0);
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
