//! The judge format of the grid game ([Jutge P57928](https://jutge.org/problems/P57928_en)) and
//! an input generator.
//!
//! Cases follow one another until the end of input, all tokens separated by white space: r and
//! c, the number of moves m, then m moves, each a row and a column. The answer to each case is
//! `winning` or `losing`, for the player to move after the moves.
//!
//! ```
//! use bitgames::grid::judge::Judge;
//! use bitgames::judge::{Options, run};
//!
//! let mut out = Vec::new();
//! run(&Judge, &b"5 6 2 3 4 5 2\n5 6 3 3 4 5 2 1 1\n2 2 0\n"[..], &mut out, Options::default())?;
//! assert_eq!(out, b"winning\nwinning\nlosing\n");
//! # Ok::<(), bitgames::JudgeError>(())
//! ```

use std::io::{self, Write};

use super::batch::Work;
use super::board::Board;
use super::{Cell, Game, MAX_SIDE};
use crate::input::{Problem, Scanner, Stop, is_space};
use crate::judge::Format;
use crate::rng::Rng;

/// The largest r and c the judge accepts.
pub const MAX_JUDGE_SIDE: usize = 80;

/// Cases [`Format::resync`] checks before it accepts a guessed case start.
const RESYNC_CHECK: usize = 4;

/// Line starts, then token starts, [`Format::resync`] tries at most.
const RESYNC_TRIES: usize = 256;

/// The grid game's judge format, for [`crate::judge::run`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Judge;

/// The answer to one case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answer {
    /// The player to move can force a win.
    Winning,
    /// Every move of the player to move loses against best play.
    Losing,
}

/// The judge's working memory, reused from case to case: the position (a bare board, without
/// the history a [`Game`] keeps), and the fast path's (the tokens of its window, its cases, a
/// second board).
#[derive(Clone)]
pub struct Scratch {
    board: Board,
    work: Work,
}

impl Default for Scratch {
    fn default() -> Self {
        Scratch {
            board: Board::new(),
            work: Work::default(),
        }
    }
}

impl crate::judge::Sealed for Judge {}

impl Format for Judge {
    type Header = ();
    type Answer = Answer;
    type Scratch = Scratch;

    fn header(&self, _sc: &mut Scanner<'_>) -> Result<(), Stop> {
        Ok(())
    }

    fn count(&self, _header: &()) -> Option<u64> {
        None
    }

