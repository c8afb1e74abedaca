//! "Make a Sequence": 3-D gravity connect-m on an n×n×n cube.
//!
//! Black and White drop balls on n×n pegs in turn; the first to make m or more of their balls
//! consecutive in a straight line (13 directions) wins. See `spec/sequence.md`.
//!
//! - [`Game`]: play, undo and win detection, allocation-free, O(13) per ball;
//! - [`Cube`]: the 512-bit board and the independent full-board detector ([`Cube::has_line`]);
//! - [`reference`](mod@reference): the plain executable specification the fast code is tested against;
//! - [`judge`]: the ICPC judge format.
//!
//! Coordinates in this API count from 1, as in the problem: pegs `(x, y)` with
//! `1 ≤ x, y ≤ n`, heights `1 ≤ z ≤ n`.

mod cube;
pub mod judge;
pub mod reference;
#[cfg(target_arch = "x86_64")]
mod sse41;

use std::fmt;

use crate::rng::Rng;
pub use cube::{Cube, DIRECTIONS, MAX_N, STRIDES};
use cube::{LINES, LIVE_SLOTS, RUNS, SLOTS, bit};

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Color {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Color {
    /// The other player.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The player who makes move number `k` (from 1).
    #[inline]
    pub const fn of_move(k: u32) -> Color {
        if k % 2 == 1 {
            Color::Black
        } else {
            Color::White
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "Black",
            Color::White => "White",
        })
    }
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// `color` made an m-sequence with move number `at` (from 1, both colours counted).
    Win {
        /// The winner.
        color: Color,
        /// The deciding move.
        at: u32,
    },
    /// The board filled up without a sequence (or, in a judged record, the record ended).
    Draw,
}

impl fmt::Display for Outcome {
    /// The judge's wording: `Black 15`, `White 6` or `Draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win { color, at } => write!(f, "{color} {at}"),
            Outcome::Draw => f.write_str("Draw"),
        }
    }
}

/// Why a game cannot be created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewGameError {
    /// n must be in `1..=7` (the packed 8×8×8 layout keeps one layer of padding).
    Size {
        /// The requested side.
        n: u8,
    },
    /// m must be in `1..=n`.
    Length {
        /// The requested side.
        n: u8,
        /// The requested sequence length.
        m: u8,
    },
}

impl fmt::Display for NewGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NewGameError::Size { n } => {
                write!(f, "board side n = {n} is outside 1..={MAX_N}")
            }
            NewGameError::Length { n, m } => {
                write!(f, "sequence length m = {m} is outside 1..={n}")
            }
        }
    }
}

impl std::error::Error for NewGameError {}

/// Why a move was refused. The game is unchanged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayError {
    /// The peg is not on the board.
    OffBoard {
        /// Peg x as given.
        x: u8,
        /// Peg y as given.
        y: u8,
    },
    /// The peg already holds n balls.
    PegFull {
        /// Peg x.
        x: u8,
        /// Peg y.
        y: u8,
    },
    /// The game has already been decided.
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            PlayError::OffBoard { x, y } => write!(f, "peg ({x}, {y}) is not on the board"),
            PlayError::PegFull { x, y } => write!(f, "peg ({x}, {y}) is full"),
            PlayError::GameOver => f.write_str("the game is already decided"),
        }
    }
}

impl std::error::Error for PlayError {}

fn check_size(n: u8, m: u8) -> Result<(), NewGameError> {
    if !(1..=MAX_N).contains(&n) {
        return Err(NewGameError::Size { n });
    }
    if !(1..=n).contains(&m) {
        return Err(NewGameError::Length { n, m });
    }
    Ok(())
}

const MAX_MOVES: usize = (MAX_N as usize).pow(3);

