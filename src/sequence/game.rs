//! [`Game`]: the position, play, undo and the O(13) win check.

use std::fmt;

use super::cube::{
    Cube, DIRECTIONS, LINES, LIVE_SLOTS, LiveLines, MAX_N, RUNS, SLOTS, STRIDES, bit,
};
use super::zobrist;
use super::{Color, Outcome, Peg, PlayError, SizeError, check_size};

/// The most balls a game holds: 7³.
pub(super) const MAX_MOVES: usize = (MAX_N as usize).pow(3);

/// [`Game::rewind_to`] undoes up to this many balls one by one; past it, it copies the line
/// bytes back (about 2.4 KiB), which costs about as much as unmarking four balls.
const UNDO_REWIND: u16 = 4;

/// [`Game::unmarked`] when every ball is marked in every line byte.
const ALL_MARKED: u16 = u16::MAX;

/// A game of 3-D Sequence: play, undo and O(13) win detection.
///
/// Besides one [`Cube`] per colour, the game keeps every line of every direction as a byte (one
/// bit per cell along the line), so a ball updates 13 bytes and a win is a table look-up per
/// byte. Nothing allocates; the value is about 7 KiB. Two games are equal when their whole
/// state is (size, balls, move order and outcome).
///
/// ```
/// use bitgames::sequence::{Color, Game, Outcome, Peg, PlayError};
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
/// assert_eq!(game.undo(), Some(Peg::new(1, 1)));
/// assert_eq!(game.outcome(), None);
/// game.play(3, 3)?;
/// game.play(1, 1)?;
/// assert_eq!(game.play(1, 1), Err(PlayError::PegFull { peg: Peg::new(1, 1) }));
/// assert_eq!(game.moves_played(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct Game {
    pub(super) n: u8,
    pub(super) m: u8,
    pub(super) len: u16,
    pub(super) outcome: Option<Outcome>,
    /// The Zobrist key of the balls (see [`Game::hash`]).
    pub(super) hash: u64,
    /// Each colour's threats ([`Game::threats`]), when `threats_valid`: kept up to date by
    /// `play` once [`Game::cache_threats`] has computed them, dropped by `undo`.
    pub(super) threats: [Cube; 2],
    pub(super) threats_valid: bool,
    /// Balls on peg `x | y << 3` (from 0).
    pub(super) heights: [u8; 64],
    /// Every line of every direction of each colour as a byte (see [`super::cube::LINES`]).
    /// Only the lines that can hold a sequence of m ([`LiveLines`]) are kept; the others stay
    /// 0, except in the judge's scratch game, which marks them all (`drop_ball`).
    pub(super) lines: [[u8; SLOTS]; 2],
    /// The live lines of each cell for this n and m.
    pub(super) live: &'static LiveLines,
    /// The first ball whose other line bytes than the cube's (the x lines) are not marked, or
    /// [`ALL_MARKED`]. Only a decided game has such balls (the AVX-512 playout leaves them);
    /// [`Game::undo`] and [`Game::rewind_to`] mark them before the game plays on.
    pub(super) unmarked: u16,
    /// The pegs played, as `x | y << 3` (from 0).
    pub(super) moves: [u8; MAX_MOVES],
}

impl Game {
    /// A new game on an n×n×n board where m in a row wins.
    ///
    /// # Errors
    /// [`SizeError`] unless `1 ≤ m ≤ n ≤ 7`.
    pub fn new(n: u32, m: u32) -> Result<Game, SizeError> {
        check_size(n, m)?;
        Ok(Game {
            n: n as u8,
            m: m as u8,
            len: 0,
            outcome: None,
            hash: 0,
            threats: [Cube::EMPTY; 2],
            threats_valid: false,
            heights: [0; 64],
            lines: [[0; SLOTS]; 2],
            live: LiveLines::of(n, m),
            unmarked: ALL_MARKED,
            moves: [0; MAX_MOVES],
        })
    }

