//! [`Stones`]: the Code Jam task (one player's stones) the slow way, the specification of
//! [`crate::havannah::Stones`] and of the judge.
//!
//! After every move it groups all stones by a depth-first search and flood fills the empty
//! cells from the border. No union-find, no arcs, no masks kept between moves. The fill covers
//! the stones' bounding box only: every empty cell outside it is reached from the border in a
//! straight line away from the box (no stone lies on that line), so it is outside every ring.
//! Memory is proportional to the board's area; time per move to the box's area, plus filling
//! two board-sized label arrays (a memset): for tests and fuzzing on small boards, or on games
//! that stay in a small part of a large one.

use crate::havannah::geometry::{Board, Border, Cell, NEIGHBOURS};
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

/// Marks a cell no search enters.
const CLOSED: u32 = u32::MAX - 1;

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

    /// Labels connected cells. `label` holds [`UNSEEN`] on the cells a search may enter and
    /// [`CLOSED`] elsewhere: the cells reached from those of `first` get the label 0, then
    /// each of `cells` not yet reached, in turn, starts a search whose cells get the next
    /// label (1, 2, ...). Returns the number of labels.
    fn label(&self, label: &mut [u32], first: &[Cell], cells: &[Cell]) -> u32 {
        // Index steps to the six neighbours: the frame around the board keeps every
        // on-board cell's neighbours inside the array.
        let width = self.board.n() as isize + 2;
        let steps = NEIGHBOURS.map(|(dx, dy)| dx as isize * width + dy as isize);
        let mut stack = Vec::new();
        let spread = |label: &mut [u32], stack: &mut Vec<usize>, next: u32| {
            while let Some(i) = stack.pop() {
                for step in steps {
                    let j = i.wrapping_add_signed(step);
                    if label[j] == UNSEEN {
                        label[j] = next;
                        stack.push(j);
                    }
                }
            }
        };
        for &c in first {
            let i = self.index(c);
            if label[i] == UNSEEN {
                label[i] = 0;
                stack.push(i);
            }
        }
        spread(label, &mut stack, 0);
        let mut next = 1;
        for &c in cells {
            let i = self.index(c);
            if label[i] == UNSEEN {
                label[i] = next;
                stack.push(i);
                spread(label, &mut stack, next);
                next += 1;
            }
        }
        next
    }

    /// The groups of stones: one label per group (from 1), and the number of labels.
    fn groups(&self) -> (Vec<u32>, u32) {
        let mut label = vec![CLOSED; self.stone.len()];
        for &c in &self.played {
            label[self.index(c)] = UNSEEN;
        }
        let count = self.label(&mut label, &[], &self.played);
        (label, count)
    }

    /// The empty cells of the bounding box, row by row.
    fn empty_in_box(&self) -> Vec<Cell> {
        let (low, high, s) = (self.low, self.high, self.board.side());
        let mut empty = Vec::new();
        for x in low.x..=high.x {
            // The board's cells of column x are those with |x - y| < S.
            let (from, to) = (low.y.max(x.saturating_sub(s - 1)), high.y.min(x + s - 1));
            for y in from..=to {
                let c = Cell::new(x, y);
                if !self.stone[self.index(c)] {
                    empty.push(c);
                }
            }
        }
        empty
    }

    /// The areas of empty cells of the bounding box: area 0 is everything reachable from
    /// outside the board (through empty border cells, or from the empty cells around the
    /// box), then one number per enclosed area. Read them with [`Stones::area`].
    fn empty_areas(&self, empty: &[Cell]) -> Vec<u32> {
        let mut label = vec![CLOSED; self.stone.len()];
        for &c in empty {
            label[self.index(c)] = UNSEEN;
        }
        // A border cell, or one on the box's rim (with a neighbour outside the box).
        let (low, high) = (self.low, self.high);
        let first: Vec<Cell> = empty
            .iter()
            .copied()
            .filter(|&c| {
                self.board.is_border(c)
                    || c.x == low.x
                    || c.x == high.x
                    || c.y == low.y
                    || c.y == high.y
            })
            .collect();
        self.label(&mut label, &first, empty);
        label
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
        let empty = self.empty_in_box();
        let areas = self.empty_areas(&empty);
        self.position_of(&self.borders(&groups, count), &empty, &areas)
    }

    /// [`Stones::position`] from the groups' borders and the empty areas.
    fn position_of(&self, borders: &[Border], empty: &[Cell], areas: &[u32]) -> Wins {
        let mut wins = borders
            .iter()
            .fold(Wins::NONE, |wins, &b| wins.with(Self::shape(b)));
        if empty.iter().any(|&c| areas[self.index(c)] != 0) {
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
        let empty = self.empty_in_box();
        let areas = self.empty_areas(&empty);
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
            let position = self.position_of(&borders, &empty, &areas);
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