/// A game of 3-D Sequence: play, undo and O(13) win detection.
///
/// Besides one [`Cube`] per colour, the game keeps every line of every direction as a byte (one
/// bit per cell along the line), so a ball updates 13 bytes and a win is a table look-up per
/// byte. Nothing allocates; the value is about 7 KiB. Two games are equal when their whole
/// state is (size, balls, move order and outcome).
///
/// ```
/// use bitgames::sequence::{Color, Game, Outcome, PlayError};
///
/// let mut game = Game::new(3, 3)?;
/// // Black stacks (1, 1) and White (2, 1)...
/// for (x, y) in [(1, 1), (2, 1), (1, 1), (2, 1)] {
///     game.play(x, y)?;
/// }
/// assert_eq!(game.height(1, 1), Some(2));
/// // ...the third black ball on (1, 1) is a vertical 3-sequence.
/// assert_eq!(game.play(1, 1)?, Some(Outcome::Win { color: Color::Black, at: 5 }));
/// assert_eq!(game.play(3, 3), Err(PlayError::GameOver));
/// // Undo takes the ball back; a full peg is refused and changes nothing.
/// assert_eq!(game.undo(), Some((1, 1)));
/// assert_eq!(game.outcome(), None);
/// game.play(3, 3)?;
/// game.play(1, 1)?;
/// assert_eq!(game.play(1, 1), Err(PlayError::PegFull { x: 1, y: 1 }));
/// assert_eq!(game.moves_played(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    n: u8,
    m: u8,
    len: u16,
    outcome: Option<Outcome>,
    heights: [u8; 64],
    lines: [[u8; SLOTS]; 2],
    moves: [u8; MAX_MOVES],
}

impl Game {
    /// A new game on an n×n×n board where m in a row wins.
    ///
    /// # Errors
    /// [`NewGameError`] unless `1 ≤ m ≤ n ≤ 7`.
    pub fn new(n: u8, m: u8) -> Result<Game, NewGameError> {
        check_size(n, m)?;
        Ok(Game {
            n,
            m,
            len: 0,
            outcome: None,
            heights: [0; 64],
            lines: [[0; SLOTS]; 2],
            moves: [0; MAX_MOVES],
        })
    }

    /// Empties the board, keeping n and m (cheaper than a new game: a short game is undone
    /// ball by ball, a long one cleared wholesale).
    pub fn reset(&mut self) {
        let len = usize::from(self.len);
        if len > 4 {
            // Only the slots of lines through board cells are ever set: a 2.4 kB clear costs
            // about as much as undoing four balls.
            for lines in &mut self.lines {
                lines[..LIVE_SLOTS].fill(0);
            }
            self.heights.fill(0);
            self.len = 0;
            self.outcome = None;
        } else {
            while self.undo().is_some() {}
        }
    }

    /// Empties the board for a game of a new size, reusing this value's memory.
    ///
    /// # Errors
    /// [`NewGameError`] unless `1 ≤ m ≤ n ≤ 7`; the game is then unchanged.
    pub fn restart(&mut self, n: u8, m: u8) -> Result<(), NewGameError> {
        check_size(n, m)?;
        self.reset();
        self.n = n;
        self.m = m;
        Ok(())
    }

    /// The board side n.
    #[inline]
    pub fn n(&self) -> u8 {
        self.n
    }

    /// The winning length m.
    #[inline]
    pub fn m(&self) -> u8 {
        self.m
    }

    /// Balls played so far.
    #[inline]
    pub fn moves_played(&self) -> u32 {
        u32::from(self.len)
    }

    /// Whose turn it is.
    #[inline]
    pub fn to_move(&self) -> Color {
        Color::of_move(self.moves_played() + 1)
    }

    /// The outcome: `None` while the game goes on, a win from the deciding move on, a draw when
    /// the board is full.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The number of balls on peg `(x, y)`, or `None` off the board.
    #[inline]
    pub fn height(&self, x: u8, y: u8) -> Option<u8> {
        self.peg(x, y).map(|p| self.heights[p])
    }

    /// The balls of `color`.
    #[inline]
    pub fn cube(&self, color: Color) -> Cube {
        // The x lines are stored at slots `y + 8z`: the first 64 line bytes are the cube.
        let lines = &self.lines[color as usize];
        Cube(std::array::from_fn(|z| {
            u64::from_le_bytes(*lines[8 * z..].first_chunk().unwrap_or(&[0; 8]))
        }))
    }

