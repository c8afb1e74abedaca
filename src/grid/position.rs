//! A position of the grid game on row and column bitboards.

use std::fmt;

use super::grundy::{SHARED_MAX, embedded as g, square};

/// The largest number of rows or columns a [`Grid`] holds: one row fits a `u128`.
pub const MAX_SIDE: usize = SHARED_MAX;

/// A cell, counted from 1: (1, 1) is the upper-left cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Row, from 1 at the top.
    pub row: usize,
    /// Column, from 1 at the left.
    pub col: usize,
}

/// A rectangle of permitted cells: its upper-left cell (from 1) and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rect {
    /// Row of the upper-left cell, from 1.
    pub top: usize,
    /// Column of the upper-left cell, from 1.
    pub left: usize,
    /// Number of rows.
    pub rows: usize,
    /// Number of columns.
    pub cols: usize,
}

/// A grid size outside 1..=[`MAX_SIDE`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SizeError {
    /// The rows asked for.
    pub rows: usize,
    /// The columns asked for.
    pub cols: usize,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a {} × {} grid is not supported: both sides must be in 1..={MAX_SIDE}",
            self.rows, self.cols
        )
    }
}

impl std::error::Error for SizeError {}

/// Why a move was refused; the position is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayError {
    /// The cell is not on the grid.
    OffGrid(Cell),
    /// The cell is already forbidden.
    Forbidden(Cell),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffGrid(c) => write!(f, "cell ({}, {}) is off the grid", c.row, c.col),
            PlayError::Forbidden(c) => {
                write!(f, "cell ({}, {}) is already forbidden", c.row, c.col)
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// What [`Grid::play_undoable`] played, for [`Grid::undo`] to take back: the cell, the
/// rectangle it cut, and the few words of the position that the move changed without a trace
/// (small and `Copy`: a search keeps them on its own stack, no allocation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Undo {
    /// The move, from 0.
    x: u8,
    y: u8,
    /// The rectangle cut: first row and column, one past the last (from 0).
    top: u8,
    left: u8,
    bottom: u8,
    right: u8,
    /// The Grundy value before the move and after it.
    before: u16,
    after: u16,
    /// Moves played on the grid after this one ([`Grid`]'s counter).
    moves: u32,
    /// Column y + 1's words before the move: the move sets three of its bits, some of which
    /// may have been set already.
    column: [u64; 2],
}

impl Undo {
    /// The cell the move was played on.
    pub fn cell(&self) -> Cell {
        Cell {
            row: usize::from(self.x) + 1,
            col: usize::from(self.y) + 1,
        }
    }

    /// The rectangle the move cut (what [`Grid::play`] returns).
    pub fn rect(&self) -> Rect {
        Rect {
            top: usize::from(self.top) + 1,
            left: usize::from(self.left) + 1,
            rows: usize::from(self.bottom - self.top),
            cols: usize::from(self.right - self.left),
        }
    }
}

/// [`Grid::undo`] was given a move that is not the last one played on the grid; the position
/// is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UndoError {
    /// The cell of the move that could not be taken back.
    pub cell: Cell,
}

impl fmt::Display for UndoError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the move at ({}, {}) is not the last one played on this grid",
            self.cell.row, self.cell.col
        )
    }
}

impl std::error::Error for UndoError {}

/// The cells `0..n` of a row or column as a mask (`n ≤ 128`).
#[inline(always)]
fn below(n: u32) -> u128 {
    // A table: a variable 128-bit shift is a dozen instructions, a play needs eight masks.
    static BELOW: [u128; 129] = {
        let mut t = [0; 129];
        let mut n = 1;
        while n <= 128 {
            t[n] = u128::MAX >> (128 - n);
            n += 1;
        }
        t
    };
    BELOW[n as usize]
}

/// Line `line` (two 64-bit halves) searched below `n` (≤ 128): one past its highest set bit
/// under bit `n`, or 0 when there is none.
#[inline(always)]
fn end_below(line: [u64; 2], n: u32) -> u32 {
    let m = below(n);
    let (lo, hi) = (line[0] & m as u64, line[1] & (m >> 64) as u64);
    // Random from move to move: a branch would mispredict often.
    std::hint::select_unpredictable(hi != 0, 128 - hi.leading_zeros(), 64 - lo.leading_zeros())
}

