//! Groups of stones: union-find over the stones, each root carrying the corners and edges its
//! group touches, and the O(1) ring test on the new stone's neighbour arcs.
//!
//! Stones live in one of two layouts, chosen when a game starts:
//! - **sparse**: an open-addressing hash table from the packed cell ([`Cell::key`]) to the
//!   stone's number; memory follows the number of stones, whatever the board's size;
//! - **dense**: for small boards, one node per cell of the `(n + 2)²` square around the board,
//!   so a neighbour is a fixed index offset away and no hashing is needed.
//!
//! The union-find is the same for both: union by rank, path halving.

use super::Wins;
use super::geometry::{Board, Border, Cell, KEY_STEPS};

/// Marks an empty dense cell and a missing neighbour.
const EMPTY: u32 = u32::MAX;

/// The odd multiplier of the Fibonacci hash (2^64 / φ).
const HASH_FACTOR: u64 = 0x9e37_79b9_7f4a_7c15;

/// `KEY_STEPS[d] * HASH_FACTOR`: the hash product of a neighbour's key is the cell's product
/// plus this (multiplication distributes modulo 2^64), one addition instead of a multiply.
const STEP_PRODUCTS: [u64; 6] = {
    let mut products = [0; 6];
    let mut d = 0;
    while d < 6 {
        products[d] = KEY_STEPS[d].wrapping_mul(HASH_FACTOR);
        d += 1;
    }
    products
};

/// Boards whose padded square has at most this many cells may use the dense layout.
pub(crate) const DENSE_MAX_CELLS: u64 = 1 << 14;

/// One union-find node: a stone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Node {
    /// The parent node; a root is its own parent ([`EMPTY`] for an empty dense cell).
    parent: u32,
    /// For a root, the corners and edges its group touches.
    border: Border,
    /// For a root, an upper bound of its tree's height.
    rank: u16,
}

impl Node {
    const EMPTY: Node = Node {
        parent: EMPTY,
        border: Border::NONE,
        rank: 0,
    };
}

/// Open-addressing (linear probing) hash table from packed cells to nodes, at most half full.
///
/// Keys and nodes are separate arrays, and a filter of four bits per slot records which hash
/// values (the home slot and two more bits) the stored keys have: a look-up whose bit is clear
/// misses at once, reading only the filter (a sixteenth of the keys' size, so it stays in the
/// L1 cache). On a sparse board most neighbour look-ups end there.
#[derive(Debug, Clone, Default)]
struct Table {
    /// Packed cells ([`Cell::key`]), 0 in a free slot.
    keys: Vec<u64>,
    /// The node of the stone in each used slot (stale in free slots).
    nodes: Vec<u32>,
    /// Bit `f % 64` of `filter[f / 64]`: some stored key has hash `f` ([`Table::hash`]).
    filter: Vec<u64>,
    /// `64 - log2(keys.len()) - 2`: the hash is the top bits of a Fibonacci multiply, the
    /// home slot the hash without its two low bits.
    shift: u32,
    len: usize,
}

impl Table {
    /// Empties the table, sized for `stones` stones without growing.
    fn reset(&mut self, stones: usize) {
        let cap = stones.saturating_mul(2).max(64).next_power_of_two();
        self.keys.clear();
        self.keys.resize(cap, 0);
        self.keys.shrink_to(cap.max(1 << 16));
        // Nodes are read only where a key matches: no need to clear them.
        self.nodes.resize(cap, 0);
        self.nodes.shrink_to(cap.max(1 << 16));
        self.filter.clear();
        self.filter.resize(cap / 16, 0);
        self.filter.shrink_to((cap / 16).max(1 << 12));
        self.shift = 64 - cap.trailing_zeros() - 2;
        self.len = 0;
    }

    /// The hash of `key`; `hash >> 2` is the first slot to look at.
    #[inline(always)]
    fn hash(&self, key: u64) -> usize {
        self.hash_of_product(key.wrapping_mul(HASH_FACTOR))
    }

    /// The hash of the key whose product with [`HASH_FACTOR`] is `product`.
    #[inline(always)]
    fn hash_of_product(&self, product: u64) -> usize {
        (product >> self.shift) as usize
    }

