//! Where [`Game`](super::Game)'s stones are: a map from cells to stone numbers, dense on small
//! boards, a hash table on large ones, with removal of the newest stone for undo.
//!
//! A looked-up cell comes back as a [`Slot`]: a stone (its number and colour packed), an empty
//! cell or a cell off the board.

use crate::havannah::Color;
use crate::havannah::geometry::{Board, Border, Cell, NEIGHBOURS};

/// A cell's content: `2k + c` for stone number `k` of colour index `c`, or [`EMPTY`] or
/// [`OFF_BOARD`].
pub(super) type Slot = u32;

/// An empty cell of the board.
pub(super) const EMPTY: Slot = u32::MAX;

/// A cell off the board.
pub(super) const OFF_BOARD: Slot = u32::MAX - 1;

/// The slot of stone `k` of colour `color`.
#[inline(always)]
pub(super) const fn stone_slot(k: u32, color: Color) -> Slot {
    2 * k + color as u32
}

/// Boards whose padded square has at most this many cells are kept dense.
const DENSE_MAX_CELLS: u64 = 1 << 16;

/// The odd multiplier of the Fibonacci hash (2^64 / φ).
const HASH_FACTOR: u64 = 0x9e37_79b9_7f4a_7c15;

/// The map from cells to slots.
#[derive(Debug, Clone)]
pub(super) enum Cells {
    /// Slot `x · width + y` is cell (x, y), `width = n + 2`: the frame around the board (and
    /// every off-board cell of the square) holds [`OFF_BOARD`], so a neighbour of an on-board
    /// cell is a fixed offset away and always in bounds. `borders` holds each slot's corner or
    /// edges ([`Board::border`]), read instead of computed.
    Dense {
        width: usize,
        slots: Vec<Slot>,
        borders: Vec<Border>,
    },
    /// A linear-probing hash table from cells to slots, at most half full.
    Sparse(Table),
}

/// The sparse map: open addressing with linear probing. Stones are only ever removed newest
/// first, so the table always equals the one the remaining stones would build when inserted in
/// order, and a removal just frees the slot (no tombstones).
#[derive(Debug, Clone, Default)]
pub(super) struct Table {
    /// `(cell key, slot)`; key 0 (no board cell has it) marks a free entry.
    entries: Vec<(u64, Slot)>,
    /// Entries in use.
    len: usize,
    /// `64 - log2(entries.len())`.
    shift: u32,
}

impl Table {
    fn with_capacity(stones: usize) -> Table {
        let mut table = Table::default();
        table.reset(stones);
        table
    }

    /// Empties the table, sized for `stones` stones.
    fn reset(&mut self, stones: usize) {
        let cap = stones
            .saturating_mul(2)
            .clamp(64, 1 << 28)
            .next_power_of_two();
        self.entries.clear();
        self.entries.resize(cap, (0, EMPTY));
        self.len = 0;
        self.shift = 64 - cap.trailing_zeros();
    }

    /// Empties the table, keeping its size.
    fn clear(&mut self) {
        self.entries.fill((0, EMPTY));
        self.len = 0;
    }

    #[inline(always)]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(HASH_FACTOR) >> self.shift) as usize
    }

    #[inline]
    fn get(&self, key: u64) -> Slot {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key);
        loop {
            let (k, slot) = self.entries[i & mask];
            if k == key {
                return slot;
            }
            if k == 0 {
                return EMPTY;
            }
            i += 1;
        }
    }

    /// The entry of `key`, or the free entry where it would go.
    #[inline]
    fn find(&self, key: u64) -> usize {
        let mask = self.entries.len() - 1;
        let mut i = self.home(key) & mask;
        while self.entries[i].0 != key && self.entries[i].0 != 0 {
            i = (i + 1) & mask;
        }
        i
    }

    /// Stores `slot` for `key`, which is not in the table.
    fn insert(&mut self, key: u64, slot: Slot) {
        if 2 * (self.len + 1) > self.entries.len() {
            self.grow();
        }
        let i = self.find(key);
        self.entries[i] = (key, slot);
        self.len += 1;
    }

    /// Changes the slot of `key`, which is in the table.
    fn set(&mut self, key: u64, slot: Slot) {
        let i = self.find(key);
        debug_assert_eq!(self.entries[i].0, key);
        self.entries[i].1 = slot;
    }

    /// Removes `key`, the newest key in the table.
    fn remove_newest(&mut self, key: u64) {
        let i = self.find(key);
        debug_assert_eq!(self.entries[i].0, key);
        self.entries[i] = (0, EMPTY);
        self.len -= 1;
    }

    /// Doubles the table, reinserting the keys in the order they were inserted (the slots' stone
    /// numbers), which keeps [`Table::remove_newest`] exact.
    #[cold]
    fn grow(&mut self) {
        let mut old: Vec<(u64, Slot)> = self.entries.iter().copied().filter(|e| e.0 != 0).collect();
        old.sort_unstable_by_key(|e| e.1 >> 1);
        let cap = self.entries.len() * 2;
        self.entries.clear();
        self.entries.resize(cap, (0, EMPTY));
        self.shift = 64 - cap.trailing_zeros();
        for (key, slot) in old {
            let i = self.find(key);
            self.entries[i] = (key, slot);
        }
    }
}

