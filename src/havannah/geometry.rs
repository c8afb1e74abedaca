//! Board geometry: cells, the on-board test, neighbours and the corner/edge a border cell is on.
//!
//! A board with `S` cells per side holds every cell (x, y) with `1 ≤ x, y ≤ n = 2S − 1` and
//! `|x − y| ≤ S − 1`. The six neighbours of (x, y), clockwise from 12 o'clock, are
//! (x+1, y+1), (x, y+1), (x−1, y), (x−1, y−1), (x, y−1) and (x+1, y) ([`NEIGHBOURS`]).

use std::fmt;

/// The smallest board side.
pub const MIN_SIDE: u32 = 2;

/// The largest board side: `2S − 1` and its neighbours stay far inside `u32`, and a packed cell
/// key fits 64 bits.
pub const MAX_SIDE: u32 = 1 << 30;

/// The six neighbour offsets `(dx, dy)` in clockwise order from 12 o'clock.
pub const NEIGHBOURS: [(i32, i32); 6] = [(1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)];

/// A cell (x, y) of the board, both coordinates counting from 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// The x coordinate (towards 10 o'clock).
    pub x: u32,
    /// The y coordinate (towards 2 o'clock).
    pub y: u32,
}

impl Cell {
    /// The cell (x, y).
    pub const fn new(x: u32, y: u32) -> Cell {
        Cell { x, y }
    }

    /// The neighbour in direction `d` (an index into [`NEIGHBOURS`]), or `None` if a
    /// coordinate would leave `u32`. The neighbour may still be off the board.
    ///
    /// ```
    /// use bitgames::havannah::geometry::Cell;
    /// assert_eq!(Cell::new(2, 3).neighbour(0), Some(Cell::new(3, 4)));
    /// assert_eq!(Cell::new(1, 1).neighbour(3), Some(Cell::new(0, 0)));
    /// assert_eq!(Cell::new(0, 0).neighbour(3), None);
    /// ```
    pub fn neighbour(self, d: usize) -> Option<Cell> {
        let (dx, dy) = NEIGHBOURS[d % 6];
        Some(Cell {
            x: self.x.checked_add_signed(dx)?,
            y: self.y.checked_add_signed(dy)?,
        })
    }

    /// The cell packed into one 64-bit key, `x` in the high half: never 0 for a board cell.
    #[inline(always)]
    pub(crate) const fn key(self) -> u64 {
        ((self.x as u64) << 32) | self.y as u64
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// A set of corners and edges, one bit each: bits 0–5 are the corners (1,1), (1,S), (S,1),
/// (S,n), (n,S), (n,n); bits 6–11 the edges x = 1, y = 1, x = n, y = n, x − y = S − 1 and
/// y − x = S − 1.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Border(u16);

impl Border {
    /// No corner and no edge.
    pub const NONE: Border = Border(0);
    /// The six corners.
    pub const CORNERS: Border = Border(0x3f);
    /// The six edges.
    pub const EDGES: Border = Border(0xfc0);

    /// The set of the 12 low bits of `bits` (corners 0–5, edges 6–11; higher bits ignored).
    ///
    /// ```
    /// use bitgames::havannah::geometry::Border;
    /// assert_eq!(Border::from_bits(0xffff), Border::CORNERS.with(Border::EDGES));
    /// assert_eq!(Border::from_bits(3).corners(), 2);
    /// ```
    #[inline(always)]
    pub const fn from_bits(bits: u16) -> Border {
        Border(bits & 0xfff)
    }

    /// Any 16 bits, for markers kept beside real sets (such as an off-board cell's).
    #[inline(always)]
    pub(crate) const fn from_raw(bits: u16) -> Border {
        Border(bits)
    }

    /// The set as bits: corners 0–5, edges 6–11.
    #[inline(always)]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The union of two sets.
    #[inline(always)]
    #[must_use]
    pub const fn with(self, other: Border) -> Border {
        Border(self.0 | other.0)
    }

    /// How many corners the set holds.
    #[inline(always)]
    pub const fn corners(self) -> u32 {
        (self.0 & Self::CORNERS.0).count_ones()
    }

    /// How many edges the set holds.
    #[inline(always)]
    pub const fn edges(self) -> u32 {
        (self.0 & Self::EDGES.0).count_ones()
    }

    /// Does the set hold at least two corners (a bridge)? Cheaper than [`Border::corners`]
    /// on CPUs without a population count instruction.
    #[inline(always)]
    pub const fn is_bridge(self) -> bool {
        let c = self.0 & Self::CORNERS.0;
        c & c.wrapping_sub(1) != 0
    }

    /// Does the set hold at least three edges (a fork)?
    #[inline(always)]
    pub const fn is_fork(self) -> bool {
        let e = self.0 & Self::EDGES.0;
        let e = e & e.wrapping_sub(1);
        e & e.wrapping_sub(1) != 0
    }
}

impl fmt::Debug for Border {
    /// Lists the members, such as `Border{corner (1,1), edge y=n}`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        const NAMES: [&str; 12] = [
            "corner (1,1)",
            "corner (1,S)",
            "corner (S,1)",
            "corner (S,n)",
            "corner (n,S)",
            "corner (n,n)",
            "edge x=1",
            "edge y=1",
            "edge x=n",
            "edge y=n",
            "edge x-y=S-1",
            "edge y-x=S-1",
        ];
        let names = (0..12).filter(|&b| self.0 >> b & 1 == 1).map(|b| NAMES[b]);
        f.write_str("Border{")?;
        for (i, name) in names.enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        f.write_str("}")
    }
}

