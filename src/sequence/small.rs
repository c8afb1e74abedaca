//! [`SmallGame`]: 3-D Sequence on boards of at most 64 cells (n ≤ 4, Score Four among them),
//! one `u64` a colour, for searches that play and undo millions of balls a second.

use std::fmt;
use std::sync::OnceLock;

use super::{Color, Cube, Game, OpenPegs, Outcome, Peg, PegSet, PlayError, SizeError, check_size};
use crate::rng::{GOLDEN, Rng, mix64};

/// The largest board side a [`SmallGame`] takes: 4³ = 64 cells, one bit each.
pub const SMALL_MAX_N: u32 = 4;

/// The cells of peg 0, one a layer: peg `p`'s are `COLUMN << p`.
const COLUMN: u64 = 0x0001_0001_0001_0001;

/// `resume` while the threats are kept up to date.
const TRACKED: u8 = u8::MAX;

/// `KEYS[c][b]`: the Zobrist key [`Game`] gives a ball of colour `c` at the cell of bit `b`
/// here (`x + 4y + 16z`), so that both engines hash a position alike. Game's keys are
/// splitmix64's outputs in the order of its cell bits `x | y << 3 | z << 6`, Black's 512
/// first (see `zobrist.rs`; a test compares the two).
static KEYS: [[u64; 64]; 2] = {
    let mut keys = [[0u64; 64]; 2];
    let mut c = 0;
    while c < 2 {
        let mut b = 0;
        while b < 64 {
            let (x, y, z) = (b & 3, (b >> 2) & 3, b >> 4);
            let index = (c * 512 + (x | y << 3 | z << 6) + 1) as u64;
            keys[c][b] = mix64(0x5345_5155_454e_4345_u64.wrapping_add(GOLDEN.wrapping_mul(index)));
            b += 1;
        }
        c += 1;
    }
    keys
};

/// `PEGS[n][i]` for `i < n²`: peg number `i` of a side-n board in x-major order (the order
/// in which [`Game::playout`] numbers them), as the bit `x + 4y` of its lowest cell.
static PEGS: [[u8; 16]; SMALL_MAX_N as usize + 1] = {
    let mut table = [[0; 16]; SMALL_MAX_N as usize + 1];
    let mut n = 1;
    while n <= SMALL_MAX_N as usize {
        let mut i = 0;
        while i < n * n {
            table[n][i] = (i % n + 4 * (i / n)) as u8;
            i += 1;
        }
        n += 1;
    }
    table
};

/// Every window of m cells in a straight line (13 directions) of one board size, listed for
/// each of its cells: a ball at bit `b` completes a sequence when one of `of(b)` is all its
/// colour's. Every cell's list has the same length (the longest, padded by repeating its first
/// window), so the test of a ball loops a fixed number of times: no unpredictable loop exit.
struct Windows {
    /// The windows of every cell (the longest list).
    per_cell: usize,
    /// `masks[b * per_cell..][..per_cell]` are the windows through bit `b`.
    masks: Vec<u64>,
    /// The same lists padded to 8 when none is longer (every m = n board, among them Score
    /// Four's 7): a test of eight words the compiler unrolls.
    eight: Option<Box<[[u64; 8]; 64]>>,
}

impl Windows {
    #[inline(always)]
    fn of(&self, b: usize) -> &[u64] {
        let from = (b & 63) * self.per_cell;
        &self.masks[from..from + self.per_cell]
    }

