//! Grundy values g(a, b) of the a × b rectangle.
//!
//! A move at (x, y) of an a × b rectangle leaves four smaller rectangles, (x−1)×(y−1),
//! (x−1)×(b−y), (a−x)×(y−1) and (a−x)×(b−y), so
//!
//! g(a, b) = mex over 1 ≤ x ≤ a, 1 ≤ y ≤ b of g(x−1, y−1) ⊕ g(x−1, b−y) ⊕ g(a−x, y−1) ⊕ g(a−x, b−y).
//!
//! The four parts of (x, y) are those of its mirror images (a+1−x, y), (x, b+1−y) and
//! (a+1−x, b+1−y), so only the upper-left quarter of the cells is visited. [`shared`] is the
//! table up to [`SHARED_MAX`] (= 128, every position the bitboards hold), embedded in the
//! binary; [`Table::compute`] and [`Census`] build larger tables on every core.

mod census;

use std::fmt;
use std::sync::OnceLock;

pub use census::{Census, CheckpointError};

/// The largest side of the [`shared`] table.
pub const SHARED_MAX: usize = 128;

/// The Grundy values g(a, b) for 0 ≤ a, b ≤ `max` (g(0, b) = 0: an empty rectangle).
///
/// ```
/// use bitgames::grid::grundy::Table;
///
/// let t = Table::new(12);
/// assert_eq!(t.get(2, 2), 0);
/// assert_eq!(t.get(1, 7), 1);
/// assert_eq!(t.zeros(), vec![(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)]);
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct Table {
    max: usize,
    /// Row-major (max + 1) × (max + 1), both triangles filled.
    values: Vec<u16>,
}

/// Why [`Table::compute`] could not build a table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct ValueTooLarge {
    /// The rectangle whose value does not fit 16 bits.
    pub rows: usize,
    /// Its other side.
    pub cols: usize,
}

impl fmt::Display for ValueTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the Grundy value of the {} × {} rectangle does not fit 16 bits",
            self.rows, self.cols
        )
    }
}

impl std::error::Error for ValueTooLarge {}

impl Table {
    /// The table up to `max`, by a plain single-threaded loop over the quarter of the cells.
    ///
    /// Fine up to a few hundred; use [`Table::compute`] beyond.
    ///
    /// # Panics
    /// When a value does not fit 16 bits (far beyond any size this loop is meant for).
    pub fn new(max: usize) -> Table {
        let w = max + 1;
        let mut values = vec![0u16; w * w];
        let mut seen: Vec<u64> = Vec::new();
        for a in 1..=max {
            for b in a..=max {
                let v = quarter_mex(&values, w, a, b, &mut seen);
                let v = u16::try_from(v).expect("Grundy value fits 16 bits");
                values[a * w + b] = v;
                values[b * w + a] = v;
            }
        }
        Table { max, values }
    }

    /// The table up to `max` on all of rayon's threads, by a [`Census`]; `progress(a)` is
    /// called after row `a` (from 1 to `max`) is done.
    ///
    /// # Errors
    /// [`ValueTooLarge`] when a value does not fit 16 bits.
    pub fn compute(max: usize, mut progress: impl FnMut(usize)) -> Result<Table, ValueTooLarge> {
        let mut census = Census::new(max);
        while census.next_row()? {
            progress(census.rows_done());
        }
        Ok(census.into_table())
    }

    /// The largest side in the table.
    pub fn max(&self) -> usize {
        self.max
    }

    /// g(a, b).
    ///
    /// # Panics
    /// When `a` or `b` exceeds [`Table::max`].
    #[inline]
    pub fn get(&self, a: usize, b: usize) -> u16 {
        assert!(
            a <= self.max && b <= self.max,
            "{a} × {b} is outside the table"
        );
        self.values[a * (self.max + 1) + b]
    }

    /// The largest value for sides 1..=`max`.
    pub fn largest(&self) -> u16 {
        self.values.iter().copied().max().unwrap_or(0)
    }

