//! [`Board`]: the forbidden cells on row and column words and the Grundy value, and the move
//! that cuts a rectangle in O(1). What [`super::Game`] keeps besides (its history, the
//! permitted cells) the judge does not need: it plays on a bare board.

use std::fmt;

use super::grundy::{embedded as g, square};
use super::lines::{
    Lines, SIDE, below, bit_before, by_groups, clear, end_below, halves, or, start_from,
};
use super::{Cell, Rect};

/// A position: the forbidden cells as one `u128` per row and one per column, and the
/// position's Grundy value, kept up to date move by move.
///
/// Bit j of row i is set when cell (i + 1, j + 1) is forbidden, and so is every bit past the last
/// column, so the nearest forbidden cell or border left and right of a move is one leading- or
/// trailing-zero count away. The columns are kept the same way, but exactly only in the left
/// column of each rectangle of permitted cells, and there only within the rectangle's rows and
/// its two border rows: a move reads the column of its rectangle's left side (found in its row)
/// for the nearest forbidden cells above and below. So a move marks its vertical line cell by
/// cell in the rows, but its horizontal line in two columns only: the left column it cuts, and
/// column y + 1 where the parts right of it begin.
///
/// The judge's hand-written AVX-512 move (`super::batch::x86_64`) reads and writes this value
/// at the byte offsets below: its layout is fixed.
#[derive(Clone)]
#[repr(C)]
pub(crate) struct Board {
    row_bits: Lines,
    col_bits: Lines,
    rows: usize,
    cols: usize,
    value: u16,
}

/// Byte offsets in a [`Board`] of its column words and of its sides, for the judge's
/// hand-written move (`super::batch::x86_64`); the row words are at 0, low words then high
/// words.
#[cfg(target_arch = "x86_64")]
pub(crate) const COL_WORDS_OFFSET: usize = std::mem::offset_of!(Board, col_bits);
/// See [`COL_WORDS_OFFSET`].
#[cfg(target_arch = "x86_64")]
pub(crate) const ROWS_OFFSET: usize = std::mem::offset_of!(Board, rows);
/// See [`COL_WORDS_OFFSET`].
#[cfg(target_arch = "x86_64")]
pub(crate) const COLS_OFFSET: usize = std::mem::offset_of!(Board, cols);
const _: () = assert!(
    std::mem::offset_of!(Board, row_bits) == 0
        && std::mem::offset_of!(Board, col_bits) == std::mem::size_of::<Lines>()
        && std::mem::size_of::<Lines>() == 2 * super::lines::LINE_WORDS * 8
);

/// What a move changed besides its cross, for [`Board::uncut`] to take it back.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Cut {
    /// The rectangle cut, from 0: first row and column, one past the last.
    pub(crate) top: u8,
    pub(crate) left: u8,
    pub(crate) bottom: u8,
    pub(crate) right: u8,
}

impl Board {
    /// The 1 × 1 board.
    pub(crate) fn new() -> Board {
        let mut board = Board {
            rows: 1,
            cols: 1,
            value: 0,
            row_bits: Lines::FULL,
            col_bits: Lines::FULL,
        };
        board.reset(1, 1);
        board
    }

    /// Starts again on an empty `rows` × `cols` board (both in 1..=128), in O(rows + cols).
    #[inline(always)]
    pub(crate) fn reset(&mut self, rows: usize, cols: usize) {
        debug_assert!((1..=SIDE).contains(&rows) && (1..=SIDE).contains(&cols));
        let (rows, cols) = (rows.clamp(1, SIDE), cols.clamp(1, SIDE));
        // Lines and bits past the grid are never read.
        self.row_bits.fill(rows, !below(cols as u32));
        self.col_bits.fill(cols, !below(rows as u32));
        self.rows = rows;
        self.cols = cols;
        self.value = g(rows, cols);
    }

    /// Number of rows.
    #[inline(always)]
    pub(crate) fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    #[inline(always)]
    pub(crate) fn cols(&self) -> usize {
        self.cols
    }

    /// The Grundy value of the position.
    #[inline(always)]
    pub(crate) fn value(&self) -> u16 {
        self.value
    }