    fn build(n: usize, m: usize) -> Windows {
        let inside = |v: isize| (0..n as isize).contains(&v);
        let mut lists = vec![Vec::new(); 64];
        for (b, list) in lists.iter_mut().enumerate() {
            let (x, y, z) = ((b & 3) as isize, ((b >> 2) & 3) as isize, (b >> 4) as isize);
            if !(inside(x) && inside(y) && inside(z)) {
                continue;
            }
            for (dx, dy, dz) in directions() {
                for k in 0..m as isize {
                    // The window of m cells from `k` steps back.
                    let mut mask = 0u64;
                    let mut fits = true;
                    for j in 0..m as isize {
                        let (cx, cy, cz) = (x + (j - k) * dx, y + (j - k) * dy, z + (j - k) * dz);
                        if !(inside(cx) && inside(cy) && inside(cz)) {
                            fits = false;
                            break;
                        }
                        mask |= 1 << (cx + 4 * cy + 16 * cz);
                    }
                    // With m = 1 every direction gives the cell itself: keep one.
                    if fits && !list.contains(&mask) {
                        list.push(mask);
                    }
                }
            }
        }
        let per_cell = lists.iter().map(Vec::len).max().unwrap_or(0);
        let mut masks = Vec::with_capacity(64 * per_cell);
        for list in &lists {
            // A cell off the board is never asked about; its windows never match.
            let pad = list.first().copied().unwrap_or(!0);
            masks.extend(
                list.iter()
                    .copied()
                    .chain(std::iter::repeat(pad))
                    .take(per_cell),
            );
        }
        let eight = (per_cell <= 8).then(|| {
            Box::new(std::array::from_fn(|b| {
                std::array::from_fn(|i| masks[b * per_cell + i.min(per_cell.max(1) - 1)])
            }))
        });
        Windows {
            per_cell,
            masks,
            eight,
        }
    }
}

/// The 13 directions: the steps (dx, dy, dz) whose first non-zero component is positive.
fn directions() -> impl Iterator<Item = (isize, isize, isize)> {
    (-1..=1)
        .flat_map(|dx| (-1..=1).flat_map(move |dy| (-1..=1).map(move |dz| (dx, dy, dz))))
        .filter(|&(dx, dy, dz)| {
            let first = if dx != 0 {
                dx
            } else if dy != 0 {
                dy
            } else {
                dz
            };
            first > 0
        })
}

/// The windows of the side-n board with sequences of m (built on first use, then shared).
fn windows(n: u32, m: u32) -> &'static Windows {
    static TABLES: [OnceLock<Windows>; 16] = [const { OnceLock::new() }; 16];
    let (n, m) = (n as usize, m as usize);
    TABLES[(n - 1) * 4 + (m - 1)].get_or_init(|| Windows::build(n, m))
}

/// The open pegs of `next` (one bit a peg's next cell) as a 16-bit mask, bit `x + 4y`.
#[inline(always)]
const fn fold(next: u64) -> u64 {
    (next | next >> 16 | next >> 32 | next >> 48) & 0xffff
}

/// A 16-bit peg mask (bit `x + 4y`) as a [`PegSet`] (bit `x | y << 3`).
#[inline(always)]
const fn peg_set(pegs: u64) -> PegSet {
    PegSet((pegs & 0xf) | (pegs & 0xf0) << 4 | (pegs & 0xf00) << 8 | (pegs & 0xf000) << 12)
}

/// The peg of cell bit `b`, from 1.
#[inline(always)]
const fn peg_of(b: u32) -> Peg {
    Peg::new((b & 3) + 1, ((b >> 2) & 3) + 1)
}

/// A game of 3-D Sequence on a board of at most 4×4×4 cells: the same game as [`Game`],
/// with one `u64` per colour.
///
/// A ball costs a few word operations and a test of the handful of windows through its
/// cell (4.75 on average for Score Four) instead of [`Game`]'s thirteen line bytes. Each
/// colour's threats (the cells that would complete a sequence) are kept up to date by
/// [`SmallGame::play`], so the immediate wins and blocks are a mask away. Nothing allocates;
/// the value is about 1.2 KiB.
///
/// It is move for move the same as [`Game`]: the same outcomes, the same Zobrist keys
/// ([`SmallGame::hash`] equals [`Game::hash`] for the same balls), the same legal moves in the
/// same order, and [`SmallGame::playout`] and [`SmallGame::playout_decisive`] make the same
/// moves as [`Game::playout`] and [`Game::playout_decisive`] from the same random numbers. A
/// search over one therefore chooses exactly as over the other (the tests check all of it);
/// the simulator plays every n ≤ 4 game on a `SmallGame`.
///
/// Cell bit `x + 4y + 16z` (coordinates from 0) in [`SmallGame::stones`], whatever n.
///
/// ```
/// use bitgames::sequence::{Color, Outcome, Peg, SmallGame};
///
/// let mut game = SmallGame::new(4, 4)?;
/// for (x, y) in [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3), (2, 3)] {
///     game.play(x, y)?;
/// }
/// // Black to move wins on (1, 4) on the floor; White threatens (2, 4).
/// assert_eq!(game.first_winning_peg(Color::Black), Some(Peg::new(1, 4)));
/// assert_eq!(game.winning_pegs(Color::White).first(), Some(Peg::new(2, 4)));
/// game.play(3, 3)?; // Black misses its win...
/// assert_eq!(game.play(2, 4)?, Some(Outcome::Win { color: Color::White, at: 8 }));
/// game.undo();
/// assert_eq!(game.to_game().hash(), game.hash());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct SmallGame {
    n: u8,
    m: u8,
    len: u8,
    /// [`TRACKED`] while `threats` are up to date; else the move count at which a random
    /// playout stopped keeping them: `threats` are left as they were there (nothing changes
    /// them while they are not kept) and are good again once undo is back there.
    resume: u8,
    outcome: Option<Outcome>,
    hash: u64,
    stones: [u64; 2],
    /// The next cell of every open peg (the lowest empty one).
    next: u64,
    /// The cells of the board.
    board: u64,
    /// Each colour's empty cells that would complete a sequence, while tracked.
    threats: [u64; 2],
    windows: &'static Windows,
    /// The pegs played, as the bit `x + 4y`.
    moves: [u8; 64],
    /// `saved[k]`: the threats before move `k + 1`, for undo.
    saved: [[u64; 2]; 64],
}

