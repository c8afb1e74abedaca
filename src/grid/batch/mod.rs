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
//! [`Best::choose`] chooses the kernel at run time: on x86-64 with AVX-512 VBMI2 the AVX-512
//! tokenizer and the hand-written move ([`x86_64::GridAvx512`]), with AVX2 the AVX2 tokenizer
//! and the hand-written move's AVX2 form ([`x86_64::GridAvx2`]), elsewhere the
//! portable tokenizer (SWAR) and move ([`Portable`]). The portable kernel is the
//! specification the tests hold the others to.
//!
//! The window ([`WINDOW`], 64 KiB) holds every valid case but the very longest (a case of 6400
//! moves of two-digit numbers takes about 38 KB).

#[cfg(target_arch = "x86_64")]
pub(crate) mod x86_64;

use super::board::Board;
use super::judge::{Answer, MAX_JUDGE_SIDE};
use crate::input::window::tokenize_swar;
use crate::input::window::{Tokens, WINDOW};
use crate::simd::Backend;

/// Bytes of the first window of [`run`], which grows to [`WINDOW`].
const FIRST_WINDOW: usize = 1 << 12;

/// Tokens per case (on average in a window) below which [`play_streams`] plays the cases one
/// after the other: a case of sixteen moves.
const SHORT_CASE_TOKENS: usize = 3 + 2 * 16;

/// The fast path's working memory: the tokens of a window, the cases found in them (first
/// token and the token after, which [`run`] plays in two streams), and a second board.
#[derive(Clone)]
pub(crate) struct Work {
    /// The window's tokens.
    pub(crate) tokens: Tokens,
    /// The window's cases, played in two streams.
    cases: Vec<(u32, u32)>,
    /// The second stream's board.
    spare: Board,
}

impl Default for Work {
    fn default() -> Self {
        Work {
            tokens: Tokens::default(),
            cases: Vec::new(),
            spare: Board::new(),
        }
    }
}

/// What the fast path needs of the machine: a tokenizer, and the play.
pub(crate) trait Kernel: Copy {
    /// Cuts `window` into `tokens` (see [`Tokens`]; every kernel gives the same result).
    fn tokenize(self, window: &[u8], tokens: &mut Tokens);

    /// Plays `moves` (rows and columns from 1, in turn) on `grid`: `false` at a move off the
    /// grid or on a forbidden cell (the position is then unspecified).
    fn play_moves(self, grid: &mut Board, moves: &[u16]) -> bool;

    /// Plays two games with as many moves, move `k` of the first then move `k` of the second,
    /// for each `k` in turn. At a bad move (as [`Kernel::play_moves`]): `Err((game, played))`,
    /// `played` being the tokens of the first game played. When the bad move is the second
    /// game's, the first game's position is exactly that after its `played` tokens (its moves
    /// up to and including the one before the bad move), so that it can go on; the other
    /// positions are unspecified.
    fn play_pair(self, grids: [&mut Board; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)>;
}

/// The portable kernel: the SWAR tokenizer, and [`Board::cut`] move by move. The
/// specification the tests hold the other kernels to.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Portable;

impl Kernel for Portable {
    #[inline(always)]
    fn tokenize(self, window: &[u8], tokens: &mut Tokens) {
        tokenize_swar(window, tokens);
    }

    /// [`Board::cut`], move by move ([`Board::cut_narrow`] on boards of at most 64 rows and
    /// columns).
    #[inline(always)]
    fn play_moves(self, grid: &mut Board, moves: &[u16]) -> bool {
        if grid.is_narrow() {
            play_each::<false>(grid, moves)
        } else {
            play_each::<true>(grid, moves)
        }
    }