    /// Might a stored key have hash `f`?
    #[inline(always)]
    fn maybe(&self, f: usize) -> bool {
        self.filter[f >> 6] >> (f & 63) & 1 == 1
    }

    /// The node stored for `key`, or [`EMPTY`].
    #[inline]
    fn get(&self, key: u64) -> u32 {
        let f = self.hash(key);
        if !self.maybe(f) {
            return EMPTY;
        }
        self.probe(key, f)
    }

    /// The node stored for `key` whose hash is `f`, or [`EMPTY`] (without the filter).
    #[inline(always)]
    fn probe(&self, key: u64, f: usize) -> u32 {
        let keys = &self.keys[..];
        let mask = keys.len() - 1;
        let mut i = f >> 2;
        loop {
            let k = keys[i & mask];
            if k == 0 {
                return EMPTY;
            }
            if k == key {
                return self.nodes[i & mask];
            }
            i += 1;
        }
    }

    /// `Ok(free slot for key)` or `Err(())` if `key` is present.
    #[inline(always)]
    fn find_free(&self, key: u64) -> Result<usize, ()> {
        let keys = &self.keys[..];
        let mask = keys.len() - 1;
        let mut i = self.hash(key) >> 2;
        loop {
            let k = keys[i & mask];
            if k == 0 {
                return Ok(i & mask);
            }
            if k == key {
                return Err(());
            }
            i += 1;
        }
    }

    /// Stores `node` for `key` in the free slot `i` found by [`Table::find_free`].
    #[inline(always)]
    fn fill(&mut self, i: usize, key: u64, node: u32) {
        let f = self.hash(key);
        self.filter[f >> 6] |= 1 << (f & 63);
        self.keys[i] = key;
        self.nodes[i] = node;
        self.len += 1;
    }

    /// Doubles the table.
    #[cold]
    fn grow(&mut self) {
        let keys = std::mem::take(&mut self.keys);
        let nodes = std::mem::take(&mut self.nodes);
        self.reset(keys.len());
        for (key, node) in keys.into_iter().zip(nodes).filter(|&(k, _)| k != 0) {
            if let Ok(i) = self.find_free(key) {
                self.fill(i, key, node);
            }
        }
    }
}

/// Where the stones are kept.
#[derive(Debug, Clone)]
enum Layout {
    /// Node `x · width + y` is cell (x, y); `width = n + 2`.
    Dense { width: usize },
    /// Node `k` is the k-th stone; the table finds it from its cell.
    Sparse(Table),
}

/// The stones of one game and their groups.
///
/// Invariant: every node id the union-find reaches (a neighbour's node, a parent, a root) is
/// below `nodes.len()`; [`Groups::node`] relies on it.
#[derive(Debug, Clone)]
pub(crate) struct Groups {
    board: Board,
    nodes: Vec<Node>,
    layout: Layout,
    /// Dense layout: the border of each cell of the square ([`OFF_BOARD`] off the board),
    /// kept from game to game on boards of the same side.
    borders: Vec<Border>,
    /// The side `borders` was made for (0: none).
    borders_side: u32,
}

