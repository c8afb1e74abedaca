//! The solver's board layout and the tables of one (n, m): every m-window, the windows through
//! each cell, the line directions with their valid starts, the 8 symmetries of the square base
//! and the position-key deltas.
//!
//! Cells are numbered `z + n·(x + n·y)` (coordinates from 0): each peg's column is `n`
//! consecutive bits, so the lowest empty cell of every peg is one shift away from the occupied
//! cells, and a cell's neighbour below is the bit under it. There is no padding; a shift in a
//! line direction is masked by the cells it may start from.

use super::bits::Bits;
use crate::rng::Rng;

/// A symmetry of the square base: bit 0 swaps x and y, then bit 1 mirrors x, bit 2 mirrors y.
pub(crate) const SYMMETRIES: usize = 8;

/// The layout and tables of one board size and winning length.
pub(crate) struct Geometry<B> {
    /// The board side.
    pub(crate) n: u32,
    /// The winning length.
    pub(crate) m: u32,
    /// n³.
    pub(crate) cells: usize,
    /// n².
    pub(crate) pegs: usize,
    /// Every cell of the board.
    pub(crate) board: B,
    /// The cells of the bottom layer (z = 0).
    pub(crate) bottom: B,
    /// The cells on more windows than the average cell: tried first where moves are not
    /// scored.
    pub(crate) rich: B,
    /// The peg of each cell (a division the search would otherwise make per move).
    pegs_of: Vec<u8>,
    /// Every m-window (m cells in a row), as a cell set.
    windows: Vec<B>,
    /// The windows through cell `c`: `through[through_at[c]..through_at[c + 1]]`.
    through: Vec<B>,
    through_at: Vec<u32>,
    /// Each line direction that has an m-window: its cell stride and the cells an m-window in
    /// that direction may start from.
    lines: Vec<(u32, B)>,
    /// The peg each symmetry maps peg `p` to: `sym[s][p]`.
    pub(crate) sym: [[u8; 64]; SYMMETRIES],
    /// The symmetry undoing symmetry `s`.
    pub(crate) inverse: [u8; SYMMETRIES],
    /// What a ball adds to the position key under each symmetry: `deltas[2c + colour][s]`
    /// (colour 0 Black, 1 White).
    deltas: Vec<[u128; SYMMETRIES]>,
    /// The number of significant bits of a position key: n³ + n² when that is at most 128 (the
    /// key is then the exact compact key), else 128 (a hash).
    pub(crate) key_bits: u32,
}

/// The 13 directions `(dx, dy, dz)`.
const DIRECTIONS: [(i32, i32, i32); 13] = [
    (1, 0, 0),
    (0, 1, 0),
    (0, 0, 1),
    (1, 1, 0),
    (1, -1, 0),
    (1, 0, 1),
    (1, 0, -1),
    (0, 1, 1),
    (0, 1, -1),
    (1, 1, 1),
    (1, 1, -1),
    (1, -1, 1),
    (1, -1, -1),
];