    /// The colour of the ball at `(x, y, z)`, if any (coordinates from 1).
    pub fn ball(&self, x: u8, y: u8, z: u8) -> Option<Color> {
        let p = self.peg(x, y)?;
        if z == 0 || z > self.heights[p] {
            return None;
        }
        let (x0, y0, z0) = (x - 1, y - 1, z - 1);
        if self.cube(Color::Black).contains(x0, y0, z0) {
            Some(Color::Black)
        } else {
            Some(Color::White)
        }
    }

    /// The pegs that still take a ball, in x-major order (none once the game is decided).
    pub fn legal_moves(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        let live = self.outcome.is_none();
        (1..=self.n)
            .flat_map(move |y| (1..=self.n).map(move |x| (x, y)))
            .filter(move |&(x, y)| live && self.height(x, y) < Some(self.n))
    }

    /// The pegs played so far, in order.
    pub fn history(&self) -> impl ExactSizeIterator<Item = (u8, u8)> + '_ {
        self.moves[..usize::from(self.len)]
            .iter()
            .map(|&p| ((p & 7) + 1, (p >> 3) + 1))
    }

    #[inline(always)]
    fn peg(&self, x: u8, y: u8) -> Option<usize> {
        if x == 0 || y == 0 || x > self.n || y > self.n {
            return None;
        }
        Some(usize::from(x - 1) | usize::from(y - 1) << 3)
    }

    /// Drops a ball of the player to move on peg `(x, y)`.
    ///
    /// Returns `Some(outcome)` when this ball decides the game: a win (this ball completes an
    /// m-sequence through itself) or a draw (it fills the board).
    ///
    /// # Errors
    /// [`PlayError`] for a peg off the board, a full peg or a decided game; the game is
    /// unchanged.
    #[inline]
    pub fn play(&mut self, x: u8, y: u8) -> Result<Option<Outcome>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let Some(peg) = self.peg(x, y) else {
            return Err(PlayError::OffBoard { x, y });
        };
        let z = self.heights[peg];
        if z >= self.n {
            return Err(PlayError::PegFull { x, y });
        }
        Ok(self.drop_ball(peg, z))
    }

    /// Places the ball (peg checked, not full, game undecided) and detects a win.
    #[inline(always)]
    fn drop_ball(&mut self, peg: usize, z: u8) -> Option<Outcome> {
        let color = usize::from(self.len & 1);
        self.heights[peg] = z + 1;
        self.moves[usize::from(self.len)] = peg as u8;
        self.len += 1;
        let b = usize::from(bit(peg as u8 & 7, peg as u8 >> 3, z));
        let win = mark::<true>(&mut self.lines[color], b, &RUNS[usize::from(self.m)]);
        self.outcome = if win {
            Some(Outcome::Win {
                color: Color::of_move(u32::from(self.len)),
                at: u32::from(self.len),
            })
        } else if usize::from(self.len) == usize::from(self.n).pow(3) {
            Some(Outcome::Draw)
        } else {
            None
        };
        self.outcome
    }

    /// Takes back the last ball; returns its peg, or `None` when the board is empty.
    #[inline]
    pub fn undo(&mut self) -> Option<(u8, u8)> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        let peg = self.moves[usize::from(last)];
        let color = usize::from(last & 1);
        let z = self.heights[usize::from(peg)] - 1;
        self.heights[usize::from(peg)] = z;
        let b = usize::from(bit(peg & 7, peg >> 3, z));
        let (slots, bits) = (&LINES.slot[b], &LINES.bit[b]);
        for d in 0..13 {
            self.lines[color][usize::from(slots[d]) & (SLOTS - 1)] &= !bits[d];
        }
        self.outcome = None;
        Some(((peg & 7) + 1, (peg >> 3) + 1))
    }

    /// Plays uniformly random legal moves until the game is decided and returns the outcome
    /// (at once if it already is). The playout step of Monte Carlo tree search.
    ///
    /// On x86-64 CPUs with SSE4.1 (unless `BITGAMES_SIMD=portable`, see
    /// [`crate::simd::Backend::detect`]) a ball's 13 line bytes are updated and tested in one
    /// register; [`Game::playout_portable`] makes the same moves without it.
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
        if self.outcome.is_none() && crate::simd::sse41() {
            // SAFETY: the CPU has SSE4.1.
            return unsafe { self.playout_sse41(rng) };
        }
        self.playout_with::<false>(rng)
    }

    /// [`Game::playout`] without SIMD, as on targets other than x86-64 or x86-64 CPUs without
    /// SSE4.1: the same moves and outcome, from the same random numbers.
    pub fn playout_portable(&mut self, rng: &mut Rng) -> Outcome {
        self.playout_with::<false>(rng)
    }

    /// [`Game::playout`] with the line bytes of a ball gathered into, and scattered from, one
    /// SSE register.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "sse4.1")]
    fn playout_sse41(&mut self, rng: &mut Rng) -> Outcome {
        self.playout_with::<true>(rng)
    }

    /// The playout loop; `SSE` (only in [`Game::playout_sse41`]) records the balls with
    /// [`sse41::mark`].
    #[inline(always)]
    fn playout_with<const SSE: bool>(&mut self, rng: &mut Rng) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        // The loop keeps n, m, the move count, the generator and the tables in registers: the
        // line bytes it writes could alias the fields of `self` as far as the compiler knows.
        let mut p = Playout {
            n: self.n,
            area: u64::from(self.n).pow(2),
            cells: usize::from(self.n).pow(3),
            pegs: &PEGS[usize::from(self.n)],
            runs: &RUNS[usize::from(self.m)],
            #[cfg(target_arch = "x86_64")]
            steps: &sse41::RUN_STEPS[usize::from(self.m)],
            len: usize::from(self.len),
            rng: rng.clone(),
            heights: &mut self.heights,
            moves: &mut self.moves,
        };
        let [black, white] = &mut self.lines;
        // Before the mover's m-th ball (move 2m - 1) no ball can make a sequence, nor fill the
        // board (n³ ≥ 2m - 1): these balls are placed without the look-ups.
        let quiet = 2 * usize::from(self.m) - 2;
        while p.len < quiet {
            let r = p.rng.next_u64() as u32;
            let lines = if p.len & 1 == 0 {
                &mut *black
            } else {
                &mut *white
            };
            p.drop::<false, SSE>(lines, r);
        }
        // Then Black and White in turn, one random number for both of a pair of moves.
        let won = 'game: {
            if p.len & 1 == 1 {
                let r = p.rng.next_u64() as u32;
                if p.drop::<true, SSE>(white, r) {
                    break 'game true;
                }
                if p.len == p.cells {
                    break 'game false;
                }
            }
            loop {
                let r = p.rng.next_u64();
                if p.drop::<true, SSE>(black, r as u32) {
                    break true;
                }
                if p.len == p.cells {
                    break false;
                }
                if p.drop::<true, SSE>(white, (r >> 32) as u32) {
                    break true;
                }
                if p.len == p.cells {
                    break false;
                }
            }
        };
        let len = p.len as u32;
        *rng = p.rng;
        let outcome = if won {
            Outcome::Win {
                color: Color::of_move(len),
                at: len,
            }
        } else {
            Outcome::Draw
        };
        self.len = len as u16;
        self.outcome = Some(outcome);
        outcome
    }

    /// Does `color` have an m-sequence anywhere? The full-board detector on the packed cube
    /// (independent of the incremental check that [`Game::play`] uses).
    pub fn has_sequence(&self, color: Color) -> bool {
        self.cube(color).has_line(self.m)
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
struct Playout<'a> {
    n: u8,
    /// n², the number of pegs.
    area: u64,
    /// n³, the number of cells.
    cells: usize,
    pegs: &'a [u8; 64],
    runs: &'a [u8; 256],
    #[cfg(target_arch = "x86_64")]
    steps: &'a sse41::RunSteps,
    len: usize,
    rng: Rng,
    heights: &'a mut [u8; 64],
    moves: &'a mut [u8; MAX_MOVES],
}

