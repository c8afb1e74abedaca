//! Incremental vs from-scratch: a fuzzed move list played on the bitboard game and on the plain
//! reference, compared after every move (legality and which error, rectangles, Grundy value,
//! permitted cells, the cells the move changes; see below), with the winning moves checked on
//! small grids. A row of 255
//! takes the last move back (`Game::undo`), the reference going back to its copy from before
//! it; and every undo is checked against the reference replayed from the game's history.
//!
//! Sides are mostly small (1 to 24), so that the reference's flood fill, whose cost follows the
//! area, leaves time for many inputs; a side byte of 240 or more gives a side across the
//! bitboards' word and chunk boundaries, or any side up to [`MAX_SIDE`]; on grids over 1024
//! cells the rectangles are compared after every 8th move and the last. After a move or an
//! undo the cells of its row and column are compared one by one (it changes no other); every
//! cell at the end, where a stray bit anywhere else shows (the permitted count is
//! a counter and the engine's rectangles read only their edges, so they need not show it).
#![no_main]

use arbitrary::Arbitrary;
use bitgames::grid::reference::{Reference, grundy_of};
use bitgames::grid::{Game, MAX_SIDE};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    rows: u8,
    cols: u8,
    moves: Vec<(u8, u8)>,
}

/// Large sides: both sides of the words' (64) and chunks' (8 words) boundaries, the limit, and
/// the two sizes just off the range (refused by both).
const LARGE: [u32; 16] = [
    0, 25, 32, 33, 63, 64, 65, 66, 72, 73, 97, 100, 120, 127, 128, 129,
];

/// A side from its byte (and the other side's byte): 1 to 24 below 240; any side from 25 to
/// [`MAX_SIDE`] from 240 to 247, chosen with the other byte; one of [`LARGE`] from 248 (255,
/// the mutators' favourite, gives a refused size).
fn side(byte: u8, other: u8) -> u32 {
    match byte {
        0..240 => 1 + u32::from(byte) % 24,
        240..248 => 25 + (u32::from(byte - 240) << 8 | u32::from(other)) % (MAX_SIDE - 24),
        _ => LARGE[usize::from(byte - 248) * 2 + usize::from(other & 1)],
    }
}

/// `fast` is still `before`: the whole state (its Debug form) on grids of up to 1024 cells;
/// what a user sees (history, permitted count, rectangles) on larger ones.
fn unchanged(fast: &Game, before: &Game, area: u32) {
    if area <= 1024 {
        assert_eq!(
            format!("{fast:?}"),
            format!("{before:?}"),
            "the game changed"
        );
    } else {
        assert!(fast.history().eq(before.history()));
        assert_eq!(fast.permitted(), before.permitted());
        assert_eq!(fast.rectangles(), before.rectangles());
    }
}

/// The cells of row `x` and column `y` (the frame around included) permitted alike.
fn same_cross(fast: &Game, slow: &Reference, x: u32, y: u32, rows: u32, cols: u32) {
    for row in 0..=rows + 1 {
        assert_eq!(fast.is_permitted(row, y), !slow.is_forbidden(row, y));
    }
    for col in 0..=cols + 1 {
        assert_eq!(fast.is_permitted(x, col), !slow.is_forbidden(x, col));
    }
}

/// Every cell (the frame around included) permitted alike.
fn same_cells(fast: &Game, slow: &Reference, rows: u32, cols: u32) {
    for row in 0..=rows + 1 {
        for col in 0..=cols + 1 {
            assert_eq!(fast.is_permitted(row, col), !slow.is_forbidden(row, col));
        }
    }
}

fuzz_target!(|input: Input| {
    let (rows, cols) = (side(input.rows, input.cols), side(input.cols, input.rows));
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
    for (i, &(x, y)) in input.moves.iter().enumerate() {
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
                unchanged(&fast, &before, rows * cols);
            }
            // An undo gives back the cells of its move's row and column only.
            if let Some(cell) = last {
                same_cross(&fast, &slow, cell.row, cell.col, rows, cols);
            }
        } else {
            // Mostly on the grid, sometimes just off it.
            let (x, y) = (u32::from(x) % (rows + 2), u32::from(y) % (cols + 2));
            let copy = slow.clone();
            match (fast.play(x, y), slow.play(x, y)) {
                (Ok(_), Ok(())) => {
                    earlier.push(copy);
                    same_cross(&fast, &slow, x, y, rows, cols);
                }
                (Err(a), Err(b)) => {
                    assert_eq!(a, b);
                    unchanged(&fast, &before, rows * cols);
                }
                (a, b) => panic!("fast {a:?} vs reference {b:?}"),
            }
        }
        // The reference's flood fill costs the permitted area: after every move on grids of
        // up to 1024 cells, after every 8th and the last on larger ones (a wrong rectangle in
        // the engine's state stays until it is seen).
        if rows * cols > 1024 && i % 8 != 7 && i + 1 != input.moves.len() {
            continue;
        }
        let rects = slow.rectangles();
        assert_eq!(fast.rectangles(), rects);
        assert_eq!(fast.grundy(), grundy_of(&rects));
        let area: u32 = rects.iter().map(|r| r.rows * r.cols).sum();
        assert_eq!(fast.permitted(), area);
        assert_eq!(fast.outcome().is_some(), area == 0);
        // The reference plays every cell on a copy and floods each: after every move on
        // grids of up to 24 cells, at the end on grids of up to 64.
        if rows * cols <= 24 {
            assert_eq!(fast.winning_moves(), slow.winning_moves());
        }
    }
    same_cells(&fast, &slow, rows, cols);
    if rows * cols <= 64 {
        assert_eq!(fast.winning_moves(), slow.winning_moves());
    }
});