impl SmallGame {
    /// A new game on an n×n×n board where m in a row wins.
    ///
    /// # Errors
    /// [`SizeError`] unless `1 ≤ m ≤ n ≤ 4` ([`SizeError::NotSmall`] for `4 < n ≤ 7`, which
    /// [`Game`] takes).
    pub fn new(n: u32, m: u32) -> Result<SmallGame, SizeError> {
        check_size(n, m)?;
        if n > SMALL_MAX_N {
            return Err(SizeError::NotSmall { n });
        }
        let layer = (0..n).fold(0u64, |l, y| l | ((1 << n) - 1) << (4 * y));
        let board = (0..n).fold(0u64, |b, z| b | layer << (16 * z));
        Ok(SmallGame {
            n: n as u8,
            m: m as u8,
            len: 0,
            resume: TRACKED,
            outcome: None,
            hash: 0,
            stones: [0; 2],
            next: layer,
            board,
            threats: empty_threats(board, m),
            windows: windows(n, m),
            moves: [0; 64],
            saved: [[0; 2]; 64],
        })
    }

    /// The same position as `game` (its balls played in the same order).
    ///
    /// # Errors
    /// [`SizeError::NotSmall`] when `game`'s side is above 4.
    pub fn from_game(game: &Game) -> Result<SmallGame, SizeError> {
        let mut small = SmallGame::new(game.n(), game.m())?;
        for p in game.history() {
            small
                .play(p.x, p.y)
                .expect("a game's history replays on the same board");
        }
        Ok(small)
    }

    /// The same position as a [`Game`] (the balls played in the same order).
    pub fn to_game(&self) -> Game {
        let mut game = Game::new(self.n(), self.m()).expect("a SmallGame's size is valid");
        for p in self.history() {
            game.play(p.x, p.y)
                .expect("a SmallGame's history replays on the same board");
        }
        game
    }

    /// Empties the board, keeping n and m.
    pub fn reset(&mut self) {
        let layer = self.board & 0xffff;
        self.len = 0;
        self.resume = TRACKED;
        self.outcome = None;
        self.hash = 0;
        self.stones = [0; 2];
        self.next = layer;
        self.threats = empty_threats(self.board, self.m());
    }

    /// Empties the board for a game of a new size.
    ///
    /// # Errors
    /// [`SizeError`] unless `1 ≤ m ≤ n ≤ 4`; the game is then unchanged.
    pub fn resize(&mut self, n: u32, m: u32) -> Result<(), SizeError> {
        *self = SmallGame::new(n, m)?;
        Ok(())
    }

    /// The board side n.
    #[inline]
    pub fn n(&self) -> u32 {
        u32::from(self.n)
    }

