//! Random playouts: [`Game::playout`], the step of Monte Carlo tree search, written once over
//! how a ball is recorded ([`Recorder`]): portable, or ([`sse41`]) its 13 line bytes at once;
//! and ([`vbmi`]) on AVX-512 VBMI, on the cubes alone.

mod decisive;
#[cfg(target_arch = "x86_64")]
mod sse41;
#[cfg(target_arch = "x86_64")]
mod vbmi;

use super::cube::{LiveLines, MAX_N, RUNS, SLOTS};
use super::game::{Game, MAX_MOVES, mark};
use super::zobrist;
use super::{Color, Outcome};
use crate::rng::Rng;

#[cfg(target_arch = "x86_64")]
use sse41::{RUN_STEPS, RunSteps};

/// Off x86-64 the playout has no SSE steps to carry.
#[cfg(not(target_arch = "x86_64"))]
type RunSteps = ();
#[cfg(not(target_arch = "x86_64"))]
static RUN_STEPS: [(); 9] = [(); 9];

impl Game {
    /// Plays uniformly random legal moves until the game is decided and returns the outcome
    /// (at once if it already is). The playout step of Monte Carlo tree search.
    ///
    /// On x86-64 CPUs with AVX-512 VBMI (unless `BITGAMES_SIMD` caps the choice, see
    /// [`crate::simd::Backend::detect`]) and m ≥ 3, each colour's cube is held in one 512-bit
    /// register and a ball's 13 directions are tested on it; the line bytes of the other
    /// directions than x are then marked for the playout's balls only when [`Game::undo`] takes
    /// the game back to an undecided position (a search that rewinds to its root with
    /// [`Game::rewind_to`] never pays for them). On other x86-64 CPUs with SSE4.1 (unless
    /// `BITGAMES_SIMD=portable`) a ball's 13 line bytes are updated and tested in one
    /// register. [`Game::playout_portable`] makes the same moves as both.
    ///
    /// ```
    /// use bitgames::{rng::Rng, sequence::Game};
    /// let mut game = Game::new(7, 4)?;
    /// let outcome = game.playout(&mut Rng::new(1));
    /// assert_eq!(game.outcome(), Some(outcome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn playout(&mut self, rng: &mut Rng) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if self.outcome.is_none() {
            let backend = crate::simd::Backend::detect();
            if backend == crate::simd::Backend::Avx512
                && self.m >= 3
                && let Some(token) = crate::simd::x86::Avx512Vbmi::new()
            {
                return vbmi::playout(self, rng, token);
            }
            if backend != crate::simd::Backend::Portable
                && let Some(sse) = crate::simd::x86::Sse41::new()
            {
                return sse41::playout(self, rng, sse);
            }
        }
        run(self, rng, Portable)
    }

    /// [`Game::playout`] without SIMD, as on targets other than x86-64 or x86-64 CPUs without
    /// SSE4.1: the same moves and outcome, from the same random numbers.
    pub fn playout_portable(&mut self, rng: &mut Rng) -> Outcome {
        run(self, rng, Portable)
    }
}

/// How the playout records a ball in its colour's line bytes and tests it for a run.
pub(super) trait Recorder: Copy {
    /// Records a ball at cell bit `b` (a cell of the board) in the live lines of `lines` and,
    /// when `CHECK` (else the answer is `false`), says whether it completes a run of m through
    /// itself (`runs` is `RUNS[m]`, `steps` the SSE form of the same test).
    fn mark<const CHECK: bool>(
        self,
        lines: &mut [u8; SLOTS],
        live: &LiveLines,
        b: usize,
        runs: &[u8; 256],
        steps: &RunSteps,
    ) -> bool;
}

/// The portable [`Recorder`]: a byte and a table look-up per direction.
#[derive(Debug, Clone, Copy)]
pub(super) struct Portable;

impl Recorder for Portable {
    #[inline(always)]
    fn mark<const CHECK: bool>(
        self,
        lines: &mut [u8; SLOTS],
        live: &LiveLines,
        b: usize,
        runs: &[u8; 256],
        _: &RunSteps,
    ) -> bool {
        mark::<CHECK>(lines, &live.slot[b & 511], &live.bit[b & 511], runs)
    }
}

