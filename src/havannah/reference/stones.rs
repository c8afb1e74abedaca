//! [`Stones`]: the Code Jam task (one player's stones) the slow way, the specification of
//! [`crate::havannah::Stones`] and of the judge.
//!
//! After every move it groups all stones by breadth-first search and flood fills the empty
//! cells from the border. No union-find, no arcs, no masks kept between moves. The fill covers
//! the stones' bounding box only: every empty cell outside it is reached from the border in a
//! straight line away from the box (no stone lies on that line), so it is outside every ring.
//! Memory is proportional to the board's area, time per move to the box's area: for tests and
//! fuzzing on small boards, or on games that stay in a small part of a large one.

use std::collections::VecDeque;

use crate::havannah::geometry::{Board, Border, Cell};
use crate::havannah::{PlayError, SizeError, Wins};

/// A game played the slow way.
#[derive(Debug, Clone)]
pub struct Stones {
    board: Board,
    /// `stone[x * (n + 2) + y]`: is there a stone on (x, y)? (The frame around is empty.)
    stone: Vec<bool>,
    /// The stones in the order played.
    played: Vec<Cell>,
    /// The stones' bounding box, lowest and highest corner (meaningless with no stone).
    low: Cell,
    high: Cell,
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
            played: Vec::new(),
            low: Cell::new(u32::MAX, u32::MAX),
            high: Cell::new(0, 0),
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

    /// Is `cell` inside the stones' bounding box?
    fn in_box(&self, cell: Cell) -> bool {
        (self.low.x..=self.high.x).contains(&cell.x) && (self.low.y..=self.high.y).contains(&cell.y)
    }

    /// Labels the cells `open` lets a search enter: those reached from the cells of `first`
    /// get the label 0, then each of `cells` not yet reached, in turn, starts a search whose
    /// cells get the next label (1, 2, ...). Returns the labels (cells never reached keep
    /// [`UNSEEN`]) and their count.
    fn label(
        &self,
        first: impl IntoIterator<Item = Cell>,
        cells: impl IntoIterator<Item = Cell>,
        open: impl Fn(Cell) -> bool,
    ) -> (Vec<u32>, u32) {
        let mut label = vec![UNSEEN; self.stone.len()];
        let mut queue = VecDeque::new();
        let spread = |label: &mut Vec<u32>, queue: &mut VecDeque<Cell>, next: u32| {
            while let Some(c) = queue.pop_front() {
                for n in self.neighbours(c) {
                    if open(n) && label[self.index(n)] == UNSEEN {
                        label[self.index(n)] = next;
                        queue.push_back(n);
                    }
                }
            }
        };
        for c in first {
            if label[self.index(c)] == UNSEEN {
                label[self.index(c)] = 0;
                queue.push_back(c);
            }
        }
        spread(&mut label, &mut queue, 0);
        let mut next = 1;
        for c in cells {
            if label[self.index(c)] == UNSEEN {
                label[self.index(c)] = next;
                queue.push_back(c);
                spread(&mut label, &mut queue, next);
                next += 1;
            }
        }
        (label, next)
    }

    /// The groups of stones: one label per group (from 1), and the number of labels.
    fn groups(&self) -> (Vec<u32>, u32) {
        self.label([], self.played.iter().copied(), |c| self.has_stone(c))
    }

    /// The empty cells of the bounding box, row by row.
    fn empty_in_box(&self) -> impl Iterator<Item = Cell> + '_ {
        let (low, high) = (self.low, self.high);
        (low.x..=high.x)
            .flat_map(move |x| (low.y..=high.y).map(move |y| Cell::new(x, y)))
            .filter(|&c| self.board.contains(c) && !self.has_stone(c))
    }

    /// The areas of empty cells of the bounding box: area 0 is everything reachable from
    /// outside the board (through empty border cells, or from the empty cells around the
    /// box), then one number per enclosed area. Read them with [`Stones::area`].
    fn empty_areas(&self) -> Vec<u32> {
        // A border cell, or one on the box's rim (with a neighbour outside the box).
        let (low, high) = (self.low, self.high);
        let open_side = |c: Cell| {
            self.board.is_border(c)
                || c.x == low.x
                || c.x == high.x
                || c.y == low.y
                || c.y == high.y
        };
        let first = self.empty_in_box().filter(|&c| open_side(c));
        self.label(first, self.empty_in_box(), |c| {
            self.in_box(c) && !self.has_stone(c)
        })
        .0
    }

    /// The area of the empty on-board `cell` in `areas` (0 outside the bounding box).
    fn area(&self, areas: &[u32], cell: Cell) -> u32 {
        if self.in_box(cell) {
            areas[self.index(cell)]
        } else {
            0
        }
    }

    /// The corners and edges each group of stones touches, by group label.
    fn borders(&self, groups: &[u32], count: u32) -> Vec<Border> {
        let mut border = vec![Border::NONE; count as usize];
        for &c in &self.played {
            let g = groups[self.index(c)] as usize;
            border[g] = border[g].with(self.board.border(c));
        }
        border
    }

    /// Bridge and fork of a group that touches `border`.
    fn shape(border: Border) -> Wins {
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
        let (groups, count) = self.groups();
        self.position_of(&self.borders(&groups, count), &self.empty_areas())
    }

    /// [`Stones::position`] from the groups' borders and the empty areas.
    fn position_of(&self, borders: &[Border], areas: &[u32]) -> Wins {
        let mut wins = borders
            .iter()
            .fold(Wins::NONE, |wins, &b| wins.with(Self::shape(b)));
        if self.empty_in_box().any(|c| self.area(areas, c) != 0) {
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
        self.played.push(cell);
        self.low = Cell::new(self.low.x.min(x), self.low.y.min(y));
        self.high = Cell::new(self.high.x.max(x), self.high.y.max(y));
        self.moves += 1;
        let (groups, count) = self.groups();
        let borders = self.borders(&groups, count);
        let mut wins = Self::shape(borders[groups[at] as usize]);
        let areas = self.empty_areas();
        let mut around: Vec<u32> = self
            .neighbours(cell)
            .filter(|&n| !self.has_stone(n))
            .map(|n| self.area(&areas, n))
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
            let position = self.position_of(&borders, &areas);
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