    /// The winning length m.
    #[inline]
    pub fn m(&self) -> u32 {
        u32::from(self.m)
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

    /// The outcome: `None` while the game goes on, a win from the deciding move on, a draw
    /// when the board is full.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The Zobrist key of the position, equal to [`Game::hash`] for the same balls.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The balls of `color`, one bit a cell: bit `x + 4y + 16z` for the cell (x, y, z)
    /// counted from 0.
    #[inline]
    pub fn stones(&self, color: Color) -> u64 {
        self.stones[color as usize]
    }

    /// The balls of `color` as a [`Cube`], the layout of [`Game::cube`].
    pub fn cube(&self, color: Color) -> Cube {
        let stones = self.stones(color);
        Cube(std::array::from_fn(|z| {
            if z < 4 {
                peg_set(stones >> (16 * z) & 0xffff).0
            } else {
                0
            }
        }))
    }

    /// The number of balls on peg `(x, y)`, or `None` off the board.
    #[inline]
    pub fn height(&self, x: u32, y: u32) -> Option<u32> {
        let n = self.n();
        if x == 0 || y == 0 || x > n || y > n {
            return None;
        }
        let column = COLUMN << ((x - 1) + 4 * (y - 1));
        Some(((self.stones[0] | self.stones[1]) & column).count_ones())
    }

    /// The pegs that still take a ball (none once the game is decided).
    #[inline]
    pub fn legal_pegs(&self) -> PegSet {
        if self.outcome.is_some() {
            return PegSet::EMPTY;
        }
        peg_set(fold(self.next))
    }

    /// The pegs that still take a ball, in x-major order (none once the game is decided), as
    /// [`Game::legal_moves`].
    pub fn legal_moves(&self) -> impl Iterator<Item = Peg> {
        self.legal_pegs().iter()
    }

    /// The pegs played so far, in order.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Peg> + '_ {
        self.moves[..usize::from(self.len)]
            .iter()
            .map(|&p| peg_of(u32::from(p)))
    }

    /// The empty cells where a ball of `color` would complete a sequence (whether or not
    /// they can be played yet), as bits `x + 4y + 16z`: the masks [`SmallGame::play`] keeps.
    pub fn threats(&self, color: Color) -> u64 {
        self.current_threats()[color as usize]
    }

    /// The pegs where a ball of `color` played now would win (empty once the game is
    /// decided): for the player to move the winning moves, for the other player the pegs
    /// the player to move must block.
    #[inline]
    pub fn winning_pegs(&self, color: Color) -> PegSet {
        if self.outcome.is_some() {
            return PegSet::EMPTY;
        }
        peg_set(fold(self.current_threats()[color as usize] & self.next))
    }

    /// The first peg of [`SmallGame::winning_pegs`] in bit order (x fastest), as
    /// [`Game::first_winning_peg`].
    #[inline]
    pub fn first_winning_peg(&self, color: Color) -> Option<Peg> {
        self.winning_pegs(color).first()
    }

    /// Drops a ball of the player to move on peg `(x, y)`; `Some(outcome)` when it decides the
    /// game (a win, or a draw as it fills the board).
    ///
    /// # Errors
    /// [`PlayError`] for a peg off the board, a full peg or a decided game; the game is
    /// unchanged.
    #[inline]
    pub fn play(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let n = self.n();
        if x == 0 || y == 0 || x > n || y > n {
            return Err(PlayError::OffBoard {
                peg: Peg::new(x, y),
                n,
            });
        }
        let cell = self.next & COLUMN << ((x - 1) + 4 * (y - 1));
        if cell == 0 {
            return Err(PlayError::PegFull {
                peg: Peg::new(x, y),
            });
        }
        self.drop_ball(cell);
        Ok(self.outcome)
    }

    /// Places a ball of the player to move on `cell` (the next cell of an open peg, the game
    /// undecided), updating the threats when they are kept, and sets the outcome.
    #[inline(always)]
    fn drop_ball(&mut self, cell: u64) {
        let c = usize::from(self.len & 1);
        let b = cell.trailing_zeros() as usize;
        let len = usize::from(self.len);
        self.moves[len & 63] = (b & 15) as u8;
        self.len += 1;
        self.hash ^= KEYS[c][b & 63];
        self.stones[c] |= cell;
        self.next = (self.next ^ cell) | (cell << 16 & self.board);
        let (own, other) = (self.stones[c], self.stones[c ^ 1]);
        let (win, threats) = scan(self.windows.of(b), own, other);
        if self.resume == TRACKED {
            self.saved[len & 63] = self.threats;
            self.threats[c] |= threats;
            self.threats[0] &= !cell;
            self.threats[1] &= !cell;
        }
        self.outcome = self.decide(win);
    }

