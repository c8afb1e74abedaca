//! The grid judge's fast path ([`crate::judge::Format::batch`]): a window of input is first
//! cut into the values of its tokens, then the cases are played from those values.
//!
//! Reading a case token by token puts the parsing of every move on the path of the move
//! before it. Here a [`Kernel`] turns a window of input (4 KiB, growing to [`WINDOW`]) into
//! numbers in one pass (on AVX-512, 64 bytes per step without a branch per token), and the
//! play loop reads moves from memory. Anything unusual (a bad token, a value out of range, a
//! forbidden cell, a case longer than the window, the end of the input) stops the fast path
//! before its case, which the scanner then reads and reports as usual; so the answers and the
//! errors are those of [`crate::grid::judge::Judge`]'s plain path, which the tests check.
//!
//! The fast path runs only on CPUs with AVX-512 VBMI2 (`crate::simd::grid_batch`). The
//! portable kernel, byte by byte, is slower than the scanner's own fast path; it is the
//! specification the tests hold the AVX-512 kernel to.

use super::judge::{MAX_JUDGE_SIDE, Outcome};
use super::position::{Chunks, Grid, Marker};
use crate::input::is_space;

/// The most bytes cut into tokens at a time: every valid case but the very longest fits (a
/// case of 6400 moves of two-digit numbers takes about 38 KB).
pub(crate) const WINDOW: usize = 1 << 16;

/// Bytes of the first window of [`run`], which grows to [`WINDOW`].
const FIRST_WINDOW: usize = 1 << 12;

/// Bytes per step of the tokenizers.
pub(crate) const BLOCK: usize = 64;

/// The value of a token of five digits or more: larger than any value a valid case holds.
pub(crate) const TOO_LONG: u16 = 255 * 100 + 255;

/// The tokens of a window: what a [`Kernel`] makes of it.
///
/// The window is read up to `end`, its first byte that is neither a digit nor white space
/// (or its end). A token is a run of digits; it is *complete* when white space follows it
/// before `end`. `values` holds the complete tokens' values in order ([`TOO_LONG`] for five
/// digits or more), `starts[b]` the number of tokens (complete or not) that start before byte
/// `BLOCK · b`, for every block up to `end`, and then the total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tokens {
    /// The values, then room for one more block's worth (`len` counts the values).
    pub(crate) values: Vec<u16>,
    /// Complete tokens.
    pub(crate) len: usize,
    /// Token starts before each block, then the total.
    pub(crate) starts: Vec<u32>,
    /// The bytes read.
    pub(crate) end: usize,
}

impl Tokens {
    /// Values the buffer holds: every complete token of a window (at most one per two bytes)
    /// and a block's worth of slack, which the AVX-512 kernel writes whole.
    pub(crate) const CAPACITY: usize = WINDOW / 2 + BLOCK;

    /// Empties the tokens for a window, with room for [`Tokens::CAPACITY`] values.
    pub(crate) fn clear(&mut self) {
        if self.values.len() < Self::CAPACITY {
            self.values.resize(Self::CAPACITY, 0);
        }
        self.len = 0;
        self.starts.clear();
        self.end = 0;
    }

    /// The offset in `window` of the start of token `t`, or `end` when fewer tokens start.
    fn offset_of(&self, window: &[u8], t: usize) -> usize {
        let b = self.starts.partition_point(|&s| s as usize <= t);
        if b == self.starts.len() {
            return self.end;
        }
        let b = b - 1;
        let mut k = t - self.starts[b] as usize;
        let from = b * BLOCK;
        for i in from..(from + BLOCK).min(self.end) {
            if starts_token(window, i) {
                if k == 0 {
                    return i;
                }
                k -= 1;
            }
        }
        self.end
    }

