//! The 8 symmetries of the square base (the dihedral group D4): rotations and reflections of
//! the pegs `(x, y)`, heights unchanged. Gravity acts along z, so each of them maps a game to
//! an equally good game, for every n and m; [`Game::canonical_hash`] is the same for all 8
//! images of a position.

use super::cube::bit;
use super::{Game, Peg, zobrist};

/// One of the 8 symmetries of the n×n base, acting on pegs counted from 1.
///
/// ```
/// use bitgames::sequence::{Peg, Symmetry};
/// // On a 4×4 board a quarter turn takes the corner (1, 1) to (4, 1).
/// assert_eq!(Symmetry::Rotate90.apply(4, Peg::new(1, 1)), Peg::new(4, 1));
/// for s in Symmetry::ALL {
///     assert_eq!(s.inverse().apply(4, s.apply(4, Peg::new(2, 3))), Peg::new(2, 3));
/// }
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// `(x, y)`.
    Identity,
    /// A quarter turn: `(n + 1 - y, x)`.
    Rotate90,
    /// A half turn: `(n + 1 - x, n + 1 - y)`.
    Rotate180,
    /// Three quarter turns: `(y, n + 1 - x)`.
    Rotate270,
    /// The mirror in x: `(n + 1 - x, y)`.
    FlipX,
    /// The mirror in y: `(x, n + 1 - y)`.
    FlipY,
    /// The mirror in the main diagonal: `(y, x)`.
    Transpose,
    /// The mirror in the other diagonal: `(n + 1 - y, n + 1 - x)`.
    AntiTranspose,
}

impl Symmetry {
    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Rotate90,
        Symmetry::Rotate180,
        Symmetry::Rotate270,
        Symmetry::FlipX,
        Symmetry::FlipY,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// The image of peg `p` of an n×n board (coordinates from 1; a peg off the board is
    /// mapped by the same formula).
    #[inline]
    pub const fn apply(self, n: u32, p: Peg) -> Peg {
        let (x, y) = (p.x, p.y);
        let (rx, ry) = ((n + 1).wrapping_sub(x), (n + 1).wrapping_sub(y));
        let (x, y) = match self {
            Symmetry::Identity => (x, y),
            Symmetry::Rotate90 => (ry, x),
            Symmetry::Rotate180 => (rx, ry),
            Symmetry::Rotate270 => (y, rx),
            Symmetry::FlipX => (rx, y),
            Symmetry::FlipY => (x, ry),
            Symmetry::Transpose => (y, x),
            Symmetry::AntiTranspose => (ry, rx),
        };
        Peg::new(x, y)
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }
}

impl Game {
    /// The Zobrist keys ([`Game::hash`]) of the 8 images of this position, in the order of
    /// [`Symmetry::ALL`] (the first is `self.hash()`). Computed from the balls: O(8 per ball).
    pub fn symmetric_hashes(&self) -> [u64; 8] {
        let mut keys = [0u64; 8];
        let n = self.n();
        let mut heights = [0u32; 64];
        for (k, peg) in self.history().enumerate() {
            let h = &mut heights[((peg.x - 1) | (peg.y - 1) << 3) as usize & 63];
            let z = *h;
            *h += 1;
            for (key, s) in keys.iter_mut().zip(Symmetry::ALL) {
                let q = s.apply(n, peg);
                *key ^= zobrist::key(k & 1, usize::from(bit(q.x - 1, q.y - 1, z)));
            }
        }
        keys
    }

    /// A key shared by the 8 symmetric images of the position: the least of
    /// [`Game::symmetric_hashes`].
    ///
    /// ```
    /// use bitgames::sequence::{Game, Peg, Symmetry};
    /// let mut game = Game::new(5, 4)?;
    /// let mut mirror = Game::new(5, 4)?;
    /// for (x, y) in [(1, 2), (3, 3), (5, 4)] {
    ///     game.play(x, y)?;
    ///     let p = Symmetry::Transpose.apply(5, Peg::new(x, y));
    ///     mirror.play(p.x, p.y)?;
    /// }
    /// assert_ne!(game.hash(), mirror.hash());
    /// assert_eq!(game.canonical_hash(), mirror.canonical_hash());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn canonical_hash(&self) -> u64 {
        self.symmetric_hashes().into_iter().min().unwrap_or(0)
    }
}
