//! The sparse layout's index of stones: a linear-probing hash table and the row-segment filter.

use super::EMPTY;
use crate::havannah::geometry::{Cell, NEIGHBOURS};

/// The odd multiplier of the Fibonacci hash (2^64 / φ).
const HASH_FACTOR: u64 = 0x9e37_79b9_7f4a_7c15;

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
pub(super) struct Table {
    /// Stone numbers, [`EMPTY`] in a free slot.
    pub(super) slots: Vec<u32>,
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
    pub(super) fn reset(&mut self, stones: usize) {
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
    pub(super) fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(HASH_FACTOR) >> self.shift) as usize
    }

    /// The filter word of the segment whose key's hash product is `product`.
    #[inline(always)]
    pub(super) fn word(&self, product: u64) -> u64 {
        self.filter[(product >> self.filter_shift) as usize]
    }

    /// Might a stone be on (x, y)?
    #[inline(always)]
    pub(super) fn maybe(&self, x: u32, y: u32) -> bool {
        self.word(segment_key(x, y).wrapping_mul(HASH_FACTOR)) >> (y & 63) & 1 == 1
    }

    /// Which of (x, y)'s neighbours may hold a stone (bit d for direction d, see
    /// [`NEIGHBOURS`]) and, as bit 6, whether (x, y) itself may. Needs `x, y ≥ 1`.
    #[inline(always)]
    pub(super) fn near(&self, x: u32, y: u32) -> u32 {
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
    pub(super) fn near_cells(&self, x: u32, y: u32) -> u32 {
        let mut near = u32::from(self.maybe(x, y)) << 6;
        for (d, &(dx, dy)) in NEIGHBOURS.iter().enumerate() {
            let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            near |= u32::from(self.maybe(nx, ny)) << d;
        }
        near
    }

    /// The stone on `cell` (`stones[k]` is stone k's cell), or [`EMPTY`].
    #[inline]
    pub(super) fn get(&self, cell: Cell, stones: &[Cell]) -> u32 {
        if !self.maybe(cell.x, cell.y) {
            return EMPTY;
        }
        self.probe(cell, stones)
    }

    /// The stone on `cell`, or [`EMPTY`], without the filter.
    #[inline]
    pub(super) fn probe(&self, cell: Cell, stones: &[Cell]) -> u32 {
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
    pub(super) fn insert(&mut self, cell: Cell, node: u32) {
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
    pub(super) fn grow(&mut self, stones: &[Cell]) {
        self.reset(stones.len().max(1) * 2);
        for (node, &cell) in stones.iter().enumerate() {
            self.insert(cell, node as u32);
        }
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
}
