//! The executable specification: a plain grid of cells, no bit tricks.
//!
//! A move marks its cross cell by cell; the permitted region is split into its connected parts
//! by flood fill, each checked to be a full rectangle; the value is the XOR of the parts' values
//! from a table computed straight from the definition (every cell of every rectangle, no
//! symmetry). The fast [`Grid`](super::Grid) is trusted as far as it agrees with this.

use std::sync::OnceLock;

use super::position::{Cell, MAX_SIDE, PlayError, Rect, SizeError};

/// g(a, b) for a, b ≤ `max` straight from the definition: `table[a][b]`.
pub fn brute_force_table(max: usize) -> Vec<Vec<u16>> {
    let mut g = vec![vec![0u16; max + 1]; max + 1];
    for a in 1..=max {
        for b in 1..=max {
            // The mex of a × b values is at most a × b.
            let mut seen = vec![false; a * b + 1];
            for x in 1..=a {
                for y in 1..=b {
                    let v = g[x - 1][y - 1] ^ g[x - 1][b - y] ^ g[a - x][y - 1] ^ g[a - x][b - y];
                    if let Some(s) = seen.get_mut(usize::from(v)) {
                        *s = true;
                    }
                }
            }
            let mex = seen.iter().position(|&s| !s).unwrap_or(seen.len());
            g[a][b] = u16::try_from(mex).expect("the mex fits 16 bits");
        }
    }
    g
}

/// [`brute_force_table`] up to [`MAX_SIDE`], computed once.
fn table() -> &'static [Vec<u16>] {
    static TABLE: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    TABLE.get_or_init(|| brute_force_table(MAX_SIDE))
}

/// A position as a plain grid of forbidden flags.
///
/// ```
/// use bitgames::grid::reference::Reference;
///
/// let mut p = Reference::new(5, 6)?;
/// p.play(3, 4)?;
/// p.play(5, 2)?;
/// assert_ne!(p.grundy(), 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    rows: usize,
    cols: usize,
    /// `forbidden[(row - 1) * cols + (col - 1)]`.
    forbidden: Vec<bool>,
}

impl Reference {
    /// The empty `rows` × `cols` grid.
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Reference, SizeError> {
        if rows == 0 || cols == 0 || rows > MAX_SIDE || cols > MAX_SIDE {
            return Err(SizeError { rows, cols });
        }
        Ok(Reference {
            rows,
            cols,
            forbidden: vec![false; rows * cols],
        })
    }

    /// Is (`row`, `col`) on the grid and forbidden? Off-grid cells count as forbidden.
    pub fn is_forbidden(&self, row: usize, col: usize) -> bool {
        if row < 1 || row > self.rows || col < 1 || col > self.cols {
            return true;
        }
        self.forbidden[(row - 1) * self.cols + (col - 1)]
    }

    /// Forbids (`row`, `col`) and, in each of the four directions, the cells up to the first
    /// forbidden cell or the border.
    ///
    /// # Errors
    /// [`PlayError`] when the cell is off the grid or forbidden; the position is unchanged.
    pub fn play(&mut self, row: usize, col: usize) -> Result<(), PlayError> {
        let cell = Cell { row, col };
        if row < 1 || row > self.rows || col < 1 || col > self.cols {
            return Err(PlayError::OffGrid(cell));
        }
        if self.is_forbidden(row, col) {
            return Err(PlayError::Forbidden(cell));
        }
        let cols = self.cols;
        self.forbidden[(row - 1) * cols + (col - 1)] = true;
        for (dr, dc) in [(0isize, -1isize), (0, 1), (-1, 0), (1, 0)] {
            let (mut r, mut c) = (row as isize + dr, col as isize + dc);
            while r >= 1 && c >= 1 && !self.is_forbidden(r as usize, c as usize) {
                self.forbidden[(r as usize - 1) * cols + (c as usize - 1)] = true;
                r += dr;
                c += dc;
            }
        }
        Ok(())
    }

    /// The connected parts of the permitted region, found by flood fill, ordered by their
    /// upper-left cell.
    ///
    /// # Panics
    /// When a part is not a full rectangle (the theory says it always is).
    pub fn rectangles(&self) -> Vec<Rect> {
        let mut done = vec![false; self.rows * self.cols];
        let mut out = Vec::new();
        for row in 1..=self.rows {
            for col in 1..=self.cols {
                let k = (row - 1) * self.cols + (col - 1);
                if self.forbidden[k] || done[k] {
                    continue;
                }
                done[k] = true;
                let mut stack = vec![(row, col)];
                let (mut top, mut left, mut bottom, mut right, mut size) = (row, col, row, col, 0);
                while let Some((r, c)) = stack.pop() {
                    size += 1;
                    top = top.min(r);
                    bottom = bottom.max(r);
                    left = left.min(c);
                    right = right.max(c);
                    for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                        if !self.is_forbidden(nr, nc) && !done[(nr - 1) * self.cols + (nc - 1)] {
                            done[(nr - 1) * self.cols + (nc - 1)] = true;
                            stack.push((nr, nc));
                        }
                    }
                }
                let rect = Rect {
                    top,
                    left,
                    rows: bottom - top + 1,
                    cols: right - left + 1,
                };
                assert_eq!(size, rect.rows * rect.cols, "{rect:?} is not full");
                out.push(rect);
            }
        }
        out
    }

    /// The XOR of the rectangles' values.
    pub fn grundy(&self) -> u16 {
        let g = table();
        self.rectangles()
            .iter()
            .fold(0, |v, r| v ^ g[r.rows][r.cols])
    }

    /// Every move after which [`Reference::grundy`] is 0, in row-major order, found by playing
    /// each permitted cell on a copy.
    pub fn winning_moves(&self) -> Vec<Cell> {
        let mut out = Vec::new();
        for row in 1..=self.rows {
            for col in 1..=self.cols {
                let mut next = self.clone();
                if next.play(row, col).is_ok() && next.grundy() == 0 {
                    out.push(Cell { row, col });
                }
            }
        }
        out
    }
}