    /// Empties the board, keeping n and m (cheaper than a new game: a short game is undone
    /// ball by ball, a long one cleared wholesale).
    pub fn reset(&mut self) {
        self.threats_valid = false;
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
            self.unmarked = ALL_MARKED;
        } else {
            while self.undo().is_some() {}
        }
        // The empty board's key; also restores it after `play_unhashed`.
        self.hash = 0;
    }

    /// Empties the board for a game of a new size, reusing this value's memory.
    ///
    /// # Errors
    /// [`SizeError`] unless `1 ≤ m ≤ n ≤ 7`; the game is then unchanged.
    pub fn resize(&mut self, n: u32, m: u32) -> Result<(), SizeError> {
        check_size(n, m)?;
        self.reset();
        self.n = n as u8;
        self.m = m as u8;
        self.live = LiveLines::of(n, m);
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

    /// The outcome: `None` while the game goes on, a win from the deciding move on, a draw when
    /// the board is full.
    #[inline]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The number of balls on peg `(x, y)`, or `None` off the board.
    #[inline]
    pub fn height(&self, x: u32, y: u32) -> Option<u32> {
        self.peg(x, y).map(|p| u32::from(self.heights[p]))
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
    pub fn ball(&self, x: u32, y: u32, z: u32) -> Option<Color> {
        let p = self.peg(x, y)?;
        if z == 0 || z > u32::from(self.heights[p]) {
            return None;
        }
        if self.cube(Color::Black).contains(x - 1, y - 1, z - 1) {
            Some(Color::Black)
        } else {
            Some(Color::White)
        }
    }

    /// The pegs that still take a ball, in x-major order (none once the game is decided).
    pub fn legal_moves(&self) -> impl Iterator<Item = Peg> + '_ {
        let live = self.outcome.is_none();
        let n = self.n();
        (1..=n)
            .flat_map(move |y| (1..=n).map(move |x| Peg::new(x, y)))
            .filter(move |p| live && self.height(p.x, p.y) < Some(n))
    }

    /// The Zobrist key of the position: the XOR of one fixed random key per ball (its colour
    /// and cell), kept up to date by [`Game::play`], [`Game::undo`] and [`Game::playout`]. Equal
    /// positions have equal keys, whatever the order their balls were played in; the key does
    /// not depend on n or m.
    ///
    /// ```
    /// use bitgames::sequence::Game;
    /// let mut a = Game::new(4, 4)?;
    /// let mut b = Game::new(4, 4)?;
    /// for (x, y) in [(1, 1), (2, 2), (3, 3)] { a.play(x, y)?; }
    /// for (x, y) in [(3, 3), (2, 2), (1, 1)] { b.play(x, y)?; }
    /// assert_eq!(a.hash(), b.hash());
    /// b.undo();
    /// assert_ne!(a.hash(), b.hash());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The pegs played so far, in order.
    pub fn history(&self) -> impl ExactSizeIterator<Item = Peg> + '_ {
        self.moves[..usize::from(self.len)]
            .iter()
            .map(|&p| peg_of(p))
    }

    /// Peg `(x, y)` as an index `x | y << 3` (from 0), if it is on the board.
    #[inline(always)]
    fn peg(&self, x: u32, y: u32) -> Option<usize> {
        let n = self.n();
        if x == 0 || y == 0 || x > n || y > n {
            return None;
        }
        Some((x - 1) as usize | ((y - 1) as usize) << 3)
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
    pub fn play(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        self.play_with::<true>(x, y)
    }

    /// [`Game::play`] for the judge, which never asks for the hash: the Zobrist key is not
    /// updated (one table load and XOR per ball, 4 % of the judge's instructions). The hash is
    /// wrong until the next [`Game::reset`] or [`Game::resize`], which restore it; the judge's
    /// scratch game, the only caller, is always resized before a dataset and never hashed.
    #[inline]
    pub(super) fn play_unhashed(&mut self, x: u32, y: u32) -> Result<Option<Outcome>, PlayError> {
        self.play_with::<false>(x, y)
    }

    #[inline(always)]
    fn play_with<const HASH: bool>(
        &mut self,
        x: u32,
        y: u32,
    ) -> Result<Option<Outcome>, PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let Some(peg) = self.peg(x, y) else {
            return Err(PlayError::OffBoard {
                peg: Peg::new(x, y),
                n: self.n(),
            });
        };
        let z = self.heights[peg];
        if z >= self.n {
            return Err(PlayError::PegFull {
                peg: Peg::new(x, y),
            });
        }
        Ok(self.drop_ball::<HASH>(peg, z))
    }

    /// Places the ball (peg checked, not full, game undecided) and detects a win; updates the
    /// Zobrist key when `HASH`.
    #[inline(always)]
    fn drop_ball<const HASH: bool>(&mut self, peg: usize, z: u8) -> Option<Outcome> {
        let color = usize::from(self.len & 1);
        self.heights[peg] = z + 1;
        self.moves[usize::from(self.len)] = peg as u8;
        self.len += 1;
        let b = usize::from(bit(peg as u32 & 7, peg as u32 >> 3, u32::from(z)));
        if HASH {
            self.hash ^= zobrist::key(color, b);
        }
        let win = if !HASH {
            // The judge's scratch game (`play_unhashed`) keeps no threats and marks every
            // line: its datasets change n and m all the time, and one table for all sizes
            // stays in the cache, where a table per size would not. A line shorter than m
            // never holds a run of m, so the answer is the same; `undo` and `reset` clear
            // every line.
            self.threats_valid = false;
            mark::<true>(
                &mut self.lines[color],
                &LINES.slot[b],
                &LINES.bit[b],
                &RUNS[usize::from(self.m)],
            )
        } else if self.threats_valid {
            // The cell is no longer empty: no threat of either colour.
            let (word, bit) = (b >> 6, 1u64 << (b & 63));
            self.threats[0].0[word] &= !bit;
            self.threats[1].0[word] &= !bit;
            let [black, white] = &mut self.lines;
            let (own, other) = if color == 0 {
                (black, &*white)
            } else {
                (white, &*black)
            };
            mark_with_threats::<0>(
                own,
                other,
                &mut self.threats,
                color,
                b,
                self.live,
                self.m,
                win_or_threats(self.m),
                |_| {},
            )
        } else {
            mark::<true>(
                &mut self.lines[color],
                &self.live.slot[b],
                &self.live.bit[b],
                &RUNS[usize::from(self.m)],
            )
        };
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

    /// Takes back the last ball; returns its peg, or `None` (changing nothing) when the board
    /// is empty.
    #[inline]
    pub fn undo(&mut self) -> Option<Peg> {
        let peg = self.take_back()?;
        self.mark_unmarked();
        Some(peg_of(peg))
    }

    /// [`Game::undo`] without marking the balls a playout left unmarked.
    #[inline]
    fn take_back(&mut self) -> Option<u8> {
        let last = self.len.checked_sub(1)?;
        self.len = last;
        let peg = self.moves[usize::from(last)];
        let color = usize::from(last & 1);
        let z = self.heights[usize::from(peg)] - 1;
        self.heights[usize::from(peg)] = z;
        let b = usize::from(bit(u32::from(peg), u32::from(peg >> 3), u32::from(z)));
        self.hash ^= zobrist::key(color, b);
        // Every line, live or not: the judge's scratch game marks them all (see `drop_ball`).
        let (slots, bits) = (&LINES.slot[b], &LINES.bit[b]);
        for d in 0..13 {
            self.lines[color][usize::from(slots[d]) & (SLOTS - 1)] &= !bits[d];
        }
        self.outcome = None;
        self.threats_valid = false;
        Some(peg)
    }

    /// Marks the live line bytes of the balls from `unmarked` on (see [`Game::unmarked`]).
    #[inline]
    fn mark_unmarked(&mut self) {
        if self.unmarked != ALL_MARKED {
            self.mark_from(self.unmarked);
        }
    }

    #[cold]
    fn mark_from(&mut self, first: u16) {
        // The balls' heights, from the top of each peg down.
        let mut heights = self.heights;
        for i in (usize::from(first)..usize::from(self.len)).rev() {
            let peg = usize::from(self.moves[i]) & 63;
            heights[peg] -= 1;
            let b = peg | usize::from(heights[peg]) << 6;
            mark::<false>(
                &mut self.lines[i & 1],
                &self.live.slot[b],
                &self.live.bit[b],
                &RUNS[0],
            );
        }
        self.unmarked = ALL_MARKED;
    }

    /// Takes back every ball played since `earlier`, a position this game was reached from by
    /// playing moves (a search's root), and takes `earlier`'s cached threats. Past a few balls
    /// it copies `earlier`'s line bytes and heights back instead of unmarking 13 lines a ball,
    /// so a search rewinds a long rollout at the cost of a short one.
    ///
    /// `earlier` must be an earlier position of this game (the same size and the same first
    /// moves); anything else leaves the game in an unspecified, though valid-looking, state.
    ///
    /// ```
    /// use bitgames::sequence::Game;
    /// let mut root = Game::new(5, 4)?;
    /// root.play(3, 3)?;
    /// let mut game = root.clone();
    /// for (x, y) in [(1, 1), (2, 2), (1, 1), (1, 5), (3, 3), (4, 4), (3, 3)] {
    ///     game.play(x, y)?;
    /// }
    /// game.rewind_to(&root);
    /// assert!(game == root);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rewind_to(&mut self, earlier: &Game) {
        debug_assert!(
            self.n == earlier.n
                && self.m == earlier.m
                && earlier.len <= self.len
                && self.moves[..usize::from(earlier.len)]
                    == earlier.moves[..usize::from(earlier.len)],
            "rewind_to: not an earlier position of this game"
        );
        if self.len.saturating_sub(earlier.len) <= UNDO_REWIND {
            while self.len > earlier.len {
                self.take_back();
            }
            self.mark_unmarked();
        } else {
            self.unmarked = earlier.unmarked;
            self.len = earlier.len;
            self.outcome = earlier.outcome;
            self.hash = earlier.hash;
            self.heights = earlier.heights;
            for (mine, theirs) in self.lines.iter_mut().zip(&earlier.lines) {
                mine[..LIVE_SLOTS].copy_from_slice(&theirs[..LIVE_SLOTS]);
            }
        }
        self.threats_valid = earlier.threats_valid;
        if earlier.threats_valid {
            self.threats = earlier.threats;
        }
    }

    /// The balls of the winning sequence: every ball of the winner that lies on a run of m or
    /// more of the winner's balls through the deciding ball, in any of the 13 directions (a
    /// move that completes two sequences at once gives both). Coordinates from 0, as in
    /// [`Cube`]; empty unless the game is won.
    ///
    /// Computed on demand from the winner's [`Game::cube`] by walking the 13 directions from
    /// the deciding ball (at most 13 × 2 × 6 steps), not from the line bytes; for pictures and
    /// reports, not for a hot loop.
    ///
    /// ```
    /// use bitgames::sequence::{Cube, Game};
    /// let mut game = Game::new(3, 3)?;
    /// for (x, y) in [(1, 1), (2, 1), (1, 1), (2, 1), (1, 1)] {
    ///     game.play(x, y)?;
    /// }
    /// // Black's third ball on peg (1, 1): the vertical run (0, 0, 0), (0, 0, 1), (0, 0, 2).
    /// assert_eq!(game.winning_line(), Cube::EMPTY.with(0, 0, 0).with(0, 0, 1).with(0, 0, 2));
    /// game.undo();
    /// assert!(game.winning_line().is_empty());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn winning_line(&self) -> Cube {
        let Some(Outcome::Win { color, at }) = self.outcome else {
            return Cube::EMPTY;
        };
        // A won game takes no more balls: the deciding ball is the last one, on top of its peg.
        debug_assert_eq!(at, self.moves_played());
        let Some(peg) = self.history().last() else {
            return Cube::EMPTY;
        };
        let Some(index) = self.peg(peg.x, peg.y) else {
            return Cube::EMPTY;
        };
        let own = self.cube(color);
        let n = self.n() as i32;
        let top = (
            peg.x as i32 - 1,
            peg.y as i32 - 1,
            i32::from(self.heights[index]) - 1,
        );
        let own_ball = |(x, y, z): (i32, i32, i32)| {
            (0..n).contains(&x)
                && (0..n).contains(&y)
                && (0..n).contains(&z)
                && own.contains(x as u32, y as u32, z as u32)
        };
        let mut line = Cube::EMPTY;
        for &(dx, dy, dz) in &DIRECTIONS {
            let step = |(x, y, z): (i32, i32, i32), k: i32| {
                (
                    x + k * i32::from(dx),
                    y + k * i32::from(dy),
                    z + k * i32::from(dz),
                )
            };
            // The run through the deciding ball: back to its first ball, then its length.
            let mut first = top;
            while own_ball(step(first, -1)) {
                first = step(first, -1);
            }
            let length = (0..).take_while(|&k| own_ball(step(first, k))).count();
            if length >= self.m() as usize {
                for k in 0..length as i32 {
                    let (x, y, z) = step(first, k);
                    line = line.with(x as u32, y as u32, z as u32);
                }
            }
        }
        line
    }

    /// Does `color` have an m-sequence anywhere? The full-board detector on the packed cube
    /// (independent of the incremental check that [`Game::play`] uses).
    pub fn has_sequence(&self, color: Color) -> bool {
        self.cube(color).has_line(self.m())
    }
}