    /// Is the cell (`x`, `y`) (from 0, on the board) forbidden?
    #[inline(always)]
    pub(crate) fn is_forbidden(&self, x: usize, y: usize) -> bool {
        self.row_bits.get(x) >> y & 1 != 0
    }

    /// Row `x` (from 0) as a number: bit j set when cell j is forbidden or off the board.
    #[inline(always)]
    pub(crate) fn row(&self, x: usize) -> u128 {
        self.row_bits.get(x)
    }

    /// Plays at the cell (`x`, `y`) counted from 0, which must be on the board, and returns
    /// the rectangle it cut; `None`, with the position unchanged, when the cell is forbidden.
    #[inline(always)]
    pub(crate) fn cut(&mut self, x: usize, y: usize) -> Option<Cut> {
        self.cut_as::<true>(x, y)
    }

    /// Does the board have at most 64 rows and columns, so that [`Board::cut_narrow`] can
    /// play on it?
    #[inline(always)]
    pub(crate) fn is_narrow(&self) -> bool {
        self.rows <= 64 && self.cols <= 64
    }

    /// [`Board::cut`] on a board of at most 64 rows and columns ([`Board::is_narrow`]), with
    /// the same result word for word: there the high words of the rows and columns are all
    /// border, and this neither reads nor writes them (the one bit [`Board::cut`] may set
    /// there, the border row 64 of column y + 1, is set already).
    #[inline(always)]
    pub(crate) fn cut_narrow(&mut self, x: usize, y: usize) -> Option<Cut> {
        debug_assert!(self.is_narrow());
        self.cut_as::<false>(x, y)
    }

    /// [`Board::cut`] when `WIDE`, else [`Board::cut_narrow`].
    #[inline(always)]
    pub(crate) fn cut_as<const WIDE: bool>(&mut self, x: usize, y: usize) -> Option<Cut> {
        debug_assert!(x < self.rows && y < self.cols);
        // A no-op on the board (sides ≤ 128, or ≤ 64 when narrow); it lets the compiler drop
        // the bounds checks.
        let side = if WIDE { SIDE } else { 64 };
        let (x32, y32) = ((x % side) as u32, (y % side) as u32);
        let (x, y) = (x32 as usize, y32 as usize);
        if self.row_bits.words[y / 64][x] >> (y % 64) & 1 != 0 {
            return None;
        }
        // First permitted cell and one past the last, left/right of the move and above/below;
        // the column bits are exact in the left column of every rectangle (see `Board`).
        let (left, right, top, bottom) = if WIDE {
            let across = self.row_bits.halves(x);
            let left = end_below(across, y32);
            let right = start_from(across, y32 + 1);
            let down = self.col_bits.halves(left as usize % SIDE);
            (left, right, end_below(down, x32), start_from(down, x32 + 1))
        } else {
            let across = self.row_bits.words[0][x];
            let left = 64 - (across & ((1 << y32) - 1)).leading_zeros();
            let right = (across & (u64::MAX << y32 << 1)).trailing_zeros();
            let down = self.col_bits.words[0][left as usize % 64];
            let top = 64 - (down & ((1 << x32) - 1)).leading_zeros();
            (
                left,
                right,
                top,
                (down & (u64::MAX << x32 << 1)).trailing_zeros(),
            )
        };
        // top ≤ x < bottom ≤ 128 and left ≤ y < right ≤ 128 by construction, whatever the bits.
        let (a, b) = ((bottom - top) as usize, (right - left) as usize);
        let (i, j) = ((x32 - top) as usize, (y32 - left) as usize);
        let (i2, j2) = ((bottom - x32 - 1) as usize, (right - y32 - 1) as usize);
        self.value ^= g(a, b) ^ g(i, j) ^ g(i, j2) ^ g(i2, j) ^ g(i2, j2);
        // Row x takes the span; bit y is set in the rows top..bottom.
        let span = if WIDE {
            halves(below(right) & !below(left))
        } else {
            [(u64::MAX >> (64 - right)) & !((1 << left) - 1), 0]
        };
        if WIDE {
            self.row_bits.or(x, span);
        } else {
            self.row_bits.words[0][x] |= span[0];
        }
        by_groups(
            &mut self.row_bits.words[y / 64],
            top as usize,
            bottom as usize,
            or,
            1 << (y % 64),
        );
        // The parts left of the move keep the rectangle's left column: the cut row joins it.
        if WIDE {
            self.col_bits.or(left as usize % SIDE, bit_before(x32 + 1));
        } else {
            self.col_bits.words[0][left as usize % 64] |= 1 << x32;
        }
        // The parts right of the move start at column y + 1: within the rectangle's rows and
        // its two border rows, that column becomes exact when the cut row and the borders are
        // set. Its bits in the rectangle's rows are clear already: a set bit is always a
        // forbidden cell (or off the grid), and these cells are permitted. (When there are no
        // such parts, column y + 1 is the rectangle's right border, where those three cells
        // are forbidden or off the grid too.)
        if WIDE {
            self.col_bits.or(y + 1, column_marks(top, bottom, x32));
        } else {
            // Rows below 64: the border bit of bottom = 64 is in the high word, where it is
            // set already (the shift by 64 gives 0).
            let marks = (1 << top >> 1) | (2 << (bottom - 1)) | (1 << x32);
            self.col_bits.words[0][(y + 1) % (SIDE + 1)] |= marks;
        }
        Some(Cut {
            top: top as u8,
            left: left as u8,
            bottom: bottom as u8,
            right: right as u8,
        })
    }

