//! The executable specification: a plain grid of cells, no bit tricks.
//!
//! A move marks its cross cell by cell; the permitted region is split into its connected parts
//! by flood fill, each checked to be a full rectangle; the value is the XOR of the parts' values
//! from a table computed straight from the definition (every cell of every rectangle, no
//! symmetry). The fast [`Game`](super::Game) is trusted as far as it agrees with this, errors
//! included: the reference returns the engine's error types.

use std::sync::OnceLock;

use super::{Cell, MAX_SIDE, PlayError, Rect, SizeError, check_size};

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

/// [`brute_force_table`] up to [`SMALL`] or up to [`MAX_SIDE`] (as `max` needs), each computed
/// once: small grids do not wait for the full table.
fn table(max: u32) -> &'static [Vec<u16>] {
    static SMALL_TABLE: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    static TABLE: OnceLock<Vec<Vec<u16>>> = OnceLock::new();
    if max <= SMALL {
        SMALL_TABLE.get_or_init(|| brute_force_table(SMALL as usize))
    } else {
        TABLE.get_or_init(|| brute_force_table(MAX_SIDE as usize))
    }
}

/// The side up to which the small table goes.
const SMALL: u32 = 32;

/// The XOR of the values of `rects` (each at most [`MAX_SIDE`] on a side): the value of a
/// position whose permitted region they are, as [`Reference::rectangles`] finds them.
pub fn grundy_of(rects: &[Rect]) -> u16 {
    let g = table(rects.iter().map(|r| r.rows.max(r.cols)).max().unwrap_or(0));
    rects
        .iter()
        .fold(0, |v, r| v ^ g[r.rows as usize][r.cols as usize])
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
    rows: u32,
    cols: u32,
    /// `forbidden[(row - 1) * cols + (col - 1)]`.
    forbidden: Vec<bool>,
}

impl Reference {
    /// The empty `rows` × `cols` grid.
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`].
    pub fn new(rows: u32, cols: u32) -> Result<Reference, SizeError> {
        check_size(rows, cols)?;
        Ok(Reference {
            rows,
            cols,
            forbidden: vec![false; (rows * cols) as usize],
        })
    }

    /// The index of (`row`, `col`) in `forbidden`, if it is on the grid.
    fn index(&self, row: i64, col: i64) -> Option<usize> {
        let on =
            (1..=i64::from(self.rows)).contains(&row) && (1..=i64::from(self.cols)).contains(&col);
        on.then(|| ((row - 1) * i64::from(self.cols) + (col - 1)) as usize)
    }

    /// Is (`row`, `col`) on the grid and forbidden? Off-grid cells count as forbidden.
    pub fn is_forbidden(&self, row: u32, col: u32) -> bool {
        self.index(i64::from(row), i64::from(col))
            .is_none_or(|k| self.forbidden[k])
    }

    /// Forbids (`row`, `col`) and, in each of the four directions, the cells up to the first
    /// forbidden cell or the border.
    ///
    /// # Errors
    /// [`PlayError`] when the cell is off the grid or forbidden; the position is unchanged.
    pub fn play(&mut self, row: u32, col: u32) -> Result<(), PlayError> {
        let cell = Cell { row, col };
        let Some(k) = self.index(i64::from(row), i64::from(col)) else {
            return Err(PlayError::OffGrid {
                cell,
                rows: self.rows,
                cols: self.cols,
            });
        };
        if self.forbidden[k] {
            return Err(PlayError::Forbidden { cell });
        }
        self.forbidden[k] = true;
        for (dr, dc) in [(0, -1), (0, 1), (-1, 0), (1, 0)] {
            let (mut r, mut c) = (i64::from(row) + dr, i64::from(col) + dc);
            while let Some(k) = self.index(r, c).filter(|&k| !self.forbidden[k]) {
                self.forbidden[k] = true;
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
        // Forbidden, or in a part already found.
        let mut seen = self.forbidden.clone();
        let mut out = Vec::new();
        let mut stack = Vec::new();
        for row in 1..=i64::from(self.rows) {
            for col in 1..=i64::from(self.cols) {
                let Some(k) = self.index(row, col).filter(|&k| !seen[k]) else {
                    continue;
                };
                seen[k] = true;
                stack.push((row, col));
                let (mut top, mut left, mut bottom, mut right, mut size) = (row, col, row, col, 0);
                while let Some((r, c)) = stack.pop() {
                    size += 1;
                    top = top.min(r);
                    bottom = bottom.max(r);
                    left = left.min(c);
                    right = right.max(c);
                    for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] {
                        if let Some(k) = self.index(nr, nc).filter(|&k| !seen[k]) {
                            seen[k] = true;
                            stack.push((nr, nc));
                        }
                    }
                }
                let rect = Rect {
                    top: top as u32,
                    left: left as u32,
                    rows: (bottom - top + 1) as u32,
                    cols: (right - left + 1) as u32,
                };
                assert_eq!(size, rect.rows * rect.cols, "{rect:?} is not full");
                out.push(rect);
            }
        }
        out
    }

    /// The XOR of the rectangles' values.
    pub fn grundy(&self) -> u16 {
        grundy_of(&self.rectangles())
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
