//! Grundy values g(a, b) of the a × b rectangle.
//!
//! A move at (x, y) of an a × b rectangle leaves four smaller rectangles, (x−1)×(y−1),
//! (x−1)×(b−y), (a−x)×(y−1) and (a−x)×(b−y), so
//!
//! g(a, b) = mex over 1 ≤ x ≤ a, 1 ≤ y ≤ b of g(x−1, y−1) ⊕ g(x−1, b−y) ⊕ g(a−x, y−1) ⊕ g(a−x, b−y).
//!
//! The four parts of (x, y) are those of its mirror images (a+1−x, y), (x, b+1−y) and
//! (a+1−x, b+1−y), so only the upper-left quarter of the cells is visited. [`shared`] is the
//! table up to [`SHARED_MAX`] (= 128, every position the bitboards hold), computed once on first
//! use; [`Table::compute`] builds larger tables on every core.

use std::fmt;
use std::sync::OnceLock;

use rayon::prelude::*;

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

    /// The table up to `max` on all of rayon's threads; `progress(a)` is called after row `a`
    /// (from 1 to `max`) is done.
    ///
    /// Row a of the table depends only on rows below a, so rows are computed in order and the
    /// rectangles a × b (b ≥ a) of one row in parallel. Instead of marking every move's value,
    /// the first rows of moves are marked and the other moves are only compared with the few
    /// smallest unmarked values, in vector compares; see the source of `row_value`.
    ///
    /// # Errors
    /// [`ValueTooLarge`] when a value does not fit 16 bits.
    pub fn compute(max: usize, progress: impl Fn(usize)) -> Result<Table, ValueTooLarge> {
        // One byte per value while the values fit (twice the vector lanes), then two.
        compute_widening::<u8>(max, &progress)
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

/// A table entry type for [`Table::compute`]: `u8` while values fit, then `u16`.
trait Entry:
    Copy + Default + Eq + std::ops::BitXor<Output = Self> + std::ops::BitOr<Output = Self> + Send + Sync
{
    fn index(self) -> usize;
    fn from_index(v: usize) -> Option<Self>;
    /// 1 when `b`, 0 otherwise.
    fn flag(b: bool) -> Self;
}

impl Entry for u8 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
    #[inline(always)]
    fn from_index(v: usize) -> Option<u8> {
        u8::try_from(v).ok()
    }
    #[inline(always)]
    fn flag(b: bool) -> u8 {
        u8::from(b)
    }
}

impl Entry for u16 {
    #[inline(always)]
    fn index(self) -> usize {
        usize::from(self)
    }
    #[inline(always)]
    fn from_index(v: usize) -> Option<u16> {
        u16::try_from(v).ok()
    }
    #[inline(always)]
    fn flag(b: bool) -> u16 {
        u16::from(b)
    }
}

/// [`Table::compute`] with entries of type `N` until a value does not fit, then `u16` from
/// that row on.
fn compute_widening<N: Entry + Into<u16>>(
    max: usize,
    progress: &impl Fn(usize),
) -> Result<Table, ValueTooLarge> {
    let mut narrow = Builder::<N>::new(max);
    let values = match narrow.fill(1, progress) {
        Ok(()) => narrow.values.into_iter().map(Into::into).collect(),
        Err(too_large) => {
            let widen = |v: Vec<N>| v.into_iter().map(Into::into).collect();
            let mut wide = Builder {
                max,
                values: widen(narrow.values),
                reversed: widen(narrow.reversed),
            };
            wide.fill(too_large.rows, progress)?;
            wide.values
        }
    };
    Ok(Table { max, values })
}

/// A table under construction with entries of type `T`.
struct Builder<T> {
    max: usize,
    /// Row-major (max + 1) × (max + 1), both triangles filled as rows are done.
    values: Vec<T>,
    /// Each row reversed, so the mirror terms g(·, b − y) are read forwards.
    reversed: Vec<T>,
}

impl<T: Entry> Builder<T> {
    fn new(max: usize) -> Self {
        let w = max + 1;
        Builder {
            max,
            values: vec![T::default(); w * w],
            reversed: vec![T::default(); w * w],
        }
    }

    /// Computes rows `from..=max` (the rows below `from` are done).
    ///
    /// # Errors
    /// The first rectangle whose value does not fit `T`; the rows below it are done.
    fn fill(&mut self, from: usize, progress: &impl Fn(usize)) -> Result<(), ValueTooLarge> {
        let (max, w) = (self.max, self.max + 1);
        let mut row = Vec::with_capacity(w);
        for a in from..=max {
            let rows = Rows {
                values: &self.values,
                reversed: &self.reversed,
                w,
            };
            (a..max + 1)
                .into_par_iter()
                .map_init(Vec::new, |seen, b| row_value(&rows, a, b, seen))
                .collect_into_vec(&mut row);
            for (b, &v) in (a..=max).zip(&row) {
                let v = T::from_index(v).ok_or(ValueTooLarge { rows: a, cols: b })?;
                self.values[a * w + b] = v;
                self.values[b * w + a] = v;
                self.reversed[a * w + (max - b)] = v;
                self.reversed[b * w + (max - a)] = v;
            }
            progress(a);
        }
        Ok(())
    }
}