    /// The three bits a move at row `x` of a rectangle of rows `top..bottom` sets in column
    /// y + 1: the two border rows and the cut row.
    #[inline(always)]
    pub(crate) fn column_marks_of(&self, cut: Cut, x: usize) -> [u64; 2] {
        column_marks(u32::from(cut.top), u32::from(cut.bottom), x as u32)
    }

    /// Column `y`'s words (from 0; up to 128, a padding column).
    #[inline(always)]
    pub(crate) fn column(&self, y: usize) -> [u64; 2] {
        self.col_bits.halves(y % (SIDE + 1))
    }

    /// Takes back the move at (`x`, `y`) (from 0), the last one played, which cut `cut`:
    /// `column` is what column y + 1's three [`Board::column_marks_of`] bits were before it,
    /// and `value` the value before it.
    #[inline]
    pub(crate) fn uncut(&mut self, x: usize, y: usize, cut: Cut, column: [u64; 2], value: u16) {
        let (x, y) = (x % SIDE, y % SIDE);
        let (top, bottom) = (usize::from(cut.top), usize::from(cut.bottom));
        // Every cell of the cross was permitted before the move, so its bits were clear: in
        // the rows (exact everywhere) and in the rectangle's left column (exact in its rows).
        let span = halves(below(u32::from(cut.right)) & !below(u32::from(cut.left)));
        self.row_bits.clear(x, span);
        by_groups(
            &mut self.row_bits.words[y / 64],
            top,
            bottom,
            clear,
            1 << (y % 64),
        );
        self.col_bits
            .clear(usize::from(cut.left) % SIDE, bit_before(x as u32 + 1));
        // Column y + 1's three bits as they were.
        let marks = self.column_marks_of(cut, x);
        self.col_bits.clear(y + 1, marks);
        self.col_bits.or(y + 1, column);
        self.value = value;
    }