/// The peg of index `x | y << 3` (from 0).
#[inline]
fn peg_of(p: u8) -> Peg {
    Peg::new(u32::from(p & 7) + 1, u32::from(p >> 3) + 1)
}

/// Records a ball in its colour's line bytes `lines`: its lines' `slots` and its `bits` in
/// them (a cell's row of [`LiveLines`] or of [`LINES`]), and, when `CHECK` (else the answer
/// is `false`), says whether it completes a run of `runs`' length through itself: O(13), one
/// byte per direction (the lanes past a cell's live lines OR 0 into a slot of their own,
/// [`super::cube::dead_lane`], cheaper than a branch).
#[inline(always)]
pub(super) fn mark<const CHECK: bool>(
    lines: &mut [u8; SLOTS],
    slots: &[u16; 16],
    bits: &[u8; 16],
    runs: &[u8; 256],
) -> bool {
    let mut win = 0;
    for d in 0..13 {
        let slot = usize::from(slots[d]);
        debug_assert!(slot < SLOTS);
        // SAFETY: every slot of `LINES`, and so of `live`, is below `SLOTS`, asserted for the
        // whole table when it is built at compile time (cube.rs).
        let line = unsafe { lines.get_unchecked_mut(slot) };
        let v = *line | bits[d];
        *line = v;
        if CHECK {
            win |= runs[usize::from(v)];
        }
    }
    win != 0
}

