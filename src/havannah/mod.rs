//! Havannah winning structures (Google Code Jam 2012, Round 3): find the first move of one
//! player that completes a bridge, a fork or a ring (see `spec/havannah.md`).
//!
//! [`Game`] keeps the stones in a hash table keyed by cell (or, on small boards, a dense array),
//! joins them into groups with a union-find whose roots carry the corners and edges the group
//! touches ([`geometry::Border`]), and finds rings in O(1) per move: a new stone closes a ring
//! exactly when two of its neighbour *arcs* (maximal runs of occupied neighbours, off-board
//! counting as empty) already belong to one group. Memory and time follow the number of moves,
//! not the area of the board. [`reference`](mod@reference) is the plain flood-fill version it is tested against,
//! and [`judge`] reads and answers the judge format.
//!
//! ```
//! use bitgames::havannah::{Game, Wins};
//!
//! let mut game = Game::new(3)?;
//! // A loop around the empty centre (3, 3).
//! for (x, y) in [(2, 2), (2, 3), (3, 4), (4, 4), (4, 3)] {
//!     assert_eq!(game.play(x, y)?, Wins::NONE);
//! }
//! assert_eq!(game.play(3, 2)?, Wins::RING);
//! assert_eq!(game.first_win(), Some((Wins::RING, 6)));
//! assert!(game.play(3, 2).is_err(), "occupied");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod geometry;
mod groups;
pub mod judge;
pub mod reference;

use std::fmt;

use geometry::{Board, Cell, MAX_SIDE, MIN_SIDE};
use groups::{Groups, Refused};

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
    /// An empty cell cut off from the border.
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

/// A board side outside `MIN_SIDE..=MAX_SIDE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewGameError {
    /// The side asked for.
    pub side: u32,
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "board side {} is outside {MIN_SIDE}..={MAX_SIDE}",
            self.side
        )
    }
}

impl std::error::Error for NewGameError {}

/// Why a move was refused (the game is unchanged).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::OffBoard { cell, side } => {
                write!(f, "cell {cell} is off the board of side {side}")
            }
            PlayError::Occupied { cell } => write!(f, "cell {cell} is already occupied"),
        }
    }
}

impl std::error::Error for PlayError {}

/// One player's stones on a Havannah board, with the first winning move.
///
/// [`Game::play`] reports, for every move (also after the first win):
/// - **bridge** if the new stone's group now holds at least two corners;
/// - **fork** if it now touches at least three edges;
/// - **ring** if the new stone closes a loop of its group around empty cells: it splits the
///   empty cells around it (off-board counting as one empty area) into parts no longer
///   connected. Up to the first win this is exactly the spec's ring, an empty cell newly cut
///   off from the border; after a ring exists, splitting an already enclosed hole also counts.
///
/// ```
/// use bitgames::havannah::{Game, Wins};
///
/// let mut game = Game::new(2)?;
/// assert_eq!(game.play(1, 1)?, Wins::NONE);
/// assert_eq!(game.play(1, 2)?, Wins::BRIDGE);
/// assert_eq!(game.stones().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    board: Board,
    groups: Groups,
    first_win: Option<(Wins, u32)>,
}

impl Game {
    /// An empty board with `side` cells per side.
    ///
    /// # Errors
    /// [`NewGameError`] if `side` is below 2 or above [`MAX_SIDE`].
    pub fn new(side: u32) -> Result<Game, NewGameError> {
        let board = Board::new(side).ok_or(NewGameError { side })?;
        Ok(Game::on(
            board,
            usize::try_from(board.cells()).unwrap_or(usize::MAX),
        ))
    }

    /// An empty board with `side` cells per side, sized for about `moves` moves (the layout
    /// is chosen for that many: a dense array only when it is small next to them).
    ///
    /// # Errors
    /// [`NewGameError`] if `side` is below 2 or above [`MAX_SIDE`].
    pub fn with_capacity(side: u32, moves: usize) -> Result<Game, NewGameError> {
        let board = Board::new(side).ok_or(NewGameError { side })?;
        Ok(Game::on(board, moves))
    }

    fn on(board: Board, moves: usize) -> Game {
        Game {
            board,
            groups: Groups::new(board, moves),
            first_win: None,
        }
    }