    #[inline]
    fn dataset(
        &self,
        _header: &(),
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Answer>, Stop> {
        if sc.at_end()? {
            return Ok(None);
        }
        const SIDE: u64 = MAX_JUDGE_SIDE as u64;
        let r = sc.uint_in("r", 1, SIDE)?;
        let c = sc.uint_in("c", 1, SIDE)?;
        let m = sc.uint_in("m, the number of moves", 0, r * c)?;
        let board = &mut scratch.board;
        board.reset(r as usize, c as usize);
        for k in 1..=m {
            let (x, y, at) = match quick_move(sc.remaining()) {
                // In range: the fast path; anything else is read (and reported) the usual way.
                Some((x, y, offset, len)) if (1..=r).contains(&x) && (1..=c).contains(&y) => {
                    let at = sc.pos() + offset;
                    sc.consume(len);
                    (x, y, at)
                }
                _ => {
                    let x = sc.uint_in("the row of a move", 1, r)?;
                    let at = sc.token_start();
                    (x, sc.uint_in("the column of a move", 1, c)?, at)
                }
            };
            // On the grid: checked above.
            if board.cut(x as usize - 1, y as usize - 1).is_none() {
                return Err(Stop::bad(
                    at,
                    Problem::Rule(format!("move {k} at ({x}, {y}) is on a forbidden cell")),
                ));
            }
        }
        Ok(Some(if board.value() != 0 {
            Answer::Winning
        } else {
            Answer::Losing
        }))
    }

    /// Cuts a window of input into numbers and plays the cases from them (`super::batch`),
    /// on the best SIMD back end.
    fn batch(
        &self,
        _header: &(),
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
        stop_at: usize,
        limit: usize,
        answers: &mut Vec<Answer>,
    ) -> usize {
        let stop = stop_at.saturating_sub(sc.pos());
        let (judged, used) = super::batch::run_best(
            crate::simd::Backend::detect(),
            &mut scratch.board,
            &mut scratch.work,
            sc.remaining(),
            stop,
            limit,
            answers,
        );
        sc.consume(used);
        judged
    }

    fn write(&self, _index: u64, answer: Answer, out: &mut Vec<u8>) {
        out.extend_from_slice(match answer {
            Answer::Winning => b"winning\n",
            Answer::Losing => b"losing\n",
        });
    }

    /// Tries successive starts from `from` and accepts the first from which the next few
    /// cases are valid (or valid up to the end of the block): first the starts of the next
    /// lines (files usually hold one case per line, and a case can be thousands of tokens
    /// long), then every token start.
    fn resync(&self, header: &(), buf: &[u8], from: usize) -> Option<usize> {
        let from = from.min(buf.len());
        let mut scratch = Scratch::default();
        let mut valid_at = |pos: usize| {
            let mut sc = Scanner::new(buf, pos, false);
            (0..RESYNC_CHECK).all(|_| match self.dataset(header, &mut scratch, &mut sc) {
                Ok(Some(_)) => true,
                Ok(None) | Err(Stop::Bad(_)) => false,
                Err(Stop::Incomplete) => sc.token_start() > pos,
            })
        };
        // The first byte at or after `pos` that is (or is not) white space.
        let skip = |mut pos: usize, space: bool| {
            while pos < buf.len() && is_space(buf[pos]) == space {
                pos += 1;
            }
            pos
        };
        let line_starts = std::iter::successors(Some(from), |&at| {
            memchr::memchr(b'\n', &buf[at..]).map(|i| skip(at + i + 1, true))
        })
        .skip(1);
        // Token starts, after the token `from` may be inside of.
        let next_token = |at: usize| skip(skip(at, false), true);
        let token_starts =
            std::iter::successors(Some(next_token(from)), |&at| Some(next_token(at)));
        line_starts
            .take(RESYNC_TRIES)
            .chain(token_starts.take(RESYNC_TRIES))
            .take_while(|&pos| pos < buf.len())
            .find(|&pos| valid_at(pos))
    }
}

/// The same judge without its fast path ([`Format::batch`]): every case read by the scanner.
/// For differential tests and fuzzing: its answers and errors must be [`Judge`]'s.
#[doc(hidden)]
#[derive(Debug, Clone, Copy, Default)]
pub struct Plain;

impl crate::judge::Sealed for Plain {}

impl Format for Plain {
    type Header = ();
    type Answer = Answer;
    type Scratch = Scratch;

    fn header(&self, sc: &mut Scanner<'_>) -> Result<(), Stop> {
        Judge.header(sc)
    }

    fn count(&self, header: &()) -> Option<u64> {
        Judge.count(header)
    }