/// Records a ball of colour `color` (0 Black) at cell bit `b` in its live line bytes `own`,
/// as [`mark`] does, and adds its new threats to `threats[color]` (`other`: the other
/// colour's line bytes): the lines through it may hold new threats of `color`. The caller
/// takes the cell out of both colours' threats, now or (a playout) at the end. Returns
/// whether the ball completes a run of m, and calls `added` with each new threat's cell bit.
/// One branch-free pass over `LANES` lanes ([`LiveLines::lanes`], so that most cells need no
/// more, read from its packed `near_*` tables; or 0), one table look-up each for the win and
/// the new threats ([`WIN_OR_THREATS`], whose row of m the caller gives as `table`); the
/// cells' other live lines after them; the cells of the threats, which few balls make, last.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn mark_with_threats<const LANES: usize>(
    own: &mut [u8; SLOTS],
    other: &[u8; SLOTS],
    threats: &mut [Cube; 2],
    color: usize,
    b: usize,
    live: &LiveLines,
    m: u8,
    table: &[u16; 256],
    added: impl FnMut(usize),
) -> bool {
    debug_assert!(std::ptr::eq(table, win_or_threats(m)));
    debug_assert!(LANES == 0 || LANES == live.lanes());
    let (slots, bits) = (&live.slot[b & 511], &live.bit[b & 511]);
    // Bit 8: a run of m; bits 0..8: a new threat on some line.
    let mut found = 0;
    let mut line = |slot: u16, bit: u8| {
        let slot = usize::from(slot);
        debug_assert!(slot < SLOTS);
        // SAFETY: every slot of `live` is below `SLOTS`, asserted when it is built (cube.rs).
        let line = unsafe { own.get_unchecked_mut(slot) };
        let v = *line | bit;
        *line = v;
        // The other colour's balls are not looked at here: a line they block may still show
        // a threat in the low byte, and the pass for the threats' cells, which does look,
        // then finds none. Such lines are few; the look-ups saved are on every ball.
        found |= table[usize::from(v)];
    };
    // The same number of lanes on every ball (the ones past the live lines OR 0 into their
    // dead slots, whose look-up is 0 for m ≥ 2 and at worst a needless pass for m = 1), then
    // the rest of the live lines of the few cells that have more.
    let count = usize::from(live.count[b & 511]);
    let first = LANES.min(13);
    let near = (b & 511) * first..(b & 511) * first + first;
    let (near_slots, near_bits) = (&live.near_slot[near.clone()], &live.near_bit[near]);
    for d in 0..first {
        line(near_slots[d], near_bits[d]);
    }
    for d in LANES..count.min(13) {
        line(slots[d], bits[d]);
    }
    if found & 0xff != 0 {
        mark_new_threats(own, other, threats, color, b, live, m, added);
    }
    found >> 8 != 0
}