impl Playout<'_> {
    /// Drops a ball of the colour whose line bytes are `lines` on a uniformly random open peg,
    /// chosen by the 32 random bits `r` (and more from the generator if that peg is full), and,
    /// when `CHECK`, says whether it makes a sequence. The game must not be decided.
    #[inline(always)]
    fn drop<const CHECK: bool, const SSE: bool>(
        &mut self,
        lines: &mut [u8; SLOTS],
        r: u32,
    ) -> bool {
        // Multiply-shift maps the 2³² values of `r` onto the n² pegs, ⌊2³²/n²⌋ or one more each.
        let mut peg = usize::from(self.pegs[((u64::from(r) * self.area) >> 32) as usize & 63]) & 63;
        if self.heights[peg] >= self.n {
            peg = self.open_peg();
        }
        let z = self.heights[peg];
        self.heights[peg] = z + 1;
        self.moves[self.len] = peg as u8;
        self.len += 1;
        let b = peg | usize::from(z) << 6;
        #[cfg(target_arch = "x86_64")]
        if SSE {
            // SAFETY: `SSE` is true only in `Game::playout_sse41`, which runs on SSE4.1 CPUs.
            return unsafe { sse41::mark::<CHECK>(lines, b, self.steps) };
        }
        mark::<CHECK>(lines, b, self.runs)
    }

    /// A uniformly random open peg, after the first choice found a full one: rejection sampling
    /// over all pegs (uniform over the open ones) a few more times, then, when most pegs are
    /// full, a direct choice among the open ones counted.
    #[cold]
    #[inline(never)]
    fn open_peg(&mut self) -> usize {
        let pegs = &self.pegs[..self.area as usize];
        let open = |&&peg: &&u8| self.heights[usize::from(peg) & 63] < self.n;
        for _ in 0..3 {
            let r = self.rng.next_u64() as u32;
            let peg = &pegs[((u64::from(r) * self.area) >> 32) as usize];
            if open(&peg) {
                return usize::from(*peg) & 63;
            }
        }
        let count = pegs.iter().filter(open).count() as u32;
        let k = self.rng.below(count) as usize;
        let peg = pegs.iter().filter(open).nth(k).map_or(0, |&peg| peg);
        usize::from(peg) & 63
    }
}