/// Line `line` searched from bit `n` (≤ 128) up: its lowest set bit at or above `n`, or 128
/// when there is none.
#[inline(always)]
fn start_from(line: [u64; 2], n: u32) -> u32 {
    let m = below(n);
    let (lo, hi) = (line[0] & !(m as u64), line[1] & !((m >> 64) as u64));
    std::hint::select_unpredictable(lo != 0, lo.trailing_zeros(), 64 + hi.trailing_zeros())
}

/// Bit `n − 1` as two halves (`n` ≤ 129); none for `n` = 0 and for `n` = 129.
#[inline(always)]
fn bit_before(n: u32) -> [u64; 2] {
    static BIT: [[u64; 2]; 130] = {
        let mut t = [[0; 2]; 130];
        let mut n = 1;
        while n <= 128 {
            t[n][(n - 1) / 64] = 1 << ((n - 1) % 64);
            n += 1;
        }
        t
    };
    BIT[n as usize]
}

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
/// ```
/// use bitgames::grid::{Cell, Grid};
///
/// let mut grid = Grid::new(5, 6)?;
/// grid.play(3, 4)?;
/// grid.play(5, 2)?;
/// assert!(grid.is_winning());
/// let hint: Cell = grid.winning_moves()[0];
/// let mut after = grid.clone();
/// after.play(hint.row, hint.col)?;
/// assert!(!after.is_winning());
/// grid.play(1, 1)?;
/// assert!(grid.is_winning()); // (1, 1) was a bad move
/// assert!(grid.play(3, 1).is_err()); // forbidden by the move at (3, 4)
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
#[repr(C)]
pub struct Grid {
    row_bits: Lines,
    col_bits: Lines,
    rows: usize,
    cols: usize,
    value: u16,
    /// Moves played by [`Grid::play`] and [`Grid::play_undoable`] since the last reset, less
    /// those taken back: what [`Grid::undo`] checks its move against.
    moves: u32,
}

/// Byte offsets in a [`Grid`] of its column words and of its sides, for the judge's
/// hand-written move (`crate::simd`); the row words are at 0, low words then high words.
pub(crate) const COL_WORDS_OFFSET: usize = std::mem::offset_of!(Grid, col_bits);
/// See [`COL_WORDS_OFFSET`].
#[cfg(target_arch = "x86_64")]
pub(crate) const ROWS_OFFSET: usize = std::mem::offset_of!(Grid, rows);
/// See [`COL_WORDS_OFFSET`].
#[cfg(target_arch = "x86_64")]
pub(crate) const COLS_OFFSET: usize = std::mem::offset_of!(Grid, cols);
const _: () = assert!(
    std::mem::offset_of!(Grid, row_bits) == 0
        && COL_WORDS_OFFSET == std::mem::size_of::<Lines>()
        && std::mem::size_of::<Lines>() == 2 * LINE_WORDS * 8
);

/// The forbidden cells of the rows (or of the columns): bit k of line i is cell k + 1 of
/// line i + 1. Stored as low words and high words, so that forbidding one cell in a run of
/// lines is a loop over consecutive words the compiler vectorises.
#[derive(Clone)]
#[repr(align(64))]
struct Lines {
    /// `MAX_SIDE` lines and two [`CHUNK`]s of words of padding, which a [`Marker`] may touch
    /// without changing them. Aligned to 64 bytes, so that chunks from multiples of 8 are
    /// cache-line aligned (the AVX-512 marker relies on it).
    words: [[u64; LINE_WORDS]; 2],
}

/// Words [`Chunks`] handles per step.
const CHUNK: usize = 8;

/// Words of one half of the row (or column) bits: [`MAX_SIDE`] lines and two [`CHUNK`]s of
/// padding.
pub(crate) const LINE_WORDS: usize = MAX_SIDE + 2 * CHUNK;

const _: () = assert!(LINE_WORDS.is_multiple_of(CHUNK) && CHUNK == 8);

/// How a move marks its cross in the row bits: row `x` gets `span` (its two halves), and bit
/// `y` is set in the rows `from..to`, where `from ≤ x < to ≤ MAX_SIDE`. It may rewrite the
/// words up to two [`CHUNK`]s past `from`, and the [`CHUNK`]-aligned chunk holding row `x`,
/// with their own values (the padding included). [`Chunks`] is the one there is: the judge's
/// AVX-512 fast path marks the cross in its own hand-written move (`crate::simd`).
pub(crate) trait Marker: Copy {
    /// Marks the cross.
    fn cross(
        self,
        words: &mut [[u64; LINE_WORDS]; 2],
        x: usize,
        span: [u64; 2],
        from: usize,
        to: usize,
        y: usize,
    );
}

