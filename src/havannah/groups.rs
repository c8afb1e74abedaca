//! Groups of stones: disjoint sets of stones, each root carrying the corners and edges its
//! group touches, and the O(1) ring test on the new stone's neighbour arcs.
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

use super::Wins;
use super::geometry::{Board, Border, Cell, NEIGHBOURS};

/// Marks an empty dense cell and a missing neighbour.
const EMPTY: u32 = u32::MAX;

/// The odd multiplier of the Fibonacci hash (2^64 / φ).
const HASH_FACTOR: u64 = 0x9e37_79b9_7f4a_7c15;

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

/// The sparse layout's index: an open-addressing (linear probing) hash table from cells to
/// stone numbers, at most half full, and a filter that tells, with one word read per row,
/// which cells around a new stone may hold stones.
///
/// The table's slots hold only stone numbers ([`EMPTY`] when free); a stone's cell is in
/// [`Groups`]'s list of stones, read only to confirm a match.
///
/// The filter has one bit per cell of the plane, folded by hashing: the 64 cells (x, 64k) to
/// (x, 64k + 63) of a row segment share the bits of one word, chosen by hashing (x, k). A clear
/// bit means no stone; a set bit may come from a stone of another segment with the same word.
/// The three rows x − 1, x, x + 1 hold a cell and its six neighbours, so three word reads
/// usually prove that a move touches no stone (and that its cell is free) without reading the
/// table at all; only set bits lead to probes.
#[derive(Debug, Clone, Default)]
struct Table {
    /// Stone numbers, [`EMPTY`] in a free slot.
    slots: Vec<u32>,
    /// Bit `y % 64` of word `segment(x, y / 64)`: some stone may be on (x, y).
    filter: Vec<u64>,
    /// `64 - log2(slots.len())`: the home slot is the top bits of a Fibonacci multiply.
    shift: u32,
    /// `64 - log2(filter.len())`.
    filter_shift: u32,
}

/// A row segment's key, (x, y / 64) packed: x above bit 26 (y / 64 < 2^25 on every board).
#[inline(always)]
const fn segment_key(x: u32, y: u32) -> u64 {
    ((x as u64) << 26) | (y >> 6) as u64
}

/// What the next row (x + 1) adds to a segment key's hash product.
const ROW_PRODUCT: u64 = (1u64 << 26).wrapping_mul(HASH_FACTOR);

impl Table {
    /// Empties the table, sized for `stones` stones without growing.
    fn reset(&mut self, stones: usize) {
        let cap = stones.saturating_mul(2).max(64).next_power_of_two();
        self.slots.clear();
        self.slots.resize(cap, EMPTY);
        self.slots.shrink_to(cap.max(1 << 16));
        let words = cap / 2;
        self.filter.clear();
        self.filter.resize(words, 0);
        self.filter.shrink_to(words.max(1 << 15));
        self.shift = 64 - cap.trailing_zeros();
        self.filter_shift = 64 - words.trailing_zeros();
    }