impl Cells {
    /// An empty map for `board`.
    pub(super) fn new(board: Board) -> Cells {
        let mut cells = Cells::Sparse(Table::default());
        cells.resize(board);
        cells
    }

    /// An empty hash-table map, whatever the board's size (for tests of that layout).
    pub(super) fn sparse() -> Cells {
        Cells::Sparse(Table::with_capacity(64))
    }

    /// Empties the map for a board of a new size, keeping memory where it can.
    pub(super) fn resize(&mut self, board: Board) {
        let width = u64::from(board.n()) + 2;
        if width * width <= DENSE_MAX_CELLS {
            let width = width as usize;
            let (mut slots, mut borders) =
                match std::mem::replace(self, Cells::Sparse(Table::default())) {
                    Cells::Dense { slots, borders, .. } => (slots, borders),
                    Cells::Sparse(_) => (Vec::new(), Vec::new()),
                };
            slots.clear();
            borders.clear();
            for i in 0..width * width {
                let cell = Cell::new((i / width) as u32, (i % width) as u32);
                let on = board.contains(cell);
                slots.push(if on { EMPTY } else { OFF_BOARD });
                borders.push(if on { board.border(cell) } else { Border::NONE });
            }
            *self = Cells::Dense {
                width,
                slots,
                borders,
            };
        } else {
            match self {
                Cells::Sparse(table) => table.reset(64),
                Cells::Dense { .. } => *self = Cells::Sparse(Table::with_capacity(64)),
            }
        }
    }

    /// Takes every stone off. `stones` are their cells: the dense layout clears just those,
    /// the table clears itself and keeps its size (no allocation for the next game).
    pub(super) fn clear(&mut self, stones: impl Iterator<Item = Cell>) {
        match self {
            Cells::Dense { width, slots, .. } => {
                for cell in stones {
                    slots[cell.x as usize * *width + cell.y as usize] = EMPTY;
                }
            }
            Cells::Sparse(table) => table.clear(),
        }
    }

    /// Calls `f` on every empty cell of `board`, by x then y (the order of [`Board::iter`]);
    /// the dense layout reads each row's slots in one run.
    pub(super) fn for_each_empty(&self, board: Board, mut f: impl FnMut(Cell)) {
        match self {
            Cells::Dense { width, slots, .. } => {
                let (n, s) = (board.n(), board.side());
                for x in 1..=n {
                    let lo = x.saturating_sub(s - 1).max(1);
                    let hi = (x + s - 1).min(n);
                    let row = x as usize * width;
                    let run = &slots[row + lo as usize..=row + hi as usize];
                    for (y, &slot) in (lo..).zip(run) {
                        if slot == EMPTY {
                            f(Cell::new(x, y));
                        }
                    }
                }
            }
            Cells::Sparse(table) => {
                for cell in board.iter() {
                    if table.get(cell.key()) == EMPTY {
                        f(cell);
                    }
                }
            }
        }
    }

    /// The slot of `cell`, which must be on `board` or next to it (coordinates up to
    /// `n + 1`).
    #[inline(always)]
    pub(super) fn get(&self, board: Board, cell: Cell) -> Slot {
        match self {
            Cells::Dense { width, slots, .. } => {
                let (x, y) = (cell.x as usize, cell.y as usize);
                if x >= *width || y >= *width {
                    return OFF_BOARD;
                }
                slots[x * width + y]
            }
            Cells::Sparse(table) => {
                if board.contains(cell) {
                    table.get(cell.key())
                } else {
                    OFF_BOARD
                }
            }
        }
    }

    /// The slots of the six neighbours of `cell` (on the board), in [`NEIGHBOURS`] order.
    #[inline(always)]
    pub(super) fn around(&self, board: Board, cell: Cell) -> [Slot; 6] {
        match self {
            Cells::Dense { width, slots, .. } => {
                let w = *width as isize;
                let at = cell.x as usize * *width + cell.y as usize;
                let offsets = [w + 1, 1, -w, -w - 1, -1, w];
                // An on-board cell lies inside the frame: its neighbours are in bounds.
                assert!(at > *width && at + *width + 1 < slots.len());
                offsets.map(|o| slots[at.wrapping_add_signed(o)])
            }
            Cells::Sparse(table) => NEIGHBOURS.map(|(dx, dy)| {
                let n = Cell::new(
                    cell.x.wrapping_add_signed(dx),
                    cell.y.wrapping_add_signed(dy),
                );
                if board.contains(n) {
                    table.get(n.key())
                } else {
                    OFF_BOARD
                }
            }),
        }
    }

