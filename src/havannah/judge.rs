//! The judge format of the Code Jam problem ([`super`] links its statement): `T`, then per case
//! a line `S M` and `M` lines `x y`, answered `Case #t: ...` with the first structure.
//!
//! [`Judge`] plugs into the shared driver [`crate::judge::run`]; [`generate`] writes random
//! valid inputs for benchmarks and tests.
//!
//! ```
//! use bitgames::havannah::judge::Judge;
//! use bitgames::judge::{run, Options};
//!
//! let mut out = Vec::new();
//! run(&Judge, &b"2\n2 2\n1 1\n1 2\n3 1\n3 3\n"[..], &mut out, Options::default())?;
//! assert_eq!(out, b"Case #1: bridge in move 2\nCase #2: none\n");
//! # Ok::<(), bitgames::JudgeError>(())
//! ```

use std::io::{self, Write};

use rustc_hash::FxHashSet;

use super::geometry::{Board, Cell, MAX_SIDE};
use super::{PlayError, Stones, Wins};
use crate::input::{Problem, Scanner, Stop, is_space};
use crate::judge::Format;
use crate::rng::Rng;

/// The Havannah judge format.
#[derive(Debug, Clone, Copy, Default)]
pub struct Judge;

/// One case's answer: the first winning move's structures and number, if any.
pub type Answer = Option<(Wins, u32)>;

/// A thread's reusable game (its tables are cleared, not reallocated, between cases).
#[derive(Debug, Default)]
pub struct Scratch {
    game: Option<Stones>,
}

/// Moves the table is sized for up front at most; larger cases grow it as they go.
const PRESIZE_MAX: u64 = 1 << 22;

impl crate::judge::Sealed for Judge {}

impl Format for Judge {
    type Header = u64;
    type Answer = Answer;
    type Scratch = Scratch;

    fn header(&self, sc: &mut Scanner<'_>) -> Result<u64, Stop> {
        sc.uint("the number of cases T")
    }

    fn count(&self, header: &u64) -> Option<u64> {
        Some(*header)
    }

    fn dataset(
        &self,
        _header: &u64,
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Answer>, Stop> {
        dataset::<true>(scratch, sc)
    }

    fn write(&self, index: u64, answer: Answer, out: &mut Vec<u8>) {
        // Writing to a Vec cannot fail.
        let _ = match answer {
            Some((wins, k)) => writeln!(out, "Case #{index}: {wins} in move {k}"),
            None => writeln!(out, "Case #{index}: none"),
        };
    }

    fn resync(&self, _header: &u64, buf: &[u8], from: usize) -> Option<usize> {
        let first = from + memchr::memchr(b'\n', buf.get(from..)?)? + 1;
        let window = Lines::read(buf, first, RESYNC_LINES);
        // A header usually stands out: a number larger than any coordinate of the moves
        // before it. Prefer such lines; fall back to any line whose case chain fits.
        let mut largest = 0;
        for i in 0..window.len() {
            let Some((a, b)) = window.pair(i) else {
                continue;
            };
            if i >= 8 && a.max(b) > largest && window.case_chain_fits(i) {
                return Some(window.starts[i]);
            }
            largest = largest.max(a).max(b);
        }
        (0..window.len().min(RESYNC_FALLBACK))
            .find(|&i| window.case_chain_fits(i))
            .map(|i| window.starts[i])
    }
}

/// The same judge with every number read by the general scanner, without the word-at-a-time
/// fast paths: for differential tests and fuzzing (the answers and every error must match
/// [`Judge`]'s).
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct ScannerOnly;

impl crate::judge::Sealed for ScannerOnly {}

impl Format for ScannerOnly {
    type Header = u64;
    type Answer = Answer;
    type Scratch = Scratch;

    fn header(&self, sc: &mut Scanner<'_>) -> Result<u64, Stop> {
        Judge.header(sc)
    }

    fn count(&self, header: &u64) -> Option<u64> {
        Judge.count(header)
    }