    /// Tokens that start before offset `pos` of `window`.
    fn started_before(&self, window: &[u8], pos: usize) -> usize {
        if pos >= self.end {
            return *self.starts.last().unwrap_or(&0) as usize;
        }
        let b = pos / BLOCK;
        self.starts[b] as usize
            + (b * BLOCK..pos)
                .filter(|&i| starts_token(window, i))
                .count()
    }
}

/// Does a token start at byte `i` (a digit after white space or at the window's start)?
fn starts_token(window: &[u8], i: usize) -> bool {
    window[i].is_ascii_digit() && (i == 0 || !window[i - 1].is_ascii_digit())
}

/// What the fast path needs of the machine: a tokenizer, and a [`Marker`] for the play.
pub(crate) trait Kernel: Marker {
    /// Cuts `window` into `tokens` (see [`Tokens`]; every kernel gives the same result).
    fn tokenize(self, window: &[u8], tokens: &mut Tokens);
}

impl Kernel for Chunks {
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        tokenize_portable(window, tokens);
    }
}

/// The portable tokenizer: byte by byte.
pub(crate) fn tokenize_portable(window: &[u8], tokens: &mut Tokens) {
    tokens.clear();
    let (mut value, mut digits, mut started) = (0u16, 0u32, 0u32);
    let mut end = window.len();
    for (i, &c) in window.iter().enumerate() {
        let d = c.wrapping_sub(b'0');
        let space = is_space(c);
        if d > 9 && !space {
            end = i;
            break;
        }
        if i % BLOCK == 0 {
            tokens.starts.push(started);
        }
        if d <= 9 {
            if digits == 0 {
                started += 1;
                value = 0;
            }
            if digits < 4 {
                value = value * 10 + u16::from(d);
            }
            digits += 1;
        } else if digits > 0 {
            tokens.values[tokens.len] = if digits <= 4 { value } else { TOO_LONG };
            tokens.len += 1;
            digits = 0;
        }
    }
    tokens.starts.push(started);
    tokens.end = end;
}

/// Judges cases from the start of `bytes` (at a token) with `kernel`, as
/// [`crate::judge::Format::batch`] describes, `stop` being relative to `bytes`; returns the
/// cases judged and the bytes they took.
#[inline(always)]
pub(crate) fn run<K: Kernel>(
    kernel: K,
    grid: &mut Grid,
    tokens: &mut Tokens,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Outcome>,
) -> (usize, usize) {
    let (mut judged, mut base) = (0, 0);
    // The window starts small, so that a case the fast path refuses (and the scanner then
    // reads) costs little tokenizing in vain, and grows while cases are judged or while the
    // first case does not fit.
    let mut size = FIRST_WINDOW;
    loop {
        let window = &bytes[base..bytes.len().min(base + size)];
        kernel.tokenize(window, tokens);
        let first_after = tokens.started_before(window, stop.saturating_sub(base));
        let values = &tokens.values[..tokens.len];
        let mut t = 0;
        let mut cut_off = false;
        while answers.len() < limit && t < first_after {
            let case = match read_case(values, t) {
                Ok(case) => case,
                Err(why) => {
                    cut_off = why == Unfit::CutOff;
                    break;
                }
            };
            let Some(outcome) = play(kernel, grid, &case) else {
                break;
            };
            answers.push(outcome);
            judged += 1;
            t = case.next;
        }
        // A case the window cut off continues in a larger window, if there is more input.
        let more = cut_off && window.len() == size && size < bytes.len() - base;
        if t == 0 && !(more && size < WINDOW) {
            return (judged, base);
        }
        base += tokens.offset_of(window, t);
        if !more {
            return (judged, base);
        }
        size = (size * 4).min(WINDOW);
    }
}

/// Why [`read_case`] did not return a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unfit {
    /// The case does not end in these tokens.
    CutOff,
    /// Something the plain path must read and report (or judge).
    Refused,
}

/// A case read from the tokens: its sides, its moves (rows and columns in turn), and the
/// token after it.
struct CaseTokens<'a> {
    rows: u16,
    cols: u16,
    moves: &'a [u16],
    next: usize,
}