    /// [`play_pair_with`], with each board's move (wide or narrow) chosen once.
    #[inline(always)]
    fn play_pair(self, grids: [&mut Board; 2], moves: [&[u16]; 2]) -> Result<(), (usize, usize)> {
        let [a, b] = grids;
        match (a.is_narrow(), b.is_narrow()) {
            (true, true) => play_pair_with::<false, false>([a, b], moves),
            (true, false) => play_pair_with::<false, true>([a, b], moves),
            (false, true) => play_pair_with::<true, false>([a, b], moves),
            (false, false) => play_pair_with::<true, true>([a, b], moves),
        }
    }
}

/// [`Kernel::play_pair`] by [`play_each`], wide or narrow on each board.
#[inline(always)]
fn play_pair_with<const WIDE_A: bool, const WIDE_B: bool>(
    grids: [&mut Board; 2],
    moves: [&[u16]; 2],
) -> Result<(), (usize, usize)> {
    let [a, b] = grids;
    for (k, (p, q)) in moves[0]
        .chunks_exact(2)
        .zip(moves[1].chunks_exact(2))
        .enumerate()
    {
        if !play_each::<WIDE_A>(a, p) {
            return Err((0, 2 * k));
        }
        if !play_each::<WIDE_B>(b, q) {
            return Err((1, 2 * k + 2));
        }
    }
    Ok(())
}

/// Plays `moves` on `grid` by [`Board::cut`] (`WIDE`) or [`Board::cut_narrow`]: `false` at a
/// move off the grid or on a forbidden cell.
#[inline(always)]
fn play_each<const WIDE: bool>(grid: &mut Board, moves: &[u16]) -> bool {
    let (rows, cols) = (grid.rows() as u16, grid.cols() as u16);
    for mv in moves.chunks_exact(2) {
        let (x, y) = (mv[0].wrapping_sub(1), mv[1].wrapping_sub(1));
        if x >= rows
            || y >= cols
            || grid
                .cut_as::<WIDE>(usize::from(x), usize::from(y))
                .is_none()
        {
            return false;
        }
    }
    true
}

/// The kernel the judge uses under `backend`: the best this CPU has up to it.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Best {
    /// AVX-512 (with VBMI, VBMI2, BMI2 and LZCNT): its tokenizer and hand-written move.
    #[cfg(target_arch = "x86_64")]
    Avx512(x86_64::GridAvx512),
    /// AVX2 (with BMI2 and LZCNT): its tokenizer and the AVX2 form of the hand-written move.
    #[cfg(target_arch = "x86_64")]
    Avx2(x86_64::GridAvx2),
    /// The portable kernel.
    Portable(Portable),
}

impl Best {
    /// The one place the judge's kernel is chosen: AVX-512 only under [`Backend::Avx512`],
    /// AVX2 under anything but [`Backend::Portable`], each when the CPU has all its features.
    pub(crate) fn choose(backend: Backend) -> Best {
        #[cfg(target_arch = "x86_64")]
        {
            if backend == Backend::Avx512
                && let Some(kernel) = x86_64::GridAvx512::new()
            {
                return Best::Avx512(kernel);
            }
            if backend != Backend::Portable
                && let Some(kernel) = x86_64::GridAvx2::new()
            {
                return Best::Avx2(kernel);
            }
        }
        let _ = backend;
        Best::Portable(Portable)
    }
}

/// [`run`] on the kernel [`Best::choose`] picks for `backend`.
pub(crate) fn run_best(
    backend: Backend,
    grid: &mut Board,
    work: &mut Work,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Answer>,
) -> (usize, usize) {
    match Best::choose(backend) {
        #[cfg(target_arch = "x86_64")]
        Best::Avx512(kernel) => kernel.batch(grid, work, bytes, stop, limit, answers),
        #[cfg(target_arch = "x86_64")]
        Best::Avx2(kernel) => kernel.batch(grid, work, bytes, stop, limit, answers),
        Best::Portable(kernel) => run(kernel, grid, work, bytes, stop, limit, answers),
    }
}

/// [`play_streams`] on the kernel [`Best::choose`] picks for `backend`: the judge's moves
/// without its tokenizer, for the benches.
pub(crate) fn play_best(
    backend: Backend,
    grids: [&mut Board; 2],
    values: &[u16],
    cases: &[(u32, u32)],
    answers: &mut Vec<Answer>,
) -> usize {
    match Best::choose(backend) {
        #[cfg(target_arch = "x86_64")]
        Best::Avx512(kernel) => kernel.play(grids, values, cases, answers),
        #[cfg(target_arch = "x86_64")]
        Best::Avx2(kernel) => kernel.play(grids, values, cases, answers),
        Best::Portable(kernel) => play_streams(kernel, grids, values, cases, answers),
    }
}