/// The portable [`Marker`]: the vertical line by [`by_chunks`], whole chunks of words with the
/// bit masked off past `to`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chunks;

impl Marker for Chunks {
    #[inline(always)]
    fn cross(
        self,
        words: &mut [[u64; LINE_WORDS]; 2],
        x: usize,
        span: [u64; 2],
        from: usize,
        to: usize,
        y: usize,
    ) {
        words[0][x] |= span[0];
        words[1][x] |= span[1];
        by_chunks(
            &mut words[y / 64],
            from,
            to,
            |word, bit| *word |= bit,
            1 << (y % 64),
        );
    }
}

/// Applies `op(word, bit & mask)` to the words `from..to` of `words` (`to` ≤ [`MAX_SIDE`]),
/// `mask` being all ones there and zero past `to`: in whole [`CHUNK`]s of words, up to two
/// past `from` whatever `to` (`op` must leave a word as it is for a zero bit).
///
/// Runs are short and of random length: the first two chunks take no branch (after the first
/// moves of a game nearly every run fits them), where a word-by-word loop mispredicts its exit
/// on nearly every move.
#[inline(always)]
fn by_chunks(
    words: &mut [u64; LINE_WORDS],
    from: usize,
    to: usize,
    op: impl Fn(&mut u64, u64),
    bit: u64,
) {
    // FIRST[n]: the first n words of a chunk, as all-ones words.
    static FIRST: [[u64; CHUNK]; CHUNK + 1] = {
        let mut t = [[0; CHUNK]; CHUNK + 1];
        let mut n = 0;
        while n <= CHUNK {
            let mut j = 0;
            while j < n {
                t[n][j] = u64::MAX;
                j += 1;
            }
            n += 1;
        }
        t
    };
    // The chunk of words from `i`, with the bit masked off from `to` on.
    let mut step = |i: usize| {
        let chunk: &mut [u64; CHUNK] = (&mut words[i..i + CHUNK]).try_into().expect("padded");
        let mask = &FIRST[to.saturating_sub(i).min(CHUNK)];
        for (word, mask) in chunk.iter_mut().zip(mask) {
            op(word, bit & mask);
        }
    };
    step(from);
    step(from + CHUNK);
    let mut i = from + 2 * CHUNK;
    while i < to {
        step(i);
        i += CHUNK;
    }
}

impl Lines {
    const FULL: Lines = Lines {
        words: [[u64::MAX; MAX_SIDE + 2 * CHUNK]; 2],
    };

    #[inline(always)]
    fn get(&self, i: usize) -> u128 {
        u128::from(self.words[0][i]) | u128::from(self.words[1][i]) << 64
    }

    #[inline(always)]
    fn halves(&self, i: usize) -> [u64; 2] {
        [self.words[0][i], self.words[1][i]]
    }

    #[inline(always)]
    fn or(&mut self, i: usize, bits: [u64; 2]) {
        self.words[0][i] |= bits[0];
        self.words[1][i] |= bits[1];
    }

    /// Sets lines `0..n` to `bits`, and maybe some lines after them (which are off the grid,
    /// never read): whole chunks of stores instead of a `memset` call per case.
    #[inline(always)]
    fn fill(&mut self, n: usize, bits: u128) {
        let end = n.next_multiple_of(CHUNK);
        for (words, half) in self
            .words
            .iter_mut()
            .zip([bits as u64, (bits >> 64) as u64])
        {
            for chunk in words[..end].chunks_exact_mut(CHUNK) {
                chunk.fill(half);
            }
        }
    }
}

impl Grid {
    /// The `rows` × `cols` grid with every cell permitted.
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Grid, SizeError> {
        let mut grid = Grid {
            rows: 1,
            cols: 1,
            value: 0,
            moves: 0,
            row_bits: Lines::FULL,
            col_bits: Lines::FULL,
        };
        grid.reset(rows, cols)?;
        Ok(grid)
    }

