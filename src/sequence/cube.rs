//! The packed cube: one bit per cell of an 8×8×8 box, bit = x + 8y + 64z (coordinates from 0).
//!
//! Boards of side n ≤ 7 use x, y, z < 7 only, so the last column, row and layer are padding that
//! is never set. A step in any of the 13 directions is then a fixed shift of the 512-bit value,
//! and a run that walks off one side lands in padding instead of wrapping onto the other.

use std::fmt;

use crate::simd::{self, Backend};

/// The largest board side the packed layout supports.
pub const MAX_N: u32 = 7;

/// The 13 line directions `(dx, dy, dz)`, each oriented so that its bit stride is positive.
pub const DIRECTIONS: [(i8, i8, i8); 13] = [
    (1, 0, 0),
    (0, 1, 0),
    (0, 0, 1),
    (1, 1, 0),
    (-1, 1, 0),
    (1, 0, 1),
    (-1, 0, 1),
    (0, 1, 1),
    (0, -1, 1),
    (1, 1, 1),
    (-1, -1, 1),
    (1, -1, 1),
    (-1, 1, 1),
];

/// The bit stride of each direction in [`DIRECTIONS`]: `dx + 8dy + 64dz`.
pub const STRIDES: [u32; 13] = {
    let mut s = [0; 13];
    let mut d = 0;
    while d < 13 {
        let (dx, dy, dz) = DIRECTIONS[d];
        s[d] = (dx as i32 + 8 * dy as i32 + 64 * dz as i32) as u32;
        d += 1;
    }
    s
};

/// The bit of cell `(x, y, z)`, coordinates from 0.
#[inline(always)]
pub const fn bit(x: u32, y: u32, z: u32) -> u16 {
    ((x & 7) | (y & 7) << 3 | (z & 7) << 6) as u16
}

/// A set of cells of the 8×8×8 box: 512 bits in eight words, one word per layer z.
///
/// `Debug` draws the 7×7 layers side by side, z = 1 on the left, y = 7 at the top:
///
/// ```
/// use bitgames::sequence::Cube;
/// let cube = Cube::EMPTY.with(0, 0, 0).with(1, 0, 1);
/// assert!(format!("{cube:?}").contains("X......  .X....."));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Cube(pub [u64; 8]);

impl Cube {
    /// No cell.
    pub const EMPTY: Cube = Cube([0; 8]);

    /// Every cell of a board of side `n` (≤ 8).
    pub const fn full(n: u32) -> Cube {
        let mut c = Cube::EMPTY;
        let mut z = 0;
        while z < n {
            let mut y = 0;
            while y < n {
                let mut x = 0;
                while x < n {
                    c = c.with(x, y, z);
                    x += 1;
                }
                y += 1;
            }
            z += 1;
        }
        c
    }

    /// Is cell `(x, y, z)` (from 0, each < 8) in the set?
    #[inline]
    pub const fn contains(self, x: u32, y: u32, z: u32) -> bool {
        let b = bit(x, y, z);
        self.0[(b >> 6) as usize] >> (b & 63) & 1 == 1
    }

    /// The set with cell `(x, y, z)` (from 0, each < 8) added.
    #[inline]
    #[must_use]
    pub const fn with(mut self, x: u32, y: u32, z: u32) -> Cube {
        let b = bit(x, y, z);
        self.0[(b >> 6) as usize] |= 1 << (b & 63);
        self
    }

    /// The set with cell `(x, y, z)` (from 0, each < 8) removed.
    #[inline]
    #[must_use]
    pub const fn without(mut self, x: u32, y: u32, z: u32) -> Cube {
        let b = bit(x, y, z);
        self.0[(b >> 6) as usize] &= !(1 << (b & 63));
        self
    }