    /// The start of the board, for the judge's hand-written move (`super::batch::x86_64`),
    /// which reads and writes the row and column words and reads the sides at the offsets
    /// above ([`COL_WORDS_OFFSET`]); and the value, which that move keeps up to date.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn raw_parts(&mut self) -> (*mut u64, &mut u16) {
        ((&raw mut *self).cast::<u64>(), &mut self.value)
    }

    /// The permitted region as disjoint rectangles, ordered by upper-left cell.
    pub(crate) fn rectangles(&self) -> Vec<Rect> {
        let mut out = Vec::new();
        let inside = below(self.cols as u32);
        for i in 0..self.rows {
            let bits = self.row_bits.get(i);
            let above = if i == 0 {
                u128::MAX
            } else {
                self.row_bits.get(i - 1)
            };
            let mut corners = !bits & inside & above & (bits << 1 | 1);
            while corners != 0 {
                let j = corners.trailing_zeros();
                corners &= corners - 1;
                let right = (bits & !below(j + 1)).trailing_zeros();
                let bottom =
                    (self.col_bits.get(j as usize) & !below(i as u32 + 1)).trailing_zeros();
                out.push(Rect {
                    top: i as u32 + 1,
                    left: j + 1,
                    rows: bottom - i as u32,
                    cols: right - j,
                });
            }
        }
        out
    }

    /// Every move that leaves a position of value 0 (a loss for the opponent), in row-major
    /// order; empty exactly when the position is losing.
    pub(crate) fn winning_moves(&self) -> Vec<Cell> {
        let table = square();
        let mut out = Vec::new();
        for r in self.rectangles() {
            let (rows, cols) = (r.rows as usize, r.cols as usize);
            // The value the four parts of a winning move must have.
            let want = self.value ^ g(rows, cols);
            let cols = cols.min(SIDE);
            for i in 0..rows {
                // Parts above and below a move in row i: g(i, ·) and g(rows − i − 1, ·); the
                // parts left and right of column j take j and cols − j − 1 cells.
                let (above, below) = (&table[i], &table[rows - i - 1]);
                let mut parts = [0u8; SIDE];
                for (p, (&a, &b)) in parts.iter_mut().zip(above.iter().zip(below)) {
                    *p = a ^ b;
                }
                for j in 0..cols {
                    if u16::from(parts[j] ^ parts[cols - 1 - j]) == want {
                        out.push(Cell {
                            row: r.top + i as u32,
                            col: r.left + j as u32,
                        });
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }

    /// Every word of the row and column lines, for the tests' exact comparisons.
    #[cfg(test)]
    pub(crate) fn words(&self) -> (&Lines, &Lines) {
        (&self.row_bits, &self.col_bits)
    }
}

/// Bits top − 1, bottom and x of a column (each when it is a row of the grid).
#[inline(always)]
fn column_marks(top: u32, bottom: u32, x: u32) -> [u64; 2] {
    let (above, under, cut) = (bit_before(top), bit_before(bottom + 1), bit_before(x + 1));
    [above[0] | under[0] | cut[0], above[1] | under[1] | cut[1]]
}

impl fmt::Debug for Board {
    /// Draws the board: `.` permitted, `#` forbidden.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} × {}, g = {}", self.rows, self.cols, self.value)?;
        for i in 0..self.rows {
            let line = self.row_bits.get(i);
            for j in 0..self.cols {
                f.write_str(if line >> j & 1 == 1 { "#" } else { "." })?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::judge::random_game;
    use crate::rng::Rng;

    /// The narrow move leaves every word as the move for any board does.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn narrow_cut_equals_cut_word_for_word() {
        let mut rng = Rng::new(31);
        let mut moves = Vec::new();
        for _ in 0..400 {
            let (rows, cols) = (rng.range(1, 64), rng.range(1, 64));
            random_game(&mut rng, rows, cols, &mut moves);
            // Boards that held a larger game before: stale words past the grid too.
            let (mut wide, mut narrow) = (Board::new(), Board::new());
            for board in [&mut wide, &mut narrow] {
                board.reset(128, 128);
                board.cut(70, 100);
                board.reset(rows as usize, cols as usize);
            }
            for cell in &moves {
                let (x, y) = (cell.row as usize - 1, cell.col as usize - 1);
                let a = wide.cut(x, y).map(|c| (c.top, c.left, c.bottom, c.right));
                let b = narrow
                    .cut_narrow(x, y)
                    .map(|c| (c.top, c.left, c.bottom, c.right));
                assert_eq!(a, b);
                assert!(a.is_some());
                assert!(wide.words() == narrow.words() && wide.value() == narrow.value());
            }
            if let Some(cell) = moves.first() {
                assert!(
                    narrow
                        .cut_narrow(cell.row as usize - 1, cell.col as usize - 1)
                        .is_none()
                );
            }
        }
    }
}