/// The playout loop, recording the balls with `recorder`.
#[inline(always)]
pub(super) fn run<R: Recorder>(game: &mut Game, rng: &mut Rng, recorder: R) -> Outcome {
    if let Some(outcome) = game.outcome {
        return outcome;
    }
    // The loop keeps n, m, the move count, the generator and the tables in registers: the
    // line bytes it writes could alias the fields of `self` as far as the compiler knows.
    let mut p = Playout {
        n: game.n,
        area: u64::from(game.n).pow(2),
        cells: usize::from(game.n).pow(3),
        pegs: &PEGS[usize::from(game.n)],
        runs: &RUNS[usize::from(game.m)],
        live: game.live,
        steps: &RUN_STEPS[usize::from(game.m)],
        len: usize::from(game.len),
        recorder,
        rng: rng.clone(),
        hash: game.hash,
        heights: &mut game.heights,
        moves: &mut game.moves,
    };
    let [black, white] = &mut game.lines;
    // Before the mover's m-th ball (move 2m - 1) no ball can make a sequence, nor fill the
    // board (n³ ≥ 2m - 1): these balls are placed without the look-ups.
    let quiet = 2 * usize::from(game.m) - 2;
    while p.len < quiet {
        let r = p.rng.next_u64() as u32;
        let lines = if p.len & 1 == 0 {
            &mut *black
        } else {
            &mut *white
        };
        p.drop::<false>(lines, r);
    }
    // Then Black and White in turn, one random number for both of a pair of moves.
    let won = 'game: {
        if p.len & 1 == 1 {
            let r = p.rng.next_u64() as u32;
            if p.drop::<true>(white, r) {
                break 'game true;
            }
            if p.len == p.cells {
                break 'game false;
            }
        }
        loop {
            let r = p.rng.next_u64();
            if p.drop::<true>(black, r as u32) {
                break true;
            }
            if p.len == p.cells {
                break false;
            }
            if p.drop::<true>(white, (r >> 32) as u32) {
                break true;
            }
            if p.len == p.cells {
                break false;
            }
        }
    };
    let len = p.len as u32;
    *rng = p.rng;
    game.hash = p.hash;
    let outcome = ended(won, len);
    game.len = len as u16;
    game.outcome = Some(outcome);
    game.threats_valid = false;
    outcome
}

/// `SHIFTS[m]`, for `m ≤ 8`: the shifts k of three doubling steps `t &= t >> k` after which
/// a set bit of `t` marks a run of m set bits (shifted by whole lines of bits where bits
/// stand for cells a line apart). After a step of shift k ≤ L on bits that mark runs of L,
/// they mark runs of L + k: the shifts 1, 2, 4 from L = 1 reach m = 8, smaller last steps
/// every m between (a shift of 0 keeps L).
#[cfg(target_arch = "x86_64")]
pub(super) const SHIFTS: [[u8; 3]; 9] = [
    [0, 0, 0],
    [0, 0, 0],
    [1, 0, 0],
    [1, 1, 0],
    [1, 2, 0],
    [1, 2, 1],
    [1, 2, 2],
    [1, 2, 3],
    [1, 2, 4],
];

/// The outcome of a playout that ended after `len` balls: won by the last ball's colour, or
/// (the board full) a draw.
fn ended(won: bool, len: u32) -> Outcome {
    if won {
        Outcome::Win {
            color: Color::of_move(len),
            at: len,
        }
    } else {
        Outcome::Draw
    }
}

/// The open pegs of a playout as a list, for a uniformly random choice without rejection: the
/// pegs open at the start in peg order, then each peg that fills replaced by the list's last.
/// [`Game`]'s and `SmallGame`'s decisive playouts keep the same list, so both choose the same
/// pegs from the same random numbers.
pub(crate) struct OpenPegs {
    /// `list[..len]`: the open pegs (`x | y << 3`).
    list: [u8; 64],
    /// Where each open peg is in `list`.
    at: [u8; 64],
    len: u32,
}

impl OpenPegs {
    /// The pegs of `pegs` (in order, each below 64) that are open by `is_open`.
    #[inline]
    pub(crate) fn new(pegs: &[u8], is_open: impl Fn(u8) -> bool) -> OpenPegs {
        let mut open = OpenPegs {
            list: [0; 64],
            at: [0; 64],
            len: 0,
        };
        // Without a branch: every peg is written at the list's end, and the end moves past it
        // when it is open (a closed peg's place is overwritten, and its `at` never read).
        for &peg in pegs {
            let peg = peg & 63;
            open.list[open.len as usize & 63] = peg;
            open.at[usize::from(peg)] = open.len as u8;
            open.len += u32::from(is_open(peg));
        }
        open
    }

    /// The open peg the 32 random bits `r` choose (multiply-shift); some peg must be open.
    #[inline(always)]
    pub(crate) fn pick(&self, r: u32) -> usize {
        let i = (u64::from(r) * u64::from(self.len)) >> 32;
        usize::from(self.list[i as usize & 63])
    }

    /// Takes out `peg`, which is open and has just filled: the last open peg takes its place.
    #[inline(always)]
    pub(crate) fn remove(&mut self, peg: usize) {
        self.len -= 1;
        let i = usize::from(self.at[peg & 63]) & 63;
        let last = self.list[self.len as usize & 63];
        self.list[i] = last;
        self.at[usize::from(last) & 63] = i as u8;
    }
}