    /// The number of cells.
    pub const fn count(self) -> u32 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            n += self.0[i].count_ones();
            i += 1;
        }
        n
    }

    /// Is the set empty?
    pub const fn is_empty(self) -> bool {
        self.count() == 0
    }

    /// The set of cells `c` such that `c + s` (bit index) is in this set: a shift towards bit 0
    /// by `s` bits (cells shifted past bit 0 are dropped).
    #[inline]
    #[must_use]
    pub const fn shr(self, s: u32) -> Cube {
        let (q, r) = ((s / 64) as usize, s % 64);
        let mut out = [0u64; 8];
        let mut i = 0;
        while i + q < 8 {
            let lo = self.0[i + q] >> r;
            let hi = if r > 0 && i + q + 1 < 8 {
                self.0[i + q + 1] << (64 - r)
            } else {
                0
            };
            out[i] = lo | hi;
            i += 1;
        }
        Cube(out)
    }

    /// The set of cells `c` such that `c - s` (bit index) is in this set: a shift away from
    /// bit 0 by `s` bits (cells shifted past bit 511 are dropped).
    #[inline]
    #[must_use]
    pub const fn shl(self, s: u32) -> Cube {
        let (q, r) = ((s / 64) as usize, s % 64);
        let mut out = [0u64; 8];
        let mut i = q;
        while i < 8 {
            let hi = self.0[i - q] << r;
            let lo = if r > 0 && i > q {
                self.0[i - q - 1] >> (64 - r)
            } else {
                0
            };
            out[i] = hi | lo;
            i += 1;
        }
        Cube(out)
    }

    /// The cells in both sets.
    #[inline]
    #[must_use]
    pub const fn and(self, other: Cube) -> Cube {
        let mut i = 0;
        let mut out = self.0;
        while i < 8 {
            out[i] &= other.0[i];
            i += 1;
        }
        Cube(out)
    }

    /// The cells in either set.
    #[inline]
    #[must_use]
    pub const fn or(self, other: Cube) -> Cube {
        let mut i = 0;
        let mut out = self.0;
        while i < 8 {
            out[i] |= other.0[i];
            i += 1;
        }
        Cube(out)
    }

    /// The cells of this set that are not in `other`.
    #[inline]
    #[must_use]
    pub const fn minus(self, other: Cube) -> Cube {
        let mut i = 0;
        let mut out = self.0;
        while i < 8 {
            out[i] &= !other.0[i];
            i += 1;
        }
        Cube(out)
    }

    /// The cells as coordinates `(x, y, z)` from 0, in bit order (z, then y, then x).
    pub fn cells(self) -> impl Iterator<Item = (u32, u32, u32)> {
        (0..8u32).flat_map(move |z| {
            let mut word = self.0[z as usize];
            std::iter::from_fn(move || {
                if word == 0 {
                    return None;
                }
                let b = word.trailing_zeros();
                word &= word - 1;
                Some((b & 7, b >> 3, z))
            })
        })
    }

    /// Does the set hold `m` (≥ 1) cells in a straight line, consecutive, in any of the 13
    /// directions? The full-board detector: a doubling shift-and chain per direction, on the best
    /// SIMD back end of this CPU ([`Backend::detect`]).
    ///
    /// Only meaningful for sets inside a side-7 board (the padding must be clear).
    ///
    /// ```
    /// use bitgames::sequence::Cube;
    /// let diagonal = Cube::EMPTY.with(0, 0, 0).with(1, 1, 1).with(2, 2, 2);
    /// assert!(diagonal.has_line(3));
    /// assert!(!diagonal.has_line(4));
    /// ```
    pub fn has_line(self, m: u32) -> bool {
        self.has_line_on(Backend::detect(), m)
    }

    /// [`Cube::has_line`] on a chosen back end (portable when `backend` is not available).
    pub fn has_line_on(self, backend: Backend, m: u32) -> bool {
        match m {
            0 => true,
            1 => !self.is_empty(),
            _ => simd::has_run_on(backend, &self.0, &STRIDES, m),
        }
    }
}