/// The complete tokens of `input`, cut window after window of [`WINDOW`] bytes by the
/// tokenizer of the kernel [`Best::choose`] picks for `backend` (a token cut by a window's end
/// is not counted): the tokenizer alone, for the benches.
pub(crate) fn count_tokens(backend: Backend, input: &[u8]) -> usize {
    fn count<K: Kernel>(kernel: K, input: &[u8]) -> usize {
        let mut tokens = Tokens::default();
        input
            .chunks(WINDOW)
            .map(|chunk| {
                kernel.tokenize(chunk, &mut tokens);
                tokens.len
            })
            .sum()
    }
    match Best::choose(backend) {
        #[cfg(target_arch = "x86_64")]
        Best::Avx512(kernel) => count(kernel, input),
        #[cfg(target_arch = "x86_64")]
        Best::Avx2(kernel) => count(kernel, input),
        Best::Portable(kernel) => count(kernel, input),
    }
}

/// Judges cases from the start of `bytes` (at a token) with `kernel`, as
/// [`crate::judge::Format::batch`] describes, `stop` being relative to `bytes`; returns the
/// cases judged and the bytes they took.
#[inline(always)]
pub(crate) fn run<K: Kernel>(
    kernel: K,
    grid: &mut Board,
    work: &mut Work,
    bytes: &[u8],
    stop: usize,
    limit: usize,
    answers: &mut Vec<Answer>,
) -> (usize, usize) {
    let Work {
        tokens,
        cases,
        spare,
    } = work;
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
        cases.clear();
        while answers.len() + cases.len() < limit && t < first_after {
            match read_case(values, t) {
                Ok(next) => {
                    cases.push((t as u32, next as u32));
                    t = next;
                }
                Err(why) => {
                    cut_off = why == Unfit::CutOff;
                    break;
                }
            }
        }
        let played = play_streams(kernel, [&mut *grid, &mut *spare], values, cases, answers);
        judged += played;
        if let Some(&(bad, _)) = cases.get(played) {
            // A bad move: the scanner reads that case.
            (t, cut_off) = (bad as usize, false);
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

/// Plays `cases` (first token and token after, in `values`) and pushes their outcomes;
/// returns how many were judged: all of them, or those before the first with a bad move.
///
/// The first half and the second half of the cases are two streams, played one move of each
/// in turn ([`Kernel::play_pair`]): a move mostly waits on its own look-ups, and the other
/// stream's move fills that time (docs/perf-log.md, the grid judge's `asm!` move and two streams).
#[inline(always)]
pub(super) fn play_streams<K: Kernel>(
    kernel: K,
    grids: [&mut Board; 2],
    values: &[u16],
    cases: &[(u32, u32)],
    answers: &mut Vec<Answer>,
) -> usize {
    let [a, b] = grids;
    let n = cases.len();
    let base = answers.len();
    answers.resize(base + n, Answer::Losing);
    let out = &mut answers[base..];
    // Short cases are played one after the other: the streams' bookkeeping at each case's end
    // would cost more than they gain.
    let short = n < 2 || (cases[n - 1].1 - cases[0].0) as usize / n < SHORT_CASE_TOKENS;
    let judged = if short {
        match finish(kernel, a, values, cases, 0, None, n, out) {
            Ok(()) => n,
            Err(bad) => bad,
        }
    } else {
        // The second stream starts at the first case past half the tokens.
        let middle = (cases[0].0 + cases[n - 1].1) / 2;
        let h = cases.partition_point(|c| c.0 < middle).clamp(1, n - 1);
        let (mut i, mut j) = (0, h);
        let (mut left_a, mut left_b) = (start(a, values, cases[i]), start(b, values, cases[j]));
        loop {
            let k = left_a.len().min(left_b.len());
            if let Err((game, played)) = kernel.play_pair([a, b], [&left_a[..k], &left_b[..k]]) {
                if game == 0 {
                    break i;
                }
                // The first stream's cases come before the second's bad one.
                let rest = Some(&left_a[played..]);
                break match finish(kernel, a, values, cases, i, rest, h, out) {
                    Ok(()) => j,
                    Err(bad) => bad,
                };
            }
            (left_a, left_b) = (&left_a[k..], &left_b[k..]);
            if left_a.is_empty() {
                out[i] = outcome(a);
                i += 1;
                if i == h {
                    break match finish(kernel, b, values, cases, j, Some(left_b), n, out) {
                        Ok(()) => n,
                        Err(bad) => bad,
                    };
                }
                left_a = start(a, values, cases[i]);
            }
            if left_b.is_empty() {
                out[j] = outcome(b);
                j += 1;
                if j == n {
                    break match finish(kernel, a, values, cases, i, Some(left_a), h, out) {
                        Ok(()) => n,
                        Err(bad) => bad,
                    };
                }
                left_b = start(b, values, cases[j]);
            }
        }
    };
    answers.truncate(base + judged);
    judged
}

/// Sets `grid` up for the case `(first token, token after)` of `values` (read by
/// [`read_case`] before) and returns its moves.
#[inline(always)]
fn start<'v>(grid: &mut Board, values: &'v [u16], (t, next): (u32, u32)) -> &'v [u16] {
    let (t, next) = (t as usize, next as usize);
    let (rows, cols) = (values[t], values[t + 1]);
    // read_case checked the sides.
    grid.reset(usize::from(rows), usize::from(cols));
    &values[t + 3..next]
}