/// Read access to the filled rows of a table under construction.
struct Rows<'a, T> {
    values: &'a [T],
    reversed: &'a [T],
    w: usize,
}

impl<T: Entry> Rows<'_, T> {
    /// The row `x − 1` and `a − x` terms of the moves (x, 1 + i), i < `h` ≤ b, as four slices:
    /// g(x−1, i), g(a−x, i), g(x−1, b−1−i), g(a−x, b−1−i).
    #[inline(always)]
    fn terms(&self, a: usize, h: usize, b: usize, x: usize) -> [&[T]; 4] {
        let shift = self.w - b;
        let row = |k: usize| &self.values[k * self.w..][..h];
        let rev = |k: usize| &self.reversed[k * self.w + shift..][..h];
        [row(x - 1), row(a - x), rev(x - 1), rev(a - x)]
    }
}

/// Lanes handled together by the vectorised loop.
const LANES: usize = 16;

/// The smallest b for which whole vectors of moves fit in ⌈b/2⌉ rounded up to [`LANES`].
const VECTOR_MIN: usize = 2 * LANES;

/// Candidate values tested in one pass of [`hits`].
const CANDIDATES: usize = 4;

/// Rows of moves whose values are marked one by one before the candidate passes.
const MARKED_ROWS: usize = 3;

/// g(a, b) for b ≥ a from the rows below `a`; `seen` is a reusable bitset.
///
/// Marking every move's value in a bitset costs a scattered store per move. Instead the values
/// of the first few rows of moves are marked, which gives the first few *candidates* (the
/// smallest unmarked values). A pass over the other moves then only compares each value with
/// the candidates, a loop the compiler turns into vector compares, and stops as soon as every
/// candidate is hit. The mex is the first candidate no move hits; if all were hit, they are
/// marked and the next candidates are tried.
fn row_value<T: Entry>(rows: &Rows<'_, T>, a: usize, b: usize, seen: &mut Vec<u64>) -> usize {
    let half_a = a.div_ceil(2);
    seen.clear();
    let mark = |seen: &mut Vec<u64>, v: usize| {
        if v / 64 >= seen.len() {
            seen.resize(v / 64 + 1, 0);
        }
        seen[v / 64] |= 1 << (v % 64);
    };
    // Small rectangles: mark every move.
    let marked = if b < VECTOR_MIN {
        half_a
    } else {
        half_a.min(MARKED_ROWS)
    };
    for x in 1..=marked {
        let [up, down, up_r, down_r] = rows.terms(a, b.div_ceil(2), b, x);
        for i in 0..up.len() {
            mark(seen, (up[i] ^ down[i] ^ up_r[i] ^ down_r[i]).index());
        }
    }
    if marked == half_a {
        return mex(seen);
    }
    let mut next = 0;
    loop {
        // The next candidates: the smallest values not marked yet.
        let mut candidates = [T::default(); CANDIDATES];
        let mut numbers = [0; CANDIDATES];
        for (slot, number) in candidates.iter_mut().zip(&mut numbers) {
            while next / 64 < seen.len() && seen[next / 64] >> (next % 64) & 1 == 1 {
                next += 1;
            }
            // A candidate beyond the entry type is the answer: the caller reports it too large.
            let Some(c) = T::from_index(next) else {
                return next;
            };
            (*slot, *number) = (c, next);
            next += 1;
        }
        let hit = hits(rows, a, b, marked + 1..=half_a, &candidates);
        match (0..CANDIDATES).find(|&k| hit & (1 << k) == 0) {
            Some(k) => return numbers[k],
            None => numbers.iter().for_each(|&n| mark(seen, n)),
        }
    }
}