    /// Starts again on an empty `rows` × `cols` grid, in O(rows + cols).
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`]; the position is then unchanged.
    #[inline(always)]
    pub fn reset(&mut self, rows: usize, cols: usize) -> Result<(), SizeError> {
        if !(1..=MAX_SIDE).contains(&rows) || !(1..=MAX_SIDE).contains(&cols) {
            return Err(SizeError { rows, cols });
        }
        // Lines and bits past the grid are never read.
        let row_border = !below(cols as u32);
        let col_border = !below(rows as u32);
        self.row_bits.fill(rows, row_border);
        self.col_bits.fill(cols, col_border);
        self.rows = rows;
        self.cols = cols;
        self.value = g(rows, cols);
        self.moves = 0;
        Ok(())
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Is the cell permitted (on the grid and not forbidden)?
    pub fn is_permitted(&self, row: usize, col: usize) -> bool {
        (1..=self.rows).contains(&row)
            && (1..=self.cols).contains(&col)
            && self.row_bits.get(row - 1) >> (col - 1) & 1 == 0
    }

    /// Plays at (`row`, `col`) (from 1) and returns the rectangle the move cut.
    ///
    /// Finding the rectangle, updating the Grundy value and the column bits take O(1);
    /// marking the vertical line of the cross in the rows takes one bit operation per row
    /// (in whole chunks of rows).
    ///
    /// # Errors
    /// [`PlayError`] when the cell is off the grid or forbidden; the position is unchanged.
    #[inline]
    pub fn play(&mut self, row: usize, col: usize) -> Result<Rect, PlayError> {
        let cell = Cell { row, col };
        if row.wrapping_sub(1) >= self.rows || col.wrapping_sub(1) >= self.cols {
            return Err(PlayError::OffGrid(cell));
        }
        match self.cut(Chunks, row - 1, col - 1) {
            Some(rect) => {
                self.moves = self.moves.wrapping_add(1);
                Ok(rect)
            }
            None => Err(PlayError::Forbidden(cell)),
        }
    }

    /// [`Grid::play`], returning what [`Grid::undo`] needs to take the move back.
    ///
    /// ```
    /// use bitgames::grid::{Grid, Rect};
    ///
    /// let mut grid = Grid::new(4, 4)?;
    /// let first = grid.play_undoable(2, 3)?;
    /// let second = grid.play_undoable(4, 1)?;
    /// // The lower left part left by the first move: rows 3 and 4, columns 1 and 2.
    /// assert_eq!(second.rect(), Rect { top: 3, left: 1, rows: 2, cols: 2 });
    /// assert!(grid.undo(first).is_err()); // not the last move: nothing changes
    /// grid.undo(second)?;
    /// grid.undo(first)?;
    /// assert_eq!(grid.rectangles(), Grid::new(4, 4)?.rectangles());
    /// assert!(!grid.is_winning()); // 4 × 4 is lost for the player to move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// As [`Grid::play`]; the position is then unchanged.
    #[inline]
    pub fn play_undoable(&mut self, row: usize, col: usize) -> Result<Undo, PlayError> {
        // Column y + 1 (from 0) is column `col` (from 1); `min` only keeps an off-grid `col`,
        // which `play` refuses, within the words.
        let (before, column) = (self.value, self.col_bits.halves(col.min(MAX_SIDE)));
        let rect = self.play(row, col)?;
        // Sides are at most 128: every bound fits a byte.
        Ok(Undo {
            x: (row - 1) as u8,
            y: (col - 1) as u8,
            top: (rect.top - 1) as u8,
            left: (rect.left - 1) as u8,
            bottom: (rect.top - 1 + rect.rows) as u8,
            right: (rect.left - 1 + rect.cols) as u8,
            before,
            after: self.value,
            moves: self.moves,
            column,
        })
    }