/// The shape of a board with `S` cells per side.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Board {
    side: u32,
}

impl Board {
    /// The board with `side` cells per side, if `MIN_SIDE ≤ side ≤ MAX_SIDE`.
    ///
    /// ```
    /// use bitgames::havannah::geometry::Board;
    /// assert_eq!(Board::new(3).map(|b| b.cells()), Some(19));
    /// assert!(Board::new(1).is_none());
    /// ```
    pub const fn new(side: u32) -> Option<Board> {
        if side >= MIN_SIDE && side <= MAX_SIDE {
            Some(Board { side })
        } else {
            None
        }
    }

    /// Cells per side, `S`.
    #[inline(always)]
    pub const fn side(self) -> u32 {
        self.side
    }

    /// The largest coordinate, `n = 2S − 1`.
    #[inline(always)]
    pub const fn n(self) -> u32 {
        2 * self.side - 1
    }

    /// The number of cells, `3S² − 3S + 1`.
    pub const fn cells(self) -> u64 {
        let s = self.side as u64;
        3 * s * s - 3 * s + 1
    }

    /// Is `cell` on the board?
    #[inline(always)]
    pub const fn contains(self, cell: Cell) -> bool {
        let n = self.n();
        cell.x >= 1
            && cell.y >= 1
            && cell.x <= n
            && cell.y <= n
            && cell.x.abs_diff(cell.y) < self.side
    }

    /// Is `cell` on the outermost ring of the board? (Meaningful for cells on the board.)
    #[inline]
    pub const fn is_border(self, cell: Cell) -> bool {
        let n = self.n();
        cell.x == 1
            || cell.y == 1
            || cell.x == n
            || cell.y == n
            || cell.x.abs_diff(cell.y) == self.side - 1
    }

