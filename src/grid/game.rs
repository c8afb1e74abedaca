//! [`Game`]: a position of the grid game, its history, play and undo.

use std::fmt;

use super::board::Board;
use super::undo::{self, Record};
use super::{Cell, Outcome, PlayError, Player, Rect, SizeError, check_size};

/// A game of the grid game: the position on row and column bitboards ([`MAX_SIDE`] =
/// 128 cells a side at most), its Grundy value, the permitted cells left, and the history of
/// the moves, from which [`Game::undo`] takes them back.
///
/// A move finds its rectangle with leading- and trailing-zero counts and updates the value by
/// XOR from the rectangle table: O(1), but for marking its vertical line, one bit operation
/// per row of its rectangle (in chunks of eight rows). Nothing allocates once the history has
/// grown to the longest game played on the value.
///
/// [`MAX_SIDE`]: super::MAX_SIDE
///
/// ```
/// use bitgames::grid::{Cell, Game, PlayError};
///
/// let mut game = Game::new(5, 6)?;
/// game.play(3, 4)?;
/// game.play(5, 2)?;
/// assert!(game.is_winning()); // the problem's example
/// let hint: Cell = game.winning_moves()[0];
/// game.play(hint.row, hint.col)?;
/// assert!(!game.is_winning());
/// assert_eq!(game.undo(), Some(hint));
/// game.play(1, 1)?;
/// assert!(game.is_winning()); // (1, 1) was a bad move
/// assert_eq!(
///     game.play(3, 1),
///     Err(PlayError::Forbidden { cell: Cell::new(3, 1) }) // by the move at (3, 4)
/// );
/// assert_eq!(game.moves_played(), 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    board: Board,
    /// Permitted cells left.
    permitted: u32,
    /// The moves played, first first.
    history: Vec<Record>,
}

impl Game {
    /// The `rows` × `cols` grid with every cell permitted.
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`](super::MAX_SIDE).
    pub fn new(rows: u32, cols: u32) -> Result<Game, SizeError> {
        let mut game = Game {
            board: Board::new(),
            permitted: 1,
            history: Vec::new(),
        };
        game.resize(rows, cols)?;
        Ok(game)
    }

    /// Empties the grid, keeping its size: O(rows + cols).
    #[inline]
    pub fn reset(&mut self) {
        let (rows, cols) = (self.board.rows(), self.board.cols());
        self.board.reset(rows, cols);
        self.permitted = (rows * cols) as u32;
        self.history.clear();
    }

    /// Empties the grid for a game of a new size, reusing this value's memory.
    ///
    /// # Errors
    /// [`SizeError`] unless both sides are in 1..=[`MAX_SIDE`](super::MAX_SIDE); the game is
    /// then unchanged.
    pub fn resize(&mut self, rows: u32, cols: u32) -> Result<(), SizeError> {
        check_size(rows, cols)?;
        self.board.reset(rows as usize, cols as usize);
        self.reset();
        Ok(())
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> u32 {
        self.board.rows() as u32
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> u32 {
        self.board.cols() as u32
    }

    /// Is the cell permitted (on the grid and not forbidden)?
    #[inline]
    pub fn is_permitted(&self, row: u32, col: u32) -> bool {
        self.index(row, col)
            .is_some_and(|(x, y)| !self.board.is_forbidden(x, y))
    }

    /// The cell (`row`, `col`) from 0, if it is on the grid.
    #[inline(always)]
    fn index(&self, row: u32, col: u32) -> Option<(usize, usize)> {
        let (x, y) = (row.wrapping_sub(1) as usize, col.wrapping_sub(1) as usize);
        (x < self.board.rows() && y < self.board.cols()).then_some((x, y))
    }

    /// Plays at (`row`, `col`) and returns the rectangle the move cut.
    ///
    /// Finding the rectangle and updating the Grundy value and the column bits take O(1);
    /// marking the vertical line of the cross in the rows takes one bit operation per row
    /// (in whole chunks of rows).
    ///
    /// # Errors
    /// [`PlayError`] when the cell is off the grid or forbidden (every cell is once the game
    /// is over); the game is unchanged.
    #[inline]
    pub fn play(&mut self, row: u32, col: u32) -> Result<Rect, PlayError> {
        let cell = Cell { row, col };
        let Some((x, y)) = self.index(row, col) else {
            return Err(PlayError::OffGrid {
                cell,
                rows: self.rows(),
                cols: self.cols(),
            });
        };
        let Some(record) = undo::play(&mut self.board, x, y) else {
            return Err(PlayError::Forbidden { cell });
        };
        let (rows, cols) = record.sides();
        // The cross: the cell, and the rest of its row and column in the rectangle.
        self.permitted -= rows + cols - 1;
        self.history.push(record);
        let cut = record.cut();
        Ok(Rect {
            top: u32::from(cut.top) + 1,
            left: u32::from(cut.left) + 1,
            rows,
            cols,
        })
    }

    /// Takes back the last move and returns its cell; `None`, changing nothing, when no move
    /// has been played. Restores every word of the position: O(1), but for the move's
    /// vertical line, as in [`Game::play`].
    ///
    /// ```
    /// use bitgames::grid::{Cell, Game, Rect};
    ///
    /// let mut game = Game::new(4, 4)?;
    /// game.play(2, 3)?;
    /// // The lower left part left by the first move: rows 3 and 4, columns 1 and 2.
    /// assert_eq!(game.play(4, 1)?, Rect { top: 3, left: 1, rows: 2, cols: 2 });
    /// assert_eq!(game.undo(), Some(Cell::new(4, 1)));
    /// assert_eq!(game.undo(), Some(Cell::new(2, 3)));
    /// assert_eq!(game.undo(), None);
    /// assert!(!game.is_winning()); // 4 × 4 is lost for the player to move
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn undo(&mut self) -> Option<Cell> {
        let record = self.history.pop()?;
        let (rows, cols) = record.sides();
        self.permitted += rows + cols - 1;
        undo::undo(&mut self.board, record);
        Some(record.cell())
    }

