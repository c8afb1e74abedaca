//! [`Census`]: the table of g(a, b) up to thousands, row by row on every core, with
//! checkpoints.
//!
//! Row a depends only on the rows below it. For a move in row x of an a × b rectangle, the
//! terms of rows x − 1 and a − x pair up: with p_x[k] = g(x−1, k) ⊕ g(a−x, k), the move at
//! (x, y) has the value p_x[y−1] ⊕ p_x[b−y]. So a row is computed from the ⌈a/2⌉ arrays p_x
//! (and each reversed, so that both terms are read forwards), shared by every b of the row.
//!
//! The mex of a rectangle is found without marking every move's value. The values of the first
//! rows of moves are marked in a bit set; the smallest values missing from it are the
//! *candidates* (at most four). The other rows are only compared with the candidates, a few
//! rows at a time, one vector compare per candidate and sixteen (or 32) moves; a candidate some move
//! has is dropped (marked). When none is left, the next smallest missing values are looked for
//! in the rows scanned so far, and those no move there has are the new candidates. Rows only
//! move forward; after the last one the first candidate is the mex: every smaller value is
//! marked, and no move has it. Values grow slowly (the largest up to 2048 is 256), so the first
//! rows mark nearly every value there is and the scan for the last candidates is the work.
//!
//! The rectangles of a row are split into runs, a few per thread. A run takes the rows of moves
//! in blocks small enough for the core's first-level cache, and every rectangle of the run
//! scans a block before the next block is read.
//!
//! Values below 256 are the rule (the largest up to 4096 is 259), so each p_x is kept twice:
//! in 16 bits, and as its low bytes. Where every term a rectangle reads from a row is below 256
//! and so is every candidate, a move's value is below 256 too and the low bytes compare exactly:
//! 32 moves a vector instead of 16. The other rows, and every row while a candidate is 256 or
//! more, are compared in 16 bits.

use std::fmt;
use std::io::{self, Read, Write};

use bitvec::vec::BitVec;
use rayon::prelude::*;

use super::{Table, ValueTooLarge};

/// Rows of moves per block: the low bytes of p_x and its reverse, 4 rows of 4097 values take
/// 32 KiB, a first-level cache.
const BLOCK: usize = 4;

/// Runs of rectangles per thread (for the balance: a rectangle's work grows with b).
const RUNS_PER_THREAD: usize = 8;

/// Rows of moves scanned for the candidates before the hits are looked at.
const GROUP: usize = 4;

/// Rows of moves a refill compares with its candidates before it drops those found.
const REFILL_ROWS: usize = 8;

/// Lanes of the scan: sixteen `u16` values, one AVX2 register.
const LANES: usize = 16;

/// Lanes of the scan of low bytes: 32 `u8` values, one AVX2 register.
const BYTE_LANES: usize = 32;

/// The b from which the scan of low bytes runs: its whole vectors of [`BYTE_LANES`] stay within
/// b cells from here (from b = 32 on, in fact), and smaller rectangles are marked whole.
const BYTES_MIN: usize = 2 * BYTE_LANES;

/// The smallest b whose moves the scan takes in whole vectors of [`LANES`] within b cells;
/// smaller rectangles have every move marked.
const VECTOR_MIN: usize = 2 * LANES;

/// The first bytes of a checkpoint file.
const MAGIC: &[u8; 21] = b"bitgames grid census\n";

/// The table of g(a, b) for 0 ≤ a, b ≤ `max` under construction: rows 1..=[`Census::rows_done`]
/// are computed (with their columns, by symmetry). A census can be saved after any row and
/// resumed from the file ([`Census::save`], [`Census::load`]).
///
/// ```
/// use bitgames::grid::grundy::{Census, Table};
///
/// let mut census = Census::new(40);
/// while census.rows_done() < 20 {
///     census.next_row()?;
/// }
/// let mut file = Vec::new();
/// census.save(&mut file)?;
/// let mut resumed = Census::load(&mut &file[..])?;
/// while resumed.next_row()? {}
/// assert_eq!(resumed.into_table(), Table::new(40));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Census {
    max: usize,
    done: usize,
    /// Row-major (max + 1) × (max + 1), both triangles filled for the rows done.
    values: Vec<u16>,
    /// The scan's instructions.
    scan: Scan,
    /// p_x and p_x reversed for the row under way, one after the other, each max + 1 long.
    pairs: Vec<u16>,
    /// The largest value of the rows done.
    top: u16,
    /// The low bytes of `pairs`, in the same places.
    bytes: Vec<u8>,
    /// For each p_x, the first k with p_x[k] ≥ 256 (max + 1 when there is none): a rectangle
    /// a × b with b up to this reads only values below 256 from the row.
    small_until: Vec<usize>,
}

