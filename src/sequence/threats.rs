//! Threats and legal moves from the bitboards: the empty cells that would complete an
//! m-sequence for a colour, which of them can be played now (a ball falls to the lowest empty
//! cell of its peg), and the open pegs as a 64-bit mask.

use std::fmt;

use super::cube::{BOARDS, Cube, LINES, RUNS, SLOTS, STRIDES};
use super::{Color, Game, Peg};

/// A set of pegs: bit `(x - 1) | (y - 1) << 3` for peg `(x, y)`, as shakmaty's bitboards, with
/// iteration in bit order (x fastest).
///
/// ```
/// use bitgames::sequence::{Game, Peg, PegSet};
/// let game = Game::new(3, 3)?;
/// let open = game.legal_pegs();
/// assert_eq!(open.len(), 9);
/// assert!(open.contains(Peg::new(3, 3)));
/// assert_eq!(open.iter().next(), Some(Peg::new(1, 1)));
/// assert_eq!(PegSet::EMPTY.with(Peg::new(2, 1)).0, 0b10);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PegSet(pub u64);

impl PegSet {
    /// No peg.
    pub const EMPTY: PegSet = PegSet(0);

    /// The bit of peg `p` (coordinates 1..=8; others give no bit).
    #[inline]
    const fn bit(p: Peg) -> u64 {
        if p.x == 0 || p.y == 0 || p.x > 8 || p.y > 8 {
            0
        } else {
            1 << ((p.x - 1) | (p.y - 1) << 3)
        }
    }

    /// Is peg `p` in the set?
    #[inline]
    pub const fn contains(self, p: Peg) -> bool {
        self.0 & PegSet::bit(p) != 0
    }

    /// The set with peg `p` added.
    #[inline]
    #[must_use]
    pub const fn with(self, p: Peg) -> PegSet {
        PegSet(self.0 | PegSet::bit(p))
    }

    /// The number of pegs.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Is the set empty?
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest peg in bit order, if any.
    #[inline]
    pub const fn first(self) -> Option<Peg> {
        if self.0 == 0 {
            None
        } else {
            let b = self.0.trailing_zeros();
            Some(Peg::new((b & 7) + 1, (b >> 3) + 1))
        }
    }

    /// The pegs in bit order.
    pub fn iter(self) -> impl Iterator<Item = Peg> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            let p = PegSet(bits).first()?;
            bits &= bits - 1;
            Some(p)
        })
    }

    /// The pegs holding a cell of `cube` (its layers ORed together).
    #[inline]
    pub const fn of_cube(cube: Cube) -> PegSet {
        let mut bits = 0;
        let mut z = 0;
        while z < 8 {
            bits |= cube.0[z];
            z += 1;
        }
        PegSet(bits)
    }
}

impl fmt::Debug for PegSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl Game {
    /// The pegs that take a ball now: every peg with fewer than n balls, none once the game
    /// is decided.
    #[inline]
    pub fn legal_pegs(&self) -> PegSet {
        if self.outcome.is_some() {
            return PegSet::EMPTY;
        }
        PegSet::of_cube(self.playable())
    }

    /// The cells where the next ball of each open peg would land (whatever the outcome).
    #[inline]
    pub fn playable(&self) -> Cube {
        let occupied = self.cube(Color::Black).or(self.cube(Color::White));
        let board = BOARDS[usize::from(self.n) & 7];
        let floor = Cube([board.0[0], 0, 0, 0, 0, 0, 0, 0]);
        occupied.shl(64).or(floor).and(board).minus(occupied)
    }

