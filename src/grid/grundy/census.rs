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
//! rows at a time, one vector compare per candidate and sixteen moves; a candidate some move
//! has is dropped (marked). When none is left, the next smallest missing values are looked for
//! in the rows scanned so far, and those no move there has are the new candidates. Rows only
//! move forward; after the last one the first candidate is the mex: every smaller value is
//! marked, and no move has it. Values grow slowly (the largest up to 2048 is 256), so the first
//! rows mark nearly every value there is and the scan for the last candidates is the work.
//!
//! The rows of moves are taken in blocks small enough for the core's cache, and every b of the
//! row scans a block before the next block is read.

use std::fmt;
use std::io::{self, Read, Write};

use bitvec::vec::BitVec;
use rayon::prelude::*;

use super::{Table, ValueTooLarge};

/// Rows of moves per block: with both arrays of p_x, 16 rows of 4097 values take 256 KiB.
const BLOCK: usize = 16;

/// Rows of moves scanned for the candidates before the hits are looked at.
const GROUP: usize = 4;

/// Rows of moves a refill compares with its candidates before it drops those found.
const REFILL_ROWS: usize = 8;

/// Lanes of the scan: sixteen `u16` values, one AVX2 register.
const LANES: usize = 16;

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
        let values = &self.values;
        self.pairs
            .par_chunks_mut(2 * w)
            .enumerate()
            .for_each(|(i, pair)| {
                let (up, down) = (&values[i * w..][..w], &values[(a - 1 - i) * w..][..w]);
                let (p, rev) = pair.split_at_mut(w);
                for ((p, &u), &d) in p.iter_mut().zip(up).zip(down) {
                    *p = u ^ d;
                }
                for (r, &p) in rev.iter_mut().zip(p.iter().rev()) {
                    *r = p;
                }
            });
        let mut states: Vec<Rect> = (a..=max).map(Rect::new).collect();
        let (pairs, scan) = (&self.pairs[..], self.scan);
        for from in (0..half).step_by(BLOCK) {
            let rows = from..(from + BLOCK).min(half);
            states.par_iter_mut().with_min_len(8).for_each(|rect| {
                rect.scan(scan, pairs, max, rows.clone());
            });
        }
        let mut row = Vec::with_capacity(states.len());
        for (b, rect) in (a..=max).zip(&states) {
            let v = u16::try_from(rect.mex()).map_err(|_| ValueTooLarge { rows: a, cols: b })?;
            row.push(v);
        }
        for (b, v) in (a..=max).zip(row) {
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
    fn new(b: usize) -> Rect {
        Rect {
            b,
            seen: BitVec::new(),
            cands: [0; CANDIDATES],
            n: 0,
        }
    }

    /// The mex, once every row is scanned.
    fn mex(&self) -> usize {
        usize::from(self.cands[0])
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

    /// Scans the rows `rows` (from 0, the block after the rows scanned before) of `pairs`.
    fn scan(&mut self, scan: Scan, pairs: &[u16], max: usize, rows: std::ops::Range<usize>) {
        let w = max + 1;
        let (b, half_b) = (self.b, self.b.div_ceil(2));
        // The terms of the moves (x, 1 + i) of row x = 1 + r, i < len.
        let terms = |r: usize, len: usize| {
            let pair = &pairs[2 * w * r..][..2 * w];
            (&pair[..len], &pair[w + w - b..][..len])
        };
        // Small rectangles, and the first rows: every move marked.
        let marked = if b < VECTOR_MIN {
            rows.end
        } else {
            MARKED.min(rows.end)
        };
        for r in rows.start..marked {
            let (p, rev) = terms(r, half_b);
            for (&p, &q) in p.iter().zip(rev) {
                self.mark(usize::from(p ^ q));
            }
        }
        if rows.start < marked {
            self.n = 0;
            self.refill(scan, marked, |range| range.map(|r| terms(r, 0)));
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
    fn refill<'a, I: Iterator<Item = (&'a [u16], &'a [u16])>>(
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

    /// [`Scan::hits`] with the candidates.
    fn hits<'a>(&self, scan: Scan, rows: impl Iterator<Item = (&'a [u16], &'a [u16])>) -> u32 {
        let c = self.cands;
        match self.n {
            1 => scan.hits(&[c[0]], rows),
            2 => scan.hits(&[c[0], c[1]], rows),
            3 => scan.hits(&[c[0], c[1], c[2]], rows),
            _ => scan.hits(&c, rows),
        }
    }
}

impl Scan {
    /// Bit k set when a move of `rows` (each its two term slices, of a length that is a
    /// multiple of [`LANES`]) has the value `cands[k]`; may stop early once every candidate
    /// is hit.
    #[inline]
    fn hits<'a, const K: usize>(
        self,
        cands: &[u16; K],
        rows: impl Iterator<Item = (&'a [u16], &'a [u16])>,
    ) -> u32 {
        match self {
            Scan::Portable => hits(cands, rows),
            #[cfg(target_arch = "x86_64")]
            Scan::Avx2(avx2) => avx2_hits(avx2, cands, rows),
        }
    }
}

/// [`Scan::hits`] in portable code: the compiler vectorises the lanes.
#[inline(always)]
fn hits<'a, const K: usize>(
    cands: &[u16; K],
    rows: impl Iterator<Item = (&'a [u16], &'a [u16])>,
) -> u32 {
    let all = (1u32 << K) - 1;
    let mut acc = [[0u16; LANES]; K];
    let mut hit = 0;
    for (n, (p, q)) in rows.enumerate() {
        for (p, q) in p.chunks_exact(LANES).zip(q.chunks_exact(LANES)) {
            let p: &[u16; LANES] = p.try_into().expect("a vector");
            let q: &[u16; LANES] = q.try_into().expect("a vector");
            for (acc, &c) in acc.iter_mut().zip(cands) {
                for l in 0..LANES {
                    acc[l] |= 0u16.wrapping_sub(u16::from(p[l] ^ q[l] == c));
                }
            }
        }
        if n % 8 == 7 {
            hit = reduce(&acc);
            if hit == all {
                return hit;
            }
        }
    }
    hit | reduce(&acc)
}

/// Bit k set when some lane of `acc[k]` is not zero.
fn reduce<const K: usize>(acc: &[[u16; LANES]; K]) -> u32 {
    let mut hit = 0;
    for (k, acc) in acc.iter().enumerate() {
        if acc.iter().any(|&a| a != 0) {
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
    rows: impl Iterator<Item = (&'a [u16], &'a [u16])>,
) -> u32 {
    let _ = token;
    // SAFETY: `token` exists, so the CPU has AVX2.
    unsafe { avx2_hits_inner(cands, rows) }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn avx2_hits_inner<'a, const K: usize>(
    cands: &[u16; K],
    rows: impl Iterator<Item = (&'a [u16], &'a [u16])>,
) -> u32 {
    use std::arch::x86_64::*;
    let all = (1u32 << K) - 1;
    let c: [__m256i; K] = std::array::from_fn(|k| _mm256_set1_epi16(cands[k] as i16));
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
    for (n, (p, q)) in rows.enumerate() {
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
