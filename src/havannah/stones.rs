//! [`Stones`]: one player's stones and the first move that completes a structure, the engine of
//! the Code Jam judge ([`super::judge`]).

use std::fmt;

use super::geometry::{Board, Cell};
use super::groups::{Groups, Refused};
use super::{PlayError, SizeError, Wins};

/// One player's stones on a Havannah board, with the first winning move: the structure finder
/// of the Code Jam problem, where a single player places every stone.
///
/// The stones live in a hash table keyed by cell (or, on small boards, a dense array), joined
/// into groups by a union-find whose roots carry the corners and edges the group touches
/// ([`Border`](super::geometry::Border)); a ring is found in O(1) per move: a new stone closes
/// one exactly when two of its neighbour *arcs* (maximal runs of occupied neighbours, off-board
/// counting as empty) already belong to one group. Memory and time follow the number of moves,
/// not the area of the board. There is no undo: the two-player [`Game`](super::Game) has one.
///
/// [`Stones::play`] reports, for every move (also after the first win):
/// - **bridge** if the new stone's group now holds at least two corners;
/// - **fork** if it now touches at least three edges;
/// - **ring** if the new stone closes a loop of its group around empty cells: it splits the
///   empty cells around it (off-board counting as one empty area) into parts no longer
///   connected. Up to the first win this is exactly the spec's ring, an empty cell newly cut
///   off from the border; after a ring exists, splitting an already enclosed hole also counts.
///
/// ```
/// use bitgames::havannah::{Stones, Wins};
///
/// let mut game = Stones::new(2)?;
/// assert_eq!(game.play(1, 1)?, Wins::NONE);
/// assert_eq!(game.play(1, 2)?, Wins::BRIDGE);
/// assert_eq!(game.stones().len(), 2);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Stones {
    board: Board,
    groups: Groups,
    first_win: Option<(Wins, u32)>,
    /// The moves the layout is chosen for (see [`Stones::with_capacity`]).
    capacity: usize,
}

impl Stones {
    /// An empty board with `side` cells per side.
    ///
    /// # Errors
    /// [`SizeError`] if `side` is below 2 or above [`MAX_SIDE`](super::geometry::MAX_SIDE).
    pub fn new(side: u32) -> Result<Stones, SizeError> {
        let board = Board::new(side).ok_or(SizeError { side })?;
        Ok(Stones::on(
            board,
            usize::try_from(board.cells()).unwrap_or(usize::MAX),
        ))
    }

    /// An empty board with `side` cells per side, sized for about `moves` moves (the layout
    /// is chosen for that many: a dense array only when it is small next to them).
    ///
    /// # Errors
    /// [`SizeError`] if `side` is below 2 or above [`MAX_SIDE`](super::geometry::MAX_SIDE).
    pub fn with_capacity(side: u32, moves: usize) -> Result<Stones, SizeError> {
        let board = Board::new(side).ok_or(SizeError { side })?;
        Ok(Stones::on(board, moves))
    }

    fn on(board: Board, moves: usize) -> Stones {
        Stones {
            board,
            groups: Groups::new(board, moves),
            first_win: None,
            capacity: moves,
        }
    }

    /// Empties the board, keeping its side, its layout and its memory.
    pub fn reset(&mut self) {
        self.groups.reset(self.board, self.capacity);
        self.first_win = None;
    }

    /// Empties the board and makes it `side` cells per side, sized for about `moves` moves,
    /// keeping the memory already allocated.
    ///
    /// # Errors
    /// [`SizeError`] (and the game is unchanged) if `side` is out of range.
    pub fn resize(&mut self, side: u32, moves: usize) -> Result<(), SizeError> {
        let board = Board::new(side).ok_or(SizeError { side })?;
        self.board = board;
        self.groups.reset(board, moves);
        self.first_win = None;
        self.capacity = moves;
        Ok(())
    }

    /// The moves the layout and tables were last sized for.
    #[cfg(test)]
    pub(crate) fn capacity(&self) -> usize {
        self.capacity
    }

    /// The board's shape.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Places a stone on (x, y) and returns the structures it completes (see [`Stones`]).
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

impl fmt::Debug for Stones {
    /// Draws boards up to side 20 as rows of constant x (`x` a stone, `.` empty), from x = n
    /// at the top, each row shifted so that neighbours touch; larger boards as a summary.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, n) = (self.board.side(), self.board.n());
        writeln!(
            f,
            "Stones {{ side: {s}, stones: {}, first_win: {:?} }}",
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
    use crate::havannah::geometry::MAX_SIDE;

    #[test]
    fn errors_leave_the_game_unchanged() {
        let mut g = Stones::new(3).unwrap();
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
        assert!(Stones::new(1).is_err() && Stones::new(MAX_SIDE + 1).is_err());
        assert!(
            Stones::new(1_000_000)
                .unwrap()
                .play(1_999_999, 1_999_999)
                .is_ok()
        );
    }

    #[test]
    fn debug_draws_the_board() {
        let mut g = Stones::new(2).unwrap();
        g.play(2, 2).unwrap();
        g.play(1, 1).unwrap();
        let drawn = format!("{g:?}");
        assert_eq!(
            drawn,
            "Stones { side: 2, stones: 2, first_win: None }\n    . . \n   . x . \n    x . \n"
        );
    }
}
