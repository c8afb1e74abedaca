//! The judge format of "Make a Sequence" (ICPC Asia Regional Ehime 2004, Problem B;
//! [AOJ 1249](https://onlinejudge.u-aizu.ac.jp/problems/1249)).
//!
//! Datasets `n m p` followed by p moves `x y`, until `0 0 0`; one answer line per dataset:
//! `Black k`, `White k` or `Draw`. Moves after the deciding move are read and checked (a peg
//! must not overflow) but change nothing.
//!
//! ```
//! use bitgames::{judge, sequence::judge::Judge};
//!
//! let input = "3 3 3\n1 1\n1 1\n1 1\n0 0 0\n";
//! let mut out = Vec::new();
//! judge::run(&Judge, input.as_bytes(), &mut out, judge::Options::default())?;
//! assert_eq!(out, b"Draw\n");
//! # Ok::<(), bitgames::JudgeError>(())
//! ```

use std::io::{self, Write};

use super::{Game, MAX_N, Outcome, Peg, PlayError};
use crate::input::{Problem, Scanner, Stop, is_space};
use crate::judge::Format;
use crate::rng::Rng;

/// The "Make a Sequence" judge format, for [`crate::judge::run`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Judge;

/// Per-thread working memory: one game, restarted for every dataset.
#[derive(Clone)]
pub struct Scratch(Game);

impl Default for Scratch {
    fn default() -> Self {
        Scratch(Game::new(MAX_N, 3).expect("7, 3 is a valid size"))
    }
}

impl crate::judge::Sealed for Judge {}

impl Format for Judge {
    type Header = ();
    type Answer = Outcome;
    type Scratch = Scratch;

    fn header(&self, _: &mut Scanner<'_>) -> Result<(), Stop> {
        Ok(())
    }

    fn count(&self, _: &()) -> Option<u64> {
        None
    }

    fn dataset(
        &self,
        _: &(),
        scratch: &mut Scratch,
        sc: &mut Scanner<'_>,
    ) -> Result<Option<Outcome>, Stop> {
        let n = sc.uint("n, the board side (3..=7), or `0 0 0` to end")?;
        if n == 0 {
            let at = sc.token_start();
            let (m, p) = (sc.uint("m")?, sc.uint("p")?);
            if (m, p) == (0, 0) {
                return Ok(None);
            }
            return Err(Stop::bad(
                at,
                Problem::Rule("n = 0 is only allowed in the end marker `0 0 0`".into()),
            ));
        }
        if !(3..=7).contains(&n) {
            return Err(sc.bad_token(Problem::OutOfRange {
                what: "n",
                value: n,
                min: 3,
                max: 7,
            }));
        }
        let m = sc.uint_in("m", 3, n)?;
        let p = sc.uint_in("p", 1, n * n * n)?;
        let (n, m) = (n as u32, m as u32);
        let game = &mut scratch.0;
        game.resize(n, m)
            .map_err(|e| sc.bad_token(Problem::Rule(e.to_string())))?;
        let mut k = 0;
        while k < p {
            k += 1;
            let (x, y, at) = read_move(sc, n)?;
            match game.play_unhashed(x, y) {
                Ok(None) => {}
                Ok(Some(outcome)) => {
                    skip_moves(sc, game, p - k)?;
                    return Ok(Some(outcome));
                }
                Err(e) => return Err(full_peg(at, k, e, n)),
            }
        }
        Ok(Some(Outcome::Draw))
    }

    fn write(&self, _: u64, answer: Outcome, out: &mut Vec<u8>) {
        match answer {
            Outcome::Draw => out.extend_from_slice(b"Draw\n"),
            Outcome::Win { color, at } => {
                // Writing to a Vec cannot fail.
                let _ = writeln!(out, "{color} {at}");
            }
        }
    }

    fn resync(&self, _: &(), buf: &[u8], from: usize) -> Option<usize> {
        // A dataset starts on the line `n m p`: the only lines with three tokens.
        let mut line = from + memchr::memchr(b'\n', buf.get(from..)?)? + 1;
        while line < buf.len() {
            let end = memchr::memchr(b'\n', &buf[line..]).map_or(buf.len(), |i| line + i);
            let text = &buf[line..end];
            let tokens = text
                .split(|&c| is_space(c))
                .filter(|t| !t.is_empty())
                .count();
            if tokens == 3 {
                return Some(line + text.iter().take_while(|&&c| is_space(c)).count());
            }
            line = end + 1;
        }
        None
    }
}

