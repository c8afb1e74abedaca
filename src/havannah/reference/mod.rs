//! The executable specification: slow, plain, short enough to check by eye.
//!
//! [`Reference`] is the two-player game of [`Game`](crate::havannah::Game): a 2-D array of
//! cells, and after every move flood fills over it for the mover's groups (bridge, fork) and
//! for what the mover's stones cut off from the border (rings, under either [`RingRule`]). No
//! union-find, no arcs, nothing kept between moves but the cells and the moves; an undo takes
//! the last stone off (the game was not over before it). [`Stones`] is the one-player task of
//! the Code Jam judge. Memory and time are proportional to the board's area per move (for
//! [`Stones`], the search's time to the area of the stones' bounding box): for tests and
//! fuzzing on small boards only.
//!
//! Both return the engines' own error types, so the differential tests compare which error
//! happened, not only that one did.
//!
//! # The ring rules as flood fills
//!
//! A cell X is inside a closed chain of the mover's stones other than X itself exactly when X
//! cannot reach a border cell through cells that are not the mover's (X itself allowed). So:
//! - **Code Jam**: a ring is an empty cell that cannot reach the border through cells that are
//!   not the mover's. That is one flood fill from the border.
//! - **Official**: a ring is any cell X inside a chain. If X is not the mover's, it is a cell
//!   the same flood fill misses. If X is the mover's and not on the border, X reaches the
//!   border through its non-own neighbours' regions unless all of them are enclosed; with one
//!   such neighbour there is already an enclosed non-own cell, and with none, all six of X's
//!   neighbours are the mover's. So: a non-own cell the flood fill misses, or an own stone whose
//!   six neighbours are all own. [`Reference::encloses_literally`] checks the definition
//!   itself, one flood fill per cell, and a test checks the two agree.

mod stones;

use std::collections::VecDeque;

pub use stones::{Stones, solve};

use crate::havannah::geometry::{Board, Border, Cell};
use crate::havannah::{Color, Move, Outcome, PlayError, RingRule, Rules, SizeError, Wins};