/// The new threats of `color` on the live lines through cell bit `b` (its ball recorded in
/// `own`), on the board: set in `threats[color]` and given to `added`.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn mark_new_threats(
    own: &[u8; SLOTS],
    other: &[u8; SLOTS],
    threats: &mut [Cube; 2],
    color: usize,
    b: usize,
    live: &LiveLines,
    m: u8,
    mut added: impl FnMut(usize),
) {
    let b = b & 511;
    let (slots, bits, dirs) = (&live.slot[b], &live.bit[b], &live.dir[b]);
    let new_threats = &NEW_THREATS[usize::from(m) & 15];
    let n = usize::from(live.n);
    for k in 0..usize::from(live.count[b]).min(13) {
        let slot = usize::from(slots[k]) & (SLOTS - 1);
        let mut t = new_threats[usize::from(own[slot])] & !other[slot];
        if t != 0 {
            let at = bits[k].trailing_zeros() as i32;
            let stride = STRIDES[usize::from(dirs[k]) % 13] as i32;
            while t != 0 {
                let p = t.trailing_zeros() as i32;
                t &= t - 1;
                let cell = (b as i32 + (p - at) * stride) as usize & 511;
                let on_board = (cell & 7) < n && (cell >> 3 & 7) < n && (cell >> 6) < n;
                if on_board {
                    threats[color & 1].0[cell >> 6] |= 1 << (cell & 63);
                    added(cell);
                }
            }
        }
    }
}

