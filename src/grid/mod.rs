//! The cross-cutting grid game ([Jutge P57928 "A grid game"](https://jutge.org/problems/P57928_en),
//! by Salvador Roura).
//!
//! Two players alternate on an r × c grid; a move picks a permitted cell and forbids it and the
//! permitted cells of its row and column, in each direction up to the first forbidden cell or the
//! border. Whoever cannot move loses. Every position is a disjoint sum of rectangles, so its
//! Grundy value is the XOR of the rectangles' values g(a, b) ([`grundy`]).
//!
//! - [`Game`]: a position on row and column bitboards (r, c ≤ 128): O(1) rectangle lookup and
//!   Grundy update per move, undo from a history of small records, [`Game::winning_moves`].
//! - [`grundy`]: the table of g(a, b), shared up to 128, and larger tables on every core.
//! - [`reference`](mod@reference): the plain executable specification the engine is tested
//!   against.
//! - [`judge`]: the judge format, for [`crate::judge::run`], and random judge inputs.
//!
//! Coordinates count from 1, as in the problem: cell (1, 1) is the upper-left one.
//!
//! ```
//! use bitgames::grid::{Game, Outcome, Player};
//!
//! let mut game = Game::new(2, 2)?;
//! assert!(!game.is_winning()); // 2 × 2 is lost for the first player
//! game.play(1, 1)?;
//! assert_eq!(game.to_move(), Player::Second);
//! assert!(game.is_winning());
//! game.play(2, 2)?;
//! assert_eq!(game.outcome(), Some(Outcome::Win { player: Player::Second, at: 2 }));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub(crate) mod batch;
mod board;
mod game;
pub mod grundy;
pub mod judge;
mod lines;
pub mod reference;
mod undo;

use std::fmt;

pub use game::Game;

/// The largest number of rows or columns a [`Game`] holds: one row fits a `u128`.
pub const MAX_SIDE: u32 = lines::SIDE as u32;

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Player {
    /// Makes the first move.
    First,
    /// Makes the second move.
    Second,
}

impl Player {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// The player who makes move number `k` (from 1).
    #[inline]
    pub const fn of_move(k: u32) -> Player {
        if k % 2 == 1 {
            Player::First
        } else {
            Player::Second
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::First => "the first player",
            Player::Second => "the second player",
        })
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Outcome {
    /// `player` made the last move, number `at` (from 1, both players counted): no permitted
    /// cell is left, and the opponent, who cannot move, loses.
    Win {
        /// The winner.
        player: Player,
        /// The last move.
        at: u32,
    },
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { player, at } => write!(f, "{player} wins with move {at}"),
        }
    }
}

/// A cell, counted from 1: (1, 1) is the upper-left cell. The move of a player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cell {
    /// Row, from 1 at the top.
    pub row: u32,
    /// Column, from 1 at the left.
    pub col: u32,
}

impl Cell {
    /// The cell (`row`, `col`).
    #[inline]
    pub const fn new(row: u32, col: u32) -> Cell {
        Cell { row, col }
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({}, {})", self.row, self.col)
    }
}

/// A rectangle of permitted cells: its upper-left cell (from 1) and its size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rect {
    /// Row of the upper-left cell, from 1.
    pub top: u32,
    /// Column of the upper-left cell, from 1.
    pub left: u32,
    /// Number of rows.
    pub rows: u32,
    /// Number of columns.
    pub cols: u32,
}

/// A grid size outside 1..=[`MAX_SIDE`]. The game it was asked of is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SizeError {
    /// The rows asked for.
    pub rows: u32,
    /// The columns asked for.
    pub cols: u32,
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

/// Checks a grid size.
pub(crate) fn check_size(rows: u32, cols: u32) -> Result<(), SizeError> {
    if (1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&cols) {
        Ok(())
    } else {
        Err(SizeError { rows, cols })
    }
}

/// Why a move was refused. The game is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayError {
    /// The cell is not on the grid.
    OffGrid {
        /// The cell as given.
        cell: Cell,
        /// The grid's rows: the row must be in 1..=rows.
        rows: u32,
        /// The grid's columns: the column must be in 1..=cols.
        cols: u32,
    },
    /// The cell is already forbidden (every cell is, once the game is over).
    Forbidden {
        /// The cell.
        cell: Cell,
    },
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlayError::OffGrid { cell, rows, cols } => write!(
                f,
                "cell {cell} is off the {rows} × {cols} grid: the row must be in 1..={rows}, \
                 the column in 1..={cols}"
            ),
            PlayError::Forbidden { cell } => write!(f, "cell {cell} is already forbidden"),
        }
    }
}

impl std::error::Error for PlayError {}