impl<B: Bits> Geometry<B> {
    /// The tables of an n×n×n board where m in a row wins (`1 ≤ m ≤ n`, n³ cells fit in `B`).
    pub(crate) fn new(n: u32, m: u32) -> Geometry<B> {
        assert!(1 <= m && m <= n && (n as usize).pow(3) <= B::CAPACITY);
        let side = n as i32;
        let cells = (n as usize).pow(3);
        let pegs = (n as usize).pow(2);
        let cell = |x: i32, y: i32, z: i32| (z + side * (x + side * y)) as usize;
        let inside = |x: i32, y: i32, z: i32| {
            (0..side).contains(&x) && (0..side).contains(&y) && (0..side).contains(&z)
        };
        let mut board = B::ZERO;
        let mut bottom = B::ZERO;
        for c in 0..cells {
            board |= B::bit(c);
            if c % n as usize == 0 {
                bottom |= B::bit(c);
            }
        }

        // Every window, direction by direction. With m = 1 every direction gives the same
        // one-cell windows: one direction is enough.
        let directions = if m == 1 {
            &DIRECTIONS[..1]
        } else {
            &DIRECTIONS[..]
        };
        let mut windows = Vec::new();
        let mut lines = Vec::new();
        for &(dx, dy, dz) in directions {
            // Orient the direction so that its stride is positive.
            let (dx, dy, dz) = if dz + side * (dx + side * dy) < 0 {
                (-dx, -dy, -dz)
            } else {
                (dx, dy, dz)
            };
            let stride = (dz + side * (dx + side * dy)) as u32;
            let reach = m as i32 - 1;
            let mut starts = B::ZERO;
            for y in 0..side {
                for x in 0..side {
                    for z in 0..side {
                        if !inside(x + reach * dx, y + reach * dy, z + reach * dz) {
                            continue;
                        }
                        starts |= B::bit(cell(x, y, z));
                        let window = (0..=reach).fold(B::ZERO, |w, j| {
                            w | B::bit(cell(x + j * dx, y + j * dy, z + j * dz))
                        });
                        windows.push(window);
                    }
                }
            }
            if !starts.is_zero() {
                lines.push((stride, starts));
            }
        }
        let mut per_cell = vec![Vec::new(); cells];
        for &w in &windows {
            for c in w.cells() {
                per_cell[c].push(w);
            }
        }
        let mut rich = B::ZERO;
        for (c, list) in per_cell.iter().enumerate() {
            if list.len() * cells > windows.len() * m as usize {
                rich |= B::bit(c);
            }
        }
        let mut through_at = vec![0];
        let mut through = Vec::new();
        for list in per_cell {
            through.extend(list);
            through_at.push(through.len() as u32);
        }

        // The symmetries, as peg permutations.
        let mut sym = [[0u8; 64]; SYMMETRIES];
        for (s, map) in sym.iter_mut().enumerate() {
            for y in 0..side {
                for x in 0..side {
                    let (mut a, mut b) = if s & 1 != 0 { (y, x) } else { (x, y) };
                    if s & 2 != 0 {
                        a = side - 1 - a;
                    }
                    if s & 4 != 0 {
                        b = side - 1 - b;
                    }
                    map[(x + side * y) as usize] = (a + side * b) as u8;
                }
            }
        }
        let inverse = std::array::from_fn(|s| {
            (0..SYMMETRIES)
                .find(|&t| (0..pegs).all(|p| usize::from(sym[t][usize::from(sym[s][p])]) == p))
                .expect("the symmetries of the square form a group") as u8
        });

        // Key deltas. The compact key gives each peg n + 1 bits: the balls of Black below a
        // marker bit at the peg's height. A ball at height z moves the marker from z to z + 1
        // (+2^z) and, when Black's, sets bit z (+2^z more). Summed from the empty board (whose
        // markers, the same for every position, are left out), that is exact and order-free.
        let compact = cells + pegs;
        let key_bits = if compact <= 128 { compact as u32 } else { 128 };
        let mut random = Rng::new(0x5eed_5015_e7e5);
        let hashes: Vec<[u128; 2]> = (0..cells)
            .map(|_| {
                let mut h = || u128::from(random.next_u64()) << 64 | u128::from(random.next_u64());
                [h(), h()]
            })
            .collect();
        let delta = |colour: usize, peg: usize, z: usize| -> u128 {
            if compact <= 128 {
                let at = peg * (n as usize + 1) + z;
                if colour == 0 { 2 << at } else { 1 << at }
            } else {
                hashes[z + n as usize * peg][colour]
            }
        };
        let mut deltas = Vec::with_capacity(2 * cells);
        for c in 0..cells {
            let (z, peg) = (c % n as usize, c / n as usize);
            for colour in 0..2 {
                deltas.push(std::array::from_fn(|s| {
                    delta(colour, usize::from(sym[s][peg]), z)
                }));
            }
        }

        Geometry {
            n,
            m,
            cells,
            pegs,
            board,
            bottom,
            rich,
            pegs_of: (0..cells).map(|c| (c / n as usize) as u8).collect(),
            windows,
            through,
            through_at,
            lines,
            sym,
            inverse,
            deltas,
            key_bits,
        }
    }

    /// The cell of peg `peg` (from 0) at height `z` (from 0).
    #[inline]
    pub(crate) fn cell(&self, peg: usize, z: u32) -> usize {
        z as usize + self.n as usize * peg
    }