    /// The outcome after a ball: a win when it made a sequence, a draw on a full board.
    #[inline(always)]
    fn decide(&self, win: bool) -> Option<Outcome> {
        let at = u32::from(self.len);
        (win || at == self.n().pow(3)).then(|| ended(win, at))
    }

    /// Takes back the last ball; returns its peg, or `None` (changing nothing) when the board
    /// is empty.
    #[inline]
    pub fn undo(&mut self) -> Option<Peg> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        let peg = self.moves[usize::from(last) & 63];
        let c = usize::from(last & 1);
        let column = (self.stones[0] | self.stones[1]) & COLUMN << peg;
        let b = 63 - column.leading_zeros();
        let cell = 1u64 << b;
        self.stones[c] &= !cell;
        self.hash ^= KEYS[c][b as usize & 63];
        self.next = (self.next & !(cell << 16)) | cell;
        self.outcome = None;
        if self.resume == TRACKED {
            self.threats = self.saved[usize::from(last) & 63];
        } else if self.resume == last {
            // Back where the random playout began: `threats` were left as they were then.
            self.resume = TRACKED;
        }
        Some(peg_of(u32::from(peg)))
    }

    /// The threats of both colours: the kept ones, or (after part of a random playout was
    /// undone) computed from every window.
    fn current_threats(&self) -> [u64; 2] {
        if self.resume == TRACKED {
            return self.threats;
        }
        let empty = self.board & !(self.stones[0] | self.stones[1]);
        let mut threats = [0; 2];
        for (c, t) in threats.iter_mut().enumerate() {
            let (own, other) = (self.stones[c], self.stones[c ^ 1]);
            for &w in &self.windows.masks {
                let miss = w & !own;
                if miss & miss.wrapping_sub(1) == 0 && miss & other == 0 {
                    *t |= miss;
                }
            }
            *t &= empty;
        }
        threats
    }

    /// Plays uniformly random legal moves until the game is decided and returns the outcome
    /// (at once if it already is): the moves [`Game::playout`] makes from the same random
    /// numbers, a few word operations a ball. The threats are not kept during the playout;
    /// undoing back to where it started restores them.
    ///
    /// ```
    /// use bitgames::{rng::Rng, sequence::{Game, SmallGame}};
    /// let (mut small, mut game) = (SmallGame::new(4, 4)?, Game::new(4, 4)?);
    /// assert_eq!(small.playout(&mut Rng::new(9)), game.playout(&mut Rng::new(9)));
    /// assert!(small.history().eq(game.history()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn playout(&mut self, rng: &mut Rng) -> Outcome {
        #[cfg(target_arch = "x86_64")]
        if crate::simd::Backend::detect() != crate::simd::Backend::Portable
            && let Some(avx2) = crate::simd::x86::Avx2::new()
        {
            // SAFETY: `avx2` exists, so the CPU has AVX2.
            return unsafe { self.playout_avx2(rng, avx2) };
        }
        self.random_playout(rng)
    }

    /// [`SmallGame::playout`] compiled for the baseline CPU, as without AVX2 or with
    /// `BITGAMES_SIMD=portable`: the same moves.
    pub fn playout_portable(&mut self, rng: &mut Rng) -> Outcome {
        self.random_playout(rng)
    }

    /// The random playout compiled for AVX2 (its window test four words at a time).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn playout_avx2(&mut self, rng: &mut Rng, _: crate::simd::x86::Avx2) -> Outcome {
        self.random_playout(rng)
    }

    #[inline(always)]
    fn random_playout(&mut self, rng: &mut Rng) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        if self.resume == TRACKED {
            self.resume = self.len;
        }
        let outcome = match &self.windows.eight {
            Some(eight) => self.random_moves(rng, Eight(eight)),
            None => self.random_moves(rng, self.windows),
        };
        self.outcome = Some(outcome);
        outcome
    }

    /// The random playout's loop, testing the balls with `test`.
    #[inline(always)]
    fn random_moves<T: WinTest>(&mut self, outer: &mut Rng, test: T) -> Outcome {
        // The generator in a local, which only `open_peg`'s return value writes: kept in a
        // register, not stored and reloaded around every number.
        let mut local = outer.clone();
        let rng = &mut local;
        let mut p = Fast {
            area: u64::from(self.n).pow(2),
            cells: usize::from(self.n).pow(3),
            pegs: &PEGS[usize::from(self.n)],
            test,
            board: self.board,
            len: usize::from(self.len),
            next: self.next,
            hash: self.hash,
            moves: &mut self.moves,
        };
        let [mut black, mut white] = self.stones;
        // As in Game::playout: no look-ups before the mover's m-th ball, then one random
        // number for each pair of moves.
        let quiet = 2 * usize::from(self.m) - 2;
        while p.len + 1 < quiet {
            let r = rng.next_u64() as u32;
            if p.len & 1 == 0 {
                p.drop::<false, 0>(&mut black, r, rng);
                let r = rng.next_u64() as u32;
                p.drop::<false, 1>(&mut white, r, rng);
            } else {
                p.drop::<false, 1>(&mut white, r, rng);
                let r = rng.next_u64() as u32;
                p.drop::<false, 0>(&mut black, r, rng);
            }
        }
        if p.len < quiet {
            let r = rng.next_u64() as u32;
            if p.len & 1 == 0 {
                p.drop::<false, 0>(&mut black, r, rng);
            } else {
                p.drop::<false, 1>(&mut white, r, rng);
            }
        }
        let won = 'game: {
            if p.len & 1 == 1 {
                let r = rng.next_u64() as u32;
                if p.drop::<true, 1>(&mut white, r, rng) {
                    break 'game true;
                }
                if p.len == p.cells {
                    break 'game false;
                }
            }
            loop {
                let r = rng.next_u64();
                if p.drop::<true, 0>(&mut black, r as u32, rng) {
                    break true;
                }
                if p.len == p.cells {
                    break false;
                }
                if p.drop::<true, 1>(&mut white, (r >> 32) as u32, rng) {
                    break true;
                }
                if p.len == p.cells {
                    break false;
                }
            }
        };
        self.len = p.len as u8;
        self.next = p.next;
        self.hash = p.hash;
        self.stones = [black, white];
        *outer = local;
        ended(won, u32::from(self.len))
    }

    /// Plays until the game is decided with decisive and anti-decisive moves, as
    /// [`Game::playout_decisive`] (the same moves from the same random numbers): the lowest
    /// playable winning cell of the player to move, else the lowest one of the opponent's
    /// (a block), else a uniformly random open peg. The threats stay kept.
    pub fn playout_decisive(&mut self, rng: &mut Rng) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        if self.resume != TRACKED {
            // Part of a random playout was undone: play on from threats computed afresh,
            // without keeping them (undo restores them where that playout began).
            let mut copy_threats = self.current_threats();
            return self.decisive_loop(rng, &mut copy_threats, false);
        }
        let mut threats = self.threats;
        let outcome = self.decisive_loop(rng, &mut threats, true);
        self.threats = threats;
        outcome
    }

    #[inline(always)]
    fn decisive_loop(&mut self, outer: &mut Rng, threats: &mut [u64; 2], save: bool) -> Outcome {
        // The generator in a local, as in `random_moves`.
        let mut local = outer.clone();
        let rng = &mut local;
        let n = self.n;
        let area = u64::from(n).pow(2);
        let cells = usize::from(n).pow(3);
        let pegs = &PEGS[usize::from(n)];
        let (windows, board) = (self.windows, self.board);
        let mut len = usize::from(self.len);
        let mut next = self.next;
        let mut hash = self.hash;
        let mut stones = self.stones;
        // The open pegs as Game's decisive playouts keep them (the same list, in the same
        // order), so that both choose the same random pegs.
        let mut open = OpenPegs::new(&pegs[..area as usize], |peg| next & COLUMN << peg != 0);
        let won = loop {
            let c = len & 1;
            let (mine, theirs) = (threats[c] & next, threats[c ^ 1] & next);
            let cell = if mine != 0 {
                mine & mine.wrapping_neg()
            } else if theirs != 0 {
                theirs & theirs.wrapping_neg()
            } else {
                next & COLUMN << open.pick(rng.next_u64() as u32)
            };
            let b = cell.trailing_zeros() as usize & 63;
            if save {
                self.saved[len & 63] = *threats;
            }
            self.moves[len & 63] = (b & 15) as u8;
            len += 1;
            hash ^= KEYS[c][b];
            stones[c] |= cell;
            next = (next ^ cell) | (cell << 16 & board);
            if cell << 16 & board == 0 {
                open.remove(b & 15);
            }
            let (win, t) = scan(windows.of(b), stones[c], stones[c ^ 1]);
            threats[c] |= t;
            threats[0] &= !cell;
            threats[1] &= !cell;
            if win {
                break true;
            }
            if len == cells {
                break false;
            }
        };
        self.len = len as u8;
        self.next = next;
        self.hash = hash;
        self.stones = stones;
        *outer = local;
        let outcome = ended(won, len as u32);
        self.outcome = Some(outcome);
        outcome
    }

    /// Takes back moves until the position is `earlier` again, which must be a position this
    /// one was reached from by playing moves: the few words that differ are copied (the moves
    /// and saved threats up to `earlier`'s move count are not changed by the later moves).
    pub fn rewind_to(&mut self, earlier: &SmallGame) {
        debug_assert!(earlier.len <= self.len && earlier.n == self.n && earlier.m == self.m);
        self.len = earlier.len;
        self.resume = earlier.resume;
        self.outcome = earlier.outcome;
        self.hash = earlier.hash;
        self.stones = earlier.stones;
        self.next = earlier.next;
        self.threats = earlier.threats;
    }
}

