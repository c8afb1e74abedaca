//! Incremental vs from-scratch: a fuzzed move list played on the bitboard grid and on the plain
//! reference, compared after every move (legality, rectangles, Grundy value, every cell), with
//! the winning moves checked on small grids.
#![no_main]

use arbitrary::Arbitrary;
use bitgames::grid::reference::Reference;
use bitgames::grid::{Grid, MAX_SIDE};
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
    for &(x, y) in &input.moves {
        // Mostly on the grid, sometimes just off it.
        let (x, y) = (usize::from(x) % (rows + 2), usize::from(y) % (cols + 2));
        let before = fast.clone();
        match (fast.play(x, y), slow.play(x, y)) {
            (Ok(_), Ok(())) => {}
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