    fn dataset(
        &self,
        _header: &u64,
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Answer>, Stop> {
        dataset::<false>(scratch, sc)
    }

    fn write(&self, index: u64, answer: Answer, out: &mut Vec<u8>) {
        Judge.write(index, answer, out);
    }

    fn resync(&self, header: &u64, buf: &[u8], from: usize) -> Option<usize> {
        Judge.resync(header, buf, from)
    }
}

/// Reads and judges one case. `FAST` enables the word-at-a-time move parsers; without them
/// (for tests) every number goes through the scanner, which the fast paths must match in
/// every answer and every error.
#[inline(always)]
fn dataset<const FAST: bool>(
    scratch: &mut Scratch,
    sc: &mut Scanner<'_>,
) -> Result<Option<Answer>, Stop> {
    let side = sc.uint_in("the board side S", 2, u64::from(MAX_SIDE))? as u32;
    let moves = sc.uint("the number of moves M")?;
    let board = Board::new(side).ok_or_else(|| sc.bad_token(Problem::Rule("bad S".into())))?;
    // Each move takes at least four bytes ("x y" and a space), so a case cannot hold more
    // moves than the block has bytes left over four: a header claiming more than that does
    // not make a large table for a short input.
    let room = sc.remaining().len() as u64 / 4 + 1;
    let presize = moves.min(board.cells()).min(PRESIZE_MAX).min(room) as usize;
    let game = match &mut scratch.game {
        Some(game) => {
            game.resize(side, presize)
                .map_err(|e| sc.bad_token(Problem::Rule(e.to_string())))?;
            game
        }
        slot @ None => slot.insert(
            Stones::with_capacity(side, presize)
                .map_err(|e| sc.bad_token(Problem::Rule(e.to_string())))?,
        ),
    };
    let n = u64::from(board.n());
    sc.skip_space();
    for k in 1..=moves {
        let short = if FAST {
            short_move(sc.remaining())
        } else {
            None
        };
        let (x, y, at) = match short {
            Some((x, y, len)) if x.wrapping_sub(1) < n && y.wrapping_sub(1) < n => {
                let at = sc.pos();
                sc.consume(len);
                (x, y, at)
            }
            _ => {
                let read = read_move::<FAST>(sc, n)?;
                sc.skip_space();
                read
            }
        };
        if let Err(e) = game.play(x as u32, y as u32) {
            return Err(Stop::bad(at, Problem::Rule(move_error(k, e))));
        }
    }
    Ok(Some(game.first_win()))
}

/// Reads a move `x y` with both coordinates in `1..=n`; returns them and the offset of `x`.
#[inline(always)]
fn read_move<const FAST: bool>(sc: &mut Scanner<'_>, n: u64) -> Result<(u64, u64, usize), Stop> {
    if FAST
        && let Some((x, y, at, end)) = fast_move(sc.remaining())
        && x.wrapping_sub(1) < n
        && y.wrapping_sub(1) < n
    {
        let at = sc.pos() + at;
        sc.consume(end);
        return Ok((x, y, at));
    }
    let x = sc.uint_in("x", 1, n)?;
    let at = sc.token_start();
    let y = sc.uint_in("y", 1, n)?;
    Ok((x, y, at))
}

/// The most common move line, `x y` and one white-space byte with both numbers of one to four
/// digits, read from the first 16 bytes of `rest` without loops: returns x, y and the length
/// of the line with its terminator; `None` for anything else (including fewer than 16 bytes),
/// which the general path then reads with its errors.
#[inline(always)]
fn short_move(rest: &[u8]) -> Option<(u64, u64, usize)> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    let head = u128::from_le_bytes(*rest.first_chunk::<16>()?);
    let w0 = head as u64;
    let x_len = digits(w0);
    if x_len.wrapping_sub(1) >= 4 || (w0 >> (8 * x_len)) as u8 != b' ' {
        return None;
    }
    let w1 = (head >> (8 * (x_len + 1))) as u64;
    let y_len = digits(w1);
    if y_len.wrapping_sub(1) >= 4 || !is_space((w1 >> (8 * y_len)) as u8) {
        return None;
    }
    // x's digits to bytes 0..4 and y's to bytes 4..8, each right-aligned (first digit in the
    // lowest byte, so leading zero bytes come first): subtracting '0' borrows only upwards,
    // away from the digits, and the shifts push everything else out.
    let x = (w0.wrapping_sub(ZEROS) << (8 * (4 - x_len))) & 0xffff_ffff;
    let y = w1.wrapping_sub(ZEROS) << (8 * (8 - y_len));
    // Pairs, then quads, of both numbers at once (no lane exceeds 9999).
    let v = x | y;
    let v = (v.wrapping_mul(10 << 8 | 1) >> 8) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100 << 16 | 1) >> 16) & 0x0000_ffff_0000_ffff;
    Some((v & 0xffff, v >> 32, x_len as usize + y_len as usize + 2))
}