    fn dataset(
        &self,
        header: &(),
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Answer>, Stop> {
        Judge.dataset(header, scratch, sc)
    }

    fn write(&self, index: u64, answer: Answer, out: &mut Vec<u8>) {
        Judge.write(index, answer, out);
    }

    fn resync(&self, header: &(), buf: &[u8], from: usize) -> Option<usize> {
        Judge.resync(header, buf, from)
    }
}

/// The common shape of a move right after the previous token: one white-space byte, a row of
/// one or two digits, one white-space byte, a column of one or two digits, and a white-space
/// byte (so both numbers are complete whether or not more input follows). Returns the row, the
/// column, the offset of the row and the length up to the end of the column; `None` for any
/// other shape, which the scanner then reads.
#[inline(always)]
fn quick_move(rest: &[u8]) -> Option<(u64, u64, usize, usize)> {
    let b: &[u8; 7] = rest.first_chunk()?;
    let digit = |i: usize| {
        let d = b[i].wrapping_sub(b'0');
        (d <= 9).then_some(u64::from(d))
    };
    if !is_space(b[0]) {
        return None;
    }
    let mut x = digit(1)?;
    let mut i = 2;
    if let Some(d) = digit(i) {
        x = x * 10 + d;
        i += 1;
    }
    if !is_space(b[i]) {
        return None;
    }
    let mut y = digit(i + 1)?;
    i += 2;
    if let Some(d) = digit(i) {
        y = y * 10 + d;
        i += 1;
    }
    is_space(b[i]).then_some((x, y, 1, i))
}

/// Writes `cases` random cases in the judge format to `out`: sides uniform in 1..=`max_side`
/// (at most [`MAX_SIDE`]), and a prefix of uniform length (at most `max_moves`) of a game of
/// uniformly random legal moves. One case per line.
///
/// ```
/// use bitgames::grid::judge::{Judge, generate};
/// use bitgames::judge::{Options, run};
/// use bitgames::rng::Rng;
///
/// let mut input = Vec::new();
/// generate(&mut input, &mut Rng::new(1), 100, 80, usize::MAX)?;
/// let mut out = Vec::new();
/// let summary = run(&Judge, &input[..], &mut out, Options::default())?;
/// assert_eq!(summary.datasets, 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// What `out` returns.
pub fn generate(
    out: &mut impl Write,
    rng: &mut Rng,
    cases: usize,
    max_side: u32,
    max_moves: usize,
) -> io::Result<()> {
    let mut moves = Vec::new();
    let mut text = Vec::with_capacity(1 << 17);
    for _ in 0..cases {
        let (r, c, m) = draw_case(rng, max_side, max_moves, &mut moves);
        write!(text, "{r} {c} {m}")?;
        for cell in &moves[..m] {
            write!(text, " {} {}", cell.row, cell.col)?;
        }
        text.push(b'\n');
        if text.len() >= 1 << 16 {
            out.write_all(&text)?;
            text.clear();
        }
    }
    out.write_all(&text)
}

/// One case as [`generate`] draws it: the sides (each uniform in 1..=`max_side`, at most
/// [`MAX_SIDE`]), a whole random game into `moves`, and how many of its moves the case keeps
/// (uniform up to `max_moves`).
fn draw_case(
    rng: &mut Rng,
    max_side: u32,
    max_moves: usize,
    moves: &mut Vec<Cell>,
) -> (u32, u32, usize) {
    let max_side = max_side.clamp(1, MAX_SIDE);
    let r = rng.range(1, max_side);
    let c = rng.range(1, max_side);
    random_game(rng, r, c, moves);
    let m = rng.range(0, moves.len().min(max_moves) as u32) as usize;
    (r, c, m)
}

/// Cuts `input` into numbers, window after window, with the tokenizer the grid judge would
/// choose under `backend` (the best this CPU has up to it: AVX-512 VBMI2, AVX2 or the portable
/// one), and returns how many complete tokens it found (a token cut by a window's end is not
/// counted): for the benches, which time the tokenizer alone. Not a stable API.
#[doc(hidden)]
pub fn count_tokens(backend: crate::simd::Backend, input: &[u8]) -> usize {
    super::batch::count_tokens(backend, input)
}

/// Cases as the judge's fast path holds them once its tokenizer has run (the sides, the move
/// count and the moves as numbers), and its moves played on a chosen kernel: for the benches,
/// which time the moves without the tokenizer. Not a stable API.
#[doc(hidden)]
pub struct Cases {
    values: Vec<u16>,
    cases: Vec<(u32, u32)>,
    boards: [Board; 2],
    answers: Vec<Answer>,
}

/// Cases [`Cases::play`] hands the kernel at a time: about as many as one window of the judge
/// holds on the long-games input.
const CASES_AT_ONCE: usize = 128;

impl Cases {
    /// `cases` cases drawn as [`generate`] draws them.
    pub fn generate(rng: &mut Rng, cases: usize, max_side: u32, max_moves: usize) -> Cases {
        let (mut values, mut spans, mut moves) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..cases {
            let (r, c, m) = draw_case(rng, max_side, max_moves, &mut moves);
            let first = values.len() as u32;
            values.extend([r as u16, c as u16, m as u16]);
            for cell in &moves[..m] {
                values.extend([cell.row as u16, cell.col as u16]);
            }
            spans.push((first, values.len() as u32));
        }
        Cases {
            values,
            cases: spans,
            boards: [Board::new(), Board::new()],
            answers: Vec::new(),
        }
    }