    /// The losing rectangles (g = 0) with 1 ≤ a ≤ b, in order of a then b.
    pub fn zeros(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 1..=self.max {
            for b in a..=self.max {
                if self.get(a, b) == 0 {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// Writes the table as CSV: a header `a,b,...` then one line per a with g(a, 1..=max).
    ///
    /// # Errors
    /// What `out` returns.
    pub fn write_csv(&self, out: &mut impl std::io::Write) -> std::io::Result<()> {
        write!(out, "a\\b")?;
        for b in 1..=self.max {
            write!(out, ",{b}")?;
        }
        writeln!(out)?;
        for a in 1..=self.max {
            write!(out, "{a}")?;
            for b in 1..=self.max {
                write!(out, ",{}", self.get(a, b))?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Table {
    /// The table as a square of numbers (rows a, columns b, from 1).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Table (max {}):", self.max)?;
        for a in 1..=self.max {
            for b in 1..=self.max {
                write!(f, "{:4}", self.get(a, b))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// The mex over the quarter of the moves of the a × b rectangle, from a table whose rows below
/// `a` and columns below `b` are filled; `seen` is a reusable bitset.
fn quarter_mex(values: &[u16], w: usize, a: usize, b: usize, seen: &mut Vec<u64>) -> usize {
    seen.clear();
    for x in 1..=a.div_ceil(2) {
        let up = &values[(x - 1) * w..x * w];
        let down = &values[(a - x) * w..(a - x + 1) * w];
        for y in 1..=b.div_ceil(2) {
            let v = usize::from(up[y - 1] ^ up[b - y] ^ down[y - 1] ^ down[b - y]);
            if v / 64 >= seen.len() {
                seen.resize(v / 64 + 1, 0);
            }
            seen[v / 64] |= 1 << (v % 64);
        }
    }
    mex(seen)
}

/// The smallest number whose bit is clear in `seen`.
fn mex(seen: &[u64]) -> usize {
    seen.iter()
        .position(|&word| word != u64::MAX)
        .map_or(seen.len() * 64, |i| {
            i * 64 + seen[i].trailing_ones() as usize
        })
}

/// The table up to [`SHARED_MAX`] as bytes (every value is below 256), row-major
/// 129 × 129, written by [`Table::new`] (`cargo run --example gen_grid -- table128`): the test
/// `embedded_table_is_current` checks it. Embedding the table takes no time at start-up;
/// computing it there with the plain loop takes about 20 ms.
static EMBEDDED: &[u8; (SHARED_MAX + 1) * (SHARED_MAX + 1)] = include_bytes!("table128.bin");

/// Side of the padded square [`square`]: indices of up to 8 bits need no bounds check.
const PADDED: usize = 256;

/// The embedded table padded with zeros to 256 × 256 (see [`square`]), for tables built at
/// compile time.
pub(crate) const fn padded_square() -> [[u8; PADDED]; PADDED] {
    let mut t = [[0; PADDED]; PADDED];
    let mut a = 0;
    while a <= SHARED_MAX {
        let mut b = 0;
        while b <= SHARED_MAX {
            t[a][b] = EMBEDDED[a * (SHARED_MAX + 1) + b];
            b += 1;
        }
        a += 1;
    }
    t
}

/// The embedded table as rows, padded with zeros to 256 × 256: the hot path indexes it with
/// bytes, which needs no bounds check. Only the part it reads (rows and columns up to the
/// grid's sides) comes into the cache, and with rows 256 bytes apart that is about as many
/// cache lines as the 129-byte rows take.
///
/// (The grid judge's hand-written move on x86-64 keeps its own copy, built by
/// [`padded_square`] too, beside its other tables: it reaches them all from one register.)
#[inline(always)]
pub(crate) fn square() -> &'static [[u8; PADDED]; PADDED] {
    static SQUARE: [[u8; PADDED]; PADDED] = padded_square();
    &SQUARE
}

/// The table up to [`SHARED_MAX`], shared (converted from the embedded bytes on first use).
pub fn shared() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table {
        max: SHARED_MAX,
        values: EMBEDDED.iter().copied().map(u16::from).collect(),
    })
}

/// g(a, b) up to [`SHARED_MAX`]: the values of the [`shared`] table, read from the embedded
/// bytes (half the cache footprint of the `u16` table).
///
/// ```
/// use bitgames::grid::grundy::g;
/// assert_eq!(g(10, 10), 0);
/// assert_ne!(g(10, 11), 0);
/// ```
///
/// # Panics
/// When a side exceeds [`SHARED_MAX`].
pub fn g(a: usize, b: usize) -> u16 {
    assert!(
        a <= SHARED_MAX && b <= SHARED_MAX,
        "{a} × {b} is outside the table"
    );
    embedded(a, b)
}

/// [`g`] without its message, for the hot path of [`crate::grid::Game`], whose sides never
/// exceed [`SHARED_MAX`]: the sides are used as bytes (a debug assertion checks the range), so
/// the look-up has no bounds check.
#[inline(always)]
pub(crate) fn embedded(a: usize, b: usize) -> u16 {
    debug_assert!(a <= SHARED_MAX && b <= SHARED_MAX, "{a} × {b}");
    u16::from(square()[usize::from(a as u8)][usize::from(b as u8)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg_attr(miri, ignore)]
    fn embedded_table_is_current() {
        let plain = Table::new(SHARED_MAX);
        let bytes: Vec<u8> = plain.values.iter().map(|&v| v as u8).collect();
        assert!(plain.largest() < 256);
        assert!(
            bytes == EMBEDDED[..],
            "src/grid/table128.bin is not the table Table::new(128) computes; regenerate it with \
             `cargo run --release --example gen_grid -- table128 > src/grid/table128.bin`"
        );
        assert!(shared() == &plain);
        for (a, row) in square().iter().enumerate() {
            for (b, &v) in row.iter().enumerate() {
                let want = if a.max(b) <= SHARED_MAX {
                    plain.get(a, b)
                } else {
                    0
                };
                assert_eq!(u16::from(v), want, "{a} × {b}");
            }
        }
    }

    #[test]
    fn parallel_table_equals_plain_table() {
        for max in [0, 1, 2, 5, 17, 40, 70] {
            assert_eq!(
                Table::compute(max, |_| ()),
                Ok(Table::new(max)),
                "max {max}"
            );
        }
    }

    /// The losing rectangles up to 12, by the plain table: 2 × 2, 4 × 4, 4 × 6, 8 × 12 and
    /// 10 × 10 (the published census's list), each once with a ≤ b.
    #[test]
    fn zeros_lists_the_losing_rectangles_once_each() {
        assert_eq!(
            Table::new(12).zeros(),
            [(2, 2), (4, 4), (4, 6), (8, 12), (10, 10)]
        );
        assert_eq!(Table::new(3).zeros(), [(2, 2)]);
        assert_eq!(Table::new(1).zeros(), []);
    }

    #[test]
    fn mex_of_bitsets() {
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[0b1011]), 2);
        assert_eq!(mex(&[u64::MAX]), 64);
        assert_eq!(mex(&[u64::MAX, 1]), 65);
    }
}