/// How many ASCII digits `word` (little-endian) starts with, 0 to 8.
#[inline(always)]
fn digits(word: u64) -> u32 {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    // As in `swar_number`: exact up to the first non-digit.
    let non_digit =
        ((word & HIGH) ^ ZEROS) | ((word.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ ZEROS);
    non_digit.trailing_zeros() / 8
}

/// The usual layout of a move, checked with a few word operations: at most one white-space
/// byte, one to seven digits, one space, one to seven digits, a white-space byte, all within
/// the first 24 bytes of `rest`. Returns x, y, the offset of x and the offset just past y;
/// `None` for anything else (the general path then reads it, with its errors and its
/// handling of a block's end).
#[inline(always)]
fn fast_move(rest: &[u8]) -> Option<(u64, u64, usize, usize)> {
    let bytes: &[u8; 24] = rest.first_chunk()?;
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let at = usize::from(is_space(bytes[0]));
    let (x, x_len) = swar_number(word(at))?;
    let space = at + x_len;
    if bytes[space] != b' ' {
        return None;
    }
    let (y, y_len) = swar_number(word(space + 1))?;
    let end = space + 1 + y_len;
    is_space(bytes[end]).then_some((x, y, at, end))
}

/// The number formed by the one to seven ASCII digits at the start of the little-endian
/// `word`, and how many digits there are; `None` if the word starts with a non-digit or holds
/// eight digits.
#[inline(always)]
fn swar_number(word: u64) -> Option<(u64, usize)> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const HIGH: u64 = 0xf0f0_f0f0_f0f0_f0f0;
    // A byte is a digit when its high nibble is 3 before and after adding 6. (Carries and
    // borrows only run towards later bytes, past the first non-digit: they do not matter.)
    let non_digit =
        ((word & HIGH) ^ ZEROS) | ((word.wrapping_add(0x0606_0606_0606_0606) & HIGH) ^ ZEROS);
    let len = (non_digit.trailing_zeros() / 8) as usize;
    if len == 0 || len == 8 {
        return None;
    }
    // Digits to the high bytes (leading zeros below), then pairs, quads and the octet.
    let v = word.wrapping_sub(ZEROS) << (8 * (8 - len));
    let v = ((v & 0x0f0f_0f0f_0f0f_0f0f).wrapping_mul(10 * 256 + 1) >> 8) & 0x00ff_00ff_00ff_00ff;
    let v = (v.wrapping_mul(100 * 65536 + 1) >> 16) & 0x0000_ffff_0000_ffff;
    Some((v.wrapping_mul(10000 * (1 << 32) + 1) >> 32, len))
}

#[cold]
fn move_error(k: u64, e: PlayError) -> String {
    match e {
        PlayError::OffBoard { cell, side } => format!(
            "move {k}: cell {cell} is off the board: |x - y| must be at most S - 1 = {}",
            side - 1
        ),
        PlayError::Occupied { cell } => format!("move {k}: cell {cell} was played before"),
        // [`Stones`] refuses nothing else.
        e => format!("move {k}: {e}"),
    }
}

/// Lines [`Judge::resync`] reads ahead at most.
const RESYNC_LINES: usize = 1 << 15;
/// Lines tried as headers when none stands out.
const RESYNC_FALLBACK: usize = 1 << 12;
/// Moves checked after each guessed header.
const RESYNC_MOVES: u64 = 16;
/// Cases a guess is followed through at most.
const RESYNC_HOPS: usize = 64;

/// Whole lines read ahead for a resync guess.
#[derive(Debug)]
struct Lines<'a> {
    buf: &'a [u8],
    /// Where each line starts, and one past the last line's line feed.
    starts: Vec<usize>,
    /// Do the lines run to the end of the block?
    to_end: bool,
}