/// The threats of the empty board: every cell when one ball wins (m = 1), else none.
fn empty_threats(board: u64, m: u32) -> [u64; 2] {
    if m == 1 { [board; 2] } else { [0; 2] }
}

/// Tests the windows through a new ball of a colour (`own` its balls with the new one,
/// `other` the opponent's): whether one of them is complete (a win), and the cells that are
/// now the one missing ball of a window with no opposing ball (new threats).
#[inline(always)]
fn scan(windows: &[u64], own: u64, other: u64) -> (bool, u64) {
    let mut win = false;
    let mut threats = 0;
    for &w in windows {
        let miss = w & !own;
        win |= miss == 0;
        if miss & miss.wrapping_sub(1) == 0 && miss & other == 0 {
            threats |= miss;
        }
    }
    (win, threats)
}

/// The game's end after its last ball, move `at`: a win of its mover, else a draw.
#[inline(always)]
fn ended(won: bool, at: u32) -> Outcome {
    if won {
        Outcome::Win {
            color: Color::of_move(at),
            at,
        }
    } else {
        Outcome::Draw
    }
}

/// A uniformly random open peg (`next` has one) chosen by the 32 random bits `r` by
/// multiply-shift over the n² pegs, as [`Game::playout`] chooses it, then [`open_peg`] (more
/// numbers from `rng`) if that peg is full.
#[inline(always)]
fn random_peg(next: u64, pegs: &[u8; 16], area: u64, r: u32, rng: &mut Rng) -> u8 {
    let peg = pegs[((u64::from(r) * area) >> 32) as usize & 15];
    if next & COLUMN << peg != 0 {
        peg
    } else {
        let (peg, after) = open_peg(next, pegs, area, rng.clone());
        *rng = after;
        peg
    }
}