    /// The home slot of `key`.
    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(HASH_FACTOR) >> self.shift) as usize
    }

    /// The filter word of the segment whose key's hash product is `product`.
    #[inline(always)]
    fn word(&self, product: u64) -> u64 {
        self.filter[(product >> self.filter_shift) as usize]
    }

    /// Might a stone be on (x, y)?
    #[inline(always)]
    fn maybe(&self, x: u32, y: u32) -> bool {
        self.word(segment_key(x, y).wrapping_mul(HASH_FACTOR)) >> (y & 63) & 1 == 1
    }

    /// Which of (x, y)'s neighbours may hold a stone (bit d for direction d, see
    /// [`NEIGHBOURS`]) and, as bit 6, whether (x, y) itself may. Needs `x, y ≥ 1`.
    #[inline(always)]
    fn near(&self, x: u32, y: u32) -> u32 {
        let b = y & 63;
        if b.wrapping_sub(1) < 62 {
            // y − 1 ..= y + 1 lie in y's segment: three words give all seven cells.
            let product = segment_key(x, y).wrapping_mul(HASH_FACTOR);
            let up = self.word(product.wrapping_add(ROW_PRODUCT)) >> (b - 1);
            let mid = self.word(product) >> (b - 1);
            let down = self.word(product.wrapping_sub(ROW_PRODUCT)) >> (b - 1);
            if (up & 6) | (mid & 7) | (down & 3) == 0 {
                return 0;
            }
        }
        self.near_cells(x, y)
    }

    /// [`Table::near`] cell by cell.
    #[inline(never)]
    fn near_cells(&self, x: u32, y: u32) -> u32 {
        let mut near = u32::from(self.maybe(x, y)) << 6;
        for (d, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
            let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            near |= u32::from(self.maybe(nx, ny)) << d;
        }
        near
    }

    /// The stone on `cell` (`stones[k]` is stone k's cell), or [`EMPTY`].
    #[inline]
    fn get(&self, cell: Cell, stones: &[Cell]) -> u32 {
        if !self.maybe(cell.x, cell.y) {
            return EMPTY;
        }
        self.probe(cell, stones)
    }

    /// The stone on `cell`, or [`EMPTY`], without the filter.
    #[inline]
    fn probe(&self, cell: Cell, stones: &[Cell]) -> u32 {
        let mask = self.slots.len() - 1;
        let mut i = self.home(cell.key());
        loop {
            let node = self.slots[i & mask];
            if node == EMPTY || stones.get(node as usize) == Some(&cell) {
                return node;
            }
            i += 1;
        }
    }

    /// Stores stone `node` on `cell`, which holds no stone yet.
    #[inline(always)]
    fn insert(&mut self, cell: Cell, node: u32) {
        let mask = self.slots.len() - 1;
        let mut i = self.home(cell.key());
        // The home slot or the next one, without a branch: at most half full, the table has
        // both taken rarely, but the home slot alone often enough to mispredict.
        i += usize::from(self.slots[i & mask] != EMPTY);
        while self.slots[i & mask] != EMPTY {
            i += 1;
        }
        self.slots[i & mask] = node;
        let word =
            (segment_key(cell.x, cell.y).wrapping_mul(HASH_FACTOR) >> self.filter_shift) as usize;
        self.filter[word] |= 1 << (cell.y & 63);
    }

    /// Doubles the table (to hold twice `stones`).
    #[cold]
    fn grow(&mut self, stones: &[Cell]) {
        self.reset(stones.len().max(1) * 2);
        for (node, &cell) in stones.iter().enumerate() {
            self.insert(cell, node as u32);
        }
    }
}

/// One cell of the dense layout's square. Groups are kept by *quick-find*: every stone knows
/// its group's root exactly, so finding it is one load and no loop; a group's stones form a
/// circular list through `next`, walked only to relabel the smaller group when two merge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Spot {
    /// The root (a cell index) of the stone's group; [`EMPTY`] without a stone.
    root: u32,
    /// The next stone of the same group (circular).
    next: u32,
    /// At a root: the corners and edges its group touches.
    border: Border,
    /// At a root: how many stones its group has.
    size: u16,
}

impl Spot {
    const EMPTY: Spot = Spot {
        root: EMPTY,
        next: EMPTY,
        border: Border::NONE,
        size: 0,
    };
}

/// For each border set (12 bits): [`Wins::BRIDGE`] and [`Wins::FORK`] bits, one load instead
/// of two bit counts.
static BRIDGE_FORK: [u8; 4096] = {
    let mut table = [0u8; 4096];
    let mut b = 0;
    while b < 4096 {
        let border = Border(b as u16);
        table[b] = border.is_bridge() as u8 | (border.is_fork() as u8) << 1;
        b += 1;
    }
    table
};

/// For each set of occupied neighbours (bit d for direction d): the number of arcs, maximal
/// cyclic runs of occupied neighbours (bits 0–1), and the first direction of each (4 bits
/// each from bit 4; a missing arc repeats the first). All six occupied is one arc from 0.
const ARCS: [u16; 64] = {
    let mut arcs = [0u16; 64];
    let mut occ: usize = 0;
    while occ < 64 {
        let starts: u32 = if occ == 0x3f {
            1
        } else {
            let o = occ as u32;
            o & !(((o << 1) | (o >> 5)) & 0x3f)
        };
        let first = if starts == 0 {
            0
        } else {
            starts.trailing_zeros() as u16
        };
        let mut packed = (starts.count_ones() as u16) | first << 4 | first << 8 | first << 12;
        let (mut k, mut d) = (0, 0);
        while d < 6 {
            if starts >> d & 1 == 1 {
                packed = (packed & !(0xf << (4 + 4 * k))) | (d as u16) << (4 + 4 * k);
                k += 1;
            }
            d += 1;
        }
        arcs[occ] = packed;
        occ += 1;
    }
    arcs
};

/// Bytes [`gather`] may read past a cell of the square.
const GATHER_PAD: usize = 4;