/// Which scan [`Census`] runs: the portable loop, or the same loop compiled for AVX2.
#[derive(Debug, Clone, Copy)]
enum Scan {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2(crate::simd::x86::Avx2),
}

impl Scan {
    /// The best this CPU runs (under `BITGAMES_SIMD=portable`, the portable one).
    fn best() -> Scan {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::Backend::detect() != crate::simd::Backend::Portable
            && let Some(avx2) = crate::simd::x86::Avx2::new()
        {
            return Scan::Avx2(avx2);
        }
        Scan::Portable
    }
}

/// Why a checkpoint could not be read.
#[derive(Debug)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading failed.
    Io(io::Error),
    /// The bytes are not a checkpoint of a census: `what` says which part is wrong.
    Invalid {
        /// What was expected and not found.
        what: String,
    },
}

impl fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckpointError::Io(e) => write!(f, "{e}"),
            CheckpointError::Invalid { what } => {
                write!(f, "not a grid census checkpoint: {what}")
            }
        }
    }
}

impl std::error::Error for CheckpointError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CheckpointError::Io(e) => Some(e),
            CheckpointError::Invalid { .. } => None,
        }
    }
}

impl From<io::Error> for CheckpointError {
    fn from(e: io::Error) -> Self {
        CheckpointError::Io(e)
    }
}

impl Census {
    /// A census of g(a, b) up to `max`, no row done yet (g(0, b) = 0).
    pub fn new(max: usize) -> Census {
        Census::with_scan(max, Scan::best())
    }

    fn with_scan(max: usize, scan: Scan) -> Census {
        Census {
            max,
            done: 0,
            values: vec![0; (max + 1) * (max + 1)],
            scan,
            pairs: Vec::new(),
            top: 0,
            bytes: Vec::new(),
            small_until: Vec::new(),
        }
    }

    /// The largest side.
    pub fn max(&self) -> usize {
        self.max
    }

    /// Rows computed: g(a, b) is known for every a up to this and every b (and by symmetry
    /// for every b up to this and every a).
    pub fn rows_done(&self) -> usize {
        self.done
    }

    /// Computes the next row on all of rayon's threads; `false` when every row was done
    /// already (nothing changes then).
    ///
    /// # Errors
    /// [`ValueTooLarge`] when a value of the row does not fit 16 bits; the census is then
    /// unchanged.
    pub fn next_row(&mut self) -> Result<bool, ValueTooLarge> {
        if self.done == self.max {
            return Ok(false);
        }
        let (a, max, w) = (self.done + 1, self.max, self.max + 1);
        let half = a.div_ceil(2);
        // p_x for x = 1..=half, each followed by its reverse.
        self.pairs.resize(half * 2 * w, 0);
        self.bytes.resize(half * 2 * w, 0);
        self.small_until.resize(half, 0);
        let values = &self.values;
        self.pairs
            .par_chunks_mut(2 * w)
            .zip(self.bytes.par_chunks_mut(2 * w))
            .zip(&mut self.small_until)
            .enumerate()
            .for_each(|(i, ((pair, bytes), small_until))| {
                let (up, down) = (&values[i * w..][..w], &values[(a - 1 - i) * w..][..w]);
                *small_until = fill_row(up, down, pair, bytes);
            });
        // Every term is a XOR of two values of the table, so every move's value is below the
        // power of two above the largest value.
        let bound = (usize::from(self.top) + 1).next_power_of_two().max(64);
        let mut states: Vec<Rect> = (a..=max).map(|b| Rect::new(b, bound)).collect();
        let rows = Rows {
            w,
            pairs: &self.pairs,
            bytes: &self.bytes,
            small_until: &self.small_until,
        };
        let scan = self.scan;
        // Runs of rectangles, a few per thread, each scanning every block of rows in turn:
        // one parallel step a row of the table, and a block stays in the core's cache while
        // every rectangle of the run reads it.
        let run = states
            .len()
            .div_ceil(RUNS_PER_THREAD * rayon::current_num_threads())
            .max(1);
        states.par_chunks_mut(run).for_each(|rects| {
            for from in (0..half).step_by(BLOCK) {
                let block = from..(from + BLOCK).min(half);
                for rect in rects.iter_mut() {
                    rect.scan(scan, rows, block.clone());
                }
            }
        });
        let mut row = Vec::with_capacity(states.len());
        for (b, rect) in (a..=max).zip(&states) {
            let v = u16::try_from(rect.mex()).map_err(|_| ValueTooLarge { rows: a, cols: b })?;
            row.push(v);
        }
        for (b, v) in (a..=max).zip(row) {
            self.top = self.top.max(v);
            self.values[a * w + b] = v;
            self.values[b * w + a] = v;
        }
        self.done = a;
        Ok(true)
    }

