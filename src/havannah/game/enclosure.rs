//! The Code Jam ring rule's extra step: after a new stone closed a chain, is there an empty
//! cell among the cells it cut off from the border?
//!
//! The cells around the new stone that are not the mover's fall into *gaps* (maximal runs
//! between its arcs of own stones). Each gap not touching the outside of the board starts a
//! depth-first search through the cells that are not the mover's; the searches advance one
//! cell each in turn, and two that meet are one region. A search that reaches a border cell
//! found the outside; one that runs out of cells found an enclosed region. Before the move
//! the new stone's region reached the border (the game was still on), so one region is the
//! outside: once every other search has run out, the last one is not followed further. The
//! work is at most a few times the size of the enclosed regions, however large the outside.

use rustc_hash::FxHashMap;

use crate::havannah::geometry::{Board, Cell, NEIGHBOURS};

use super::cells::{EMPTY, OFF_BOARD, Slot};

/// What a cell holds, for the mover.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// A stone of the mover: a wall.
    Own,
    /// A stone of the opponent.
    Other,
    /// No stone.
    Empty,
    /// Not on the board: the outside.
    OffBoard,
}

/// Where a search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Running,
    /// Reached the border.
    Outside,
    /// Ran out of cells: an enclosed region.
    Enclosed,
}

/// The searches' memory, kept from move to move.
#[derive(Debug, Clone, Default)]
pub(super) struct Enclosure {
    /// Which search reached each cell first.
    seen: FxHashMap<u64, u8>,
    /// Each search's cells still to expand.
    stacks: [Vec<Cell>; 3],
}

impl Enclosure {
    /// After a stone was placed on `cell` with its own neighbours `own` (bit d for direction
    /// d) and neighbour slots `around` (as before the move), and it closed a chain: does a
    /// region cut off from the border hold an empty cell? `kind` tells what a cell holds now.
    pub(super) fn holds_empty(
        &mut self,
        board: Board,
        cell: Cell,
        own: u32,
        around: &[Slot; 6],
        kind: impl Fn(Cell) -> Kind,
    ) -> bool {
        self.seen.clear();
        for stack in &mut self.stacks {
            stack.clear();
        }
        let mut parent = [0u8, 1, 2];
        let mut state = [State::Running; 3];
        let mut has_empty = [false; 3];
        let mut count = 0usize;
        let mut outside = false;
        // The gaps, each started after an own neighbour (`own` has at least two arcs here, so
        // is neither empty nor full).
        for d in 0..6 {
            let starts_gap = own >> d & 1 == 0 && own >> ((d + 5) % 6) & 1 == 1;
            if !starts_gap {
                continue;
            }
            let gap = (0..6)
                .map(move |i| (d + i) % 6)
                .take_while(|&e| own >> e & 1 == 0);
            if gap.clone().any(|e| around[e] == OFF_BOARD) {
                outside = true;
                continue;
            }
            let id = count;
            count += 1;
            for e in gap {
                let (dx, dy) = NEIGHBOURS[e];
                let c = Cell::new(
                    cell.x.wrapping_add_signed(dx),
                    cell.y.wrapping_add_signed(dy),
                );
                self.seen.insert(c.key(), id as u8);
                self.stacks[id].push(c);
                has_empty[id] |= around[e] == EMPTY;
            }
        }
        let root = |parent: &[u8; 3], mut i: usize| {
            while parent[i] as usize != i {
                i = parent[i] as usize;
            }
            i
        };
        loop {
            let running = (0..count)
                .filter(|&i| root(&parent, i) == i && state[i] == State::Running)
                .count();
            if running == 0 || (running == 1 && !outside) {
                return false;
            }
            for id in 0..count {
                if root(&parent, id) != id || state[id] != State::Running {
                    continue;
                }
                let Some(c) = self.stacks[id].pop() else {
                    state[id] = State::Enclosed;
                    if has_empty[id] {
                        return true;
                    }
                    continue;
                };
                if board.is_border(c) {
                    state[id] = State::Outside;
                    outside = true;
                    continue;
                }
                for (dx, dy) in NEIGHBOURS {
                    let n = Cell::new(c.x.wrapping_add_signed(dx), c.y.wrapping_add_signed(dy));
                    let what = kind(n);
                    if what == Kind::Own || what == Kind::OffBoard {
                        continue;
                    }
                    match self.seen.get(&n.key()) {
                        None => {
                            self.seen.insert(n.key(), id as u8);
                            self.stacks[id].push(n);
                            has_empty[id] |= what == Kind::Empty;
                        }
                        Some(&other) => {
                            let other = root(&parent, usize::from(other));
                            if other != id {
                                // One region: go on as one search.
                                parent[other] = id as u8;
                                let moved = std::mem::take(&mut self.stacks[other]);
                                self.stacks[id].extend_from_slice(&moved);
                                self.stacks[other] = moved;
                                self.stacks[other].clear();
                                has_empty[id] |= has_empty[other];
                                if state[other] == State::Outside {
                                    state[id] = State::Outside;
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