    /// The peg (from 0) of cell `c`.
    #[inline]
    pub(crate) fn peg_of(&self, c: usize) -> usize {
        usize::from(self.pegs_of[c])
    }

    /// The lowest empty cell of every peg that is not full, given the occupied cells.
    #[inline(always)]
    pub(crate) fn playable(&self, occupied: B) -> B {
        ((occupied << 1) | self.bottom) & !occupied & self.board
    }

    /// The cells directly below the cells of `cells` (none below the bottom layer).
    #[inline(always)]
    pub(crate) fn below(&self, cells: B) -> B {
        (cells & !self.bottom) >> 1
    }

    /// The windows through cell `c`.
    #[inline(always)]
    pub(crate) fn through(&self, c: usize) -> &[B] {
        let (from, to) = (self.through_at[c] as usize, self.through_at[c + 1] as usize);
        debug_assert!(to <= self.through.len());
        &self.through[from..to]
    }

    /// Every window.
    #[cfg(test)]
    pub(crate) fn windows(&self) -> &[B] {
        &self.windows
    }

    /// The cells that complete a window for the owner of `own`: every cell `e` of a window
    /// whose other m − 1 cells are in `own`, and `e` not in `blocked`. Computed from scratch.
    pub(crate) fn threats(&self, own: B, blocked: B) -> B {
        self.windows.iter().fold(B::ZERO, |t, &w| {
            let rest = w & !own;
            if rest.is_single() && (rest & blocked).is_zero() {
                t | rest
            } else {
                t
            }
        })
    }

    /// The threats a ball of `own`'s owner at cell `c` adds (`own` already holds `c`): the
    /// missing cell of every window through `c` that now lacks one, when `blocked` does not
    /// hold it.
    #[inline(always)]
    pub(crate) fn new_threats(&self, c: usize, own: B, blocked: B) -> B {
        let mut t = B::ZERO;
        for &w in self.through(c) {
            let rest = w & !own;
            // At most one cell missing (none adds nothing).
            if rest.without_lowest().is_zero() {
                t |= rest;
            }
        }
        t & !blocked
    }

    /// Can a player whose opponent holds `opponent` still complete a window: is there a
    /// window with no opponent ball?
    #[inline]
    pub(crate) fn open_window(&self, opponent: B) -> bool {
        let free = self.board & !opponent;
        for &(stride, starts) in &self.lines {
            let mut run = free & starts;
            let mut j = 1;
            while j < self.m && !run.is_zero() {
                run &= free >> (j * stride);
                j += 1;
            }
            if !run.is_zero() {
                return true;
            }
        }
        false
    }

    /// The cells of `cells` moved by symmetry `s`.
    pub(crate) fn image(&self, s: usize, cells: B) -> B {
        cells.cells().fold(B::ZERO, |image, c| {
            let (z, peg) = (c % self.n as usize, self.peg_of(c));
            image | B::bit(self.cell(usize::from(self.sym[s][peg]), z as u32))
        })
    }

    /// Can a search from the position where the two players hold `a` and `b` meet a position
    /// and its image under a symmetry other than the identity? Only if the position agrees
    /// with its own image on every cell both hold a ball on: a position P beyond it holds its
    /// balls, and if the image s(P) does too, s(P) holds the position's image as well.
    /// When this is `false` the identity key alone is as good a table key as the least of the
    /// eight, and cheaper.
    pub(crate) fn images_can_meet(&self, a: B, b: B) -> bool {
        (1..SYMMETRIES)
            .any(|s| (self.image(s, a) & b).is_zero() && (self.image(s, b) & a).is_zero())
    }