/// A uniformly random open peg after the first choice found a full one, with the random
/// numbers [`Game::playout`] uses: three more tries over all pegs, then a direct choice among
/// the open ones counted, in peg order. Takes the generator by value and returns it, so that
/// the caller's stays in a register.
#[cold]
#[inline(never)]
fn open_peg(next: u64, pegs: &[u8; 16], area: u64, mut rng: Rng) -> (u8, Rng) {
    for _ in 0..3 {
        let r = rng.next_u64() as u32;
        let peg = pegs[((u64::from(r) * area) >> 32) as usize & 15];
        if next & COLUMN << peg != 0 {
            return (peg, rng);
        }
    }
    let mut open = fold(next);
    let k = rng.below(open.count_ones());
    for _ in 0..k {
        open &= open - 1;
    }
    (open.trailing_zeros() as u8 & 15, rng)
}

/// How the random playout tests a ball for a sequence.
trait WinTest: Copy {
    /// Does one of the windows through bit `b` hold only balls of `own`?
    fn completes(self, b: usize, own: u64) -> bool;
}

/// The lists of any length ([`Windows::of`]), when [`Windows::eight`] is `None`.
impl WinTest for &Windows {
    #[inline(always)]
    fn completes(self, b: usize, own: u64) -> bool {
        self.of(b)
            .iter()
            .fold(false, |win, &w| win | (own & w == w))
    }
}

