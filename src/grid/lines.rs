//! The forbidden cells of the rows (or of the columns) as line words, and the masks and the
//! chunked marking a move needs.

/// The most cells of a line: one line fits a `u128`.
pub(crate) const SIDE: usize = 128;

/// Words of padding a line takes past [`SIDE`], half of it: what [`by_groups`] and
/// [`Lines::fill`] may touch past the grid.
pub(crate) const CHUNK: usize = 8;

/// [`by_groups`] starts its groups on a multiple of this many words.
const ALIGN: usize = 4;

/// Words of one half of the row (or column) bits: [`SIDE`] lines and two [`CHUNK`]s of
/// padding.
pub(crate) const LINE_WORDS: usize = SIDE + 2 * CHUNK;

const _: () = assert!(LINE_WORDS.is_multiple_of(CHUNK) && CHUNK == 8);

/// The forbidden cells of the rows (or of the columns): bit k of line i is cell k + 1 of
/// line i + 1. Stored as low words and high words, so that forbidding one cell in a run of
/// lines is a loop over consecutive words the compiler vectorises.
#[derive(Clone, PartialEq, Eq)]
#[repr(align(64))]
pub(crate) struct Lines {
    /// [`SIDE`] lines and two [`CHUNK`]s of words of padding, which [`by_groups`] and [`Lines::fill`] may touch
    /// without changing them. Aligned to 64 bytes, so that chunks from multiples of 8 are
    /// cache-line aligned (the judge's AVX-512 move relies on it).
    pub(crate) words: [[u64; LINE_WORDS]; 2],
}

impl Lines {
    /// Every cell forbidden.
    pub(crate) const FULL: Lines = Lines {
        words: [[u64::MAX; LINE_WORDS]; 2],
    };

    /// Line `i` as one number.
    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> u128 {
        u128::from(self.words[0][i]) | u128::from(self.words[1][i]) << 64
    }

    /// Line `i` as its two halves.
    #[inline(always)]
    pub(crate) fn halves(&self, i: usize) -> [u64; 2] {
        [self.words[0][i], self.words[1][i]]
    }

    /// ORs `bits` into line `i`.
    #[inline(always)]
    pub(crate) fn or(&mut self, i: usize, bits: [u64; 2]) {
        self.words[0][i] |= bits[0];
        self.words[1][i] |= bits[1];
    }

    /// Clears `bits` in line `i`.
    #[inline(always)]
    pub(crate) fn clear(&mut self, i: usize, bits: [u64; 2]) {
        self.words[0][i] &= !bits[0];
        self.words[1][i] &= !bits[1];
    }

    /// Sets lines `0..n` to `bits`, and maybe some lines after them (which are off the grid,
    /// never read): whole chunks of stores instead of a `memset` call per case.
    #[inline(always)]
    pub(crate) fn fill(&mut self, n: usize, bits: u128) {
        let end = n.next_multiple_of(CHUNK);
        for (words, half) in self
            .words
            .iter_mut()
            .zip([bits as u64, (bits >> 64) as u64])
        {
            for chunk in words[..end].chunks_exact_mut(CHUNK) {
                chunk.fill(half);
            }
        }
    }
}

/// The cells `0..n` of a line as a mask (`n ≤ 128`).
#[inline(always)]
pub(crate) fn below(n: u32) -> u128 {
    // A table: a variable 128-bit shift is a dozen instructions, a play needs eight masks.
    static BELOW: [u128; 129] = {
        let mut t = [0; 129];
        let mut n = 1;
        while n <= 128 {
            t[n] = u128::MAX >> (128 - n);
            n += 1;
        }
        t
    };
    BELOW[n as usize]
}

/// `mask` as its two halves.
#[inline(always)]
pub(crate) fn halves(mask: u128) -> [u64; 2] {
    [mask as u64, (mask >> 64) as u64]
}

/// Line `line` (two 64-bit halves) searched below `n` (≤ 128): one past its highest set bit
/// under bit `n`, or 0 when there is none.
#[inline(always)]
pub(crate) fn end_below(line: [u64; 2], n: u32) -> u32 {
    let m = below(n);
    let (lo, hi) = (line[0] & m as u64, line[1] & (m >> 64) as u64);
    // Random from move to move: a branch would mispredict often.
    std::hint::select_unpredictable(hi != 0, 128 - hi.leading_zeros(), 64 - lo.leading_zeros())
}

/// Line `line` searched from bit `n` (≤ 128) up: its lowest set bit at or above `n`, or 128
/// when there is none.
#[inline(always)]
pub(crate) fn start_from(line: [u64; 2], n: u32) -> u32 {
    let m = below(n);
    let (lo, hi) = (line[0] & !(m as u64), line[1] & !((m >> 64) as u64));
    std::hint::select_unpredictable(lo != 0, lo.trailing_zeros(), 64 + hi.trailing_zeros())
}

/// Bit `n − 1` as two halves (`n` ≤ 129); none for `n` = 0 and for `n` = 129.
#[inline(always)]
pub(crate) fn bit_before(n: u32) -> [u64; 2] {
    static BIT: [[u64; 2]; 130] = {
        let mut t = [[0; 2]; 130];
        let mut n = 1;
        while n <= 128 {
            t[n][(n - 1) / 64] = 1 << ((n - 1) % 64);
            n += 1;
        }
        t
    };
    BIT[n as usize]
}

