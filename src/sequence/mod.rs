//! "Make a Sequence": 3-D gravity connect-m on an n×n×n cube (ICPC Asia Regional Contest, Ehime
//! 2004, Problem B; on the Aizu Online Judge as
//! [problem 1249](https://onlinejudge.u-aizu.ac.jp/problems/1249)).
//!
//! Black and White drop balls on n×n pegs in turn; the first to make m or more of their balls
//! consecutive in a straight line (13 directions) wins.
//!
//! - [`Game`]: play, undo and win detection, allocation-free, O(13) per ball, and random
//!   playouts ([`Game::playout`]);
//! - [`SmallGame`]: the same game on boards of at most 64 cells (n ≤ 4, Score Four), one
//!   `u64` a colour, move for move equal to [`Game`] and several times faster in a search;
//! - [`Cube`]: the 512-bit board and the independent full-board detector ([`Cube::has_line`]);
//! - [`reference`](mod@reference): the plain executable specification the fast code is tested
//!   against;
//! - [`Game::hash`] (Zobrist, incremental), [`Symmetry`] and [`Game::canonical_hash`] (the 8
//!   symmetries of the base), [`Game::threats`] and [`Game::winning_pegs`] (cells that complete
//!   a sequence, and which of them can be played now), [`Game::legal_pegs`] ([`PegSet`]);
//! - [`sim`]: the simulator (self-play, game-quality metrics, the sweep over n and m);
//! - [`solver`]: the exact value of a position (win, draw or loss) with a best move;
//! - [`judge`]: the judge format, and random judge inputs ([`judge::generate`]).
//!
//! Coordinates in this API count from 1, as in the problem: pegs `(x, y)` with
//! `1 ≤ x, y ≤ n`, heights `1 ≤ z ≤ n` ([`Cube`], a bitboard, counts from 0).

mod cube;
mod game;
pub mod judge;
mod playout;
mod position;
pub mod reference;
pub mod sim;
mod small;
pub mod solver;
mod symmetry;
mod threats;
mod zobrist;

use std::fmt;

pub use cube::{Cube, DIRECTIONS, MAX_N, STRIDES};
pub use game::Game;
use playout::OpenPegs;
pub use small::{SMALL_MAX_N, SmallGame};
pub use symmetry::Symmetry;
pub use threats::PegSet;

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The player who makes move number `k` (from 1).
    #[inline]
    pub const fn of_move(k: u32) -> Color {
        if k % 2 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// A peg of the board, counted from 1: the move of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Peg {
    /// From 1 to n.
    pub x: u32,
    /// From 1 to n.
    pub y: u32,
}

impl Peg {
    /// The peg (x, y).
    pub const fn new(x: u32, y: u32) -> Peg {
        Peg { x, y }
    }
}

impl fmt::Display for Peg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.x, self.y)
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `color` made an m-sequence with move number `at` (from 1, both colours counted).
    Win {
        /// The winner.
        color: Color,
        /// The deciding move.
        at: u32,
    },
    /// The board filled up without a sequence (or, in a judged record, the record ended).
    Draw,
}

impl fmt::Display for Outcome {
    /// The judge's wording: `Black 15`, `White 6` or `Draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { color, at } => write!(f, "{color} {at}"),
            Outcome::Draw => f.write_str("Draw"),
        }
    }
}

/// Why a game of this size cannot be created. The game it was asked of is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeError {
    /// n must be in `1..=7` (the packed 8×8×8 layout keeps one layer of padding).
    Side {
        /// The requested side.
        n: u32,
    },
    /// m must be in `1..=n`.
    Length {
        /// The requested side.
        n: u32,
        /// The requested sequence length.
        m: u32,
    },
    /// A [`SmallGame`] takes sides up to [`SMALL_MAX_N`] = 4 (64 cells); [`Game`] takes the
    /// larger ones.
    NotSmall {
        /// The requested side.
        n: u32,
    },
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            SizeError::Side { n } => {
                write!(f, "board side n = {n} is outside 1..={MAX_N}")
            }
            SizeError::Length { n, m } => {
                write!(f, "sequence length m = {m} is outside 1..={n}")
            }
            SizeError::NotSmall { n } => write!(
                f,
                "board side n = {n} is too large for a SmallGame (at most {SMALL_MAX_N}; use Game)"
            ),
        }
    }
}

impl std::error::Error for SizeError {}

/// Why a move was refused. The game is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The peg is not on the board: a coordinate is outside `1..=n`.
    OffBoard {
        /// The peg as given.
        peg: Peg,
        /// The board side.
        n: u32,
    },
    /// The peg already holds n balls.
    PegFull {
        /// The peg.
        peg: Peg,
    },
    /// The game has already been decided: no move is legal.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlayError::OffBoard { peg, n } => {
                write!(
                    f,
                    "peg {peg} is not on the board: x and y must be in 1..={n}"
                )
            }
            PlayError::PegFull { peg } => write!(f, "peg {peg} is full"),
            PlayError::GameOver => f.write_str("the game is already decided"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Checks a board size: `1 ≤ m ≤ n ≤ 7`.
pub(crate) fn check_size(n: u32, m: u32) -> Result<(), SizeError> {
    if !(1..=MAX_N).contains(&n) {
        return Err(SizeError::Side { n });
    }
    if !(1..=n).contains(&m) {
        return Err(SizeError::Length { n, m });
    }
    Ok(())
}