/// Eight windows a cell ([`Windows::eight`]).
#[derive(Clone, Copy)]
struct Eight<'a>(&'a [[u64; 8]; 64]);

impl WinTest for Eight<'_> {
    #[inline(always)]
    fn completes(self, b: usize, own: u64) -> bool {
        self.0[b & 63]
            .iter()
            .fold(false, |win, &w| win | (own & w == w))
    }
}

/// The random playout's state, in locals.
struct Fast<'a, T> {
    area: u64,
    cells: usize,
    pegs: &'a [u8; 16],
    test: T,
    board: u64,
    len: usize,
    next: u64,
    hash: u64,
    moves: &'a mut [u8; 64],
}

impl<T: WinTest> Fast<'_, T> {
    /// Drops a ball of colour `C` (whose balls are `own`, and whose turn it is) on a uniformly
    /// random open peg chosen by the 32 random bits `r` (more from `rng` if that peg is
    /// full), as [`Game::playout`] does, and, when `CHECK`, says whether it makes a sequence.
    #[inline(always)]
    fn drop<const CHECK: bool, const C: usize>(
        &mut self,
        own: &mut u64,
        r: u32,
        rng: &mut Rng,
    ) -> bool {
        let peg = random_peg(self.next, self.pegs, self.area, r, rng);
        let cell = self.next & COLUMN << peg;
        let b = cell.trailing_zeros() as usize & 63;
        self.moves[self.len & 63] = peg;
        self.len += 1;
        self.hash ^= KEYS[C & 1][b];
        *own |= cell;
        self.next = (self.next ^ cell) | (cell << 16 & self.board);
        CHECK && self.test.completes(b, *own)
    }
}

impl PartialEq for SmallGame {
    /// The same size, balls, move order and outcome.
    fn eq(&self, other: &SmallGame) -> bool {
        let len = usize::from(self.len);
        self.n == other.n
            && self.m == other.m
            && self.len == other.len
            && self.outcome == other.outcome
            && self.stones == other.stones
            && self.moves[..len] == other.moves[..len]
    }
}

impl Eq for SmallGame {}

impl fmt::Debug for SmallGame {
    /// The board as [`Game`] draws it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Small{:?}", self.to_game())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_keys_of_game() {
        for (c, keys) in KEYS.iter().enumerate() {
            for (b, &key) in keys.iter().enumerate() {
                let (x, y, z) = (b & 3, (b >> 2) & 3, b >> 4);
                assert_eq!(key, super::super::zobrist::key(c, x | y << 3 | z << 6));
            }
        }
    }

    #[test]
    fn windows_count_the_lines_of_score_four() {
        let distinct = |n, m| {
            let mut all = windows(n, m).masks.clone();
            all.retain(|&w| w != !0);
            all.sort_unstable();
            all.dedup();
            all.len()
        };
        // 76 lines of four on 4×4×4, at most 7 through a cell (a corner or a centre cell).
        assert_eq!(distinct(4, 4), 76);
        assert_eq!(windows(4, 4).per_cell, 7);
        // 49 lines of three on 3×3×3 (13 through the centre); every cell alone for m = 1.
        assert_eq!(distinct(3, 3), 49);
        assert_eq!(windows(3, 3).per_cell, 13);
        assert_eq!(distinct(4, 1), 64);
        // Each window has m cells on the board.
        for n in 1..=4 {
            for m in 1..=n {
                let w = windows(n, m);
                for b in 0..64 {
                    let on =
                        (b & 3) < n as usize && (b >> 2 & 3) < n as usize && b >> 4 < n as usize;
                    for &mask in w.of(b) {
                        if on {
                            assert_eq!(mask.count_ones(), m, "n {n} m {m} b {b}");
                            assert_ne!(mask & 1 << b, 0);
                        }
                    }
                }
            }
        }
    }
}