    /// The table, its rows done so far and zeros past them.
    pub fn into_table(self) -> Table {
        Table {
            max: self.max,
            values: self.values,
        }
    }

    /// Writes the census (its size, the rows done and their values, a checksum) for
    /// [`Census::load`]: 2 (max + 1) bytes a row.
    ///
    /// # Errors
    /// What `out` returns.
    pub fn save(&self, out: &mut impl Write) -> io::Result<()> {
        let w = self.max + 1;
        let mut hash = Fnv::new();
        let mut put = |out: &mut dyn Write, bytes: &[u8]| {
            hash.add(bytes);
            out.write_all(bytes)
        };
        put(out, MAGIC)?;
        put(out, &(self.max as u32).to_le_bytes())?;
        put(out, &(self.done as u32).to_le_bytes())?;
        let mut bytes = Vec::with_capacity(2 * w);
        for a in 1..=self.done {
            bytes.clear();
            for &v in &self.values[a * w..][..w] {
                bytes.extend_from_slice(&v.to_le_bytes());
            }
            put(out, &bytes)?;
        }
        out.write_all(&hash.0.to_le_bytes())
    }

    /// A census as [`Census::save`] wrote it, to go on from its next row.
    ///
    /// # Errors
    /// [`CheckpointError::Io`] when reading fails, [`CheckpointError::Invalid`] (saying what
    /// is wrong) when the bytes are not such a file or were damaged.
    pub fn load(input: &mut impl Read) -> Result<Census, CheckpointError> {
        let mut hash = Fnv::new();
        let invalid = |what: String| CheckpointError::Invalid { what };
        let mut take = |input: &mut dyn Read, n: usize, what: &str| {
            let mut bytes = vec![0; n];
            input.read_exact(&mut bytes).map_err(|e| match e.kind() {
                io::ErrorKind::UnexpectedEof => invalid(format!("the file ends before {what}")),
                _ => CheckpointError::Io(e),
            })?;
            hash.add(&bytes);
            Ok::<_, CheckpointError>(bytes)
        };
        if take(input, MAGIC.len(), "its header")? != MAGIC {
            return Err(invalid(
                "it does not start with `bitgames grid census`".into(),
            ));
        }
        let word = |b: Vec<u8>| u32::from_le_bytes(b.try_into().expect("four bytes")) as usize;
        let max = word(take(input, 4, "the largest side")?);
        let done = word(take(input, 4, "the number of rows done")?);
        if done > max || max > u16::MAX as usize {
            return Err(invalid(format!(
                "{done} rows done of a census to {max} (at most {} sides)",
                u16::MAX
            )));
        }
        // Read in full and checked before the table is allocated: a damaged size cannot
        // ask for memory the file does not back.
        let w = max + 1;
        let mut rows = Vec::new();
        for a in 1..=done {
            rows.extend(take(input, 2 * w, &format!("row {a} of {done}"))?);
        }
        let want = hash.0;
        let mut sum = [0; 8];
        input.read_exact(&mut sum).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => invalid("the file ends before its checksum".into()),
            _ => CheckpointError::Io(e),
        })?;
        if u64::from_le_bytes(sum) != want {
            return Err(invalid(
                "the checksum does not match: the file is damaged".into(),
            ));
        }
        if input.read(&mut [0])? != 0 {
            return Err(invalid("more bytes follow the checksum".into()));
        }
        let mut census = Census::new(max);
        for (a, row) in (1..=done).zip(rows.chunks_exact(2 * w)) {
            for (b, v) in row.chunks_exact(2).enumerate() {
                let v = u16::from_le_bytes([v[0], v[1]]);
                census.values[a * w + b] = v;
                census.values[b * w + a] = v;
                census.top = census.top.max(v);
            }
        }
        census.done = done;
        Ok(census)
    }
}

impl fmt::Debug for Census {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Census")
            .field("max", &self.max)
            .field("rows_done", &self.done)
            .field("scan", &self.scan)
            .finish()
    }
}