    /// The number of moves of all the cases.
    pub fn moves(&self) -> usize {
        self.cases
            .iter()
            .map(|&(a, b)| (b - a - 3) as usize / 2)
            .sum()
    }

    /// Plays every case on the grid kernel the judge would choose under `backend` (AVX-512,
    /// AVX2 or portable, the best this CPU has up to `backend`), [`CASES_AT_ONCE`] at a time,
    /// in the judge's two streams; returns how many are winning.
    pub fn play(&mut self, backend: crate::simd::Backend) -> usize {
        let [a, b] = &mut self.boards;
        let mut winning = 0;
        for chunk in self.cases.chunks(CASES_AT_ONCE) {
            self.answers.clear();
            let played =
                super::batch::play_best(backend, [a, b], &self.values, chunk, &mut self.answers);
            debug_assert_eq!(played, chunk.len());
            winning += self
                .answers
                .iter()
                .filter(|&&x| x == Answer::Winning)
                .count();
        }
        winning
    }
}

/// A whole game of uniformly random moves (each on a cell drawn uniformly from the permitted
/// ones) on the empty `rows` × `cols` grid, into `moves` (cleared first; left empty for a size
/// outside 1..=[`MAX_SIDE`]). For [`generate`] and the benchmarks.
///
/// ```
/// use bitgames::grid::{Game, judge::random_game};
/// use bitgames::rng::Rng;
///
/// let mut moves = Vec::new();
/// random_game(&mut Rng::new(7), 5, 6, &mut moves);
/// let mut game = Game::new(5, 6)?;
/// for cell in &moves {
///     game.play(cell.row, cell.col)?;
/// }
/// assert!(game.outcome().is_some()); // no permitted cell is left: the game is over
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn random_game(rng: &mut Rng, rows: u32, cols: u32, moves: &mut Vec<Cell>) {
    moves.clear();
    let Ok(mut game) = Game::new(rows, cols) else {
        return;
    };
    while let Some(cell) = random_cell(&game, rng) {
        if game.play(cell.row, cell.col).is_ok() {
            moves.push(cell);
        }
    }
}

/// A cell drawn uniformly from the permitted cells of `game`, or `None` when the game is over.
pub(crate) fn random_cell(game: &Game, rng: &mut Rng) -> Option<Cell> {
    let rects = game.rectangles();
    let area: u32 = rects.iter().map(|r| r.rows * r.cols).sum();
    if area == 0 {
        return None;
    }
    let mut k = rng.below(area);
    for r in rects {
        if k < r.rows * r.cols {
            return Some(Cell::new(r.top + k / r.cols, r.left + k % r.cols));
        }
        k -= r.rows * r.cols;
    }
    unreachable!("k is below the area")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Options, run};
    use crate::simd::Backend;

    #[test]
    #[cfg_attr(miri, ignore)]
    fn the_benches_cases_are_the_judges() {
        // The same draws as `generate`: the judge's answers, and the moves alone on every
        // kernel this CPU has.
        let mut text = Vec::new();
        generate(&mut text, &mut Rng::new(5), 600, 80, usize::MAX).unwrap();
        let mut out = Vec::new();
        run(&Judge, &text[..], &mut out, Options::default()).unwrap();
        let want = out
            .split(|&b| b == b'\n')
            .filter(|l| l.ends_with(b"winning"))
            .count();
        assert!((100..500).contains(&want), "{want} winning of 600");
        let mut cases = Cases::generate(&mut Rng::new(5), 600, 80, usize::MAX);
        assert!(cases.moves() > 10_000);
        for backend in Backend::ALL.into_iter().filter(|b| b.is_available()) {
            assert_eq!(cases.play(backend), want, "{backend:?}");
        }
    }