/// Marks a cell of the dense square that is not on the board.
const OFF_BOARD: Border = Border(0x8000);

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
            layout: Layout::Dense { width: 0 },
            borders: Vec::new(),
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
        if area <= DENSE_MAX_CELLS && area <= 32 * stones as u64 {
            self.nodes.resize(area as usize, Node::EMPTY);
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
                self.borders_side = board.side();
            }
        } else {
            self.nodes.reserve(stones.min(1 << 24));
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
                self.nodes[cell.x as usize * width + cell.y as usize].parent != EMPTY
            }
            Layout::Sparse(table) => table.get(cell.key()) != EMPTY,
        }
    }

    /// Puts a stone on (x, y) and tells what it completes.
    ///
    /// # Errors
    /// [`Refused`], with nothing changed, if the cell is off the board or holds a stone.
    #[inline]
    pub(crate) fn play(&mut self, x: u32, y: u32) -> Result<Wins, Refused> {
        let mut nb = [EMPTY; 6];
        let mut occ = 0u32;
        let (node, border) = match &mut self.layout {
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
                assert!(at > w && at + w + 1 < self.nodes.len());
                if self.nodes[at].parent != EMPTY {
                    return Err(Refused::Occupied);
                }
                let around = [at + w + 1, at + 1, at - w, at - w - 1, at - 1, at + w];
                for (d, &i) in around.iter().enumerate() {
                    if self.nodes[i].parent != EMPTY {
                        nb[d] = i as u32;
                        occ |= 1 << d;
                    }
                }
                (at as u32, border)
            }
            Layout::Sparse(table) => {
                let cell = Cell::new(x, y);
                if !self.board.contains(cell) {
                    return Err(Refused::OffBoard);
                }
                if table.len * 2 >= table.keys.len() {
                    table.grow();
                }
                let key = cell.key();
                let free = table.find_free(key).map_err(|()| Refused::Occupied)?;
                // The six filter bits first, without branches; on a sparse board they are
                // usually all clear and no key is read.
                let product = key.wrapping_mul(HASH_FACTOR);
                let mut hashes = [0; 6];
                let mut maybe = 0u32;
                for d in 0..6 {
                    hashes[d] = table.hash_of_product(product.wrapping_add(STEP_PRODUCTS[d]));
                    maybe |= u32::from(table.maybe(hashes[d])) << d;
                }
                while maybe != 0 {
                    let d = maybe.trailing_zeros() as usize;
                    maybe &= maybe - 1;
                    let n = table.probe(key.wrapping_add(KEY_STEPS[d]), hashes[d]);
                    if n != EMPTY {
                        nb[d] = n;
                        occ |= 1 << d;
                    }
                }
                let node = self.nodes.len() as u32;
                table.fill(free, key, node);
                self.nodes.push(Node::EMPTY);
                (node, self.board.border(cell))
            }
        };
        Ok(self.link(node, border, nb, occ))
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

    /// The root of `a`'s group, halving the path on the way.
    #[inline(always)]
    fn find(&mut self, mut a: u32) -> u32 {
        loop {
            let parent = self.node(a).parent;
            if parent == a {
                return a;
            }
            let grand = self.node(parent).parent;
            self.node_mut(a).parent = grand;
            a = grand;
        }
    }

    /// Joins two different roots; returns the new root.
    #[inline(always)]
    fn union(&mut self, a: u32, b: u32) -> u32 {
        let (ra, rb) = (self.node(a).rank, self.node(b).rank);
        let (big, small) = if ra < rb { (b, a) } else { (a, b) };
        let moved = self.node(small).border;
        self.node_mut(small).parent = big;
        let root = self.node_mut(big);
        root.border = root.border.with(moved);
        if ra == rb {
            root.rank += 1;
        }
        big
    }

    /// Node `i`, which must be a stone of this game (see [`Groups`]'s invariant).
    #[inline(always)]
    fn node(&self, i: u32) -> &Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: `i` is a stone's node: the dense layout hands out only in-frame cells
        // (asserted in `play`), the sparse one only indices of pushed nodes, and parents are
        // set only to such nodes; `reset` forgets every one of them. Unchecked access saves
        // ~30 instructions per move in the union-find (cachegrind, S = 10 random games).
        unsafe { self.nodes.get_unchecked(i as usize) }
    }

    /// Node `i`, mutably, under the same condition as [`Groups::node`].
    #[inline(always)]
    fn node_mut(&mut self, i: u32) -> &mut Node {
        debug_assert!((i as usize) < self.nodes.len(), "node {i} out of range");
        // SAFETY: as in `node`.
        unsafe { self.nodes.get_unchecked_mut(i as usize) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_grows_and_keeps_every_key() {
        let mut t = Table::default();
        t.reset(1);
        for k in 1..=1000u64 {
            if t.len * 2 >= t.keys.len() {
                t.grow();
            }
            let key = (k << 32) | (k * 7 % 13 + 1);
            let free = t.find_free(key).unwrap();
            t.fill(free, key, k as u32);
        }
        for k in 1..=1000u64 {
            assert_eq!(t.get((k << 32) | (k * 7 % 13 + 1)), k as u32);
        }
        assert_eq!(t.get(0), EMPTY);
        assert_eq!(t.get(5), EMPTY);
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