/// 64-bit FNV-1a, the checkpoint's checksum.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn add(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// Writes p = `up` ⊕ `down` and its reverse into `pair` (twice their length) and the low bytes
/// of `pair` into `bytes`; returns the first k with p[k] ≥ 256 (the length when there is none).
fn fill_row(up: &[u16], down: &[u16], pair: &mut [u16], bytes: &mut [u8]) -> usize {
    let w = up.len();
    let (p, rev) = pair.split_at_mut(w);
    for ((p, &u), &d) in p.iter_mut().zip(up).zip(down) {
        *p = u ^ d;
    }
    for (r, &p) in rev.iter_mut().zip(p.iter().rev()) {
        *r = p;
    }
    let small_until = p.iter().position(|&v| v >= 256).unwrap_or(w);
    for (byte, &v) in bytes.iter_mut().zip(pair.iter()) {
        *byte = v as u8;
    }
    small_until
}

/// The rows of moves of the row under way: p_x and its reverse, in 16 bits and as low bytes.
#[derive(Clone, Copy)]
struct Rows<'a> {
    w: usize,
    pairs: &'a [u16],
    bytes: &'a [u8],
    small_until: &'a [usize],
}

impl<'a> Rows<'a> {
    /// The terms of the moves (x, 1 + i), i < `len`, of row x = 1 + r of an a × b rectangle,
    /// with those of [`BYTE_LANES`] low bytes when every value the rectangle reads from the row
    /// is below 256 (and b is at least [`BYTES_MIN`]).
    #[inline(always)]
    fn terms(self, r: usize, b: usize, len: usize) -> Terms<'a> {
        let w = self.w;
        let pair = &self.pairs[2 * w * r..][..2 * w];
        let bytes = (b >= BYTES_MIN && b <= self.small_until[r]).then(|| {
            let bytes = &self.bytes[2 * w * r..][..2 * w];
            let len = b.div_ceil(2).next_multiple_of(BYTE_LANES);
            (&bytes[..len], &bytes[w + w - b..][..len])
        });
        Terms {
            wide: (&pair[..len], &pair[w + w - b..][..len]),
            bytes,
        }
    }
}

/// The terms of one row of moves (see [`Rows::terms`]): moves i have the value
/// `wide.0[i] ^ wide.1[i]`, and when `bytes` is there, that value is `bytes.0[i] ^ bytes.1[i]`.
#[derive(Clone, Copy)]
struct Terms<'a> {
    wide: (&'a [u16], &'a [u16]),
    bytes: Option<(&'a [u8], &'a [u8])>,
}

/// The a × b rectangle of the row under way: what its moves have shown so far.
struct Rect {
    b: usize,
    /// Values some move has (those of the rows below [`MARKED`], and candidates found since).
    seen: BitVec<u64>,
    /// The candidates, ascending: values no move of the rows scanned so far has, every value
    /// below the first and between them being in `seen`. The first is the mex so far.
    cands: [u16; CANDIDATES],
    /// How many there are (at least one once the marked rows are done).
    n: usize,
}

/// Rows of moves whose values are all marked before the scans.
const MARKED: usize = 4;

/// Candidates at most.
const CANDIDATES: usize = 4;

impl Rect {
    /// The rectangle a × b of a row whose moves' values are all below `bound`.
    fn new(b: usize, bound: usize) -> Rect {
        Rect {
            b,
            seen: BitVec::repeat(false, bound),
            cands: [0; CANDIDATES],
            n: 0,
        }
    }

    /// The mex, once every row is scanned.
    fn mex(&self) -> usize {
        usize::from(self.cands[0])
    }

    /// Marks the values of the moves whose terms are `p` and `q`.
    fn mark_moves(&mut self, p: &[u16], q: &[u16]) {
        let words = self.seen.as_raw_mut_slice();
        let mut inside = true;
        for (&p, &q) in p.iter().zip(q) {
            let v = usize::from(p ^ q);
            match words.get_mut(v / 64) {
                Some(word) => *word |= 1 << (v % 64),
                None => inside = false,
            }
        }
        // Not reached: `seen` covers the bound of every move's value (`Rect::new`).
        if !inside {
            for (&p, &q) in p.iter().zip(q) {
                self.mark(usize::from(p ^ q));
            }
        }
    }

    /// Marks `v` as a value some move has.
    fn mark(&mut self, v: usize) {
        if v >= self.seen.len() {
            self.seen.resize((v + 1).next_multiple_of(64), false);
        }
        self.seen.set(v, true);
    }