/// Reads one move; returns the peg and the offset of its x token.
#[inline(always)]
fn read_move(sc: &mut Scanner<'_>, n: u32) -> Result<(u32, u32, usize), Stop> {
    // Fast path for the usual layout, a line `x y` of two digits: the five bytes
    // "\nX Y\n" checked at once in one word. Anything else takes the general path.
    if let Some(word) = sc.remaining().first_chunk::<8>() {
        let w = u64::from_le_bytes(*word);
        if w & 0xff_00ff_00ff == 0x0a_0020_000a {
            let x = (w >> 8) as u8;
            let y = (w >> 24) as u8;
            let (x, y) = (
                u32::from(x.wrapping_sub(b'0')),
                u32::from(y.wrapping_sub(b'0')),
            );
            if x.wrapping_sub(1) < n && y.wrapping_sub(1) < n {
                sc.consume(4);
                return Ok((x, y, sc.token_start() + 1));
            }
        }
    }
    let x = sc.uint_in("x", 1, u64::from(n))? as u32;
    let at = sc.token_start();
    let y = sc.uint_in("y", 1, u64::from(n))? as u32;
    Ok((x, y, at))
}

/// Reads and checks the `left` moves after the deciding move: pegs on the board, none overfull.
fn skip_moves(sc: &mut Scanner<'_>, game: &Game, left: u64) -> Result<(), Stop> {
    let n = game.n();
    let mut heights = [0u32; 64];
    for y in 1..=n {
        for x in 1..=n {
            heights[(x | y << 3) as usize & 63] = game.height(x, y).unwrap_or(0);
        }
    }
    let first = u64::from(game.moves_played()) + 1;
    for k in first..first + left {
        let (x, y, at) = read_move(sc, n)?;
        let h = &mut heights[(x | y << 3) as usize & 63];
        if *h == n {
            return Err(full_peg(
                at,
                k,
                PlayError::PegFull {
                    peg: Peg::new(x, y),
                },
                n,
            ));
        }
        *h += 1;
    }
    Ok(())
}

#[cold]
fn full_peg(at: usize, k: u64, e: PlayError, n: u32) -> Stop {
    Stop::bad(
        at,
        Problem::Rule(format!("move {k}: {e}, it already holds n = {n} balls")),
    )
}

/// Writes a random valid judge input: `datasets` games on boards of side `n` (3..=7), with m
/// drawn from `3..=n`, every game played until the board is full (moves after the deciding move
/// are part of the record, as the judge allows), then `0 0 0`.
///
/// # Errors
/// Whatever writing to `out` returns.
///
/// # Panics
/// When `n` is outside `3..=7`.
pub fn generate(out: &mut impl Write, rng: &mut Rng, datasets: usize, n: u32) -> io::Result<()> {
    assert!((3..=MAX_N).contains(&n), "n = {n} is outside 3..=7");
    let mut text = Vec::with_capacity(1 << 16);
    let mut pegs: Vec<(u32, u32)> = Vec::new();
    for _ in 0..datasets {
        let m = rng.range(3, n);
        let p = n.pow(3);
        writeln!(text, "{n} {m} {p}")?;
        pegs.clear();
        for x in 1..=n {
            for y in 1..=n {
                pegs.extend(std::iter::repeat_n((x, y), n as usize));
            }
        }
        rng.shuffle(&mut pegs);
        for &(x, y) in &pegs {
            writeln!(text, "{x} {y}")?;
        }
        if text.len() > 1 << 16 {
            out.write_all(&text)?;
            text.clear();
        }
    }
    text.extend_from_slice(b"0 0 0\n");
    out.write_all(&text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::{Options, run};

    /// The moves after the deciding one are checked peg by peg: each of the three pegs of
    /// column x = 1 may take its n balls, however many balls that column holds in all.
    #[test]
    fn moves_after_the_decision_are_counted_per_peg() {
        // Black makes a row along y at x = 1 on the floor with move 5, then each of the pegs
        // (1, 1), (1, 2), (1, 3) is filled to its height of 3.
        let after = "1 1\n1 2\n1 3\n1 1\n1 2\n1 3\n";
        let judge = |input: String| {
            let mut out = Vec::new();
            let ok = run(
                &Judge,
                input.as_bytes(),
                &mut out,
                Options::single_threaded(),
            )
            .is_ok();
            (ok, out)
        };
        let input = format!("3 3 11\n1 1\n2 1\n1 2\n2 2\n1 3\n{after}0 0 0\n");
        assert_eq!(judge(input), (true, b"Black 5\n".to_vec()));
        // One more ball on (1, 1) overfills it.
        let input = format!("3 3 12\n1 1\n2 1\n1 2\n2 2\n1 3\n{after}1 1\n0 0 0\n");
        assert_eq!(judge(input), (false, Vec::new()));
    }
}
