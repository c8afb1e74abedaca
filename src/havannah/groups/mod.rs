//! Groups of stones for [`Stones`](super::Stones), the one-player engine of the judge:
//! disjoint sets of stones, each root carrying the corners and edges its group touches, and the
//! O(1) ring test on the new stone's neighbour arcs. No undo (the two-player
//! [`Game`](super::Game) has its own groups).
//!
//! - [`table`]: the sparse layout's hash table and row-segment filter;
//! - [`dense`]: the dense layout, quick-find and the three-load neighbourhood;
//! - [`union_find`]: the sparse layout's union-find;
//! - [`arcs`]: the arc and bridge/fork tables both use.
//!
//! Stones live in one of two layouts, chosen when a game starts:
//! - **sparse**: an open-addressing hash table from the packed cell ([`Cell::key`]) to the
//!   stone's number, and a hashed bitmap of row segments that proves most moves touch no stone
//!   with three word reads; memory follows the number of stones, whatever the board's size;
//! - **dense**: for small boards, one spot per cell of the `(n + 2)²` square around the board,
//!   so a neighbour is a fixed index offset away and no hashing is needed; a byte per cell
//!   gives a move's whole neighbourhood in three short reads.
//!
//! The sparse layout joins groups by union-find (union by rank, path halving); the dense one
//! by quick-find (every stone knows its root, the smaller group is relabelled on a merge),
//! which needs no loop to find a root: on a small board, finds are most of the work and their
//! loop exits the most mispredicted branches.

mod arcs;
mod dense;
mod table;
mod union_find;

use super::Wins;
use super::geometry::{Board, Border, Cell, NEIGHBOURS};
use dense::{ARCS_GATHERED, GATHER_PAD, Spot, gather};
use table::Table;
use union_find::Node;

/// Marks an empty dense cell and a missing neighbour.
const EMPTY: u32 = u32::MAX;

/// Boards whose padded square has at most this many cells may use the dense layout.
pub(crate) const DENSE_MAX_CELLS: u64 = 1 << 14;

/// Where the stones are kept.
#[derive(Debug, Clone)]
enum Layout {
    /// Spot `x · width + y` is cell (x, y); `width = n + 2`.
    Dense { width: usize },
    /// Node `k` is the k-th stone; the table finds it from its cell.
    Sparse(Table),
}

/// The stones of one game and their groups.
///
/// Invariant: every node id the sparse layout's union-find reaches (a neighbour's node, a
/// parent, a root) is below `nodes.len()`; [`Groups::node`] relies on it.
#[derive(Debug, Clone)]
pub(crate) struct Groups {
    board: Board,
    /// Sparse layout: the union-find, node k for stone k.
    nodes: Vec<Node>,
    /// Dense layout: one spot per cell of the square.
    spots: Vec<Spot>,
    /// Dense layout: 1 on a stone, 0 elsewhere, per cell of the square (and [`GATHER_PAD`]
    /// more bytes), so that three short reads give a cell's whole neighbourhood.
    occupied: Vec<u8>,
    layout: Layout,
    /// The stones' cells in the order they were played (in the sparse layout, stone k is
    /// node k).
    stones: Vec<Cell>,
    /// Dense layout: the border of each cell of the square ([`OFF_BOARD`] off the board),
    /// kept from game to game on boards of the same side.
    borders: Vec<Border>,
    /// Dense layout: [`ARCS_GATHERED`] with the arcs' first cells as index offsets for this
    /// board's width: the count in bits 0–1, then three `i16` offsets from bit 16.
    arc_offsets: Vec<u64>,
    /// The side `borders` and `arc_offsets` were made for (0: none).
    borders_side: u32,
}

/// Marks a cell of the dense square that is not on the board.
const OFF_BOARD: Border = Border::from_raw(0x8000);

/// Why a move was refused (nothing changed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    /// The cell is not on the board.
    OffBoard,
    /// The cell holds a stone.
    Occupied,
}

impl Groups {
    /// No stones on `board`, expecting about `stones` moves.
    pub(crate) fn new(board: Board, stones: usize) -> Groups {
        let mut groups = Groups {
            board,
            nodes: Vec::new(),
            spots: Vec::new(),
            occupied: Vec::new(),
            layout: Layout::Dense { width: 0 },
            stones: Vec::new(),
            borders: Vec::new(),
            arc_offsets: Vec::new(),
            borders_side: 0,
        };
        groups.reset(board, stones);
        groups
    }