/// The two-player game, the slow way.
#[derive(Debug, Clone)]
pub struct Reference {
    board: Board,
    rules: Rules,
    /// `cells[x * (n + 2) + y]`: the stone on (x, y), if any. (The frame around is empty.)
    cells: Vec<Option<Color>>,
    moves: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Reference {
    /// An empty board with `side` cells per side, under `rules`.
    ///
    /// # Errors
    /// [`SizeError`] when `side` is out of range or the board is too large to draw (n ≥ 4096).
    pub fn new(side: u32, rules: Rules) -> Result<Reference, SizeError> {
        let board = Board::new(side)
            .filter(|b| b.n() < 1 << 12)
            .ok_or(SizeError { side })?;
        let width = board.n() as usize + 2;
        Ok(Reference {
            board,
            rules,
            cells: vec![None; width * width],
            moves: Vec::new(),
            outcome: None,
        })
    }

    fn index(&self, cell: Cell) -> usize {
        cell.x as usize * (self.board.n() as usize + 2) + cell.y as usize
    }

    /// The stone on (x, y), if any (`None` off the board).
    pub fn stone(&self, x: u32, y: u32) -> Option<Color> {
        let cell = Cell::new(x, y);
        if self.board.contains(cell) {
            self.cells[self.index(cell)]
        } else {
            None
        }
    }

    /// The player to move: White first, then in turn (a swap is Black's move).
    pub fn to_move(&self) -> Color {
        if self.moves.len().is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The moves so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended, if it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The on-board neighbours of `cell`.
    fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        (0..6).filter_map(move |d| cell.neighbour(d).filter(|&c| self.board.contains(c)))
    }

    /// Every cell `open` lets a search enter that is reachable from `starts` (which are
    /// entered whatever `open` says).
    fn reach(&self, starts: impl Iterator<Item = Cell>, open: impl Fn(Cell) -> bool) -> Vec<bool> {
        let mut seen = vec![false; self.cells.len()];
        let mut queue: VecDeque<Cell> = starts.collect();
        for &c in &queue {
            seen[self.index(c)] = true;
        }
        while let Some(c) = queue.pop_front() {
            for n in self.neighbours(c) {
                if open(n) && !seen[self.index(n)] {
                    seen[self.index(n)] = true;
                    queue.push_back(n);
                }
            }
        }
        seen
    }

    /// Which cells reach a border cell through cells that are not `color`'s.
    fn reaches_border(&self, color: Color) -> Vec<bool> {
        let not_own = |c: Cell| self.cells[self.index(c)] != Some(color);
        let border = self
            .board
            .iter()
            .filter(|&c| self.board.is_border(c) && not_own(c));
        self.reach(border, not_own)
    }

    /// The structures `color` has on the board: a group with two corners (bridge), a group
    /// touching three edges (fork), a ring under the rules' [`RingRule`].
    pub fn wins(&self, color: Color) -> Wins {
        let own = |c: Cell| self.cells[self.index(c)] == Some(color);
        let mut wins = Wins::NONE;
        let mut grouped = vec![false; self.cells.len()];
        for start in self.board.iter().filter(|&c| own(c)) {
            if grouped[self.index(start)] {
                continue;
            }
            // The group of `start`, by depth-first search, and what it touches.
            let mut border = Border::NONE;
            grouped[self.index(start)] = true;
            let mut stack = vec![start];
            while let Some(c) = stack.pop() {
                border = border.with(self.board.border(c));
                for n in self.neighbours(c) {
                    if own(n) && !grouped[self.index(n)] {
                        grouped[self.index(n)] = true;
                        stack.push(n);
                    }
                }
            }
            if border.corners() >= 2 {
                wins = wins.with(Wins::BRIDGE);
            }
            if border.edges() >= 3 {
                wins = wins.with(Wins::FORK);
            }
        }
        let outside = self.reaches_border(color);
        let enclosed = |c: Cell| !own(c) && !outside[self.index(c)];
        let ring = match self.rules.ring_rule() {
            RingRule::CodeJam => self
                .board
                .iter()
                .any(|c| enclosed(c) && self.cells[self.index(c)].is_none()),
            _ => self.board.iter().any(|c| {
                enclosed(c) || (own(c) && self.neighbours(c).filter(|&n| own(n)).count() == 6)
            }),
        };
        if ring {
            wins = wins.with(Wins::RING);
        }
        wins
    }

    /// The definition itself: is `cell` inside a closed chain of `color`'s stones other than
    /// `cell`, that is, unable to reach the border through cells not `color`'s (itself
    /// allowed)?
    pub fn encloses_literally(&self, color: Color, cell: Cell) -> bool {
        let open = |c: Cell| c == cell || self.cells[self.index(c)] != Some(color);
        let seen = self.reach(std::iter::once(cell), open);
        !self
            .board
            .iter()
            .any(|c| seen[self.index(c)] && self.board.is_border(c))
    }

    /// Places a stone of the player to move on (x, y).
    ///
    /// # Errors
    /// As [`Game::play`](crate::havannah::Game::play): the game is over, or the cell is off
    /// the board or occupied; nothing changes then.
    pub fn play(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        let cell = Cell::new(x, y);
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.board.contains(cell) {
            return Err(PlayError::OffBoard {
                cell,
                side: self.board.side(),
            });
        }
        if self.stone(x, y).is_some() {
            return Err(PlayError::Occupied { cell });
        }
        let color = self.to_move();
        let at = self.index(cell);
        self.cells[at] = Some(color);
        self.moves.push(Move::Place(cell));
        let wins = self.wins(color);
        let full = self
            .board
            .iter()
            .all(|c| self.cells[self.index(c)].is_some());
        self.outcome = if !wins.is_empty() {
            Some(Outcome::Win {
                color,
                wins,
                at: self.moves.len() as u32,
            })
        } else if full {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(self.outcome)
    }

    /// Black's swap as the second move, if the rules allow it: White's stone becomes Black's.
    ///
    /// # Errors
    /// [`PlayError::GameOver`] after the end, [`PlayError::NoSwap`] when it is not allowed.
    pub fn swap(&mut self) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.rules.allows_swap() || self.moves.len() != 1 {
            return Err(PlayError::NoSwap);
        }
        let Some(Move::Place(first)) = self.moves.first().copied() else {
            return Err(PlayError::NoSwap);
        };
        let at = self.index(first);
        self.cells[at] = Some(Color::Black);
        self.moves.push(Move::Swap);
        Ok(())
    }

    /// Takes the last move back: its stone leaves the board (a swap gives White's stone back).
    /// The game was not over before that move (it would have been refused), so it is not
    /// over now.
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        let (cell, back) = match last {
            Move::Place(cell) => (cell, None),
            Move::Swap => match self.moves.first() {
                Some(&Move::Place(first)) => (first, Some(Color::White)),
                _ => unreachable!("a swap follows White's first stone"),
            },
        };
        let at = self.index(cell);
        self.cells[at] = back;
        self.outcome = None;
        Some(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The flood-fill shortcut of [`Reference::wins`] against the literal definition, on
    /// random two-colour positions of small boards.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn ring_shortcut_matches_the_definition() {
        let mut rng = Rng::new(17);
        let mut rings = [0; 2];
        for round in 0..600 {
            let side = 2 + round % 4;
            for rule in [RingRule::Official, RingRule::CodeJam] {
                let mut game = Reference::new(side, Rules::default().ring(rule)).unwrap();
                let cells: Vec<Cell> = game.board.iter().collect();
                // Fill a random share of the cells, mostly White, turns ignored.
                let (share, white) = (rng.below(100), 50 + rng.below(50));
                for &c in &cells {
                    if rng.below(100) < share {
                        let at = game.index(c);
                        let color = if rng.below(100) < white {
                            Color::White
                        } else {
                            Color::Black
                        };
                        game.cells[at] = Some(color);
                    }
                }
                for color in [Color::White, Color::Black] {
                    let literal = cells.iter().any(|&c| {
                        game.encloses_literally(color, c)
                            && (rule == RingRule::Official || game.stone(c.x, c.y).is_none())
                    });
                    assert_eq!(
                        game.wins(color).contains(Wins::RING),
                        literal,
                        "{rule:?} {color}: {:?}",
                        game.cells
                    );
                    rings[usize::from(literal)] += 1;
                }
            }
        }
        assert!(rings[0] > 1000 && rings[1] > 100, "{rings:?}");
    }
}