/// Plays alone the cases `i..end` of `cases` into `out` (indexed as `cases`): case `i` from
/// its moves `rest` when it is under way, the others from the start. `Err` names the first
/// case with a bad move.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn finish<K: Kernel>(
    kernel: K,
    grid: &mut Board,
    values: &[u16],
    cases: &[(u32, u32)],
    mut i: usize,
    rest: Option<&[u16]>,
    end: usize,
    out: &mut [Answer],
) -> Result<(), usize> {
    if i == end {
        return Ok(());
    }
    let mut moves = match rest {
        Some(rest) => rest,
        None => start(grid, values, cases[i]),
    };
    loop {
        if !kernel.play_moves(grid, moves) {
            return Err(i);
        }
        out[i] = outcome(grid);
        i += 1;
        if i == end {
            return Ok(());
        }
        moves = start(grid, values, cases[i]);
    }
}

/// The answer for `grid`'s position.
#[inline(always)]
fn outcome(grid: &Board) -> Answer {
    if grid.value() != 0 {
        Answer::Winning
    } else {
        Answer::Losing
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

/// The case whose first token is `values[t]`, if its sides and move count are valid and its
/// moves are all in these tokens: the token after it.
#[inline(always)]
fn read_case(values: &[u16], t: usize) -> Result<usize, Unfit> {
    let Some(&[r, c, m]) = values.get(t..t + 3) else {
        return Err(Unfit::CutOff);
    };
    let side = 1..=MAX_JUDGE_SIDE as u16;
    if !side.contains(&r) || !side.contains(&c) || u32::from(m) > u32::from(r) * u32::from(c) {
        return Err(Unfit::Refused);
    }
    let next = t + 3 + 2 * usize::from(m);
    if next > values.len() {
        return Err(Unfit::CutOff);
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::judge::{Plain, generate};
    use crate::judge::Options;
    use crate::rng::Rng;

    #[test]
    #[cfg_attr(miri, ignore)]
    fn every_back_end_counts_the_same_tokens() {
        // Numbers of one to six digits, white space of every kind, across window ends.
        let mut rng = crate::rng::Rng::new(3);
        let mut text = Vec::new();
        let mut want = 0;
        while text.len() < 3 * WINDOW + 1000 {
            let digits = rng.range(1, 6);
            for _ in 0..digits {
                text.push(b'0' + rng.below(10) as u8);
            }
            text.push(b" \n\t\r"[rng.below(4) as usize]);
            want += 1;
        }
        // Tokens cut by a window's end are not counted: at most one a window.
        let mut counts = Vec::new();
        for backend in Backend::ALL {
            counts.push(count_tokens(backend, &text));
        }
        #[cfg(target_arch = "x86_64")]
        for (backend, ran) in [
            (
                Backend::Avx512,
                matches!(Best::choose(Backend::Avx512), Best::Avx512(_)),
            ),
            (
                Backend::Avx2,
                !matches!(Best::choose(Backend::Avx2), Best::Portable(_)),
            ),
        ] {
            if !ran {
                eprintln!("not run here: the {backend:?} tokenizer (this CPU lacks it)");
            }
        }
        assert!(counts.iter().all(|&c| c == counts[0]), "{counts:?}");
        assert!(
            (want - 4..=want).contains(&counts[0]),
            "{} of {want}",
            counts[0]
        );
    }

    /// The answers of the plain judge, and the offsets where the cases start (one per line).
    fn plain(input: &[u8]) -> (Vec<Answer>, Vec<usize>) {
        let mut out = Vec::new();
        crate::judge::run(&Plain, input, &mut out, Options::single_threaded()).unwrap();
        let answers = out
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| {
                if l == b"winning" {
                    Answer::Winning
                } else {
                    Answer::Losing
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

    /// `run` with one kernel.
    type Batch = fn(&mut Board, &mut Work, &[u8], usize, usize, &mut Vec<Answer>) -> (usize, usize);

    /// `run` on every kernel this CPU has.
    fn kernels() -> Vec<Batch> {
        let mut kernels: Vec<Batch> = vec![|g, w, b, s, l, a| run(Portable, g, w, b, s, l, a)];
        #[cfg(target_arch = "x86_64")]
        {
            use std::io::Write;
            // Said once per test run.
            static SAID: std::sync::Once = std::sync::Once::new();
            let say = |why: &str| {
                SAID.call_once(|| {
                    let _ = writeln!(std::io::stderr(), "note: {why}");
                })
            };
            if x86_64::GridAvx2::new().is_some() {
                kernels.push(|g, w, b, s, l, a| {
                    x86_64::GridAvx2::new()
                        .expect("checked")
                        .batch(g, w, b, s, l, a)
                });
            } else {
                say("skipped the AVX2 kernel: not on this CPU");
            }
            if x86_64::GridAvx512::new().is_some() {
                kernels.push(|g, w, b, s, l, a| {
                    x86_64::GridAvx512::new()
                        .expect("checked")
                        .batch(g, w, b, s, l, a)
                });
            } else {
                say("skipped the AVX-512 kernel: not on this CPU");
            }
        }
        kernels
    }

    /// A bad move (on a forbidden cell, or off the grid) in any case (in either stream of a
    /// window, in a case played alone at a window's end) stops `run` just before that case,
    /// with every earlier answer.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn run_stops_just_before_the_first_bad_case() {
        // Short cases (played one after the other) and long ones (in two streams), on grids
        // of at most 64 rows and columns and on larger ones (`simd::x86`'s narrow and wide
        // moves).
        for (cases, side) in [(600, 12), (300, 80)] {
            spoil_and_run(cases, side);
        }
    }

    fn spoil_and_run(cases: usize, side: usize) {
        let mut clean = Vec::new();
        generate(&mut clean, &mut Rng::new(5), cases, side as u32, usize::MAX).unwrap();
        let (want, starts) = plain(&clean);
        let lines: Vec<&[u8]> = clean
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(lines.len(), want.len());
        let mut rng = Rng::new(17);
        let mut spoiled = 0;
        while spoiled < 300 {
            let bad = rng.below(lines.len() as u32) as usize;
            let mut t: Vec<u32> = std::str::from_utf8(lines[bad])
                .unwrap()
                .split_ascii_whitespace()
                .map(|n| n.parse().unwrap())
                .collect();
            let m = t[2] as usize;
            if m == 0 {
                continue;
            }
            let k = rng.below(m as u32) as usize;
            if k > 0 && rng.below(2) == 0 {
                // The cell of the move before: forbidden.
                (t[3 + 2 * k], t[4 + 2 * k]) = (t[1 + 2 * k], t[2 + 2 * k]);
            } else if rng.below(2) == 0 {
                t[3 + 2 * k] = t[0] + 1;
            } else {
                t[4 + 2 * k] = t[1] + 1;
            }
            let mut input = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                if i == bad {
                    let text: Vec<String> = t.iter().map(u32::to_string).collect();
                    input.extend(text.join(" ").as_bytes());
                } else {
                    input.extend(*line);
                }
                input.push(b'\n');
            }
            spoiled += 1;
            for batch in kernels() {
                let (mut grid, mut work) = (Board::new(), Work::default());
                let mut answers = Vec::new();
                let got = batch(
                    &mut grid,
                    &mut work,
                    &input,
                    input.len(),
                    usize::MAX,
                    &mut answers,
                );
                assert_eq!(got, (bad, starts[bad]), "case {bad}, move {k}");
                assert_eq!(answers, want[..bad]);
            }
        }
    }

    /// `run` on every kernel this CPU has: all cases, then up to a stop offset, then up to a
    /// number of answers, on input longer than a window.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn run_judges_what_the_plain_judge_judges() {
        let mut input = Vec::new();
        generate(&mut input, &mut Rng::new(3), 3000, 80, usize::MAX).unwrap();
        assert!(input.len() > 2 * WINDOW);
        let (want, starts) = plain(&input);
        let mut rng = Rng::new(11);
        for batch in kernels() {
            let (mut grid, mut work) = (Board::new(), Work::default());
            let mut answers = Vec::new();
            let all = batch(
                &mut grid,
                &mut work,
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
                let got = batch(&mut grid, &mut work, &input, stop, usize::MAX, &mut answers);
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
                    &mut work,
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