impl<'a> Lines<'a> {
    fn read(buf: &'a [u8], at: usize, max: usize) -> Lines<'a> {
        let mut starts = vec![at];
        let rest = buf.get(at..).unwrap_or_default();
        for nl in memchr::memchr_iter(b'\n', rest).take(max) {
            starts.push(at + nl + 1);
        }
        let to_end = starts.len() <= max;
        Lines {
            buf,
            starts,
            to_end,
        }
    }

    /// The number of whole lines.
    fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The two numbers of line `i`, if it holds exactly two numbers.
    fn pair(&self, i: usize) -> Option<(u64, u64)> {
        pair(&self.buf[self.starts[i]..self.starts[i + 1]])
    }

    /// Does line `i` look like a case header whose first moves fit its board, followed
    /// (after its M moves) by another such header, and so on through the window?
    fn case_chain_fits(&self, mut i: usize) -> bool {
        let len = self.len();
        for hop in 0..RESYNC_HOPS {
            let Some((side, moves)) = self.pair(i) else {
                return false;
            };
            let Some(board) = u32::try_from(side).ok().and_then(Board::new) else {
                return false;
            };
            let n = u64::from(board.n());
            let checked = i
                .saturating_add(moves.min(RESYNC_MOVES) as usize)
                .min(len - 1);
            for j in i + 1..=checked {
                let fits = self.pair(j).is_some_and(|(x, y)| {
                    x <= n && y <= n && board.contains(Cell::new(x as u32, y as u32))
                });
                if !fits {
                    return false;
                }
            }
            match usize::try_from(moves)
                .ok()
                .and_then(|m| (i + 1).checked_add(m))
            {
                Some(next) if next < len => i = next,
                Some(next) if next == len && self.to_end => return true,
                _ => return hop >= 2,
            }
        }
        true
    }
}

/// The line's two numbers, if it holds exactly two numbers below 2^32.
fn pair(line: &[u8]) -> Option<(u64, u64)> {
    let mut tokens = line
        .split(|&c| is_space(c))
        .filter(|t| !t.is_empty())
        .map(|t| {
            if t.len() > 10 || !t.iter().all(u8::is_ascii_digit) {
                return None;
            }
            Some(t.iter().fold(0u64, |v, &c| v * 10 + u64::from(c - b'0')))
        });
    let a = tokens.next()??;
    let b = tokens.next()??;
    tokens.next().is_none().then_some((a, b))
}

/// Writes a random valid judge input: `cases` cases on boards of side `side`, each with
/// `moves` distinct scattered moves (fewer if the board has fewer cells), drawn from `rng`.
/// The same seed gives the same bytes.
///
/// ```
/// use bitgames::havannah::judge::generate;
/// use bitgames::rng::Rng;
/// let mut input = Vec::new();
/// generate(&mut input, &mut Rng::new(1), 2, 5, 10)?;
/// assert!(input.starts_with(b"2\n5 10\n"));
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// Whatever writing to `out` returns.
///
/// # Panics
/// If `side` is outside `2..=MAX_SIDE`.
pub fn generate(
    out: &mut impl Write,
    rng: &mut Rng,
    cases: u32,
    side: u32,
    moves: u32,
) -> io::Result<()> {
    let board = Board::new(side).expect("the board side must be in 2..=MAX_SIDE");
    let mut text = Vec::with_capacity(1 << 16);
    writeln!(text, "{cases}")?;
    let mut seen = FxHashSet::default();
    let mut all: Vec<Cell> = Vec::new();
    for _ in 0..cases {
        let m = u64::from(moves).min(board.cells()) as u32;
        writeln!(text, "{side} {m}")?;
        let cells: Vec<Cell> = if u64::from(m) * 2 > board.cells() {
            if all.is_empty() {
                all = board.iter().collect();
            }
            rng.shuffle(&mut all);
            all[..m as usize].to_vec()
        } else {
            seen.clear();
            let mut picked = Vec::with_capacity(m as usize);
            while picked.len() < m as usize {
                let cell = Cell::new(rng.range(1, board.n()), rng.range(1, board.n()));
                if board.contains(cell) && seen.insert(cell) {
                    picked.push(cell);
                }
            }
            picked
        };
        for c in cells {
            writeln!(text, "{} {}", c.x, c.y)?;
            if text.len() >= 1 << 16 {
                out.write_all(&text)?;
                text.clear();
            }
        }
    }
    out.write_all(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Options, run};

    /// A case sizes its tables for the moves its header claims only as far as the bytes left
    /// can hold them (a short input claiming 10¹¹ moves on a huge board got a table for 2²²
    /// of them, 128 MiB, before its truncation was found).
    #[test]
    fn tables_are_sized_for_the_moves_the_input_can_hold() {
        let mut scratch = Scratch::default();
        let text = b"1000000001 100000000000\n1 1\n2 2\n";
        let mut sc = Scanner::new(text, 0, true);
        assert!(dataset::<true>(&mut scratch, &mut sc).is_err());
        let capacity = scratch.game.as_ref().map(Stones::capacity);
        assert!(
            capacity.is_some_and(|c| c <= text.len() / 4 + 1),
            "{capacity:?}"
        );
        // Where the input holds them all, the tables are sized for every move.
        let mut input = Vec::new();
        generate(&mut input, &mut Rng::new(5), 1, 3000, 20_000).unwrap();
        let text = &input[input.iter().position(|&c| c == b'\n').unwrap() + 1..];
        let mut sc = Scanner::new(text, 0, true);
        assert!(dataset::<true>(&mut scratch, &mut sc).is_ok());
        let claimed = std::str::from_utf8(text).unwrap().split_whitespace().nth(1);
        assert_eq!(
            scratch.game.as_ref().map(Stones::capacity),
            claimed.and_then(|m| m.parse().ok())
        );
    }

    #[test]
    fn swar_numbers_match_plain_parsing() {
        let mut rng = Rng::new(3);
        for len in 1..=7u32 {
            for _ in 0..200 {
                let v = u64::from(rng.below(10u32.pow(len)));
                for tail in [b" 12345678".as_slice(), b"\n", b"x", b"\xff\xff", b"/"] {
                    let mut text = format!("{v:0width$}", width = len as usize).into_bytes();
                    text.extend_from_slice(tail);
                    text.resize(8, 0);
                    let word = u64::from_le_bytes(text[..8].try_into().unwrap());
                    assert_eq!(swar_number(word), Some((v, len as usize)), "{text:?}");
                }
            }
        }
        assert_eq!(swar_number(u64::from_le_bytes(*b"12345678")), None);
        assert_eq!(swar_number(u64::from_le_bytes(*b" 1234567")), None);
        assert_eq!(swar_number(u64::from_le_bytes(*b":1234567")), None);
        assert_eq!(
            fast_move(b"\n12 345\n................"),
            Some((12, 345, 1, 7))
        );
        assert_eq!(
            fast_move(b"12 345\r\n................"),
            Some((12, 345, 0, 6))
        );
        assert_eq!(fast_move(b"\n12  345\n..............."), None);
        assert_eq!(fast_move(b"\n12 345x\n..............."), None);
        assert_eq!(fast_move(b"\n12 345\n"), None);
    }

    /// `short_move` by the book: at least 16 bytes, 1–4 digits, a space, 1–4 digits, white space.
    fn plain_short_move(rest: &[u8]) -> Option<(u64, u64, usize)> {
        if rest.len() < 16 {
            return None;
        }
        let number = |at: usize| {
            let len = rest[at..].iter().take_while(|c| c.is_ascii_digit()).count();
            if !(1..=4).contains(&len) {
                return None;
            }
            let value = rest[at..at + len]
                .iter()
                .fold(0, |v, &c| v * 10 + u64::from(c - b'0'));
            Some((value, at + len))
        };
        let (x, end) = number(0)?;
        if rest[end] != b' ' {
            return None;
        }
        let (y, end) = number(end + 1)?;
        is_space(rest[end]).then_some((x, y, end + 1))
    }

    #[test]
    fn short_move_matches_a_plain_reading() {
        // Bytes around the digit range and the carry/borrow edges of the word tricks.
        const ODD: &[u8] = b" \n\r\t\x0b\x0c/:;0x\x00\x7f\x80\xc0\xf9\xfa\xff\x2f\x3a\xb0\xb9";
        let mut rng = Rng::new(11);
        let mut accepted = 0;
        let rounds = if cfg!(miri) { 2_000 } else { 200_000u32 };
        for round in 0..rounds {
            let mut text = Vec::new();
            if round % 2 == 0 {
                // A well-formed line, then noise: numbers of 0–6 digits (leading zeros too).
                for part in 0..2 {
                    let len = if rng.below(4) == 0 {
                        rng.below(7)
                    } else {
                        1 + rng.below(4)
                    };
                    for _ in 0..len {
                        text.push(b'0' + rng.below(10) as u8);
                    }
                    if part == 0 {
                        text.push(if rng.below(8) == 0 { b'\t' } else { b' ' });
                    }
                }
                text.push(ODD[rng.below(ODD.len() as u32) as usize]);
            }
            let len = 14 + rng.below(8) as usize;
            while text.len() < len {
                text.push(if rng.below(3) == 0 {
                    ODD[rng.below(ODD.len() as u32) as usize]
                } else {
                    b'0' + rng.below(10) as u8
                });
            }
            let expected = plain_short_move(&text);
            assert_eq!(
                short_move(&text),
                expected,
                "{:?}",
                text.escape_ascii().to_string()
            );
            accepted += usize::from(expected.is_some());
        }
        assert!(accepted > rounds as usize / 20, "{accepted}");
        assert_eq!(short_move(b"9999 9999\n......."), Some((9999, 9999, 10)));
        assert_eq!(short_move(b"0001 0\r\n........."), Some((1, 0, 7)));
        assert_eq!(short_move(b"12345 1\n........."), None);
        assert_eq!(short_move(b"1 12345\n........."), None);
        assert_eq!(short_move(b"1 2\n"), None);
    }

    /// Output and error message of judging `input` in `format`.
    fn outcome<F: Format>(format: &F, input: &[u8], options: Options) -> (Vec<u8>, String) {
        let mut out = Vec::new();
        let result = run(format, input, &mut out, options);
        (
            out,
            result.map_or_else(|e| e.to_string(), |s| s.datasets.to_string()),
        )
    }

    #[test]
    #[cfg_attr(miri, ignore)]
    fn fast_paths_match_the_scanner_on_damaged_inputs() {
        const NOISE: &[u8] = b"0123456789   \n\n\r\tx-+/:\xff\x00";
        let mut rng = Rng::new(5);
        for round in 0..400u32 {
            let side = [2, 3, 5, 12, 60, 3000, 20_000, 2_000_000][round as usize % 8];
            let mut input = Vec::new();
            generate(
                &mut input,
                &mut Rng::new(u64::from(round)),
                3,
                side,
                1 + rng.below(40),
            )
            .unwrap();
            // Damage a few bytes: replace, insert or delete.
            for _ in 0..rng.below(4) {
                let at = rng.below(input.len() as u32) as usize;
                let byte = NOISE[rng.below(NOISE.len() as u32) as usize];
                match rng.below(3) {
                    0 => input[at] = byte,
                    1 => input.insert(at, byte),
                    _ => {
                        input.remove(at);
                    }
                }
            }
            for options in [
                Options::single_threaded(),
                Options {
                    threads: 2,
                    block: 64,
                },
            ] {
                assert_eq!(
                    outcome(&Judge, &input, options),
                    outcome(&ScannerOnly, &input, options),
                    "{:?}",
                    input.escape_ascii().to_string()
                );
            }
        }
    }

    #[test]
    fn resync_finds_a_real_header() {
        let mut input = Vec::new();
        generate(&mut input, &mut Rng::new(7), 30, 40, 300).unwrap();
        let mut headers = Vec::new();
        let mut at = 0;
        for (i, line) in input.split(|&c| c == b'\n').enumerate() {
            if line == b"40 300" {
                headers.push(at);
            }
            let _ = i;
            at += line.len() + 1;
        }
        let (mut hits, mut tries) = (0, 0);
        let last = *headers.last().unwrap();
        for from in (0..last).step_by(997) {
            tries += 1;
            if let Some(g) = Judge.resync(&30, &input, from) {
                assert!(g >= from);
                hits += usize::from(headers.contains(&g));
            }
        }
        assert!(hits * 10 >= tries * 9, "{hits} of {tries}");
    }

    #[test]
    fn generated_input_judges_the_same_on_any_threads() {
        let mut input = Vec::new();
        generate(&mut input, &mut Rng::new(3), 200, 8, 60).unwrap();
        let mut one = Vec::new();
        run(&Judge, &input[..], &mut one, Options::single_threaded()).unwrap();
        let mut many = Vec::new();
        let options = Options {
            threads: 4,
            block: 4096,
        };
        run(&Judge, &input[..], &mut many, options).unwrap();
        assert_eq!(one, many);
        assert_eq!(one.iter().filter(|&&c| c == b'\n').count(), 200);
    }
}