/// The [`WIN_OR_THREATS`] row of m: a loop that records many balls looks it up once.
#[inline(always)]
pub(super) fn win_or_threats(m: u8) -> &'static [u16; 256] {
    &WIN_OR_THREATS[usize::from(m) & 15]
}

/// `WIN_OR_THREATS[m][v]`: [`NEW_THREATS`]`[m][v]` in the low byte, and bit 8 set when the
/// line byte `v` holds a run of m or more ([`RUNS`]): a ball's win and new threats from one
/// look-up a line.
static WIN_OR_THREATS: [[u16; 256]; 16] = {
    let mut table = [[0u16; 256]; 16];
    let mut m = 0;
    while m <= 8 {
        let mut v = 0;
        while v < 256 {
            table[m][v] = NEW_THREATS[m][v] as u16 | (RUNS[m][v] as u16) << 8;
            v += 1;
        }
        m += 1;
    }
    table
};

/// `NEW_THREATS[m][v]`: the positions `p` (bits) not in the line byte `v` that would make a
/// run of m or more through themselves if set (m ≤ 8; 0 beyond). Through themselves: a line
/// that already holds a run of m (a decided game) does not make its other empty cells threats.
static NEW_THREATS: [[u8; 256]; 16] = {
    let mut table = [[0u8; 256]; 16];
    let mut m = 0;
    while m <= 8 {
        let mut v = 0;
        while v < 256 {
            let mut p = 0;
            while p < 8 {
                // The run through p: the set bits of v next to it on either side.
                let (mut lo, mut hi) = (p, p);
                while lo > 0 && v >> (lo - 1) & 1 == 1 {
                    lo -= 1;
                }
                while hi < 7 && v >> (hi + 1) & 1 == 1 {
                    hi += 1;
                }
                if v >> p & 1 == 0 && hi - lo + 1 >= m {
                    table[m][v] |= 1 << p;
                }
                p += 1;
            }
            v += 1;
        }
        m += 1;
    }
    table
};