/// The stones around cell `at` of a dense square of width `w` (`occupied` as in [`Groups`],
/// `w < at` and `at + w + 1 < occupied.len() - GATHER_PAD`) as eight bits, from three short
/// reads and one multiply: bit 0 (x−1, y−1), 1 (x−1, y), 2 (x, y−1), 3 the cell itself,
/// 4 (x, y+1), 5 nothing, 6 (x+1, y), 7 (x+1, y+1).
#[inline(always)]
fn gather(occupied: &[u8], at: usize, w: usize) -> u32 {
    let read = |i: usize, n: usize| {
        let mut bytes = [0u8; 8];
        bytes[..n].copy_from_slice(&occupied[i..i + n]);
        u64::from_le_bytes(bytes)
    };
    // Bytes: (x−1, y−1), (x−1, y) | (x, y−1), (x, y), (x, y+1), junk | (x+1, y), (x+1, y+1).
    let bytes = read(at - w - 1, 2) | read(at - 1, 4) << 16 | read(at + w, 2) << 48;
    let bytes = bytes & 0xffff_00ff_ffff_ffff;
    // Each byte is 0 or 1: the multiply moves byte i's bit to bit 56 + i, without carries.
    (bytes.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32
}

/// [`ARCS`] indexed by [`gather`]'s bits (the cell's own bit ignored).
static ARCS_GATHERED: [u16; 256] = {
    // Where gather puts direction d.
    const BIT: [u32; 6] = [7, 4, 1, 0, 2, 6];
    let mut table = [0u16; 256];
    let mut g = 0;
    while g < 256 {
        let mut occ = 0;
        let mut d = 0;
        while d < 6 {
            occ |= (g >> BIT[d] & 1) << d;
            d += 1;
        }
        table[g as usize] = ARCS[occ as usize];
        g += 1;
    }
    table
};

/// Spot `i`, which must be a cell of the square.
#[inline(always)]
fn spot(spots: &[Spot], i: usize) -> &Spot {
    debug_assert!(i < spots.len(), "spot {i} out of range");
    // SAFETY: the dense layout passes only cells of the square: a move's cell (checked
    // against the width in `Groups::play`), its neighbours (an on-board cell's are inside the
    // frame, asserted there), and roots and list links, which are only ever set to cells of
    // this game's stones (a spot is written in full when its stone is placed, before any link
    // to it exists); `Groups::reset` keeps `spots.len()` at the square's area. Unchecked access
    // saves about a fifth of the instructions of a dense move (cachegrind, S = 10 games).
    unsafe { spots.get_unchecked(i) }
}

/// Spot `i`, mutably, under the same condition as [`spot`].
#[inline(always)]
fn spot_mut(spots: &mut [Spot], i: usize) -> &mut Spot {
    debug_assert!(i < spots.len(), "spot {i} out of range");
    // SAFETY: as in `spot`.
    unsafe { spots.get_unchecked_mut(i) }
}

/// Makes cell `at` a stone touching `border`, joins it to the groups of its occupied
/// neighbours (`arcs`: their arcs as in [`Groups::arc_offsets`]) and reports the wins.
#[inline(always)]
fn join_dense(spots: &mut [Spot], at: usize, border: Border, arcs: u64) -> Wins {
    let count = arcs & 3;
    let arc = |k: u32| at.wrapping_add_signed(isize::from((arcs >> (16 + 16 * k)) as i16));
    // Unused (and possibly stale) without an arc.
    let r0 = spot(spots, arc(0)).root;
    // No arc: the stone starts its own group.
    let mut root = if count == 0 { at as u32 } else { r0 };
    let mut ring = false;
    if count >= 2 {
        let (r1, r2) = (spot(spots, arc(1)).root, spot(spots, arc(2)).root);
        ring = r1 == r0 || (count == 3 && (r2 == r0 || r2 == r1));
        root = merge(spots, root, r1);
        // Read again: the merge may have relabelled r2's group.
        root = merge(spots, root, spot(spots, arc(2)).root);
    }
    // Into `root`'s circular list, right after the root.
    *spot_mut(spots, at) = Spot {
        root,
        next: at as u32,
        border,
        size: 0,
    };
    let r = root as usize;
    spot_mut(spots, at).next = spot(spots, r).next;
    let root_spot = spot_mut(spots, r);
    root_spot.next = at as u32;
    root_spot.size += 1;
    root_spot.border = root_spot.border.with(border);
    let joined = root_spot.border;
    Wins::from_bits(BRIDGE_FORK[usize::from(joined.0 & 0xfff)] | u8::from(ring) << 2)
}

/// Joins the groups of roots `a` and `b` (which may be the same) by relabelling the smaller
/// one; returns the root of the whole.
#[inline(always)]
fn merge(spots: &mut [Spot], a: u32, b: u32) -> u32 {
    if a == b {
        return a;
    }
    let (ua, ub) = (a as usize, b as usize);
    let (big, small) = if spot(spots, ua).size >= spot(spots, ub).size {
        (ua, ub)
    } else {
        (ub, ua)
    };
    let mut c = small;
    loop {
        let s = spot_mut(spots, c);
        s.root = big as u32;
        c = s.next as usize;
        if c == small {
            break;
        }
    }
    let small_spot = *spot(spots, small);
    let big_spot = spot_mut(spots, big);
    let next = big_spot.next;
    big_spot.next = small_spot.next;
    big_spot.size += small_spot.size;
    big_spot.border = big_spot.border.with(small_spot.border);
    spot_mut(spots, small).next = next;
    big as u32
}

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
        join_dense(&mut self.spots, at, border, arcs)
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
        root.rank += u16::from(ra == rb);
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
    fn table_grows_and_keeps_every_stone() {
        let mut t = Table::default();
        t.reset(1);
        let mut stones = Vec::new();
        let mut rng = crate::rng::Rng::new(4);
        // Rows and columns around segment boundaries (y = 63, 64, 127, 128), and far away.
        let (count, span) = if cfg!(miri) { (100, 130) } else { (3000, 300) };
        while stones.len() < count {
            let cell = Cell::new(1 + rng.below(span), 1 + rng.below(span));
            if stones.contains(&cell) {
                continue;
            }
            if stones.len() * 2 >= t.slots.len() {
                t.grow(&stones);
            }
            assert_eq!(t.get(cell, &stones), EMPTY);
            t.insert(cell, stones.len() as u32);
            stones.push(cell);
        }
        assert!(t.slots.len() >= 2 * count);
        for (k, &cell) in stones.iter().enumerate() {
            assert_eq!(t.get(cell, &stones), k as u32);
            assert_eq!(t.probe(cell, &stones), k as u32);
        }
        for x in 0..=span + 1 {
            for y in 0..=span + 1 {
                let cell = Cell::new(x, y);
                let expected = stones.iter().position(|&c| c == cell);
                assert_eq!(t.get(cell, &stones), expected.map_or(EMPTY, |k| k as u32));
            }
        }
    }

    #[test]
    fn filter_never_hides_a_stone() {
        // A tiny filter (64 words for up to 32 stones) so that segments share words.
        let mut rng = crate::rng::Rng::new(8);
        for round in 0..if cfg!(miri) { 2 } else { 200 } {
            let mut t = Table::default();
            t.reset(32);
            let mut stones = Vec::new();
            // Around the segment edge at y = 64, and (not under Miri: slow) a wider square.
            let (span, base) = if round % 2 == 0 || cfg!(miri) {
                (12, 58)
            } else {
                (200, 1)
            };
            while stones.len() < 32 {
                let cell = Cell::new(base + rng.below(span), base + rng.below(span));
                if !stones.contains(&cell) {
                    t.insert(cell, stones.len() as u32);
                    stones.push(cell);
                }
            }
            for x in base..base + span {
                for y in base..base + span {
                    let exact = t.near_cells(x, y);
                    let near = t.near(x, y);
                    assert!(near == 0 || near == exact, "({x}, {y})");
                    let mut truth = u32::from(stones.contains(&Cell::new(x, y))) << 6;
                    for (d, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
                        let c = Cell::new(x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
                        truth |= u32::from(stones.contains(&c)) << d;
                    }
                    assert_eq!(near & truth, truth, "({x}, {y}): {near:b} {truth:b}");
                    assert_eq!(exact & truth, truth, "({x}, {y})");
                }
            }
        }
    }

    #[test]
    fn arc_table_lists_every_arc_start() {
        for occ in 0..64u32 {
            let packed = ARCS[occ as usize];
            let count = u32::from(packed & 3);
            let firsts: Vec<u32> = (0..3)
                .map(|k| u32::from(packed >> (4 + 4 * k) & 0xf))
                .collect();
            // Plainly: d starts an arc if it is a stone and d - 1 (cyclically) is not.
            let starts: Vec<u32> = (0..6)
                .filter(|&d| occ >> d & 1 == 1 && occ >> ((d + 5) % 6) & 1 == 0)
                .collect();
            let expected = if occ == 0x3f { vec![0] } else { starts };
            assert_eq!(count as usize, expected.len(), "{occ:06b}");
            for (k, &first) in firsts.iter().enumerate() {
                let want = expected.get(k).or(expected.first()).copied().unwrap_or(0);
                assert_eq!(first, want, "{occ:06b} arc {k}");
            }
        }
        for b in 0..4096u16 {
            let border = Border(b);
            let wins = BRIDGE_FORK[usize::from(b)];
            assert_eq!(wins & 1 == 1, border.corners() >= 2);
            assert_eq!(wins & 2 == 2, border.edges() >= 3);
        }
    }

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
        for side in [2, 3, 5, 10] {
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