    /// The corner or edges of the on-board `cell` ([`Board::border`]).
    #[inline(always)]
    pub(super) fn border(&self, board: Board, cell: Cell) -> Border {
        match self {
            Cells::Dense { width, borders, .. } => {
                borders[cell.x as usize * *width + cell.y as usize]
            }
            Cells::Sparse(_) => board.border(cell),
        }
    }

    /// Puts `slot` (a stone) on the empty on-board `cell`.
    #[inline(always)]
    pub(super) fn insert(&mut self, cell: Cell, slot: Slot) {
        match self {
            Cells::Dense { width, slots, .. } => {
                slots[cell.x as usize * *width + cell.y as usize] = slot;
            }
            Cells::Sparse(table) => table.insert(cell.key(), slot),
        }
    }

    /// Changes the stone on `cell` (for the swap: a new colour).
    pub(super) fn set(&mut self, cell: Cell, slot: Slot) {
        match self {
            Cells::Dense { width, slots, .. } => {
                slots[cell.x as usize * *width + cell.y as usize] = slot;
            }
            Cells::Sparse(table) => table.set(cell.key(), slot),
        }
    }

    /// Takes the newest stone, on `cell`, off.
    #[inline(always)]
    pub(super) fn remove_newest(&mut self, cell: Cell) {
        match self {
            Cells::Dense { width, slots, .. } => {
                slots[cell.x as usize * *width + cell.y as usize] = EMPTY;
            }
            Cells::Sparse(table) => table.remove_newest(cell.key()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The array while the framed square (n + 2 = 2S + 1 on a side) has at most 2^16 slots,
    /// that is up to side 127; the hash table beyond, so that the memory of a game on a large
    /// board follows its stones. A map reused across sizes switches both ways.
    #[test]
    fn the_layout_follows_the_board_size() {
        let board = |side| Board::new(side).unwrap();
        let dense = |cells: &Cells| match cells {
            Cells::Dense { slots, .. } => Some(slots.len()),
            Cells::Sparse(_) => None,
        };
        assert_eq!(dense(&Cells::new(board(2))), Some(25));
        assert_eq!(dense(&Cells::new(board(127))), Some(255 * 255));
        assert_eq!(dense(&Cells::new(board(128))), None);
        assert_eq!(dense(&Cells::new(board(3000))), None);
        let mut cells = Cells::new(board(3000));
        cells.resize(board(10));
        assert_eq!(dense(&cells), Some(21 * 21));
        cells.resize(board(500));
        assert_eq!(dense(&cells), None);
    }

    #[test]
    fn removals_after_growing_find_every_older_key() {
        // Grow the table (at 33 keys, and again at 65), then take the keys off newest first:
        // every older key must still be found after each removal.
        let mut rng = Rng::new(9);
        for trial in 0..300u32 {
            let mut table = Table::with_capacity(1);
            let mut keys: Vec<u64> = Vec::new();
            let count = 33 + trial as usize % 40;
            // Keys packed into a small square, so that home slots collide.
            while keys.len() < count {
                let key = Cell::new(1 + rng.below(12), 1 + rng.below(12)).key();
                if !keys.contains(&key) {
                    table.insert(key, 2 * keys.len() as u32);
                    keys.push(key);
                }
            }
            while let Some(key) = keys.pop() {
                table.remove_newest(key);
                for (k, &older) in keys.iter().enumerate() {
                    assert_eq!(table.get(older), 2 * k as u32, "trial {trial}");
                }
            }
        }
    }

    #[test]
    fn table_removes_newest_first_exactly() {
        let mut rng = Rng::new(3);
        let mut table = Table::with_capacity(1);
        let mut keys: Vec<u64> = Vec::new();
        for round in 0..4000u32 {
            if !keys.is_empty() && rng.below(3) == 0 {
                let key = keys.pop().unwrap();
                table.remove_newest(key);
                assert_eq!(table.get(key), EMPTY);
            } else {
                let key = Cell::new(1 + rng.below(100), 1 + rng.below(100)).key();
                if keys.contains(&key) {
                    continue;
                }
                table.insert(key, 2 * keys.len() as u32 + round % 2);
                keys.push(key);
            }
            assert_eq!(table.len, keys.len());
        }
        for (k, &key) in keys.iter().enumerate() {
            assert_eq!(table.get(key) >> 1, k as u32);
        }
        for x in 0..102 {
            for y in 0..102 {
                let key = Cell::new(x, y).key();
                assert_eq!(table.get(key) == EMPTY, !keys.contains(&key));
            }
        }
    }
}