/// Two games are equal when they have the same size, the same moves and the same outcome
/// (the move buffer past the last move is scratch and not compared, nor is the threat cache,
/// which follows from the balls).
impl PartialEq for Game {
    fn eq(&self, other: &Game) -> bool {
        let len = usize::from(self.len);
        self.n == other.n
            && self.m == other.m
            && self.len == other.len
            && self.outcome == other.outcome
            && self.hash == other.hash
            && self.heights == other.heights
            && if self.unmarked == ALL_MARKED && other.unmarked == ALL_MARKED {
                self.lines == other.lines
            } else {
                self.lines[0][..64] == other.lines[0][..64]
                    && self.lines[1][..64] == other.lines[1][..64]
            }
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
        for y in (1..=self.n()).rev() {
            for z in 1..=self.n() {
                if z > 1 {
                    f.write_str("  ")?;
                }
                for x in 1..=self.n() {
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

#[cfg(test)]
mod tests {
    use super::Game;
    use crate::rng::Rng;
    use crate::sequence::cube::{DIRECTIONS, SLOTS};

    /// The line bytes a game should hold, from its balls alone: every ball in each of its
    /// directions whose line has m cells or more on the board, walked cell by cell; the balls
    /// from [`Game::unmarked`] on (a decided game's) in their x lines, the cube, only.
    fn expected_lines(game: &Game) -> [[u8; SLOTS]; 2] {
        let (n, m) = (game.n() as i32, game.m() as usize);
        let on = |c: [i32; 3]| c.iter().all(|&c| (0..n).contains(&c));
        let mut unmarked = [false; 512];
        let mut heights = game.heights;
        for i in (usize::from(game.unmarked.min(game.len))..usize::from(game.len)).rev() {
            assert!(
                game.outcome.is_some(),
                "only a decided game has unmarked balls"
            );
            let peg = usize::from(game.moves[i]);
            heights[peg] -= 1;
            unmarked[peg | usize::from(heights[peg]) << 6] = true;
        }
        let mut lines = [[0; SLOTS]; 2];
        for (color, cube) in [
            game.cube(super::Color::Black),
            game.cube(super::Color::White),
        ]
        .iter()
        .enumerate()
        {
            for b in 0..512usize {
                if cube.0[b >> 6] >> (b & 63) & 1 == 0 {
                    continue;
                }
                let cell = [(b & 7) as i32, (b >> 3 & 7) as i32, (b >> 6) as i32];
                for (d, &(dx, dy, dz)) in DIRECTIONS.iter().enumerate() {
                    let step = [i32::from(dx), i32::from(dy), i32::from(dz)];
                    let cells = (-7..=7)
                        .filter(|&i| on(std::array::from_fn(|a| cell[a] + i * step[a])))
                        .count();
                    let table = &super::super::cube::LINES;
                    if cells >= m && (!unmarked[b] || table.slot[b][d] < 64) {
                        lines[color][usize::from(table.slot[b][d])] |= table.bit[b][d];
                    }
                }
            }
        }
        lines
    }

    /// Play, undo, both playouts and rewinding keep exactly the live lines' bytes, the others
    /// at zero, on every size.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn line_bytes_hold_the_balls_of_the_live_lines_only() {
        let mut rng = Rng::new(17);
        for n in 1..=7 {
            for m in 1..=n {
                for round in 0..6 {
                    let mut game = Game::new(n, m).unwrap();
                    for _ in 0..rng.below(n * n) {
                        let (x, y) = (rng.below(n) + 1, rng.below(n) + 1);
                        if game.play(x, y).is_err() {
                            break;
                        }
                        assert!(game.lines == expected_lines(&game), "n {n} m {m} play");
                    }
                    let root = game.clone();
                    if round % 2 == 0 {
                        game.playout_decisive(&mut rng);
                    } else {
                        game.playout(&mut rng);
                    }
                    assert!(game.lines == expected_lines(&game), "n {n} m {m} playout");
                    for _ in 0..3.min(game.moves_played() - root.moves_played()) {
                        game.undo();
                        assert!(game.lines == expected_lines(&game), "n {n} m {m} undo");
                    }
                    game.rewind_to(&root);
                    assert!(game == root, "n {n} m {m} rewind");
                }
            }
        }
    }

    #[test]
    fn reset_restores_the_hash_after_unhashed_play() {
        // Short games are undone ball by ball, long ones cleared: both paths.
        for balls in [3, 12] {
            let mut judged = Game::new(4, 4).unwrap();
            let mut hashed = Game::new(4, 4).unwrap();
            for k in 0..balls {
                let (x, y) = (k % 4 + 1, k / 4 % 4 + 1);
                judged.play_unhashed(x, y).unwrap();
                hashed.play(x, y).unwrap();
            }
            assert_ne!(hashed.hash(), 0);
            judged.reset();
            assert_eq!(judged, Game::new(4, 4).unwrap());
            for (x, y) in [(2, 3), (1, 1)] {
                judged.play(x, y).unwrap();
            }
            hashed.reset();
            for (x, y) in [(2, 3), (1, 1)] {
                hashed.play(x, y).unwrap();
            }
            assert_eq!(judged.hash(), hashed.hash());
            assert_eq!(judged, hashed);
        }
    }

    /// Rewinding by undo (a few balls) and by copy (more) both give back the root exactly,
    /// with its threats, and the game then plays on as the root does.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn rewind_to_gives_back_the_root_after_short_and_long_continuations() {
        use crate::rng::Rng;
        use crate::sequence::Color;
        let mut rng = Rng::new(11);
        let mut copies = 0;
        for n in 3..=7 {
            for m in 3..=n {
                for trial in 0..30u32 {
                    let mut root = Game::new(n, m).unwrap();
                    for _ in 0..trial % 7 {
                        let open: Vec<_> = root.legal_moves().collect();
                        let p = open[rng.below(open.len() as u32) as usize];
                        if root.play(p.x, p.y).unwrap().is_some() {
                            root.undo();
                            break;
                        }
                    }
                    if trial % 2 == 0 {
                        root.cache_threats();
                    }
                    let mut game = root.clone();
                    // Continuations of 1..=8 balls by hand, then whole playouts.
                    let extra = if trial < 16 { trial % 8 + 1 } else { u32::MAX };
                    if extra == u32::MAX {
                        game.playout_decisive(&mut rng);
                    } else {
                        for _ in 0..extra {
                            let Some(p) = game.legal_moves().next() else {
                                break;
                            };
                            if game.play(p.x, p.y).unwrap().is_some() {
                                break;
                            }
                        }
                    }
                    let gap = game.moves_played() - root.moves_played();
                    copies += u32::from(gap > u32::from(super::UNDO_REWIND));
                    game.rewind_to(&root);
                    assert!(game == root, "n {n} m {m} trial {trial}: {game:?} {root:?}");
                    assert_eq!(game.threats_valid, root.threats_valid);
                    for color in [Color::Black, Color::White] {
                        assert_eq!(game.threats(color), root.threats(color));
                    }
                    let (mut a, mut b) = (Rng::new(u64::from(trial)), Rng::new(u64::from(trial)));
                    assert_eq!(game.playout_decisive(&mut a), root.playout_decisive(&mut b));
                    assert!(game == root);
                }
            }
        }
        assert!(copies > 100, "the copying branch ran {copies} times");
    }

    /// The balls of `line` as coordinates from 1, sorted.
    fn balls(line: super::Cube) -> Vec<(u32, u32, u32)> {
        let mut balls: Vec<_> = line
            .cells()
            .map(|(x, y, z)| (x + 1, y + 1, z + 1))
            .collect();
        balls.sort_unstable();
        balls
    }

    fn played(n: u32, m: u32, moves: &[(u32, u32)]) -> Game {
        let mut game = Game::new(n, m).unwrap();
        for &(x, y) in moves {
            game.play(x, y).unwrap();
        }
        game
    }

    #[test]
    fn winning_line_of_the_sample_games() {
        // Dataset 2 of the sample: White's 6th ball, (3, 3, 1), ends the row y = 3 of layer 1.
        let game = played(3, 3, &[(2, 2), (1, 3), (1, 1), (2, 3), (2, 1), (3, 3)]);
        assert_eq!(
            balls(game.winning_line()),
            [(1, 3, 1), (2, 3, 1), (3, 3, 1)]
        );
        // Dataset 3: Black's 15th ball, (2, 2, 2), completes the space diagonal
        // (1,1,1)..(4,4,4) and the diagonal (1,1,2)..(4,4,2) of layer 2; Black's (4, 4, 1) is
        // on neither. Both runs are longer than m = 3 and are drawn whole.
        // The moves as digit pairs "xy".
        let moves: Vec<(u32, u32)> = "11 22 11 33 33 11 33 33 44 11 44 44 44 41 22"
            .split(' ')
            .map(|p| {
                (
                    u32::from(p.as_bytes()[0] - b'0'),
                    u32::from(p.as_bytes()[1] - b'0'),
                )
            })
            .collect();
        let game = played(4, 3, &moves);
        assert_eq!(
            balls(game.winning_line()),
            [
                (1, 1, 1),
                (1, 1, 2),
                (2, 2, 2),
                (3, 3, 2),
                (3, 3, 3),
                (4, 4, 2),
                (4, 4, 4)
            ]
        );
    }

    #[test]
    fn winning_line_takes_the_whole_run_and_nothing_before_a_win() {
        // Black's row y = 1 of layer 1 closes in the middle: four balls with m = 3.
        let mut game = played(4, 3, &[(1, 1), (1, 2), (2, 1), (2, 2), (4, 1), (1, 2)]);
        assert!(game.winning_line().is_empty());
        game.play(3, 1).unwrap();
        assert_eq!(
            balls(game.winning_line()),
            [(1, 1, 1), (2, 1, 1), (3, 1, 1), (4, 1, 1)]
        );
        game.undo();
        assert!(game.winning_line().is_empty());
        // With m = 1 the deciding ball alone is the line.
        let mut game = Game::new(1, 1).unwrap();
        game.play(1, 1).unwrap();
        assert_eq!(balls(game.winning_line()), [(1, 1, 1)]);
    }
}