/// Words of the rows (or columns) [`by_groups`] marks always, from the group of four holding
/// the first row of the run.
const ALWAYS: usize = 16;

/// `UNDER[k]`: all ones below [`SIDE`], zero from there: the 4 or 16 consecutive entries from
/// `SIDE − (to − i)` are the masks of words `i..` below `to` (`to − i` ≤ [`SIDE`]).
static UNDER: [u64; SIDE + ALWAYS] = {
    let mut t = [0; SIDE + ALWAYS];
    let mut k = 0;
    while k < SIDE {
        t[k] = u64::MAX;
        k += 1;
    }
    t
};

/// `FROM[k]`: all ones from 4 on: the four entries from `4 − t` are the masks of the words of
/// a group of four at or after its word `t`.
static FROM: [u64; 2 * ALIGN] = [0, 0, 0, 0, u64::MAX, u64::MAX, u64::MAX, u64::MAX];

/// Applies `op(word, bit & mask)` to the words `from..to` of `words` (`from` < [`SIDE`],
/// `from` ≤ `to` ≤ [`SIDE`]), `mask` being all ones there and zero elsewhere: on sixteen words from the
/// multiple of four at or below `from` whatever `to`, then on groups of four while `to` is
/// past them (`op` must leave a word as it is for a zero bit).
///
/// Runs are short and of random length: the first sixteen words take no branch (after the
/// first moves of a game nearly every run fits them), where a word-by-word loop mispredicts its
/// exit on nearly every move. The masks are windows of two tables ([`UNDER`], [`FROM`]), so a
/// word costs a load, two ANDs and its `op`, which the compiler does two or four at a time.
#[inline(always)]
pub(crate) fn by_groups(
    words: &mut [u64; LINE_WORDS],
    from: usize,
    to: usize,
    op: impl Fn(&mut u64, u64) + Copy,
    bit: u64,
) {
    // Groups start on a multiple of four words (32 bytes): a move's vector loads then meet an
    // earlier move's vector stores at the same addresses, which the CPU forwards, never
    // overlapping them in part, which it cannot.
    let start = from.min(SIDE - 1) & !(ALIGN - 1);
    let head = &FROM[ALIGN - (from - start).min(ALIGN)..][..ALIGN];
    let span = (to.saturating_sub(start)).min(SIDE);
    let under = &UNDER[SIDE - span..][..ALWAYS];
    let first: &mut [u64; ALWAYS] = (&mut words[start..start + ALWAYS])
        .try_into()
        .expect("padded");
    for j in 0..ALIGN {
        op(&mut first[j], bit & under[j] & head[j]);
    }
    for j in ALIGN..ALWAYS {
        op(&mut first[j], bit & under[j]);
    }
    let mut i = start + ALWAYS;
    while i < to.min(SIDE) {
        let under = &UNDER[SIDE - (to - i)..][..ALIGN];
        let group: &mut [u64; ALIGN] = (&mut words[i..i + ALIGN]).try_into().expect("padded");
        for j in 0..ALIGN {
            op(&mut group[j], bit & under[j]);
        }
        i += ALIGN;
    }
}

/// ORs `bits` into `word`: an operation for [`by_groups`].
#[inline(always)]
pub(crate) fn or(word: &mut u64, bits: u64) {
    *word |= bits;
}

/// Clears `bits` in `word`: an operation for [`by_groups`].
#[inline(always)]
pub(crate) fn clear(word: &mut u64, bits: u64) {
    *word &= !bits;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_below() {
        for n in 0..=128u32 {
            let want = (0..n).fold(0u128, |m, k| m | 1 << k);
            assert_eq!(below(n), want, "{n}");
        }
    }

    #[test]
    fn searches_and_bits() {
        for (line, n, end, start) in [
            (0u128, 5, 0, 128),
            (1 << 3 | 1 << 70, 70, 4, 70),
            (1 << 3 | 1 << 70, 71, 71, 128),
            (1 << 127, 128, 128, 128),
            (1 << 127, 0, 0, 127),
        ] {
            assert_eq!(end_below(halves(line), n), end, "{line:#x} below {n}");
            assert_eq!(start_from(halves(line), n), start, "{line:#x} from {n}");
        }
        for n in 0..=129u32 {
            let want = if (1..=128).contains(&n) {
                1u128 << (n - 1)
            } else {
                0
            };
            assert_eq!(bit_before(n), halves(want), "{n}");
        }
    }

    #[test]
    fn chunks_mark_exactly_the_run() {
        for from in 0..SIDE {
            for to in from..=SIDE {
                let mut words = [0u64; LINE_WORDS];
                by_groups(&mut words, from, to, or, 1 << 5);
                for (i, &w) in words.iter().enumerate() {
                    let want = if (from..to).contains(&i) { 1 << 5 } else { 0 };
                    assert_eq!(w, want, "{from}..{to}, word {i}");
                }
                by_groups(&mut words, from, to, clear, 1 << 5);
                assert!(words.iter().all(|&w| w == 0));
            }
        }
    }
}