    /// Empties the board and makes it `side` cells per side, sized for about `moves` moves,
    /// keeping the memory already allocated.
    ///
    /// # Errors
    /// [`NewGameError`] (and the game is unchanged) if `side` is out of range.
    pub fn reset(&mut self, side: u32, moves: usize) -> Result<(), NewGameError> {
        let board = Board::new(side).ok_or(NewGameError { side })?;
        self.board = board;
        self.groups.reset(board, moves);
        self.first_win = None;
        Ok(())
    }

    /// The board's shape.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Places a stone on (x, y) and returns the structures it completes (see [`Game`]).
    ///
    /// # Errors
    /// [`PlayError`] if the cell is off the board or occupied; the game is then unchanged.
    #[inline(always)]
    pub fn play(&mut self, x: u32, y: u32) -> Result<Wins, PlayError> {
        let cell = Cell::new(x, y);
        let wins = self.groups.play(x, y).map_err(|refused| match refused {
            Refused::OffBoard => PlayError::OffBoard {
                cell,
                side: self.board.side(),
            },
            Refused::Occupied => PlayError::Occupied { cell },
        })?;
        if !wins.is_empty() && self.first_win.is_none() {
            self.first_win = Some((wins, self.groups.stones().len() as u32));
        }
        Ok(wins)
    }

    /// Is there a stone on (x, y)? (`false` off the board.)
    pub fn is_occupied(&self, x: u32, y: u32) -> bool {
        let cell = Cell::new(x, y);
        self.board.contains(cell) && self.groups.is_occupied(cell)
    }

    /// The stones in the order they were played.
    pub fn stones(&self) -> &[Cell] {
        self.groups.stones()
    }

    /// The first winning move: what it completed and its number (from 1).
    pub fn first_win(&self) -> Option<(Wins, u32)> {
        self.first_win
    }
}

impl fmt::Debug for Game {
    /// Draws boards up to side 20 as rows of constant x (`x` a stone, `.` empty), from x = n
    /// at the top, each row shifted so that neighbours touch; larger boards as a summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, n) = (self.board.side(), self.board.n());
        writeln!(
            f,
            "Game {{ side: {s}, stones: {}, first_win: {:?} }}",
            self.groups.stones().len(),
            self.first_win
        )?;
        if s > 20 {
            return Ok(());
        }
        for x in (1..=n).rev() {
            let lo = x.saturating_sub(s - 1).max(1);
            let hi = (x + s - 1).min(n);
            // Cell (x, y) is drawn at column 2y - x + n so that (x+1, y+1) sits above it.
            let indent = (2 * lo + n - x) as usize;
            write!(f, "{:indent$}", "")?;
            for y in lo..=hi {
                let c = if self.groups.is_occupied(Cell::new(x, y)) {
                    'x'
                } else {
                    '.'
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_leave_the_game_unchanged() {
        let mut g = Game::new(3).unwrap();
        g.play(1, 1).unwrap();
        assert_eq!(
            g.play(1, 4),
            Err(PlayError::OffBoard {
                cell: Cell::new(1, 4),
                side: 3
            })
        );
        assert_eq!(
            g.play(0, 0).unwrap_err().to_string(),
            "cell (0, 0) is off the board of side 3"
        );
        assert_eq!(
            g.play(1, 1),
            Err(PlayError::Occupied {
                cell: Cell::new(1, 1)
            })
        );
        assert_eq!(g.stones(), &[Cell::new(1, 1)]);
        assert!(g.is_occupied(1, 1) && !g.is_occupied(1, 2) && !g.is_occupied(9, 9));
        assert!(Game::new(1).is_err() && Game::new(MAX_SIDE + 1).is_err());
        assert!(
            Game::new(1_000_000)
                .unwrap()
                .play(1_999_999, 1_999_999)
                .is_ok()
        );
    }

    #[test]
    fn debug_draws_the_board() {
        let mut g = Game::new(2).unwrap();
        g.play(2, 2).unwrap();
        g.play(1, 1).unwrap();
        let drawn = format!("{g:?}");
        assert_eq!(
            drawn,
            "Game { side: 2, stones: 2, first_win: None }\n    . . \n   . x . \n    x . \n"
        );
    }
}