    /// Takes back `undo`'s move, which must be the last one played on this grid (moves are
    /// taken back in the reverse order of play), and returns its cell. O(1) but for the
    /// move's vertical line, one bit operation per row, as in [`Grid::play`].
    ///
    /// # Errors
    /// [`UndoError`] when `undo` is not the last move played (another move came after it, or
    /// it was already taken back, or the grid was reset); the position is then unchanged. The
    /// check compares the number of moves played and the Grundy value, so a move of another
    /// grid that happens to agree on both is not caught.
    pub fn undo(&mut self, undo: Undo) -> Result<Cell, UndoError> {
        if undo.moves != self.moves || undo.after != self.value {
            return Err(UndoError { cell: undo.cell() });
        }
        let (x, y) = (usize::from(undo.x), usize::from(undo.y));
        let (top, bottom) = (usize::from(undo.top), usize::from(undo.bottom));
        // Every cell of the cross was permitted before the move, so its bits were clear: in
        // the rows (exact everywhere) and in the rectangle's left column (exact in its rows).
        let span = below(u32::from(undo.right)) & !below(u32::from(undo.left));
        self.row_bits.words[0][x] &= !(span as u64);
        self.row_bits.words[1][x] &= !((span >> 64) as u64);
        by_chunks(
            &mut self.row_bits.words[y / 64],
            top,
            bottom,
            |word, bit| *word &= !bit,
            1 << (y % 64),
        );
        let cut = bit_before(undo.x as u32 + 1);
        let left = usize::from(undo.left);
        self.col_bits.words[0][left] &= !cut[0];
        self.col_bits.words[1][left] &= !cut[1];
        // Column y + 1 as it was.
        self.col_bits.words[0][y + 1] = undo.column[0];
        self.col_bits.words[1][y + 1] = undo.column[1];
        self.value = undo.before;
        self.moves = self.moves.wrapping_sub(1);
        Ok(undo.cell())
    }

    /// Plays at the cell (`x`, `y`) counted from 0, which must be on the grid, and returns the
    /// rectangle the move cut; `None`, with the position unchanged, when the cell is forbidden.
    /// The move's vertical line is marked by `marker`.
    #[inline(always)]
    pub(crate) fn cut<M: Marker>(&mut self, marker: M, x: usize, y: usize) -> Option<Rect> {
        debug_assert!(x < self.rows && y < self.cols);
        // A no-op on the grid (sides ≤ 128); it lets the compiler drop the bounds checks.
        let (x32, y32) = ((x % MAX_SIDE) as u32, (y % MAX_SIDE) as u32);
        let (x, y) = (x32 as usize, y32 as usize);
        if self.row_bits.words[y / 64][x] >> (y % 64) & 1 != 0 {
            return None;
        }
        // First permitted cell and one past the last, left/right of the move and above/below;
        // the column bits are exact in the left column of every rectangle (see `Grid`).
        let across = self.row_bits.halves(x);
        let left = end_below(across, y32);
        let right = start_from(across, y32 + 1);
        let down = self.col_bits.halves(left as usize % MAX_SIDE);
        let top = end_below(down, x32);
        let bottom = start_from(down, x32 + 1);
        // top ≤ x < bottom ≤ 128 and left ≤ y < right ≤ 128 by construction, whatever the bits.
        let (a, b) = ((bottom - top) as usize, (right - left) as usize);
        let (i, j) = ((x32 - top) as usize, (y32 - left) as usize);
        let (i2, j2) = ((bottom - x32 - 1) as usize, (right - y32 - 1) as usize);
        self.value ^= g(a, b) ^ g(i, j) ^ g(i, j2) ^ g(i2, j) ^ g(i2, j2);
        let span = below(right) & !below(left);
        marker.cross(
            &mut self.row_bits.words,
            x,
            [span as u64, (span >> 64) as u64],
            top as usize,
            bottom as usize,
            y,
        );
        // The parts left of the move keep the rectangle's left column: the cut row joins it.
        let cut = bit_before(x32 + 1);
        self.col_bits.or(left as usize % MAX_SIDE, cut);
        // The parts right of the move start at column y + 1: within the rectangle's rows and
        // its two border rows, that column becomes exact when the cut row and the borders are
        // set. Its bits in the rectangle's rows are clear already: a set bit is always a
        // forbidden cell (or off the grid), and these cells are permitted. (When there are no
        // such parts, column y + 1 is the rectangle's right border, where those three cells
        // are forbidden or off the grid too.)
        let (above, under) = (bit_before(top), bit_before(bottom + 1));
        self.col_bits.or(
            y + 1,
            [above[0] | under[0] | cut[0], above[1] | under[1] | cut[1]],
        );
        Some(Rect {
            top: top as usize + 1,
            left: left as usize + 1,
            rows: a,
            cols: b,
        })
    }

