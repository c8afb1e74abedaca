//! The small record a [`Game`](super::Game) keeps of each move, from which it takes the move
//! back exactly.

use super::Cell;
use super::board::{Board, Cut};
use super::lines::bit_before;

/// A move as [`super::Game`]'s history keeps it: the cell, the rectangle it cut, the value
/// before it and the three bits of column y + 1 it may have set anew. Ten bytes: a history of
/// a whole 128 × 128 game is at most 160 KiB, kept from game to game.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Record {
    /// The cell, from 0.
    x: u8,
    y: u8,
    cut: Cut,
    /// Which of column y + 1's three marks were set before the move: bit 0 the row above the
    /// rectangle, bit 1 the row below it, bit 2 the cut row.
    marks: u8,
    /// The Grundy value before the move.
    value: u16,
}

impl Record {
    /// The cell of the move, from 1.
    #[inline]
    pub(crate) fn cell(&self) -> Cell {
        Cell {
            row: u32::from(self.x) + 1,
            col: u32::from(self.y) + 1,
        }
    }

    /// The rectangle the move cut: rows and columns.
    #[inline]
    pub(crate) fn sides(&self) -> (u32, u32) {
        (
            u32::from(self.cut.bottom - self.cut.top),
            u32::from(self.cut.right - self.cut.left),
        )
    }

    /// The rectangle the move cut.
    #[inline]
    pub(crate) fn cut(&self) -> Cut {
        self.cut
    }
}

/// Plays at (`x`, `y`) (from 0, on the board) as [`Board::cut`] does, and returns the record
/// that takes the move back; `None`, with the board unchanged, on a forbidden cell.
#[inline]
pub(crate) fn play(board: &mut Board, x: usize, y: usize) -> Option<Record> {
    let (value, column) = (board.value(), board.column(y + 1));
    let cut = if board.is_narrow() {
        board.cut_narrow(x, y)
    } else {
        board.cut(x, y)
    }?;
    let [above, under, row] = marks(cut, x);
    let was = |bit: [u64; 2]| u8::from(column[0] & bit[0] | column[1] & bit[1] != 0);
    Some(Record {
        x: x as u8,
        y: y as u8,
        cut,
        marks: was(above) | was(under) << 1 | was(row) << 2,
        value,
    })
}

/// Takes back the move of `record`, which must be the last one played on `board`.
#[inline]
pub(crate) fn undo(board: &mut Board, record: Record) {
    let (x, y) = (usize::from(record.x), usize::from(record.y));
    let mut column = [0; 2];
    for (k, bit) in marks(record.cut, x).into_iter().enumerate() {
        if record.marks >> k & 1 == 1 {
            column = [column[0] | bit[0], column[1] | bit[1]];
        }
    }
    board.uncut(x, y, record.cut, column, record.value);
}

/// The three bits a move at row `x` sets in column y + 1 ([`Board::column_marks_of`]), one by
/// one: the row above the rectangle, the row below it and the cut row.
#[inline(always)]
fn marks(cut: Cut, x: usize) -> [[u64; 2]; 3] {
    [
        bit_before(u32::from(cut.top)),
        bit_before(u32::from(cut.bottom) + 1),
        bit_before(x as u32 + 1),
    ]
}