    /// The smallest value from `from` on not in `seen`.
    fn missing_from(&self, from: usize) -> usize {
        self.seen
            .get(from..)
            .and_then(|rest| rest.first_zero())
            .map_or(from.max(self.seen.len()), |i| from + i)
    }

    /// Drops the candidates whose bit is set in `found` (marking them as values).
    fn drop_found(&mut self, found: u32) {
        let mut kept = 0;
        for k in 0..self.n {
            let c = self.cands[k];
            if found & 1 << k != 0 {
                self.mark(usize::from(c));
            } else {
                self.cands[kept] = c;
                kept += 1;
            }
        }
        self.n = kept;
    }

    /// Scans the rows `rows` (from 0, the block after the rows scanned before) of `all`.
    fn scan(&mut self, scan: Scan, all: Rows<'_>, rows: std::ops::Range<usize>) {
        let (b, half_b) = (self.b, self.b.div_ceil(2));
        let terms = |r: usize, len: usize| all.terms(r, b, len);
        // Small rectangles, and the first rows: every move marked.
        let marked = if b < VECTOR_MIN {
            rows.end
        } else {
            MARKED.min(rows.end)
        };
        for r in rows.start..marked {
            let (p, rev) = terms(r, half_b).wide;
            self.mark_moves(p, rev);
        }
        if rows.start < marked {
            self.n = 0;
            self.refill(scan, marked, |range| {
                range.map(|_| Terms {
                    wide: (&[], &[]),
                    bytes: None,
                })
            });
        }
        // Whole vectors: lanes past ⌈b/2⌉ are moves of the mirrored half (still within b
        // columns), harmless.
        let len = half_b.next_multiple_of(LANES);
        let mut r = rows.start.max(marked);
        while r < rows.end {
            let end = (r + GROUP).min(rows.end);
            let group = (r..end).map(|r| terms(r, len));
            let found = self.hits(scan, group);
            if found != 0 {
                self.drop_found(found);
                if self.n == 0 {
                    self.refill(scan, end, |range| range.map(|r| terms(r, len)));
                }
            }
            r = end;
        }
    }

    /// New candidates, none of them in the rows below `end`: the smallest values not in
    /// `seen`, looked for in the rows from [`MARKED`] to `end` by `terms`, a few at a time.
    fn refill<'a, I: Iterator<Item = Terms<'a>>>(
        &mut self,
        scan: Scan,
        end: usize,
        terms: impl Fn(std::ops::Range<usize>) -> I,
    ) {
        let lo = MARKED.min(end);
        'fresh: while self.n == 0 {
            let mut from = 0;
            for k in 0..CANDIDATES {
                from = self.missing_from(from);
                self.cands[k] = from.min(usize::from(u16::MAX)) as u16;
                from += 1;
            }
            self.n = CANDIDATES;
            // A few rows at a time, so that candidates found early leave the compares.
            let mut r = lo;
            while r < end {
                let e = (r + REFILL_ROWS).min(end);
                let found = self.hits(scan, terms(r..e));
                if found != 0 {
                    self.drop_found(found);
                    if self.n == 0 {
                        continue 'fresh;
                    }
                }
                r = e;
            }
        }
    }

    /// [`Scan::hits`] with the candidates; the low bytes where rows have them and every
    /// candidate is below 256.
    fn hits<'a>(&self, scan: Scan, rows: impl Iterator<Item = Terms<'a>>) -> u32 {
        let c = self.cands;
        let bytes = c[..self.n].iter().all(|&c| c < 256);
        match self.n {
            1 => scan.hits(&[c[0]], bytes, rows),
            2 => scan.hits(&[c[0], c[1]], bytes, rows),
            3 => scan.hits(&[c[0], c[1], c[2]], bytes, rows),
            _ => scan.hits(&c, bytes, rows),
        }
    }
}

impl Scan {
    /// Bit k set when a move of `rows` (their 16-bit terms of a length that is a multiple of
    /// [`LANES`], and their low bytes, if `bytes` and the row has them, of a multiple of
    /// [`BYTE_LANES`]) has the value `cands[k]`; may stop early once every candidate is hit.
    /// With `bytes`, every candidate must be below 256.
    #[inline]
    fn hits<'a, const K: usize>(
        self,
        cands: &[u16; K],
        bytes: bool,
        rows: impl Iterator<Item = Terms<'a>>,
    ) -> u32 {
        debug_assert!(!bytes || cands.iter().all(|&c| c < 256));
        match self {
            Scan::Portable => hits(cands, bytes, rows),
            #[cfg(target_arch = "x86_64")]
            Scan::Avx2(avx2) => avx2_hits(avx2, cands, bytes, rows),
        }
    }
}