    /// The start of the grid, for the judge's hand-written move (`crate::simd`), which reads
    /// and writes the row and column words and reads the sides at the offsets above
    /// ([`COL_WORDS_OFFSET`]); and the value, which that move keeps up to date.
    #[cfg(target_arch = "x86_64")]
    pub(crate) fn raw_parts(&mut self) -> (*mut u64, &mut u16) {
        ((&raw mut *self).cast::<u64>(), &mut self.value)
    }

    /// The Grundy value of the position: the XOR of its rectangles' values.
    #[inline]
    pub fn grundy(&self) -> u16 {
        self.value
    }

    /// Can the player to move force a win?
    #[inline]
    pub fn is_winning(&self) -> bool {
        self.value != 0
    }

    /// The permitted region as disjoint rectangles, ordered by upper-left cell.
    pub fn rectangles(&self) -> Vec<Rect> {
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
                    top: i + 1,
                    left: j as usize + 1,
                    rows: bottom as usize - i,
                    cols: (right - j) as usize,
                });
            }
        }
        out
    }

    /// Every move that leaves a position of value 0 (a loss for the opponent), in row-major
    /// order; empty exactly when the position is losing.
    pub fn winning_moves(&self) -> Vec<Cell> {
        let table = square();
        let mut out = Vec::new();
        for r in self.rectangles() {
            // The value the four parts of a winning move must have.
            let want = self.value ^ g(r.rows, r.cols);
            let cols = r.cols.min(MAX_SIDE);
            for i in 0..r.rows {
                // Parts above and below a move in row i: g(i, ·) and g(rows − i − 1, ·); the
                // parts left and right of column j take j and cols − j − 1 cells.
                let (above, below) = (&table[i], &table[r.rows - i - 1]);
                let mut parts = [0u8; MAX_SIDE];
                for (p, (&a, &b)) in parts.iter_mut().zip(above.iter().zip(below)) {
                    *p = a ^ b;
                }
                for j in 0..cols {
                    if u16::from(parts[j] ^ parts[cols - 1 - j]) == want {
                        out.push(Cell {
                            row: r.top + i,
                            col: r.left + j,
                        });
                    }
                }
            }
        }
        out.sort_unstable();
        out
    }
}

impl fmt::Debug for Grid {
    /// Draws the grid: `.` permitted, `#` forbidden.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Grid {} × {}, g = {}", self.rows, self.cols, self.value)?;
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
    use crate::grid::judge::random_cell;
    use crate::rng::Rng;

    /// Every word of the two grids (the padding included), their sides, value and move count.
    fn assert_same(a: &Grid, b: &Grid) {
        assert_eq!(a.row_bits.words, b.row_bits.words, "row words");
        assert_eq!(a.col_bits.words, b.col_bits.words, "column words");
        assert_eq!(
            (a.rows, a.cols, a.value, a.moves),
            (b.rows, b.cols, b.value, b.moves)
        );
    }

    #[test]
    fn undo_restores_every_word() {
        let mut rng = Rng::new(11);
        for game in 0..300 {
            // Small grids, the 64-column boundary and the largest ones.
            let side = |rng: &mut Rng| match game % 3 {
                0 => rng.range(1, 12),
                1 => rng.range(60, 70),
                _ => rng.range(100, MAX_SIDE as u32),
            } as usize;
            let (rows, cols) = (side(&mut rng), side(&mut rng));
            let mut grid = Grid::new(rows, cols).unwrap();
            let mut stack: Vec<(Undo, Grid)> = Vec::new();
            for _ in 0..600 {
                if !stack.is_empty() && rng.below(3) == 0 {
                    let (undo, before) = stack.pop().unwrap();
                    if let Some(&(older, _)) = stack.last() {
                        // Not the last move: refused, nothing changed.
                        let now = grid.clone();
                        assert_eq!(grid.undo(older), Err(UndoError { cell: older.cell() }));
                        assert_same(&grid, &now);
                    }
                    assert_eq!(grid.undo(undo), Ok(undo.cell()));
                    assert_same(&grid, &before);
                    // Taken back already: refused.
                    assert!(grid.undo(undo).is_err());
                    assert_same(&grid, &before);
                } else {
                    let Some((row, col)) = random_cell(&grid, &mut rng) else {
                        break;
                    };
                    let before = grid.clone();
                    let undo = grid.play_undoable(row, col).unwrap();
                    let mut plain = before.clone();
                    assert_eq!(plain.play(row, col), Ok(undo.rect()));
                    assert_same(&grid, &plain);
                    assert_eq!(undo.cell(), Cell { row, col });
                    stack.push((undo, before));
                }
            }
            // Back to the start, move by move.
            while let Some((undo, before)) = stack.pop() {
                grid.undo(undo).unwrap();
                assert_same(&grid, &before);
            }
            assert_same(&grid, &Grid::new(rows, cols).unwrap());
        }
    }

