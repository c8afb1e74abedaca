//! Havannah, Christian Freeling's connection game on a hexagonal board of S cells a side
//! ([rules](https://www.mindsports.nl/index.php/arena/havannah/)), and the structure finder of
//! the Google Code Jam 2012 Round 3 problem
//! ["Havannah"](https://code.google.com/codejam/contest/1835486/dashboard#s=p1) (also on
//! [QOJ](https://qoj.ac/contest/1177/problem/5898)).
//!
//! - [`Game`]: the two-player game. White moves first (the convention of the Havannah programs
//!   and their GTP controllers); a player wins with a **bridge** (a group holding two corners),
//!   a **fork** (a group touching three edges; corners belong to no edge) or a **ring** (a
//!   closed chain around at least one cell, under the [`RingRule`] chosen); a full board
//!   without one is a draw. Play and undo are incremental and allocation-free after warm-up,
//!   with a Zobrist [`Game::hash`], the swap (pie) rule as an option, and memory that follows
//!   the stones, not the board area.
//! - [`Stones`]: the Code Jam task's engine: one player's stones and the first move that
//!   completes a structure, on boards up to S = 2³⁰, as the [`judge`] needs it.
//! - [`reference`](mod@reference): the plain flood-fill definitions both are tested against.
//! - [`gtp`]: a GTP engine for Havannah controllers, with [`agent`]s to play.
//!
//! Cells are (x, y), counted from 1 as in the Code Jam statement ([`geometry`]): the bottom
//! corner is (1, 1), (x, y + 1) lies towards 2 o'clock and (x + 1, y) towards 10 o'clock, and
//! the board holds every cell with `1 ≤ x, y ≤ 2S − 1` and `|x − y| ≤ S − 1`.
//!
//! ```
//! use bitgames::havannah::{Color, Game, Outcome, Wins};
//!
//! let mut game = Game::new(2)?;
//! game.play(1, 1)?; // White takes a corner...
//! game.play(2, 2)?; // ...Black the centre...
//! assert_eq!(game.play(1, 2)?, Some(Outcome::Win {
//!     color: Color::White,
//!     wins: Wins::BRIDGE,
//!     at: 3,
//! })); // ...and White joins two corners.
//! assert_eq!(game.winner(), Some(Color::White));
//! game.undo();
//! assert_eq!(game.outcome(), None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod agent;
mod game;
pub mod geometry;
mod groups;
pub mod gtp;
pub mod judge;
mod position;
pub mod reference;
mod stones;

use std::fmt;

pub use game::{DENSE_MAX_SIDE, Game, Playouts};
pub use geometry::{Board, Cell};
use geometry::{MAX_SIDE, MIN_SIDE};
pub use stones::Stones;

/// A set of winning structures: bridge, fork and ring.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Wins(u8);

impl Wins {
    /// No structure.
    pub const NONE: Wins = Wins(0);
    /// A group holding at least two corners.
    pub const BRIDGE: Wins = Wins(1);
    /// A group touching at least three edges.
    pub const FORK: Wins = Wins(2);
    /// A closed chain around at least one cell (see [`RingRule`] for which cells count).
    pub const RING: Wins = Wins(4);

    /// The union of two sets.
    #[inline(always)]
    #[must_use]
    pub const fn with(self, other: Wins) -> Wins {
        Wins(self.0 | other.0)
    }

    /// Does this set hold every structure of `other`?
    #[inline(always)]
    pub const fn contains(self, other: Wins) -> bool {
        self.0 & other.0 == other.0
    }

    /// Is the set empty?
    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set as three bits: bridge 1, fork 2, ring 4.
    #[inline(always)]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set from [`Wins::bits`] (higher bits ignored).
    #[inline(always)]
    pub const fn from_bits(bits: u8) -> Wins {
        Wins(bits & 7)
    }

    /// The judge's name: `bridge`, `fork-ring`, ... (`none` for the empty set).
    ///
    /// ```
    /// use bitgames::havannah::Wins;
    /// assert_eq!(Wins::BRIDGE.with(Wins::RING).name(), "bridge-ring");
    /// assert_eq!(Wins::NONE.name(), "none");
    /// ```
    pub const fn name(self) -> &'static str {
        const NAMES: [&str; 8] = [
            "none",
            "bridge",
            "fork",
            "bridge-fork",
            "ring",
            "bridge-ring",
            "fork-ring",
            "bridge-fork-ring",
        ];
        NAMES[(self.0 & 7) as usize]
    }
}