/// [`Scan::hits`] in portable code: the compiler vectorises the lanes.
#[inline(always)]
fn hits<'a, const K: usize>(
    cands: &[u16; K],
    bytes: bool,
    rows: impl Iterator<Item = Terms<'a>>,
) -> u32 {
    let all = (1u32 << K) - 1;
    // The least of p ^ q ^ c over the moves, lane by lane: 0 where a move has the value c
    // (a form the compiler turns into vector minimums; an OR of compares became branches).
    let mut acc = [[u16::MAX; LANES]; K];
    let mut acc_bytes = [[u8::MAX; BYTE_LANES]; K];
    let mut hit = 0;
    for (n, row) in rows.enumerate() {
        match (bytes, row.bytes) {
            (true, Some((p, q))) => least(&mut acc_bytes, p, q, cands.map(|c| c as u8)),
            _ => least(&mut acc, row.wide.0, row.wide.1, *cands),
        }
        if n % 8 == 7 {
            hit = zeros(&acc) | zeros(&acc_bytes);
            if hit == all {
                return hit;
            }
        }
    }
    hit | zeros(&acc) | zeros(&acc_bytes)
}

/// Lowers each lane of `acc[k]` to the least p ^ q ^ `cands[k]` of the vectors of N terms of
/// `p` and `q` in that lane.
#[inline(always)]
fn least<T, const N: usize, const K: usize>(acc: &mut [[T; N]; K], p: &[T], q: &[T], cands: [T; K])
where
    T: Copy + Ord + std::ops::BitXor<Output = T>,
{
    for (acc, c) in acc.iter_mut().zip(cands) {
        for (p, q) in p.chunks_exact(N).zip(q.chunks_exact(N)) {
            for l in 0..N {
                acc[l] = acc[l].min(p[l] ^ q[l] ^ c);
            }
        }
    }
}

/// Bit k set when some lane of `acc[k]` is zero.
fn zeros<T: Copy + Default + PartialEq, const N: usize, const K: usize>(acc: &[[T; N]; K]) -> u32 {
    let mut hit = 0;
    for (k, acc) in acc.iter().enumerate() {
        if acc.iter().any(|&a| a == T::default()) {
            hit |= 1 << k;
        }
    }
    hit
}