    /// The corner or the edges `cell` belongs to (empty inside the board).
    ///
    /// ```
    /// use bitgames::havannah::geometry::{Board, Border, Cell};
    /// let b = Board::new(3).unwrap();
    /// assert_eq!(b.border(Cell::new(1, 1)), Border::from_bits(1));
    /// assert_eq!(b.border(Cell::new(1, 2)).edges(), 1);
    /// assert_eq!(b.border(Cell::new(3, 3)), Border::NONE);
    /// ```
    #[inline(always)]
    pub const fn border(self, cell: Cell) -> Border {
        let (x, y, s, n) = (cell.x, cell.y, self.side, self.n());
        // Inside: 2 ≤ x, y ≤ n − 1 and |x − y| < S − 1, tested without short circuits (one
        // branch; most cells are inside).
        if (x.wrapping_sub(2) < n - 2) & (y.wrapping_sub(2) < n - 2) & (x.abs_diff(y) < s - 1) {
            return Border::NONE;
        }
        let corner = if x == 1 && y == 1 {
            1
        } else if x == 1 && y == s {
            2
        } else if x == s && y == 1 {
            4
        } else if x == s && y == n {
            8
        } else if x == n && y == s {
            16
        } else if x == n && y == n {
            32
        } else {
            0
        };
        if corner != 0 {
            return Border(corner);
        }
        Border(
            ((x == 1) as u16 * 64)
                | ((y == 1) as u16 * 128)
                | ((x == n) as u16 * 256)
                | ((y == n) as u16 * 512)
                | ((x >= y && x - y == s - 1) as u16 * 1024)
                | ((y >= x && y - x == s - 1) as u16 * 2048),
        )
    }

    /// Every cell of the board, by x then y.
    pub fn iter(self) -> impl Iterator<Item = Cell> {
        let (n, s) = (self.n(), self.side);
        (1..=n).flat_map(move |x| {
            let lo = x.saturating_sub(s - 1).max(1);
            let hi = (x + s - 1).min(n);
            (lo..=hi).map(move |y| Cell::new(x, y))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iter_lists_exactly_the_board() {
        for s in 2..=9 {
            let b = Board::new(s).unwrap();
            let cells: Vec<Cell> = b.iter().collect();
            assert_eq!(cells.len() as u64, b.cells());
            let n = b.n();
            let mut count = 0;
            for x in 0..=n + 1 {
                for y in 0..=n + 1 {
                    let c = Cell::new(x, y);
                    assert_eq!(b.contains(c), cells.contains(&c), "{c}");
                    count += u64::from(b.contains(c));
                }
            }
            assert_eq!(count, b.cells());
        }
    }

    #[test]
    fn corners_and_edges_match_the_spec() {
        for s in 2..=9 {
            let b = Board::new(s).unwrap();
            let mut per_bit = [0u32; 12];
            for c in b.iter() {
                let m = b.border(c);
                assert!(m.corners() <= 1);
                assert!(m.corners() == 0 || m.edges() == 0, "{c}: {m:?}");
                assert!(m.edges() <= 1, "{c}: {m:?}");
                assert!(!m.is_bridge() && !m.is_fork());
                assert_eq!(m != Border::NONE, b.is_border(c), "{c}");
                let on_board = (0..6).filter(|&d| c.neighbour(d).is_some_and(|c| b.contains(c)));
                assert_eq!(on_board.count() < 6, b.is_border(c), "{c}");
                for (bit, count) in per_bit.iter_mut().enumerate() {
                    *count += u32::from(m.0 >> bit & 1);
                }
            }
            assert_eq!(per_bit[..6], [1; 6]);
            assert_eq!(per_bit[6..], [s - 2; 6]);
        }
    }

    #[test]
    fn consecutive_neighbours_touch() {
        let c = Cell::new(5, 7);
        // Consecutive neighbours are neighbours of each other: arcs are connected.
        for d in 0..6 {
            let a = c.neighbour(d).unwrap();
            let b = c.neighbour((d + 1) % 6).unwrap();
            assert!((0..6).any(|e| a.neighbour(e) == Some(b)));
        }
    }

    #[test]
    fn bridge_and_fork_tests_count_bits() {
        for bits in 0..1u16 << 12 {
            let b = Border(bits);
            assert_eq!(b.is_bridge(), b.corners() >= 2, "{b:?}");
            assert_eq!(b.is_fork(), b.edges() >= 3, "{b:?}");
        }
    }

    #[test]
    fn border_debug_names_members() {
        assert_eq!(
            format!("{:?}", Border(1 | 512)),
            "Border{corner (1,1), edge y=n}"
        );
    }
}