    /// Takes every stone off and starts over on `board`, keeping the allocations.
    pub(crate) fn reset(&mut self, board: Board, stones: usize) {
        self.board = board;
        let width = u64::from(board.n()) + 2;
        let area = width * width;
        self.nodes.clear();
        self.occupied.clear();
        self.stones.clear();
        if area <= DENSE_MAX_CELLS && area <= 32 * stones as u64 {
            // Spots are read only for stones of this game (every one is written when its
            // stone is placed), so the previous game's need no clearing.
            self.spots.resize(area as usize, Spot::EMPTY);
            self.occupied.resize(area as usize + GATHER_PAD, 0);
            self.layout = Layout::Dense {
                width: width as usize,
            };
            if self.borders_side != board.side() {
                let w = width as u32;
                self.borders.clear();
                self.borders.extend((0..w * w).map(|i| {
                    let cell = Cell::new(i / w, i % w);
                    if board.contains(cell) {
                        board.border(cell)
                    } else {
                        OFF_BOARD
                    }
                }));
                let w = width as i64;
                let offsets = [w + 1, 1, -w, -w - 1, -1, w];
                self.arc_offsets.clear();
                self.arc_offsets.extend(ARCS_GATHERED.iter().map(|&arcs| {
                    (0..3).fold(u64::from(arcs & 3), |packed, k| {
                        let d = usize::from(arcs >> (4 + 4 * k) & 7);
                        packed | u64::from(offsets[d] as i16 as u16) << (16 + 16 * k)
                    })
                }));
                self.borders_side = board.side();
            }
        } else {
            self.nodes.reserve(stones.min(1 << 24));
            self.stones.reserve(stones.min(1 << 24));
            let mut table = match std::mem::replace(&mut self.layout, Layout::Dense { width: 0 }) {
                Layout::Sparse(table) => table,
                Layout::Dense { .. } => Table::default(),
            };
            table.reset(stones.min(1 << 24));
            self.layout = Layout::Sparse(table);
        }
    }

    /// Is the dense layout in use?
    #[cfg(test)]
    pub(crate) fn is_dense(&self) -> bool {
        matches!(self.layout, Layout::Dense { .. })
    }

    /// Is there a stone on `cell` (which must be on the board)?
    #[inline]
    pub(crate) fn is_occupied(&self, cell: Cell) -> bool {
        match &self.layout {
            Layout::Dense { width } => {
                self.occupied[cell.x as usize * width + cell.y as usize] != 0
            }
            Layout::Sparse(table) => table.get(cell, &self.stones) != EMPTY,
        }
    }

    /// The stones' cells in the order they were played.
    #[inline]
    pub(crate) fn stones(&self) -> &[Cell] {
        &self.stones
    }