/// The case whose first token is `values[t]`, if its sides and move count are valid and its
/// moves are all in these tokens.
#[inline(always)]
fn read_case(values: &[u16], t: usize) -> Result<CaseTokens<'_>, Unfit> {
    let Some(&[r, c, m]) = values.get(t..t + 3) else {
        return Err(Unfit::CutOff);
    };
    let side = 1..=MAX_JUDGE_SIDE as u16;
    if !side.contains(&r) || !side.contains(&c) || u32::from(m) > u32::from(r) * u32::from(c) {
        return Err(Unfit::Refused);
    }
    let end = t + 3 + 2 * usize::from(m);
    let Some(moves) = values.get(t + 3..end) else {
        return Err(Unfit::CutOff);
    };
    Ok(CaseTokens {
        rows: r,
        cols: c,
        moves,
        next: end,
    })
}

/// Plays a case read by [`read_case`]: its outcome, or `None` when a move is off the grid or
/// on a forbidden cell.
#[inline(always)]
fn play<K: Kernel>(kernel: K, grid: &mut Grid, case: &CaseTokens<'_>) -> Option<Outcome> {
    // Sides in 1..=MAX_JUDGE_SIDE: `read_case` checked them.
    grid.reset(usize::from(case.rows), usize::from(case.cols))
        .ok()?;
    for mv in case.moves.chunks_exact(2) {
        let (x, y) = (mv[0].wrapping_sub(1), mv[1].wrapping_sub(1));
        if x >= case.rows || y >= case.cols {
            return None;
        }
        grid.cut(kernel, usize::from(x), usize::from(y))?;
    }
    Some(if grid.is_winning() {
        Outcome::Winning
    } else {
        Outcome::Losing
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::judge::{Plain, generate};
    use crate::judge::Options;
    use crate::rng::Rng;

    fn tokens(window: &[u8]) -> Tokens {
        let mut t = Tokens::default();
        tokenize_portable(window, &mut t);
        t
    }

    #[test]
    fn portable_tokens() {
        let w = b"12 7\n123456 0042\t9x 5 ";
        let t = tokens(w);
        assert_eq!(&t.values[..t.len], &[12, 7, TOO_LONG, 42]);
        assert_eq!(t.end, 18);
        assert_eq!(t.starts, vec![0, 5]);
        assert_eq!(t.offset_of(w, 0), 0);
        assert_eq!(t.offset_of(w, 3), 12);
        assert_eq!(t.offset_of(w, 4), 17);
        assert_eq!(t.offset_of(w, 5), 18);
        assert_eq!(t.started_before(w, 3), 1);
        assert_eq!(t.started_before(w, 12), 3);
        assert_eq!(t.started_before(w, 40), 5);
    }

    #[test]
    fn incomplete_last_token() {
        let t = tokens(b"5 6 78");
        assert_eq!(&t.values[..t.len], &[5, 6]);
        assert_eq!(t.end, 6);
        assert_eq!(t.offset_of(b"5 6 78", 2), 4);
    }

    #[test]
    fn starts_per_block() {
        let w: Vec<u8> = b"1 ".repeat(40);
        let t = tokens(&w);
        assert_eq!(t.len, 40);
        assert_eq!(t.starts, vec![0, 32, 40]);
        assert_eq!(t.offset_of(&w, 33), 66);
        assert_eq!(t.started_before(&w, 65), 33);
    }

    /// Random windows of digits (long runs too), every kind of white space, and stray bytes.
    fn random_window(rng: &mut Rng) -> Vec<u8> {
        let len = rng.below(300) as usize;
        let bad = rng.below(4) == 0;
        (0..len)
            .map(|_| match rng.below(20) {
                0..=10 => b'0' + rng.below(10) as u8,
                11..=15 => b' ',
                16 => b"\t\n\x0b\x0c\r"[rng.below(5) as usize],
                17 if bad => b"x-\0\xff"[rng.below(4) as usize],
                _ => b'1',
            })
            .collect()
    }

    /// The AVX-512 tokenizer gives exactly what the portable one gives.
    #[test]
    #[cfg(target_arch = "x86_64")]
    #[cfg_attr(miri, ignore)]
    fn tokenizers_agree() {
        let Some(k) = crate::simd::x86::GridAvx512::new() else {
            return;
        };
        let mut rng = Rng::new(5);
        let mut fast = Tokens::default();
        for _ in 0..20_000 {
            let w = random_window(&mut rng);
            let plain = tokens(&w);
            k.tokenize(&w, &mut fast);
            assert_eq!(
                (&fast.values[..fast.len], &fast.starts, fast.end),
                (&plain.values[..plain.len], &plain.starts, plain.end),
                "{:?}",
                String::from_utf8_lossy(&w)
            );
        }
    }

    /// The answers of the plain judge, and the offsets where the cases start (one per line).
    fn plain(input: &[u8]) -> (Vec<Outcome>, Vec<usize>) {
        let mut out = Vec::new();
        crate::judge::run(&Plain, input, &mut out, Options::single_threaded()).unwrap();
        let answers = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| {
                if l == b"winning" {
                    Outcome::Winning
                } else {
                    Outcome::Losing
                }
            })
            .collect();
        let mut starts = vec![0];
        starts.extend(
            input
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' && i + 1 < input.len())
                .map(|(i, _)| i + 1),
        );
        (answers, starts)
    }

    /// `run` on every kernel this CPU has: all cases, then up to a stop offset, then up to a
    /// number of answers, on input longer than a window.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn run_judges_what_the_plain_judge_judges() {
        let mut input = Vec::new();
        generate(&mut Rng::new(3), 3000, 80, usize::MAX, &mut input);
        assert!(input.len() > 2 * WINDOW);
        let (want, starts) = plain(&input);
        type Batch =
            fn(&mut Grid, &mut Tokens, &[u8], usize, usize, &mut Vec<Outcome>) -> (usize, usize);
        let mut kernels: Vec<Batch> = vec![|g, t, b, s, l, a| run(Chunks, g, t, b, s, l, a)];
        #[cfg(target_arch = "x86_64")]
        if crate::simd::x86::GridAvx512::new().is_some() {
            kernels.push(|g, t, b, s, l, a| {
                crate::simd::x86::GridAvx512::new()
                    .expect("checked")
                    .batch(g, t, b, s, l, a)
            });
        }
        let mut rng = Rng::new(11);
        for batch in kernels {
            let (mut grid, mut tokens) = (Grid::new(1, 1).unwrap(), Tokens::default());
            let mut answers = Vec::new();
            let all = batch(
                &mut grid,
                &mut tokens,
                &input,
                input.len(),
                usize::MAX,
                &mut answers,
            );
            assert_eq!(all, (want.len(), input.len()));
            assert_eq!(answers, want);
            for _ in 0..20 {
                let stop = rng.below(input.len() as u32) as usize;
                let n = starts.partition_point(|&s| s < stop);
                answers.clear();
                let got = batch(
                    &mut grid,
                    &mut tokens,
                    &input,
                    stop,
                    usize::MAX,
                    &mut answers,
                );
                assert_eq!(
                    got,
                    (n, *starts.get(n).unwrap_or(&input.len())),
                    "stop {stop}"
                );
                assert_eq!(answers, want[..n]);
                let limit = rng.below(want.len() as u32) as usize;
                answers.clear();
                let got = batch(
                    &mut grid,
                    &mut tokens,
                    &input,
                    input.len(),
                    limit,
                    &mut answers,
                );
                assert_eq!(got, (limit, starts[limit]), "limit {limit}");
            }
        }
    }
}