/// Records a ball at cell bit `b` (a cell of the board) in its colour's line bytes `lines`,
/// and, when `CHECK` (else the answer is `false`), says whether it completes a run of `runs`'
/// length through itself: O(13), one byte per direction.
#[inline(always)]
fn mark<const CHECK: bool>(lines: &mut [u8; SLOTS], b: usize, runs: &[u8; 256]) -> bool {
    let (slots, bits) = (&LINES.slot[b & 511], &LINES.bit[b & 511]);
    let mut win = 0;
    for d in 0..13 {
        let slot = usize::from(slots[d]);
        debug_assert!(slot < SLOTS);
        // SAFETY: every slot of `LINES` is below `SLOTS`, asserted for the whole table when it
        // is built at compile time (cube.rs).
        let line = unsafe { lines.get_unchecked_mut(slot) };
        let v = *line | bits[d];
        *line = v;
        if CHECK {
            win |= runs[usize::from(v)];
        }
    }
    win != 0
}

/// Two games are equal when they have the same size, the same moves and the same outcome
/// (the move buffer past the last move is scratch and not compared).
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        let len = usize::from(self.len);
        self.n == other.n
            && self.m == other.m
            && self.len == other.len
            && self.outcome == other.outcome
            && self.heights == other.heights
            && self.lines == other.lines
            && self.moves[..len] == other.moves[..len]
    }
}

impl Eq for Game {}

impl fmt::Debug for Game {
    /// The board drawn layer by layer (`B`/`W` balls), then n, m and the outcome.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Game n={} m={} moves={} outcome={:?}",
            self.n, self.m, self.len, self.outcome
        )?;
        for y in (1..=self.n).rev() {
            for z in 1..=self.n {
                if z > 1 {
                    f.write_str("  ")?;
                }
                for x in 1..=self.n {
                    f.write_str(match self.ball(x, y, z) {
                        Some(Color::Black) => "B",
                        Some(Color::White) => "W",
                        None => ".",
                    })?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