    #[test]
    fn undo_refuses_an_earlier_move_even_when_the_value_agrees() {
        // No single move keeps the Grundy value (it is the mex of its moves' values), but two
        // can bring it back: then the move count tells the earlier move from the last one.
        let mut rng = Rng::new(5);
        let mut grid = Grid::new(20, 20).unwrap();
        let mut checked = 0;
        for _ in 0..100_000 {
            let Some((row, col)) = random_cell(&grid, &mut rng) else {
                grid.reset(20, 20).unwrap();
                continue;
            };
            let earlier = grid.play_undoable(row, col).unwrap();
            let mut later = Vec::new();
            for _ in 0..2 {
                if let Some((row, col)) = random_cell(&grid, &mut rng) {
                    later.push(grid.play_undoable(row, col).unwrap());
                }
            }
            if later.len() == 2 && grid.grundy() == earlier.after {
                let now = grid.clone();
                assert!(grid.undo(earlier).is_err());
                assert_same(&grid, &now);
                checked += 1;
            }
            while let Some(undo) = later.pop() {
                grid.undo(undo).unwrap();
            }
        }
        assert!(checked >= 20, "only {checked} cases");
    }

    #[test]
    fn undo_refuses_moves_before_a_plain_move_or_a_reset() {
        let mut grid = Grid::new(6, 7).unwrap();
        let first = grid.play_undoable(2, 2).unwrap();
        grid.play(5, 5).unwrap();
        let now = grid.clone();
        assert!(grid.undo(first).is_err());
        assert_same(&grid, &now);
        grid.reset(6, 7).unwrap();
        assert!(grid.undo(first).is_err());
        assert_same(&grid, &Grid::new(6, 7).unwrap());
        let refused = grid.play_undoable(7, 1);
        assert_eq!(refused, Err(PlayError::OffGrid(Cell { row: 7, col: 1 })));
        assert_same(&grid, &Grid::new(6, 7).unwrap());
    }

    #[test]
    fn masks_below() {
        for n in 0..=128u32 {
            let want = (0..n).fold(0u128, |m, k| m | 1 << k);
            assert_eq!(below(n), want, "{n}");
        }
    }

    #[test]
    fn debug_draws_the_cross() {
        let mut grid = Grid::new(3, 4).unwrap();
        grid.play(2, 2).unwrap();
        assert_eq!(
            format!("{grid:?}"),
            format!("Grid 3 × 4, g = {}\n.#..\n####\n.#..\n", grid.grundy())
        );
    }

    #[test]
    fn errors_leave_the_position_unchanged() {
        let mut grid = Grid::new(4, 4).unwrap();
        grid.play(1, 1).unwrap();
        let before = format!("{grid:?}");
        assert_eq!(
            grid.play(1, 3),
            Err(PlayError::Forbidden(Cell { row: 1, col: 3 }))
        );
        assert_eq!(
            grid.play(5, 1),
            Err(PlayError::OffGrid(Cell { row: 5, col: 1 }))
        );
        assert_eq!(
            grid.play(0, 1),
            Err(PlayError::OffGrid(Cell { row: 0, col: 1 }))
        );
        assert_eq!(format!("{grid:?}"), before);
        assert_eq!(Grid::new(0, 3).err(), Some(SizeError { rows: 0, cols: 3 }));
        assert!(Grid::new(128, 129).is_err());
    }

    #[test]
    fn full_width_rows_and_columns() {
        let mut grid = Grid::new(128, 128).unwrap();
        assert_eq!(
            grid.play(128, 128),
            Ok(Rect {
                top: 1,
                left: 1,
                rows: 128,
                cols: 128
            })
        );
        assert_eq!(
            grid.rectangles(),
            vec![Rect {
                top: 1,
                left: 1,
                rows: 127,
                cols: 127
            }]
        );
        assert_eq!(grid.grundy(), g(127, 127));
    }
}