/// `PEGS[n][i]` for `i < n²`: peg number `i` of a side-n board in x-major order, as `x | y << 3`
/// (from 0); 0 past n².
static PEGS: [[u8; 64]; MAX_N as usize + 1] = {
    let mut table = [[0; 64]; MAX_N as usize + 1];
    let mut n = 1;
    while n <= MAX_N as usize {
        let mut i = 0;
        while i < n * n {
            table[n][i] = ((i % n) | (i / n) << 3) as u8;
            i += 1;
        }
        n += 1;
    }
    table
};

/// The state of [`Game::playout`]'s loop, held in locals.
struct Playout<'a, R> {
    n: u8,
    /// n², the number of pegs.
    area: u64,
    /// n³, the number of cells.
    cells: usize,
    pegs: &'a [u8; 64],
    runs: &'a [u8; 256],
    live: &'a LiveLines,
    steps: &'a RunSteps,
    len: usize,
    recorder: R,
    rng: Rng,
    hash: u64,
    heights: &'a mut [u8; 64],
    moves: &'a mut [u8; MAX_MOVES],
}

impl<R: Recorder> Playout<'_, R> {
    /// Drops a ball of the colour whose line bytes are `lines` on a uniformly random open peg,
    /// chosen by the 32 random bits `r` (and more from the generator if that peg is full), and,
    /// when `CHECK`, says whether it makes a sequence. The game must not be decided.
    #[inline(always)]
    fn drop<const CHECK: bool>(&mut self, lines: &mut [u8; SLOTS], r: u32) -> bool {
        // Multiply-shift maps the 2³² values of `r` onto the n² pegs, ⌊2³²/n²⌋ or one more each.
        let mut peg = usize::from(self.pegs[((u64::from(r) * self.area) >> 32) as usize & 63]) & 63;
        if self.heights[peg] >= self.n {
            peg = open_peg(&mut self.rng, self.heights, self.pegs, self.area, self.n);
        }
        let z = self.heights[peg];
        self.heights[peg] = z + 1;
        self.moves[self.len] = peg as u8;
        self.len += 1;
        let b = peg | usize::from(z) << 6;
        self.hash ^= zobrist::key(self.len & 1 ^ 1, b);
        self.recorder
            .mark::<CHECK>(lines, self.live, b, self.runs, self.steps)
    }
}

/// A uniformly random open peg of a side-n board (`pegs` its pegs, `area` their number), after
/// the first choice found a full one: rejection sampling over all pegs (uniform over the open
/// ones) a few more times, then, when most pegs are full, a direct choice among the open ones
/// counted.
#[cold]
#[inline(never)]
fn open_peg(rng: &mut Rng, heights: &[u8; 64], pegs: &[u8; 64], area: u64, n: u8) -> usize {
    let pegs = &pegs[..area as usize];
    let open = |&&peg: &&u8| heights[usize::from(peg) & 63] < n;
    for _ in 0..3 {
        let r = rng.next_u64() as u32;
        let peg = &pegs[((u64::from(r) * area) >> 32) as usize];
        if open(&peg) {
            return usize::from(*peg) & 63;
        }
    }
    let count = pegs.iter().filter(open).count() as u32;
    let k = rng.below(count) as usize;
    let peg = pegs.iter().filter(open).nth(k).map_or(0, |&peg| peg);
    usize::from(peg) & 63
}

#[cfg(test)]
mod tests {
    use super::{OpenPegs, PEGS};

    /// The list holds exactly the open pegs through any order of fills, and evenly spaced
    /// random numbers pick each open peg the same number of times (a uniform choice).
    #[test]
    fn open_pegs_are_listed_and_picked_uniformly() {
        for n in 1..=7u8 {
            let area = usize::from(n) * usize::from(n);
            let pegs = &PEGS[usize::from(n)][..area];
            // Every third peg starts full; the others fill in a scrambled order.
            let start: Vec<u8> = pegs.iter().copied().filter(|p| p % 3 != 0).collect();
            let mut open = OpenPegs::new(pegs, |p| p % 3 != 0);
            let mut left = start.clone();
            let mut order = start.clone();
            order.sort_by_key(|&p| (u32::from(p) * 37 + 11) % 64);
            for filled in order {
                let mut listed: Vec<u8> = open.list[..open.len as usize].to_vec();
                listed.sort_unstable();
                left.sort_unstable();
                assert_eq!(listed, left, "n {n}");
                let k = left.len() as u64;
                let mut hits = [0u32; 64];
                for i in 0..4 * k {
                    // The middle of each of 4k equal slices of the 32-bit range.
                    let r = ((2 * i + 1) << 32) / (8 * k);
                    hits[open.pick(r as u32)] += 1;
                }
                for &p in &left {
                    assert_eq!(hits[usize::from(p)], 4, "n {n}: peg {p} of {left:?}");
                }
                open.remove(usize::from(filled));
                left.retain(|&p| p != filled);
            }
            assert_eq!(open.len, 0);
        }
    }
}