    #[test]
    fn quick_move_shapes() {
        assert_eq!(quick_move(b" 1 2\n7 7"), Some((1, 2, 1, 4)));
        assert_eq!(quick_move(b" 12 34 9"), Some((12, 34, 1, 6)));
        assert_eq!(quick_move(b"\t8\n80\r  "), Some((8, 80, 1, 5)));
        assert_eq!(quick_move(b" 05 7   "), Some((5, 7, 1, 5)));
        for other in [
            &b" 1 2"[..], // too short to be sure the column is complete
            b"  1 2   ",  // two spaces first
            b" 1  2   ",  // two spaces between
            b" 123 4  ",  // three digits
            b" 1 2x   ",  // glued
            b" 1 x    ",  // not a number
            b"1 2     ",  // no space first
        ] {
            assert_eq!(quick_move(other), None, "{other:?}");
        }
    }

    /// From the middle of a case thousands of tokens long, the guessed start is the next
    /// case's (the next line's), so that a second thread gets its share of long games.
    #[test]
    fn resync_finds_the_next_case_past_a_long_one() {
        let mut input = Vec::new();
        // Whole games on large grids: many cases of more than 256 tokens.
        generate(&mut input, &mut Rng::new(3), 100, 80, usize::MAX).unwrap();
        let starts: Vec<usize> = std::iter::once(0)
            .chain(memchr::memchr_iter(b'\n', &input).map(|i| i + 1))
            .filter(|&i| i < input.len())
            .collect();
        let mut long = 0;
        for pair in starts.windows(2) {
            let (start, next) = (pair[0], pair[1]);
            let tokens = input[start..next]
                .split(|b| b.is_ascii_whitespace())
                .count();
            if tokens > 600 {
                long += 1;
                let middle = start + (next - start) / 2;
                assert_eq!(Judge.resync(&(), &input, middle), Some(next));
            }
        }
        assert!(long >= 5, "too few long cases: {long}");
    }

    /// Where no line break follows, the guess is the first token start from which the next
    /// cases are valid: past the rest of the token it started in and the spaces after it.
    #[test]
    fn resync_tries_the_token_starts_of_a_single_line() {
        // "80 80 0" (an 80 × 80 grid, no moves) twenty times; from the middle of the first
        // "80", the next token starts give "80 0 …" and "0 80 …" (no such grids), then a case.
        let input = "80 80 0 ".repeat(20);
        assert_eq!(Judge.resync(&(), input.as_bytes(), 1), Some(8));
        // Tabs and runs of spaces between the tokens change nothing but the offsets.
        let input = "80 \t80  0\t".repeat(20);
        assert_eq!(Judge.resync(&(), input.as_bytes(), 1), Some(10));
    }

    /// The fast path (enough bytes after a move) and the scanner (too few) report the same.
    #[test]
    fn fast_and_slow_paths_report_alike() {
        for case in [
            "3 3 2 2 2 1 2",
            "4 4 3 1 1 4 4 1 3",
            "2 2 1 2 3",
            "2 2 1 0 1",
        ] {
            let short = case.to_string();
            let padded = format!("{case}          \n");
            let mut results = Vec::new();
            for input in [short, padded] {
                let mut out = Vec::new();
                let r = run(
                    &Judge,
                    input.as_bytes(),
                    &mut out,
                    Options::single_threaded(),
                );
                results.push((out, r.map(|s| s.datasets).map_err(|e| e.to_string())));
            }
            assert_eq!(results[0], results[1], "{case}");
        }
    }
}