/// Bit k is set when a move in rows `xs` of the a × b rectangle has the value `candidates[k]`;
/// stops soon after every candidate has been hit. Needs b ≥ [`VECTOR_MIN`].
fn hits<T: Entry>(
    rows: &Rows<'_, T>,
    a: usize,
    b: usize,
    xs: std::ops::RangeInclusive<usize>,
    candidates: &[T; CANDIDATES],
) -> u32 {
    const ALL: u32 = (1 << CANDIDATES) - 1;
    // Whole vectors: lanes past ⌈b/2⌉ are moves of the mirrored half (still < b), harmless.
    let len = b.div_ceil(2).next_multiple_of(LANES);
    debug_assert!(len <= b);
    let mut acc = [[T::default(); LANES]; CANDIDATES];
    let mut hit = 0;
    for (n, x) in xs.enumerate() {
        let [up, down, up_r, down_r] = rows.terms(a, len, b, x);
        for (((u, d), ur), dr) in up
            .chunks_exact(LANES)
            .zip(down.chunks_exact(LANES))
            .zip(up_r.chunks_exact(LANES))
            .zip(down_r.chunks_exact(LANES))
        {
            let mut v = [T::default(); LANES];
            for l in 0..LANES {
                v[l] = u[l] ^ d[l] ^ ur[l] ^ dr[l];
            }
            // Branch-free: lane l of acc[k] becomes non-zero once a value there equals
            // candidate k (a vector compare and OR per candidate).
            for (acc, &c) in acc.iter_mut().zip(candidates) {
                for l in 0..LANES {
                    acc[l] = acc[l] | T::flag(v[l] == c);
                }
            }
        }
        if n % 8 == 7 {
            hit = reduce(&acc);
            if hit == ALL {
                return hit;
            }
        }
    }
    hit | reduce(&acc)
}

/// Bit k set when some lane of `acc[k]` is non-zero.
fn reduce<T: Entry>(acc: &[[T; LANES]; CANDIDATES]) -> u32 {
    let mut hit = 0;
    for (k, acc) in acc.iter().enumerate() {
        if acc.iter().any(|&f| f != T::default()) {
            hit |= 1 << k;
        }
    }
    hit
}

/// The table up to [`SHARED_MAX`] as bytes (every value is below 256), row-major
/// 129 × 129, written by [`Table::new`]: the test `embedded_table_is_current` checks it (and
/// rewrites it when `BITGAMES_WRITE_GRID_TABLE` is set). Embedding the table takes no time at
/// start-up; computing it there with the plain loop takes about 20 ms.
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

/// [`g`] without its message, for the hot path of [`crate::grid::Grid`], whose sides never
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
        if std::env::var_os("BITGAMES_WRITE_GRID_TABLE").is_some() {
            std::fs::write("src/grid/table128.bin", &bytes).unwrap();
        }
        assert!(plain.largest() < 256);
        assert!(
            bytes == EMBEDDED[..],
            "run with BITGAMES_WRITE_GRID_TABLE=1 to rewrite"
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

    #[test]
    fn both_entry_types_agree() {
        let plain = Table::new(90);
        let mut wide = Builder::<u16>::new(90);
        wide.fill(1, &|_| ()).unwrap();
        assert_eq!(wide.values, plain.values);
        let mut narrow = Builder::<u8>::new(90);
        narrow.fill(1, &|_| ()).unwrap();
        assert!(narrow.values.iter().map(|&v| u16::from(v)).eq(plain.values));
    }

    #[test]
    fn values_too_large_for_the_entry_type_are_reported() {
        // g(2, 2) = 0 and g(2, 3) = 2 > 1: a 1-bit entry type fails at 2 × 3, rows below done.
        let mut tiny = Builder::<Bit>::new(3);
        assert_eq!(
            tiny.fill(1, &|_| ()),
            Err(ValueTooLarge { rows: 2, cols: 3 })
        );
        assert_eq!(tiny.values[5], Bit(1), "g(1, 1)");
        // Table::compute's switch to two bytes, from one bit.
        assert_eq!(compute_widening::<Bit>(60, &|_| ()), Ok(Table::new(60)));
    }

    /// An entry type holding 0 and 1 only.
    #[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
    struct Bit(u8);

    impl From<Bit> for u16 {
        fn from(b: Bit) -> u16 {
            u16::from(b.0)
        }
    }

    impl std::ops::BitXor for Bit {
        type Output = Bit;
        fn bitxor(self, o: Bit) -> Bit {
            Bit(self.0 ^ o.0)
        }
    }

    impl std::ops::BitOr for Bit {
        type Output = Bit;
        fn bitor(self, o: Bit) -> Bit {
            Bit(self.0 | o.0)
        }
    }

    impl Entry for Bit {
        fn index(self) -> usize {
            usize::from(self.0)
        }
        fn from_index(v: usize) -> Option<Bit> {
            (v < 2).then_some(Bit(v as u8))
        }
        fn flag(b: bool) -> Bit {
            Bit(u8::from(b))
        }
    }

    #[test]
    fn mex_of_bitsets() {
        assert_eq!(mex(&[]), 0);
        assert_eq!(mex(&[0b1011]), 2);
        assert_eq!(mex(&[u64::MAX]), 64);
        assert_eq!(mex(&[u64::MAX, 1]), 65);
    }
}