/// [`hits`] on AVX2, sixteen lanes a register.
#[cfg(target_arch = "x86_64")]
fn avx2_hits<'a, const K: usize>(
    token: crate::simd::x86::Avx2,
    cands: &[u16; K],
    bytes: bool,
    rows: impl Iterator<Item = Terms<'a>>,
) -> u32 {
    let _ = token;
    // SAFETY: `token` exists, so the CPU has AVX2.
    unsafe { avx2_hits_inner(cands, bytes, rows) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_hits_inner<'a, const K: usize>(
    cands: &[u16; K],
    bytes: bool,
    rows: impl Iterator<Item = Terms<'a>>,
) -> u32 {
    use std::arch::x86_64::*;
    let all = (1u32 << K) - 1;
    let c: [__m256i; K] = std::array::from_fn(|k| _mm256_set1_epi16(cands[k] as i16));
    let c_bytes: [__m256i; K] = std::array::from_fn(|k| _mm256_set1_epi8(cands[k] as u8 as i8));
    let mut acc = [_mm256_setzero_si256(); K];
    let found = |acc: &[__m256i; K]| {
        let mut hit = 0;
        for (k, a) in acc.iter().enumerate() {
            if _mm256_testz_si256(*a, *a) == 0 {
                hit |= 1 << k;
            }
        }
        hit
    };
    let mut hit = 0;
    for (n, row) in rows.enumerate() {
        if let (true, Some((p, q))) = (bytes, row.bytes) {
            debug_assert!(p.len() == q.len() && p.len() % BYTE_LANES == 0);
            for i in (0..p.len().min(q.len()) / BYTE_LANES * BYTE_LANES).step_by(BYTE_LANES) {
                // SAFETY: 32 bytes from `i` are in both slices (`i + 32 ≤ len`).
                let v = unsafe {
                    _mm256_xor_si256(
                        _mm256_loadu_si256(p.as_ptr().add(i).cast()),
                        _mm256_loadu_si256(q.as_ptr().add(i).cast()),
                    )
                };
                for k in 0..K {
                    acc[k] = _mm256_or_si256(acc[k], _mm256_cmpeq_epi8(v, c_bytes[k]));
                }
            }
            if n % 8 == 7 {
                hit = found(&acc);
                if hit == all {
                    return hit;
                }
            }
            continue;
        }
        let (p, q) = row.wide;
        debug_assert!(p.len() == q.len() && p.len() % LANES == 0);
        for i in (0..p.len().min(q.len()) / LANES * LANES).step_by(LANES) {
            // SAFETY: 16 values from `i` are in both slices (`i + 16 ≤ len`).
            let v = unsafe {
                _mm256_xor_si256(
                    _mm256_loadu_si256(p.as_ptr().add(i).cast()),
                    _mm256_loadu_si256(q.as_ptr().add(i).cast()),
                )
            };
            for k in 0..K {
                acc[k] = _mm256_or_si256(acc[k], _mm256_cmpeq_epi16(v, c[k]));
            }
        }
        if n % 8 == 7 {
            hit = found(&acc);
            if hit == all {
                return hit;
            }
        }
    }
    hit | found(&acc)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every row by both scans against the plain loop, across the block, group and vector
    /// sizes.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn census_equals_the_plain_table() {
        for max in [0, 1, 2, 5, 31, 32, 33, 70, 150] {
            let plain = Table::new(max);
            let mut scans = vec![Scan::Portable];
            #[cfg(target_arch = "x86_64")]
            match crate::simd::x86::Avx2::new() {
                Some(avx2) => scans.push(Scan::Avx2(avx2)),
                None => {
                    let _ = writeln!(io::stderr(), "note: skipped the AVX2 scan: not on this CPU");
                }
            }
            for scan in scans {
                let mut census = Census::with_scan(max, scan);
                while census.next_row().unwrap() {}
                assert!(!census.next_row().unwrap());
                assert!(census.into_table() == plain, "max {max}, {scan:?}");
            }
        }
    }

    /// The scans' hits, in 16 bits and in low bytes where a row allows them, against the
    /// values of the moves one by one, on groups of random rows (more than eight, so that the
    /// scans' early exit is reached) with terms of 256 and more in most rows (no table before
    /// the one to 1844 has such a value), and candidates on both sides of 256.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn hits_equal_the_moves_values_with_values_of_256_and_more() {
        let mut rng = crate::rng::Rng::new(11);
        let mut scans = vec![Scan::Portable];
        #[cfg(target_arch = "x86_64")]
        match crate::simd::x86::Avx2::new() {
            Some(avx2) => scans.push(Scan::Avx2(avx2)),
            None => {
                let _ = writeln!(io::stderr(), "note: skipped the AVX2 scan: not on this CPU");
            }
        }
        let (w, height) = (301, 10);
        // Rows `p` as the census keeps them.
        let build = |ps: &[Vec<u16>]| {
            let (mut pairs, mut bytes, mut small_until) = (Vec::new(), Vec::new(), Vec::new());
            for p in ps {
                let (mut pair, mut byte) = (vec![0; 2 * w], vec![0; 2 * w]);
                small_until.push(fill_row(p, &vec![0; w], &mut pair, &mut byte));
                pairs.extend(pair);
                bytes.extend(byte);
            }
            (pairs, bytes, small_until)
        };
        // A row of 5s but for one term of exactly 256, which the moves' values 261 and 0 meet:
        // the low bytes would see a 5.
        let mut p = vec![5; w];
        p[99] = 256;
        let (pairs, bytes, small_until) = build(&[p]);
        let rows = Rows {
            w,
            pairs: &pairs,
            bytes: &bytes,
            small_until: &small_until,
        };
        let terms = rows.terms(0, 100, 50usize.next_multiple_of(LANES));
        assert!(terms.bytes.is_none());
        for scan in scans.iter().copied() {
            for bytes in [false, true] {
                let hits = scan.hits(&[5, 0], bytes, std::iter::once(terms));
                assert_eq!(hits, 0b10, "{scan:?}, bytes {bytes}");
            }
            let hits = scan.hits(&[5, 261], false, std::iter::once(terms));
            assert_eq!(hits, 0b10, "{scan:?}");
        }
        let (mut bytes_used, mut fell_back, mut wide) = (0, 0, 0);
        for round in 0..40 {
            // Terms mostly below 40, so that candidates are hit and missed; from a random place
            // on in most rows, some of 256 (a third of them exactly) or 512 and more, whose low
            // bytes are small values too.
            let ps: Vec<Vec<u16>> = (0..height)
                .map(|_| {
                    let big_from = rng.below(w as u32 + 50) as usize;
                    (0..w)
                        .map(|k| {
                            let v = rng.below(40) as u16;
                            if k >= big_from && rng.below(20) == 0 {
                                [256, 256 | v, 512 | v][rng.below(3) as usize]
                            } else {
                                v
                            }
                        })
                        .collect()
                })
                .collect();
            let (pairs, bytes, small_until) = build(&ps);
            let rows = Rows {
                w,
                pairs: &pairs,
                bytes: &bytes,
                small_until: &small_until,
            };
            for b in [
                VECTOR_MIN,
                BYTES_MIN - 1,
                BYTES_MIN,
                65,
                100,
                127,
                200,
                255,
                299,
                w,
            ] {
                let mut values: Vec<u16> = ps
                    .iter()
                    .flat_map(|p| (0..b.div_ceil(2)).map(move |i| p[i] ^ p[b - 1 - i]))
                    .collect();
                values.sort_unstable();
                values.dedup();
                let group =
                    || (0..height).map(|r| rows.terms(r, b, b.div_ceil(2).next_multiple_of(LANES)));
                let some =
                    |rng: &mut crate::rng::Rng| values[rng.below(values.len() as u32) as usize];
                // The third: in every other round one of 256 and more whose low byte is a
                // value some move has.
                let cands = [
                    rng.below(64) as u16,
                    rng.below(64) as u16,
                    [rng.below(64) as u16, 256 | some(&mut rng) & 0xff][round % 2],
                    some(&mut rng),
                ];
                let want = |c: &[u16]| {
                    let mut hit = 0;
                    for (k, c) in c.iter().enumerate() {
                        if values.binary_search(c).is_ok() {
                            hit |= 1 << k;
                        }
                    }
                    hit
                };
                let with_bytes = group().filter(|t| t.bytes.is_some()).count();
                for scan in scans.iter().copied() {
                    let c: [u16; 2] = [cands[0], cands[3]];
                    for bytes in [false, c[1] < 256] {
                        assert_eq!(
                            scan.hits(&c, bytes, group()),
                            want(&c),
                            "round {round}, b {b}, {scan:?}, bytes {bytes}, {c:?}"
                        );
                        if bytes {
                            bytes_used += with_bytes;
                            fell_back += height - with_bytes;
                        } else {
                            wide += height;
                        }
                    }
                    // The rectangle chooses whether the low bytes may be compared.
                    let mut rect = Rect::new(b, 1024);
                    (rect.cands, rect.n) = (cands, 4);
                    assert_eq!(
                        rect.hits(scan, group()),
                        want(&cands),
                        "round {round}, b {b}, {scan:?}, {cands:?}"
                    );
                    // Candidates all above 256 whose low bytes are values some move has: only
                    // the 16-bit compare tells them apart.
                    let high = [512 | some(&mut rng) & 0xff, 768 | some(&mut rng) & 0xff];
                    (rect.cands, rect.n) = ([high[0], high[1], 0, 0], 2);
                    assert_eq!(
                        rect.hits(scan, group()),
                        want(&high),
                        "round {round}, b {b}, {scan:?}, {high:?}"
                    );
                }
            }
        }
        assert!(
            bytes_used > 1000 && fell_back > 1000 && wide > 1000,
            "{bytes_used} {fell_back} {wide}"
        );
    }

    #[test]
    fn checkpoints_resume_and_damage_is_named() {
        let mut census = Census::new(50);
        for _ in 0..17 {
            census.next_row().unwrap();
        }
        let mut file = Vec::new();
        census.save(&mut file).unwrap();
        assert_eq!(file.len(), MAGIC.len() + 8 + 17 * 2 * 51 + 8);
        let mut resumed = Census::load(&mut &file[..]).unwrap();
        assert_eq!((resumed.max(), resumed.rows_done()), (50, 17));
        while resumed.next_row().unwrap() {}
        assert!(resumed.into_table() == Table::new(50));
        let error = |bytes: &[u8]| Census::load(&mut &bytes[..]).unwrap_err().to_string();
        assert_eq!(
            error(b"hello"),
            "not a grid census checkpoint: the file ends before its header"
        );
        assert!(error(&file[..40]).ends_with("the file ends before row 1 of 17"));
        let mut damaged = file.clone();
        damaged[100] ^= 1;
        assert!(error(&damaged).ends_with("the checksum does not match: the file is damaged"));
        let mut longer = file.clone();
        longer.push(0);
        assert!(error(&longer).ends_with("more bytes follow the checksum"));
        let mut wrong = file;
        wrong[0] = b'B';
        assert!(error(&wrong).contains("does not start with"));
    }
}