    /// The outcome: `None` while a permitted cell is left, then the win of the player who
    /// made the last move.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        (self.permitted == 0).then(|| {
            let at = self.moves_played();
            Outcome::Win {
                player: Player::of_move(at),
                at,
            }
        })
    }

    /// Whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Player {
        Player::of_move(self.moves_played() + 1)
    }

    /// Moves played so far.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        self.history.len() as u32
    }

    /// The moves played so far, first first.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Cell> + '_ {
        self.history.iter().map(Record::cell)
    }

    /// Permitted cells left.
    #[inline]
    pub fn permitted(&self) -> u32 {
        self.permitted
    }

    /// The permitted cells, in row-major order: every legal move (none once the game is over).
    pub fn legal_moves(&self) -> impl Iterator<Item = Cell> + '_ {
        let cols = self.board.cols() as u32;
        (0..self.board.rows()).flat_map(move |x| {
            let mut free = !self.board.row(x) & super::lines::below(cols);
            std::iter::from_fn(move || {
                (free != 0).then(|| {
                    let y = free.trailing_zeros();
                    free &= free - 1;
                    Cell {
                        row: x as u32 + 1,
                        col: y + 1,
                    }
                })
            })
        })
    }

    /// A 64-bit key of the position (the size and the forbidden cells; not the history):
    /// equal positions have equal keys. Computed on demand from the row words, in O(rows).
    pub fn hash(&self) -> u64 {
        // A multiply-rotate mix per word (the one of rustc's FxHasher), finished by the
        // avalanche of SplitMix64.
        const K: u64 = 0xf135_7aea_2e62_a9c5;
        let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(26);
        let rows = self.board.rows();
        let mut h = mix(rows as u64, (self.board.cols() as u64) << 8);
        for x in 0..rows {
            let line = self.board.row(x);
            h = mix(mix(h, line as u64), (line >> 64) as u64);
        }
        crate::rng::mix64(h)
    }

    /// The Grundy value of the position: the XOR of its rectangles' values.
    #[inline]
    pub fn grundy(&self) -> u16 {
        self.board.value()
    }

    /// Can the player to move force a win?
    #[inline]
    pub fn is_winning(&self) -> bool {
        self.board.value() != 0
    }

    /// The permitted region as disjoint rectangles, ordered by upper-left cell.
    pub fn rectangles(&self) -> Vec<Rect> {
        self.board.rectangles()
    }

    /// Every move that leaves a position of value 0 (a loss for the opponent), in row-major
    /// order; empty exactly when the position is losing.
    pub fn winning_moves(&self) -> Vec<Cell> {
        self.board.winning_moves()
    }
}