    /// What a ball of `colour` (0 Black, 1 White) at cell `c` adds to the key under each
    /// symmetry.
    #[inline(always)]
    pub(crate) fn delta(&self, c: usize, colour: usize) -> &[u128; SYMMETRIES] {
        &self.deltas[2 * c + colour]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The number of m-windows of an n-cube, counted per direction from the extents.
    fn window_count(n: u32, m: u32) -> usize {
        if m == 1 {
            return (n as usize).pow(3);
        }
        let span = (n + 1 - m) as usize;
        let n = n as usize;
        // 3 axes, 6 planar diagonals, 4 space diagonals.
        3 * span * n * n + 6 * span * span * n + 4 * span * span * span
    }

    #[test]
    fn windows_are_counted_and_lie_on_the_board() {
        for n in 1..=7 {
            for m in 1..=n {
                let g = Geometry::<crate::sequence::solver::bits::Wide<6>>::new(n, m);
                assert_eq!(g.windows().len(), window_count(n, m), "n={n} m={m}");
                for &w in g.windows() {
                    assert_eq!(w.count(), m);
                    assert_eq!(w & !g.board, Bits::ZERO);
                }
                let through: usize = (0..g.cells).map(|c| g.through(c).len()).sum();
                assert_eq!(through, window_count(n, m) * m as usize);
            }
        }
        // Score Four's 76 lines.
        assert_eq!(Geometry::<u64>::new(4, 4).windows().len(), 76);
    }

    #[test]
    fn symmetries_are_the_square_group() {
        let g = Geometry::<u64>::new(4, 4);
        for s in 0..SYMMETRIES {
            let inv = usize::from(g.inverse[s]);
            for p in 0..16 {
                assert_eq!(usize::from(g.sym[inv][usize::from(g.sym[s][p])]), p);
            }
        }
        // All 8 permutations are distinct.
        for s in 0..SYMMETRIES {
            for t in 0..s {
                assert_ne!(g.sym[s][..16], g.sym[t][..16]);
            }
        }
    }

    #[test]
    fn playable_below_and_threats() {
        let g = Geometry::<u64>::new(4, 4);
        // Peg 0 full, peg 1 one ball.
        let occupied = 0b1111 | 1 << 4;
        let p = g.playable(occupied);
        assert!(!p.has(0) && !p.has(4) && p.has(5) && p.has(8));
        assert_eq!(p.count(), 15);
        assert_eq!(g.below(1 << 5 | 1 << 4), 1 << 4);
        // Three in a row along x at z = 0: pegs 0, 1, 2 of row y = 0; the threat is peg 3.
        let own = 1 | 1 << 4 | 1 << 8;
        assert_eq!(g.threats(own, 0), 1 << 12);
        assert_eq!(g.threats(own, 1 << 12), 0);
        assert_eq!(g.new_threats(8, own, 0), 1 << 12);
        assert!(g.open_window(0));
    }

    /// [`Geometry::open_window`] against the plain definition, a window without an opponent
    /// ball, on random opponent sets of every density.
    fn check_open_window<B: Bits>(n: u32, m: u32, rng: &mut crate::rng::Rng) {
        let g = Geometry::<B>::new(n, m);
        let mut seen = [false; 2];
        for round in 0..300 {
            // From a few balls to nearly every cell.
            let share = 1 + round % 16;
            let opponent = (0..g.cells)
                .filter(|_| rng.below(16) < share)
                .fold(B::ZERO, |b, c| b | B::bit(c));
            let open = g.windows().iter().any(|&w| (w & opponent).is_zero());
            assert_eq!(g.open_window(opponent), open, "n={n} m={m} {opponent:?}");
            seen[usize::from(open)] = true;
        }
        assert_eq!(seen, [true, true], "n={n} m={m}");
    }

    #[test]
    fn open_window_is_a_window_without_an_opponent_ball() {
        let mut rng = crate::rng::Rng::new(6);
        for (n, m) in [(2, 2), (3, 2), (3, 3), (4, 2), (4, 3), (4, 4)] {
            check_open_window::<u64>(n, m, &mut rng);
        }
        check_open_window::<u128>(5, 4, &mut rng);
        check_open_window::<crate::sequence::solver::bits::Wide<4>>(6, 5, &mut rng);
        check_open_window::<crate::sequence::solver::bits::Wide<6>>(7, 6, &mut rng);
    }

    #[test]
    fn no_open_window_when_every_line_is_blocked() {
        // m = n = 2: every pair of cells is a window but... a 2-cube with one opponent ball
        // still has open windows; blocking all cells but one leaves none.
        let g = Geometry::<u64>::new(2, 2);
        assert!(g.open_window(1));
        assert!(!g.open_window(g.board & !1));
    }
}