    /// Puts a stone on (x, y) and tells what it completes.
    ///
    /// # Errors
    /// [`Refused`], with nothing changed, if the cell is off the board or holds a stone.
    #[inline(always)]
    pub(crate) fn play(&mut self, x: u32, y: u32) -> Result<Wins, Refused> {
        let (node, border, nb, occ) = match &mut self.layout {
            Layout::Dense { width } => {
                let w = *width;
                let (x, y) = (x as usize, y as usize);
                if x >= w || y >= w {
                    return Err(Refused::OffBoard);
                }
                let at = x * w + y;
                let border = self.borders[at];
                if border == OFF_BOARD {
                    return Err(Refused::OffBoard);
                }
                // An on-board cell lies inside the frame: its neighbours are in bounds
                // (stated once, so the compiler drops the checks below).
                assert!(
                    at > w
                        && at + w + 1 < self.spots.len()
                        && self.spots.len() + GATHER_PAD <= self.occupied.len()
                );
                let gathered = gather(&self.occupied, at, w);
                if gathered & 1 << 3 != 0 {
                    return Err(Refused::Occupied);
                }
                self.occupied[at] = 1;
                self.stones.push(Cell::new(x as u32, y as u32));
                let arcs = self.arc_offsets[gathered as usize & 0xff];
                return Ok(self.join_dense(at, border, arcs));
            }
            Layout::Sparse(table) => {
                let cell = Cell::new(x, y);
                if !self.board.contains(cell) {
                    return Err(Refused::OffBoard);
                }
                if self.stones.len() * 2 >= table.slots.len() {
                    table.grow(&self.stones);
                }
                let near = table.near(x, y);
                let mut nb = [EMPTY; 6];
                let mut occ = 0u32;
                if near != 0 {
                    // Rare on a sparse board: confirm each maybe in the table.
                    if near & 64 != 0 && table.probe(cell, &self.stones) != EMPTY {
                        return Err(Refused::Occupied);
                    }
                    let mut maybe = near & 0x3f;
                    while maybe != 0 {
                        let d = maybe.trailing_zeros() as usize;
                        maybe &= maybe - 1;
                        let (dx, dy) = NEIGHBOURS[d];
                        let other = Cell::new(x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
                        let n = table.probe(other, &self.stones);
                        if n != EMPTY {
                            nb[d] = n;
                            occ |= 1 << d;
                        }
                    }
                }
                let node = self.stones.len() as u32;
                table.insert(cell, node);
                self.nodes.push(Node::EMPTY);
                (node, self.board.border(cell), nb, occ)
            }
        };
        self.stones.push(Cell::new(x, y));
        Ok(self.link(node, border, nb, occ))
    }

    /// Dense layout: makes cell `at` a stone touching `border`, joins it to the groups of its
    /// occupied neighbours (`arcs`: their arcs as in [`Groups::arc_offsets`]) and reports the
    /// wins.
    #[inline(always)]
    fn join_dense(&mut self, at: usize, border: Border, arcs: u64) -> Wins {
        dense::join_dense(&mut self.spots, at, border, arcs)
    }

    /// Makes `node` a stone touching `border`, joins it to the groups of its occupied
    /// neighbours `nb` (bit d of `occ` set when `nb[d]` is a stone) and reports the wins.
    #[inline(always)]
    fn link(&mut self, node: u32, border: Border, nb: [u32; 6], occ: u32) -> Wins {
        *self.node_mut(node) = Node {
            parent: node,
            border,
            rank: 0,
        };
        if occ == 0 {
            return Wins::NONE;
        }
        let mut ring = false;
        let mut roots = [EMPTY; 3];
        let mut count = 0;
        if occ == 0x3f {
            // The cell was an enclosed hole: filling it encloses nothing new.
            roots[0] = self.find(nb[0]);
            count = 1;
        } else {
            // Bit d: neighbour d starts an arc (it is a stone, the one before it is not).
            let mut starts = occ & !(((occ << 1) | (occ >> 5)) & 0x3f);
            while starts != 0 {
                let d = starts.trailing_zeros() as usize;
                starts &= starts - 1;
                let root = self.find(nb[d]);
                if roots[..count].contains(&root) {
                    ring = true;
                } else {
                    roots[count] = root;
                    count += 1;
                }
            }
        }
        let mut root = node;
        for &other in &roots[..count] {
            root = self.union(root, other);
        }
        let joined = self.node(root).border;
        let mut wins = Wins::NONE;
        if joined.is_bridge() {
            wins = wins.with(Wins::BRIDGE);
        }
        if joined.is_fork() {
            wins = wins.with(Wins::FORK);
        }
        if ring {
            wins = wins.with(Wins::RING);
        }
        wins
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every stone's root is a root of its own list, whose size and border add up.
    fn check_spots(g: &Groups) {
        let Layout::Dense { width } = g.layout else {
            panic!("dense expected")
        };
        let mut seen = 0;
        for (i, spot) in g.spots.iter().enumerate() {
            // Spots of empty cells may be left over from earlier games.
            if g.occupied[i] == 0 || spot.root != i as u32 {
                continue;
            }
            let (mut c, mut size, mut border) = (i, 0u16, Border::NONE);
            loop {
                assert_eq!(g.spots[c].root, i as u32);
                assert_eq!(g.occupied[c], 1);
                let cell = Cell::new((c / width) as u32, (c % width) as u32);
                border = border.with(g.board.border(cell));
                size += 1;
                c = g.spots[c].next as usize;
                if c == i {
                    break;
                }
            }
            assert_eq!((spot.size, spot.border), (size, border), "root {i}");
            seen += usize::from(size);
        }
        assert_eq!(seen, g.stones.len());
    }

    #[test]
    fn dense_groups_keep_exact_roots_and_lists() {
        let mut rng = crate::rng::Rng::new(12);
        // Under Miri the side-10 board (271 cells, each move checking every spot) takes minutes.
        let sides: &[u32] = if cfg!(miri) {
            &[2, 3, 5]
        } else {
            &[2, 3, 5, 10]
        };
        for &side in sides {
            let board = Board::new(side).unwrap();
            let mut cells: Vec<Cell> = board.iter().collect();
            let mut g = Groups::new(board, 1 << 20);
            for _ in 0..if cfg!(miri) { 1 } else { 20 } {
                g.reset(board, 1 << 20);
                rng.shuffle(&mut cells);
                for &c in &cells {
                    g.play(c.x, c.y).unwrap();
                    check_spots(&g);
                }
            }
        }
    }

    #[test]
    fn both_layouts_agree_on_a_small_game() {
        let board = Board::new(4).unwrap();
        let mut dense = Groups::new(board, 1000);
        let mut sparse = Groups::new(board, 0);
        assert!(dense.is_dense() && !sparse.is_dense());
        for c in board.iter() {
            assert_eq!(dense.play(c.x, c.y), sparse.play(c.x, c.y), "{c}");
            assert_eq!(dense.play(c.x, c.y), Err(Refused::Occupied));
            assert_eq!(sparse.play(c.x, c.y), Err(Refused::Occupied));
            assert!(dense.is_occupied(c) && sparse.is_occupied(c));
        }
        for (x, y) in [(0, 0), (1, 5), (5, 1), (8, 8), (9, 1), (u32::MAX, 3)] {
            assert_eq!(dense.play(x, y), Err(Refused::OffBoard));
            assert_eq!(sparse.play(x, y), Err(Refused::OffBoard));
        }
    }
}