impl fmt::Debug for Cube {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Cube (layers z = 1..7, y = 7 at the top, x = 1 at the left):"
        )?;
        for y in (0..MAX_N).rev() {
            for z in 0..MAX_N {
                if z > 0 {
                    f.write_str("  ")?;
                }
                for x in 0..MAX_N {
                    f.write_str(if self.contains(x, y, z) { "X" } else { "." })?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// `BOARDS[n]`: [`Cube::full`]`(n)` for n ≤ 8, built at compile time.
pub(crate) static BOARDS: [Cube; 9] = {
    let mut boards = [Cube::EMPTY; 9];
    let mut n = 0;
    while n < 9 {
        boards[n] = Cube::full(n as u32);
        n += 1;
    }
    boards
};

/// Size of a line table, rounded up to a power of two so that masking an index proves it in
/// bounds. The x lines take slots `y + 8z` (0..64), so the first 64 bytes of a line table *are*
/// the colour's [`Cube`]; every other line through a cell of the side-7 board gets a slot from
/// 64 on (6 × 91 + 4 × 127 + 2 × 49 = 1152 of them); lines made of padding cells only share the
/// last slot, [`DEAD`].
pub(crate) const SLOTS: usize = 2048;

/// Slots `0..LIVE_SLOTS` hold the lines through cells of a side-7 board; no ball is ever
/// recorded past them.
pub(crate) const LIVE_SLOTS: usize = 64 + 1152;

/// The slot of the lines that hold no cell of a side-7 board (no ball ever lands there).
pub(crate) const DEAD: usize = SLOTS - 1;

/// The slot lane `k` (< 16) of [`LiveLines`] reads and writes past a cell's live lines, with
/// bit 0: one unused slot a lane from [`DEAD`] down, so that the lanes of one ball, and of
/// the balls after it, do not wait on one another's stores to a shared byte.
pub(crate) const fn dead_lane(k: usize) -> usize {
    DEAD - (k & 15)
}
const _: () = assert!(dead_lane(15) >= LIVE_SLOTS);

/// The line table: for every cell bit and direction, the slot of the line through the cell
/// (< [`SLOTS`]) and the cell's bit in that line's byte. Built at compile time by walking every
/// line of the 8×8×8 box from its first cell.
pub(crate) struct Lines {
    /// `slot[b][d]`: the line of direction `d` through cell bit `b`.
    pub(crate) slot: [[u16; 16]; 512],
    /// `bit[b][d]`: `1 << position` of cell bit `b` along that line.
    pub(crate) bit: [[u8; 16]; 512],
}

/// Is coordinate `c` inside the 8×8×8 box?
const fn inside(c: i32) -> bool {
    c >= 0 && c < 8
}

/// Is coordinate `c` on a side-7 board?
const fn on_board(c: i32) -> bool {
    c >= 0 && c < MAX_N as i32
}

pub(crate) static LINES: Lines = {
    let mut table = Lines {
        slot: [[0; 16]; 512],
        bit: [[0; 16]; 512],
    };
    let mut next_slot = 64;
    let mut d = 0;
    while d < 13 {
        let (dx, dy, dz) = (
            DIRECTIONS[d].0 as i32,
            DIRECTIONS[d].1 as i32,
            DIRECTIONS[d].2 as i32,
        );
        let mut start: usize = 0;
        while start < 512 {
            let (x, y, z) = (
                (start & 7) as i32,
                (start >> 3 & 7) as i32,
                (start >> 6) as i32,
            );
            if !(inside(x - dx) && inside(y - dy) && inside(z - dz)) {
                // `start` begins a line: is any of its cells on the board?
                let (mut cx, mut cy, mut cz) = (x, y, z);
                let mut live = false;
                while inside(cx) && inside(cy) && inside(cz) {
                    live = live || (on_board(cx) && on_board(cy) && on_board(cz));
                    cx += dx;
                    cy += dy;
                    cz += dz;
                }
                let slot = if d == 0 {
                    start >> 3
                } else if live {
                    next_slot += 1;
                    next_slot - 1
                } else {
                    DEAD
                };
                let (mut cx, mut cy, mut cz, mut pos) = (x, y, z, 0);
                while inside(cx) && inside(cy) && inside(cz) {
                    let b = (cx + 8 * cy + 64 * cz) as usize;
                    table.slot[b][d] = slot as u16;
                    table.bit[b][d] = 1 << pos;
                    cx += dx;
                    cy += dy;
                    cz += dz;
                    pos += 1;
                }
            }
            start += 1;
        }
        d += 1;
    }
    assert!(next_slot == LIVE_SLOTS && next_slot < DEAD);
    // Every slot is a valid index of a line table: the line updates rely on it.
    let mut b = 0;
    while b < 512 {
        let mut d = 0;
        while d < 16 {
            assert!((table.slot[b][d] as usize) < SLOTS);
            d += 1;
        }
        b += 1;
    }
    table
};

/// The lines through each cell of a side-n board that can hold a sequence of m: those with at
/// least m cells on the board. A shorter line never holds a sequence nor a threat, so a ball
/// is recorded in its live lines only; [`Game`](super::Game) keeps the other lines' bytes at
/// zero (at m = n = 7 a cell has 3.9 live lines on average, against 13 at m = 1).
pub(crate) struct LiveLines {
    /// `slot[b][k]` for `k < count[b]`: the line of the k-th live direction through cell bit
    /// `b`, as in [`LINES`]; [`dead_lane`]`(k)` after them, and for every cell off the board.
    pub(crate) slot: [[u16; 16]; 512],
    /// `bit[b][k]`: the cell's bit in that line's byte, as in [`LINES`]; 0 after the live lines.
    pub(crate) bit: [[u8; 16]; 512],
    /// `dir[b][k]`: the direction (an index of [`DIRECTIONS`]) of that line.
    pub(crate) dir: [[u8; 16]; 512],
    /// The number of live lines through cell bit `b` (0 off the board).
    pub(crate) count: [u8; 512],
    /// The board side n.
    pub(crate) n: u8,
    /// The fewest lanes that hold every live line of at least 7 in 8 of the board's cells: a
    /// loop over that many lanes (the ones past a cell's live lines are [`dead_lane`]s, bit
    /// 0) runs the same number of times on every ball, which the CPU predicts, and the other
    /// cells take a second loop.
    pub(crate) common: u8,
    /// `near_slot[b · L + k]` for `k < L`, L = [`LiveLines::lanes`]: `slot[b][k]`, the lines
    /// a loop over L lanes reads, L a cell instead of 16. A playout reads them on every ball:
    /// packed, with `near_bit`, they take 3 L bytes a cell instead of the 48 of a `slot` and a
    /// `bit` row (a quarter at L = 4, under half at L = 7).
    pub(crate) near_slot: [u16; 512 * 13],
    /// `near_bit[b · L + k]`: `bit[b][k]`, packed as `near_slot`.
    pub(crate) near_bit: [u8; 512 * 13],
}

impl LiveLines {
    /// The lanes a loop over the live lines takes as a constant, at least [`Self::common`]:
    /// 4, 7, 10 or 13.
    pub(crate) fn lanes(&self) -> usize {
        match self.common {
            0..=4 => 4,
            5..=7 => 7,
            8..=10 => 10,
            _ => 13,
        }
    }

    /// The table for a side-n board and sequences of m (`1 ≤ m ≤ n ≤ 7`), built on first use
    /// (about 25 KB each) and kept for the life of the program.
    pub(crate) fn of(n: u32, m: u32) -> &'static LiveLines {
        static TABLES: [std::sync::OnceLock<Box<LiveLines>>; 64] =
            [const { std::sync::OnceLock::new() }; 64];
        debug_assert!(1 <= m && m <= n && n <= MAX_N);
        let (n, m) = (n.clamp(1, MAX_N), m.clamp(1, MAX_N));
        TABLES[(n * 8 + m) as usize & 63].get_or_init(|| Box::new(LiveLines::build(n, m)))
    }

    fn build(n: u32, m: u32) -> LiveLines {
        let mut table = LiveLines {
            slot: [std::array::from_fn(|k| dead_lane(k) as u16); 512],
            bit: [[0; 16]; 512],
            dir: [[0; 16]; 512],
            count: [0; 512],
            n: n as u8,
            common: 13,
            near_slot: [DEAD as u16; 512 * 13],
            near_bit: [0; 512 * 13],
        };
        let n = n as i32;
        let on = |c: [i32; 3]| c.iter().all(|&c| (0..n).contains(&c));
        for b in 0..512usize {
            let cell = [(b & 7) as i32, (b >> 3 & 7) as i32, (b >> 6) as i32];
            if !on(cell) {
                continue;
            }
            let mut k = 0;
            for (d, &(dx, dy, dz)) in DIRECTIONS.iter().enumerate() {
                // The cells of the line on the board: the steps each way to the nearest side
                // the direction moves along, and the cell itself.
                let (mut ahead, mut behind) = (n, n);
                for (c, step) in cell.into_iter().zip([dx, dy, dz]) {
                    match step {
                        1 => (ahead, behind) = (ahead.min(n - 1 - c), behind.min(c)),
                        -1 => (ahead, behind) = (ahead.min(c), behind.min(n - 1 - c)),
                        _ => {}
                    }
                }
                if 1 + ahead + behind >= m as i32 {
                    table.slot[b][k] = LINES.slot[b][d];
                    table.bit[b][k] = LINES.bit[b][d];
                    table.dir[b][k] = d as u8;
                    k += 1;
                }
            }
            table.count[b] = k as u8;
        }
        let cells = n.pow(3) as usize;
        table.common = (0..=13u8)
            .find(|&k| {
                // Off the board every count is 0: those 512 − n³ cells do not count.
                8 * (table.count.iter().filter(|&&c| c <= k).count() - (512 - cells)) >= 7 * cells
            })
            .unwrap_or(13);
        let lanes = table.lanes();
        for b in 0..512 {
            for k in 0..lanes {
                table.near_slot[b * lanes + k] = table.slot[b][k];
                table.near_bit[b * lanes + k] = table.bit[b][k];
            }
        }
        // The line updates index line bytes by these slots unchecked: `LINES`' slots (checked
        // when it is built) and the dead lanes only.
        let slots = table.slot.iter().flatten().chain(&table.near_slot);
        assert!(slots.into_iter().all(|&s| usize::from(s) < SLOTS));
        table
    }
}

/// `RUNS[m][v]` is 1 when the byte `v` holds `m` or more consecutive set bits, else 0.
pub(crate) static RUNS: [[u8; 256]; 9] = {
    let mut table = [[0u8; 256]; 9];
    let mut m = 0;
    while m <= 8 {
        let mut v = 0;
        while v < 256 {
            let (mut run, mut best) = (0, 0);
            let mut i = 0;
            while i < 8 {
                if v >> i & 1 == 1 {
                    run += 1;
                    if run > best {
                        best = run;
                    }
                } else {
                    run = 0;
                }
                i += 1;
            }
            if best >= m {
                table[m][v] = 1;
            }
            v += 1;
        }
        m += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Each cell's live lines are the directions whose line (the cells sharing its slot in
    /// [`LINES`]) has at least m cells on the board, live lanes first; `common` is the fewest
    /// lanes that cover 7 in 8 of the cells.
    #[test]
    fn live_lines_are_the_lines_of_m_cells_or_more() {
        for n in 1..=MAX_N {
            for m in 1..=n {
                let live = LiveLines::of(n, m);
                let on = |b: usize| {
                    (b & 7) < n as usize && (b >> 3 & 7) < n as usize && (b >> 6) < n as usize
                };
                for b in 0..512 {
                    let count = usize::from(live.count[b]);
                    let want: Vec<usize> = (0..13)
                        .filter(|&d| {
                            on(b)
                                && (0..512)
                                    .filter(|&c| on(c) && LINES.slot[c][d] == LINES.slot[b][d])
                                    .count()
                                    >= m as usize
                        })
                        .collect();
                    let got: Vec<usize> = live.dir[b][..count]
                        .iter()
                        .map(|&d| usize::from(d))
                        .collect();
                    assert_eq!(got, want, "n {n} m {m} cell {b}");
                    for (k, &d) in want.iter().enumerate() {
                        assert_eq!(
                            (live.slot[b][k], live.bit[b][k]),
                            (LINES.slot[b][d], LINES.bit[b][d])
                        );
                    }
                    for k in count..16 {
                        assert_eq!(usize::from(live.slot[b][k]), dead_lane(k));
                    }
                    assert!(live.bit[b][count..].iter().all(|&bit| bit == 0));
                    // The packed copy a playout reads: the first `lanes()` of each cell.
                    let lanes = live.lanes();
                    assert_eq!(
                        live.near_slot[b * lanes..][..lanes],
                        live.slot[b][..lanes],
                        "n {n} m {m} cell {b}"
                    );
                    assert_eq!(live.near_bit[b * lanes..][..lanes], live.bit[b][..lanes]);
                }
                let cells = (0..512).filter(|&b| on(b)).count();
                let covered = |k: u8| (0..512).filter(|&b| on(b) && live.count[b] <= k).count();
                assert!(8 * covered(live.common) >= 7 * cells, "n {n} m {m}");
                assert!(live.common == 0 || 8 * covered(live.common - 1) < 7 * cells);
            }
        }
        // At m = n = 7 a cell has 1351 / 343 live lines on average.
        let live = LiveLines::of(7, 7);
        assert_eq!(live.count.iter().map(|&c| u32::from(c)).sum::<u32>(), 1351);
    }

    #[test]
    fn debug_draws_the_layers_side_by_side() {
        // (x, y, z) from 0: the ball at the origin is bottom left of the first layer.
        let cube = Cube::EMPTY.with(0, 0, 0).with(6, 6, 6).with(2, 3, 1);
        let text = format!("{cube:?}");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + MAX_N as usize);
        assert!(lines[0].starts_with("Cube (layers z = 1..7"));
        let empty = ".......";
        let row = |layers: [&str; 7]| layers.join("  ");
        let mut want = vec![row([empty; 7]); 7];
        want[0] = row([empty, empty, empty, empty, empty, empty, "......X"]);
        want[3] = row([empty, "..X....", empty, empty, empty, empty, empty]);
        want[6] = row(["X......", empty, empty, empty, empty, empty, empty]);
        assert_eq!(&lines[1..], want.as_slice());
    }

    #[test]
    fn strides_are_positive_and_distinct() {
        let mut s = STRIDES.to_vec();
        s.sort_unstable();
        s.dedup();
        assert_eq!(s, vec![1, 7, 8, 9, 55, 56, 57, 63, 64, 65, 71, 72, 73]);
    }

    #[test]
    fn line_table_walks_each_line_in_order() {
        let mut owner = vec![None; SLOTS];
        for (d, &(dx, dy, dz)) in DIRECTIONS.iter().enumerate() {
            for b in 0..512 {
                let (slot, bit) = (LINES.slot[b][d], LINES.bit[b][d]);
                let (x, y, z) = ((b & 7) as i32, (b >> 3 & 7) as i32, (b >> 6) as i32);
                let (nx, ny, nz) = (x + dx as i32, y + dy as i32, z + dz as i32);
                if (0..8).contains(&nx) && (0..8).contains(&ny) && (0..8).contains(&nz) {
                    let nb = (nx + 8 * ny + 64 * nz) as usize;
                    assert_eq!(LINES.slot[nb][d], slot, "the next cell shares the line");
                    assert_eq!(LINES.bit[nb][d], bit << 1, "one position further");
                }
                assert!(bit.is_power_of_two());
                if d == 0 {
                    // The x lines are the cube's own bytes.
                    assert_eq!((usize::from(slot), bit), (b >> 3, 1 << (b & 7)));
                }
                let on_board = x < 7 && y < 7 && z < 7;
                if on_board {
                    assert_ne!(usize::from(slot), DEAD);
                    // A slot belongs to one direction only.
                    assert_eq!(*owner[usize::from(slot)].get_or_insert(d), d);
                }
            }
        }
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn runs_table_matches_a_string_search() {
        for (m, table) in RUNS.iter().enumerate() {
            for (v, &entry) in table.iter().enumerate() {
                let s = format!("{v:08b}");
                let want = s.contains(&"1".repeat(m));
                assert_eq!(entry == 1, want, "m={m} v={v}");
            }
        }
    }

    #[test]
    fn full_cube_counts_and_padding() {
        assert_eq!(Cube::full(7).count(), 343);
        assert!(!Cube::full(7).contains(7, 0, 0));
        assert!(Cube::full(7).has_line(7));
        assert!(Cube::EMPTY.is_empty());
        assert_eq!(Cube::EMPTY.with(6, 6, 6).without(6, 6, 6), Cube::EMPTY);
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn no_line_wraps_through_the_padding() {
        // Two cells of a side-7 board whose bits differ by a direction's stride are neighbours
        // in that direction: no shift can join cells across an edge.
        let cells: Vec<(i32, i32, i32)> = (0..343).map(|i| (i % 7, i / 7 % 7, i / 49)).collect();
        for &(x, y, z) in &cells {
            for &(a, b, c) in &cells {
                let diff = (a + 8 * b + 64 * c) - (x + 8 * y + 64 * z);
                for (d, &s) in STRIDES.iter().enumerate() {
                    if diff == s as i32 {
                        let (dx, dy, dz) = DIRECTIONS[d];
                        assert_eq!((a - x, b - y, c - z), (dx as i32, dy as i32, dz as i32));
                    }
                }
            }
        }
        let c = Cube::EMPTY
            .with(5, 0, 0)
            .with(6, 0, 0)
            .with(0, 1, 0)
            .with(1, 1, 0);
        assert!(!c.has_line(3));
        assert!(c.has_line(2));
    }
}