impl fmt::Display for Wins {
    /// As [`Wins::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Wins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Wins({})", self.name())
    }
}

/// A board side outside `2..=MAX_SIDE` (or, for [`reference`](mod@reference), too large to
/// draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SizeError {
    /// The side asked for.
    pub side: u32,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board side {} is outside {MIN_SIDE}..={MAX_SIDE}",
            self.side
        )
    }
}

impl std::error::Error for SizeError {}

/// Why a move was refused (the game is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The cell is not on the board.
    OffBoard {
        /// The cell played.
        cell: Cell,
        /// The board's side.
        side: u32,
    },
    /// The cell already holds a stone.
    Occupied {
        /// The cell played.
        cell: Cell,
    },
    /// The game is over: no move is legal.
    GameOver,
    /// A swap now: the rules have no swap, or this is not the second move.
    NoSwap,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard { cell, side } => {
                write!(f, "cell {cell} is off the board of side {side}")
            }
            PlayError::Occupied { cell } => write!(f, "cell {cell} is already occupied"),
            PlayError::GameOver => f.write_str("the game is over"),
            PlayError::NoSwap => f.write_str(
                "swap is allowed only as the second move, and only when the rules allow it",
            ),
        }
    }
}

impl std::error::Error for PlayError {}

/// A player. White moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Color {
    /// `white` or `black`, as the GTP controllers write them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A move: a stone on a cell, or the swap (pie rule) of the second player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone of the player to move on this cell.
    Place(Cell),
    /// The second player takes the first player's stone: it becomes the second player's, on
    /// the same cell, and the first player moves again (see [`Rules::swap`]).
    Swap,
}

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move::Place(cell)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Swap => f.write_str("swap"),
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `color` completed `wins` (one or more structures) with move number `at` (from 1, both
    /// colours and a swap counted).
    Win {
        /// The winner.
        color: Color,
        /// What the deciding move completed.
        wins: Wins,
        /// The deciding move's number.
        at: u32,
    },
    /// The board is full and nobody has won.
    Draw,
}

/// Which closed chains count as rings.
///
/// Both rules agree that a ring is a closed chain of stones of one colour around at least one
/// cell, and on every ring whose inside holds an empty cell. They differ on chains whose
/// inside is full:
///
/// | inside the chain | [`Official`](RingRule::Official) | [`CodeJam`](RingRule::CodeJam) |
/// | --- | --- | --- |
/// | an empty cell (whatever else) | ring | ring |
/// | only stones of the opponent | ring | no ring |
/// | only own stones (a "filled ring", e.g. seven stones in a hexagon) | ring | no ring |
/// | own and opponent stones, no empty cell | ring | no ring |
///
/// Under the Code Jam rule a chain around a full inside stays no ring for the rest of the game
/// (stones never move); the official rule needs no later look at it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum RingRule {
    /// Freeling's rule: a closed chain around any cells, empty or occupied by either colour.
    #[default]
    Official,
    /// The Code Jam problem's rule: the chain's inside must hold an empty cell.
    CodeJam,
}

/// The rules of a [`Game`]: the ring rule and whether the swap (pie) rule is on.
///
/// ```
/// use bitgames::havannah::{RingRule, Rules};
/// let rules = Rules::default().ring(RingRule::CodeJam).swap(true);
/// assert_eq!(rules.ring_rule(), RingRule::CodeJam);
/// assert!(rules.allows_swap());
/// assert!(!Rules::default().allows_swap());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rules {
    ring: RingRule,
    swap: bool,
}

impl Rules {
    /// These rules with the ring rule `ring`.
    #[must_use]
    pub const fn ring(self, ring: RingRule) -> Rules {
        Rules { ring, ..self }
    }

    /// These rules with the swap (pie) rule on or off: when on, Black's first move may be a
    /// [`Move::Swap`] (White's stone becomes Black's and White moves again).
    #[must_use]
    pub const fn swap(self, swap: bool) -> Rules {
        Rules { swap, ..self }
    }

    /// The ring rule.
    pub const fn ring_rule(self) -> RingRule {
        self.ring
    }

    /// Is the swap rule on?
    pub const fn allows_swap(self) -> bool {
        self.swap
    }
}
