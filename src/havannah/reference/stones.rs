//! [`Stones`]: the Code Jam task (one player's stones) the slow way, the specification of
//! [`crate::havannah::Stones`] and of the judge.
//!
//! After every move it groups all stones by breadth-first search and flood fills the empty
//! cells from the border. No union-find, no arcs, no masks kept between moves. Memory and time
//! are proportional to the board's area per move: for tests and fuzzing on small boards only.

use std::collections::VecDeque;

use crate::havannah::geometry::{Board, Border, Cell};
use crate::havannah::{PlayError, SizeError, Wins};

/// A game played the slow way.
#[derive(Debug, Clone)]
pub struct Stones {
    board: Board,
    /// `stone[x * (n + 2) + y]`: is there a stone on (x, y)? (The frame around is empty.)
    stone: Vec<bool>,
    moves: u32,
    first_win: Option<(Wins, u32)>,
}

/// Marks a cell not yet reached by a search.
const UNSEEN: u32 = u32::MAX;

impl Stones {
    /// An empty board with `side` cells per side.
    ///
    /// # Errors
    /// [`SizeError`] when `side` is out of range or the board is too large to draw.
    pub fn new(side: u32) -> Result<Stones, SizeError> {
        let board = Board::new(side)
            .filter(|b| b.n() < 1 << 12)
            .ok_or(SizeError { side })?;
        let width = board.n() as usize + 2;
        Ok(Stones {
            board,
            stone: vec![false; width * width],
            moves: 0,
            first_win: None,
        })
    }

    fn index(&self, cell: Cell) -> usize {
        cell.x as usize * (self.board.n() as usize + 2) + cell.y as usize
    }

    fn has_stone(&self, cell: Cell) -> bool {
        self.board.contains(cell) && self.stone[self.index(cell)]
    }

    /// The on-board neighbours of `cell`.
    fn neighbours(&self, cell: Cell) -> impl Iterator<Item = Cell> + '_ {
        (0..6).filter_map(move |d| cell.neighbour(d).filter(|&c| self.board.contains(c)))
    }

    /// Labels the cells `open` lets a search enter, starting from each of `starts` in turn:
    /// every cell first reached from `starts[i]` gets the label `i`.
    fn label(&self, starts: &[Vec<Cell>], open: impl Fn(Cell) -> bool) -> Vec<u32> {
        let mut label = vec![UNSEEN; self.stone.len()];
        let mut queue = VecDeque::new();
        for (next, group) in starts.iter().enumerate() {
            let next = next as u32;
            for &c in group {
                if label[self.index(c)] == UNSEEN {
                    label[self.index(c)] = next;
                    queue.push_back(c);
                }
            }
            while let Some(c) = queue.pop_front() {
                for n in self.neighbours(c) {
                    if open(n) && label[self.index(n)] == UNSEEN {
                        label[self.index(n)] = next;
                        queue.push_back(n);
                    }
                }
            }
        }
        label
    }

    /// The groups of stones: one label per group.
    fn groups(&self) -> Vec<u32> {
        let starts: Vec<Vec<Cell>> = self
            .board
            .iter()
            .filter(|&c| self.has_stone(c))
            .map(|c| vec![c])
            .collect();
        self.label(&starts, |c| self.has_stone(c))
    }

    /// The areas of empty cells: area 0 is everything reachable from outside the board
    /// (through empty border cells), then one number per enclosed area.
    fn empty_areas(&self) -> Vec<u32> {
        let empty: Vec<Cell> = self.board.iter().filter(|&c| !self.has_stone(c)).collect();
        let mut starts = vec![
            empty
                .iter()
                .copied()
                .filter(|&c| self.board.is_border(c))
                .collect::<Vec<_>>(),
        ];
        starts.extend(empty.into_iter().map(|c| vec![c]));
        self.label(&starts, |c| !self.has_stone(c))
    }

    /// Bridge and fork of the group of stones labelled `group`.
    fn shape(&self, groups: &[u32], group: u32) -> Wins {
        let border = self
            .board
            .iter()
            .filter(|&c| groups[self.index(c)] == group && self.has_stone(c))
            .fold(Border::NONE, |m, c| m.with(self.board.border(c)));
        let mut wins = Wins::NONE;
        if border.corners() >= 2 {
            wins = wins.with(Wins::BRIDGE);
        }
        if border.edges() >= 3 {
            wins = wins.with(Wins::FORK);
        }
        wins
    }

    /// What the position holds, by the spec's definitions: some group with two corners
    /// (bridge), some group touching three edges (fork), some empty cell cut off from the
    /// border (ring).
    pub fn position(&self) -> Wins {
        let groups = self.groups();
        let mut wins = Wins::NONE;
        let mut done = std::collections::HashSet::new();
        for c in self.board.iter().filter(|&c| self.has_stone(c)) {
            let g = groups[self.index(c)];
            if done.insert(g) {
                wins = wins.with(self.shape(&groups, g));
            }
        }
        let areas = self.empty_areas();
        if self
            .board
            .iter()
            .any(|c| !self.has_stone(c) && areas[self.index(c)] != 0)
        {
            wins = wins.with(Wins::RING);
        }
        wins
    }

    /// Plays (x, y) and reports as [`crate::havannah::Stones::play`] does: bridge and fork of the new
    /// stone's group, and ring when the empty cells around the new stone (off the board
    /// counting as area 0) now lie in two or more areas.
    ///
    /// # Errors
    /// [`PlayError`], with nothing changed, for an off-board or occupied cell.
    pub fn play(&mut self, x: u32, y: u32) -> Result<Wins, PlayError> {
        let cell = Cell::new(x, y);
        if !self.board.contains(cell) {
            return Err(PlayError::OffBoard {
                cell,
                side: self.board.side(),
            });
        }
        if self.has_stone(cell) {
            return Err(PlayError::Occupied { cell });
        }
        let at = self.index(cell);
        self.stone[at] = true;
        self.moves += 1;
        let groups = self.groups();
        let mut wins = self.shape(&groups, groups[at]);
        let areas = self.empty_areas();
        let mut around: Vec<u32> = self
            .neighbours(cell)
            .filter(|&n| !self.has_stone(n))
            .map(|n| areas[self.index(n)])
            .collect();
        if self.board.is_border(cell) {
            around.push(0);
        }
        around.sort_unstable();
        around.dedup();
        if around.len() >= 2 {
            wins = wins.with(Wins::RING);
        }
        if self.first_win.is_none() {
            let position = self.position();
            if !position.is_empty() {
                self.first_win = Some((position, self.moves));
            }
        }
        Ok(wins)
    }

    /// The first move after which the position held a structure ([`Stones::position`]),
    /// with what it held, and the move's number.
    pub fn first_win(&self) -> Option<(Wins, u32)> {
        self.first_win
    }

    /// Is there a stone on (x, y)?
    pub fn is_occupied(&self, x: u32, y: u32) -> bool {
        self.has_stone(Cell::new(x, y))
    }
}

/// The judge's answer for one case, the slow way: the first winning move and what it
/// completed, or `None`.
///
/// # Errors
/// [`SizeError`] or the first [`PlayError`], as a message.
pub fn solve(side: u32, moves: &[(u32, u32)]) -> Result<Option<(Wins, u32)>, String> {
    let mut game = Stones::new(side).map_err(|e| e.to_string())?;
    for &(x, y) in moves {
        game.play(x, y).map_err(|e| e.to_string())?;
        if game.first_win().is_some() {
            break;
        }
    }
    Ok(game.first_win())
}