    /// The empty cells that would complete an m-sequence of `color` through themselves if a
    /// ball of `color` were there (playable now or not). Computed from the bitboards: per
    /// direction, the cells with a runs of `a` balls on one side and `m - 1 - a` on the other.
    ///
    /// ```
    /// use bitgames::sequence::{Color, Game, Peg};
    /// let mut game = Game::new(4, 3)?;
    /// for (x, y) in [(1, 1), (1, 4), (2, 1), (2, 4)] {
    ///     game.play(x, y)?;
    /// }
    /// // Black has (1, 1, 1) and (2, 1, 1): (3, 1, 1) completes three in a row.
    /// let threats = game.threats(Color::Black);
    /// assert!(threats.contains(2, 0, 0));
    /// assert_eq!(game.winning_pegs(Color::Black).iter().collect::<Vec<_>>(), [Peg::new(3, 1)]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn threats(&self, color: Color) -> Cube {
        if self.threats_valid {
            return self.threats[color as usize];
        }
        self.compute_threats(color)
    }

    /// Computes both colours' threats now and keeps them up to date in [`Game::play`] (and
    /// the playouts) from then on, until [`Game::undo`] or [`Game::reset`]; [`Game::threats`]
    /// and [`Game::first_winning_peg`] then read them instead of computing them. A search
    /// calls this once on its root.
    pub fn cache_threats(&mut self) {
        if !self.threats_valid {
            self.threats = [
                self.compute_threats(Color::Black),
                self.compute_threats(Color::White),
            ];
            self.threats_valid = true;
        }
    }

    /// [`Game::threats`] from the bitboards alone.
    fn compute_threats(&self, color: Color) -> Cube {
        let own = self.cube(color);
        let occupied = own.or(self.cube(color.other()));
        let empty = BOARDS[usize::from(self.n) & 7].minus(occupied);
        let m = self.m() as usize;
        if m <= 1 {
            return empty;
        }
        // A threat needs m - 1 balls of `color` beside it: with fewer (an empty board, a
        // search's first moves) there is none, and the 13 directions' shifts are skipped.
        if (own.count() as usize) < m - 1 {
            return Cube::EMPTY;
        }
        let all = Cube([!0; 8]);
        let mut found = Cube::EMPTY;
        for &s in &STRIDES {
            // up[k]: cells with balls of `color` at +1..=+k steps; down[k] the same at -1..=-k.
            let mut up = [all; 8];
            let mut down = [all; 8];
            for k in 1..m {
                up[k] = up[k - 1].and(own.shr(k as u32 * s));
                down[k] = down[k - 1].and(own.shl(k as u32 * s));
            }
            for a in 0..m {
                found = found.or(down[a].and(up[m - 1 - a]));
            }
        }
        found.and(empty)
    }

    /// The cells of [`Game::threats`] that can be played now (each is the next cell of its
    /// peg).
    #[inline]
    pub fn playable_threats(&self, color: Color) -> Cube {
        self.threats(color).and(self.playable())
    }

    /// The pegs where a ball of `color` played now would win (empty once the game is
    /// decided). For the player to move these are the winning moves; for the other player,
    /// the pegs the player to move must block.
    #[inline]
    pub fn winning_pegs(&self, color: Color) -> PegSet {
        if self.outcome.is_some() {
            return PegSet::EMPTY;
        }
        PegSet::of_cube(self.playable_threats(color))
    }

    /// The first peg of [`Game::winning_pegs`] in bit order (x fastest), found from the line
    /// bytes of the open pegs' next cells, with no full threat computation.
    ///
    /// ```
    /// use bitgames::sequence::{Color, Game};
    /// let mut game = Game::new(3, 3)?;
    /// for (x, y) in [(1, 1), (3, 3), (2, 2)] {
    ///     game.play(x, y)?;
    /// }
    /// assert_eq!(game.winning_pegs(Color::Black).first(), game.first_winning_peg(Color::Black));
    /// assert!(game.first_winning_peg(Color::Black).is_none()); // (3, 3, 1) is White's
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn first_winning_peg(&self, color: Color) -> Option<Peg> {
        if self.outcome.is_some() {
            return None;
        }
        if self.threats_valid {
            return PegSet::of_cube(self.threats[color as usize].and(self.playable())).first();
        }
        let runs = &RUNS[usize::from(self.m)];
        let lines = &self.lines[color as usize];
        let n = usize::from(self.n);
        for y in 0..n {
            for x in 0..n {
                let peg = x | y << 3;
                let z = self.heights[peg];
                if z >= self.n {
                    continue;
                }
                let b = peg | usize::from(z) << 6;
                let (slots, bits) = (&LINES.slot[b], &LINES.bit[b]);
                let wins = (0..13).any(|d| {
                    runs[usize::from(lines[usize::from(slots[d]) & (SLOTS - 1)] | bits[d])] != 0
                });
                if wins {
                    return Some(Peg::new(x as u32 + 1, y as u32 + 1));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peg_sets_hold_pegs_of_coordinates_one_to_eight() {
        // Bit (x − 1) | (y − 1) << 3: (1, 1) is bit 0, (8, 1) bit 7, (1, 2) bit 8, (8, 8) bit 63.
        for (x, y, bit) in [(1, 1, 0), (8, 1, 7), (1, 2, 8), (3, 5, 34), (8, 8, 63)] {
            let set = PegSet::EMPTY.with(Peg::new(x, y));
            assert_eq!(set.0, 1 << bit, "({x}, {y})");
            assert!(set.contains(Peg::new(x, y)));
            assert_eq!(set.first(), Some(Peg::new(x, y)));
        }
        // Other coordinates give no bit: not added, never contained.
        let full = PegSet(u64::MAX);
        for (x, y) in [
            (0, 1),
            (1, 0),
            (9, 1),
            (1, 9),
            (9, 9),
            (16, 1),
            (u32::MAX, 2),
        ] {
            assert_eq!(
                PegSet::EMPTY.with(Peg::new(x, y)),
                PegSet::EMPTY,
                "({x}, {y})"
            );
            assert!(!full.contains(Peg::new(x, y)), "({x}, {y})");
        }
    }

    #[test]
    fn a_peg_set_counts_and_lists_its_pegs() {
        assert_eq!(PegSet::EMPTY.len(), 0);
        assert!(PegSet::EMPTY.is_empty());
        let pegs = [Peg::new(2, 1), Peg::new(8, 3), Peg::new(1, 7)];
        let set = pegs.iter().fold(PegSet::EMPTY, |s, &p| s.with(p));
        assert_eq!(set.len(), 3);
        assert!(!set.is_empty());
        // In bit order, x fastest: (2, 1) bit 1, (8, 3) bit 23, (1, 7) bit 48.
        assert_eq!(set.iter().collect::<Vec<_>>(), pegs);
        assert_eq!(set.with(Peg::new(8, 3)).len(), 3);
        assert_eq!(PegSet(u64::MAX).len(), 64);
    }
}