impl fmt::Debug for Game {
    /// Draws the grid: `.` permitted, `#` forbidden.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Game {:?}", self.board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::MAX_SIDE;
    use crate::grid::judge::random_cell;
    use crate::rng::Rng;

    /// Every word of the two games (the padding included), their sides, value, permitted
    /// cells and histories.
    fn assert_same(a: &Game, b: &Game) {
        let ((ar, ac), (br, bc)) = (a.board.words(), b.board.words());
        assert!(ar == br, "row words\n{a:?}\n{b:?}");
        assert!(ac == bc, "column words\n{a:?}\n{b:?}");
        assert_eq!(
            (a.rows(), a.cols(), a.grundy(), a.permitted),
            (b.rows(), b.cols(), b.grundy(), b.permitted)
        );
        assert!(a.history().eq(b.history()));
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn undo_restores_every_word() {
        let mut rng = Rng::new(11);
        for game in 0..300 {
            // Small grids, the 64-column boundary and the largest ones.
            let side = |rng: &mut Rng| match game % 3 {
                0 => rng.range(1, 12),
                1 => rng.range(60, 70),
                _ => rng.range(100, MAX_SIDE),
            };
            let (rows, cols) = (side(&mut rng), side(&mut rng));
            let mut grid = Game::new(rows, cols).unwrap();
            let mut stack: Vec<Game> = Vec::new();
            for _ in 0..600 {
                if !stack.is_empty() && rng.below(3) == 0 {
                    let before = stack.pop().unwrap();
                    let last = grid.history().last();
                    assert_eq!(grid.undo(), last);
                    assert_same(&grid, &before);
                } else {
                    let Some(cell) = random_cell(&grid, &mut rng) else {
                        assert!(grid.outcome().is_some());
                        break;
                    };
                    stack.push(grid.clone());
                    grid.play(cell.row, cell.col).unwrap();
                }
            }
            // Back to the start, move by move.
            while let Some(before) = stack.pop() {
                grid.undo().unwrap();
                assert_same(&grid, &before);
            }
            assert_eq!(grid.undo(), None);
            assert_same(&grid, &Game::new(rows, cols).unwrap());
        }
    }

    #[test]
    fn permitted_cells_and_outcome_follow_the_moves() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let (rows, cols) = (rng.range(1, 20), rng.range(1, 20));
            let mut game = Game::new(rows, cols).unwrap();
            loop {
                assert_eq!(game.permitted() as usize, game.legal_moves().count());
                let area: u32 = game.rectangles().iter().map(|r| r.rows * r.cols).sum();
                assert_eq!(game.permitted(), area);
                assert_eq!(game.to_move(), Player::of_move(game.moves_played() + 1));
                let Some(cell) = random_cell(&game, &mut rng) else {
                    break;
                };
                assert_eq!(game.outcome(), None);
                game.play(cell.row, cell.col).unwrap();
            }
            let at = game.moves_played();
            assert_eq!(
                game.outcome(),
                Some(Outcome::Win {
                    player: Player::of_move(at),
                    at
                })
            );
            assert_eq!(game.grundy(), 0);
            let last = game.history().last().unwrap();
            assert_eq!(
                game.play(last.row, last.col),
                Err(PlayError::Forbidden { cell: last })
            );
            game.undo();
            assert_eq!(game.outcome(), None);
        }
    }

    #[test]
    fn hash_is_the_position() {
        // Two orders of moves in disjoint rectangles: the same position.
        let mut a = Game::new(9, 9).unwrap();
        let mut b = Game::new(9, 9).unwrap();
        for (r, c) in [(5, 5), (2, 2), (8, 7)] {
            a.play(r, c).unwrap();
        }
        for (r, c) in [(5, 5), (8, 7), (2, 2)] {
            b.play(r, c).unwrap();
        }
        assert_eq!(a.rectangles(), b.rectangles());
        assert_eq!(a.hash(), b.hash());
        assert_ne!(a.hash(), Game::new(9, 9).unwrap().hash());
        assert_ne!(
            Game::new(3, 4).unwrap().hash(),
            Game::new(4, 3).unwrap().hash()
        );
        // Distinct positions of random games have distinct keys.
        let mut rng = Rng::new(8);
        let mut keys = std::collections::HashMap::new();
        for _ in 0..600 {
            let (rows, cols) = (rng.range(1, 40), rng.range(1, 40));
            let mut game = Game::new(rows, cols).unwrap();
            while let Some(cell) = random_cell(&game, &mut rng) {
                game.play(cell.row, cell.col).unwrap();
                let lines: Vec<u128> = (0..rows as usize).map(|x| game.board.row(x)).collect();
                let seen = keys.entry(game.hash()).or_insert((cols, lines.clone()));
                assert_eq!(*seen, (cols, lines), "two positions, one key");
            }
        }
        assert!(keys.len() > 10_000, "{}", keys.len());
    }

    #[test]
    fn debug_draws_the_cross() {
        let mut game = Game::new(3, 4).unwrap();
        game.play(2, 2).unwrap();
        assert_eq!(
            format!("{game:?}"),
            format!("Game 3 × 4, g = {}\n.#..\n####\n.#..\n", game.grundy())
        );
    }

    #[test]
    fn errors_leave_the_game_unchanged() {
        let mut game = Game::new(4, 4).unwrap();
        game.play(1, 1).unwrap();
        let before = game.clone();
        assert_eq!(
            game.play(1, 3),
            Err(PlayError::Forbidden {
                cell: Cell::new(1, 3)
            })
        );
        for (row, col) in [(5, 1), (0, 1), (1, 0), (1, 5), (u32::MAX, 2)] {
            assert_eq!(
                game.play(row, col),
                Err(PlayError::OffGrid {
                    cell: Cell::new(row, col),
                    rows: 4,
                    cols: 4
                })
            );
        }
        assert_same(&game, &before);
        assert_eq!(Game::new(0, 3).err(), Some(SizeError { rows: 0, cols: 3 }));
        assert!(Game::new(128, 129).is_err());
        assert_eq!(game.resize(129, 1), Err(SizeError { rows: 129, cols: 1 }));
        assert_same(&game, &before);
        game.resize(2, 3).unwrap();
        assert_same(&game, &Game::new(2, 3).unwrap());
        game.play(1, 1).unwrap();
        game.reset();
        assert_same(&game, &Game::new(2, 3).unwrap());
    }

    #[test]
    fn full_width_rows_and_columns() {
        let mut game = Game::new(128, 128).unwrap();
        assert_eq!(
            game.play(128, 128),
            Ok(Rect {
                top: 1,
                left: 1,
                rows: 128,
                cols: 128
            })
        );
        assert_eq!(
            game.rectangles(),
            vec![Rect {
                top: 1,
                left: 1,
                rows: 127,
                cols: 127
            }]
        );
        assert_eq!(game.grundy(), crate::grid::grundy::g(127, 127));
        assert_eq!(game.permitted(), 127 * 127);
        assert_eq!(game.undo(), Some(Cell::new(128, 128)));
        assert_same(&game, &Game::new(128, 128).unwrap());
    }
}
