//! [`Game::playout_decisive`]: random playouts with decisive and anti-decisive moves, each
//! colour's threats kept incrementally from the line bytes of its balls.

use super::{Game, OpenPegs, PEGS, zobrist};
use crate::rng::Rng;
use crate::sequence::cube::{Cube, LiveLines, SLOTS};
use crate::sequence::game::{MAX_MOVES, mark_with_threats, win_or_threats};
use crate::sequence::{Color, Outcome};

impl Game {
    /// Plays until the game is decided and returns the outcome, like [`Game::playout`], but
    /// with decisive and anti-decisive moves (Teytaud & Teytaud, CIG 2010): when the player to
    /// move can complete a sequence now, that ball is played (the lowest such cell); else,
    /// when the opponent could, the player blocks it; else a uniformly random open peg.
    ///
    /// Each colour's threats ([`Game::threats`]) are computed at the start unless
    /// [`Game::cache_threats`] already keeps them, then kept up to date from the 13 line bytes
    /// of every ball: a handful of table look-ups a ball. They stay cached afterwards. On
    /// x86-64 CPUs with AVX-512 VBMI (unless `BITGAMES_SIMD` caps the choice) and m ≥ 3, a
    /// ball's win and new threats come from its rays in the cubes instead, as in
    /// [`Game::playout`], and the line bytes of the other directions than x are marked only
    /// when [`Game::undo`] takes the game back to an undecided position;
    /// [`Game::playout_decisive_portable`] makes the same moves without it.
    ///
    /// ```
    /// use bitgames::{rng::Rng, sequence::{Color, Game, Outcome}};
    /// let mut game = Game::new(4, 3)?;
    /// for (x, y) in [(1, 1), (4, 4), (2, 1)] {
    ///     game.play(x, y)?;
    /// }
    /// // White must block (3, 1); whatever follows, Black never wins on (3, 1, 1) at move 5.
    /// let outcome = game.playout_decisive(&mut Rng::new(3));
    /// assert_eq!(game.history().nth(3).map(|p| (p.x, p.y)), Some((3, 1)));
    /// assert_eq!(game.outcome(), Some(outcome));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn playout_decisive(&mut self, rng: &mut Rng) -> Outcome {
        self.decisive(rng, true)
    }

    /// [`Game::playout_decisive`] on the line bytes, as on CPUs without AVX-512 VBMI: the same
    /// moves and outcome, from the same random numbers.
    pub fn playout_decisive_portable(&mut self, rng: &mut Rng) -> Outcome {
        self.decisive(rng, false)
    }

    /// The decisive playout, on AVX-512 VBMI when `simd` and the CPU has it.
    #[inline]
    fn decisive(&mut self, rng: &mut Rng, simd: bool) -> Outcome {
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        self.cache_threats();
        let next = self.playable();
        let n = self.n;
        let area = usize::from(n).pow(2);
        let heights = &self.heights;
        // The open pegs, in peg order at first, each one's place in the list kept so that a
        // peg that fills is swapped out for the last: a random peg is one number and one load.
        let open = OpenPegs::new(&PEGS[usize::from(n)][..area], |peg| {
            heights[usize::from(peg)] < n
        });
        // Per colour, the pegs whose next cell is a threat of that colour, kept from ball to
        // ball: most moves have none, and then neither cube needs a look.
        let fold = |cube: Cube| cube.0.iter().fold(0, |pegs, &layer| pegs | layer);
        let playable = [
            fold(self.threats[0].and(next)),
            fold(self.threats[1].and(next)),
        ];
        #[cfg(not(target_arch = "x86_64"))]
        let _ = simd;
        #[cfg(target_arch = "x86_64")]
        let vbmi =
            (simd && self.m >= 3 && crate::simd::Backend::detect() == crate::simd::Backend::Avx512)
                .then(crate::simd::x86::Avx512Vbmi::new)
                .flatten();
        #[cfg(target_arch = "x86_64")]
        if let Some(token) = vbmi {
            let won = super::vbmi::decisive(self, open, playable, rng, token);
            return self.finish_decisive(won);
        }
        let [black, white] = &mut self.lines;
        let mut p = Decisive {
            n,
            m: self.m,
            table: win_or_threats(self.m),
            cells: usize::from(n).pow(3),
            len: usize::from(self.len),
            live: self.live,
            heights: &mut self.heights,
            moves: &mut self.moves,
            hash: self.hash,
            threats: self.threats,
            playable,
            open,
        };
        // The generator in a local, kept in a register (written back once, at the end).
        let mut local = rng.clone();
        let won = match self.live.lanes() {
            4 => p.run::<4>(black, white, &mut local),
            7 => p.run::<7>(black, white, &mut local),
            10 => p.run::<10>(black, white, &mut local),
            _ => p.run::<13>(black, white, &mut local),
        };
        *rng = local;
        let (len, hash, threats) = (p.len, p.hash, p.threats);
        self.len = len as u16;
        self.hash = hash;
        self.threats = threats;
        self.finish_decisive(won)
    }

    /// The end of a decisive playout whose steps left the cells they filled in the threat
    /// cubes (every read of them looks at empty cells only): they are cleared here, once, and
    /// the outcome set.
    fn finish_decisive(&mut self, won: bool) -> Outcome {
        let occupied = self.cube(Color::Black).or(self.cube(Color::White));
        for cube in &mut self.threats {
            *cube = cube.minus(occupied);
        }
        let outcome = super::ended(won, u32::from(self.len));
        self.outcome = Some(outcome);
        outcome
    }
}

/// The state of [`Game::playout_decisive`]'s loop, held in locals.
struct Decisive<'a> {
    n: u8,
    m: u8,
    /// The win and new-threats table of m ([`win_or_threats`]).
    table: &'static [u16; 256],
    /// n³, the number of cells.
    cells: usize,
    len: usize,
    live: &'a LiveLines,
    heights: &'a mut [u8; 64],
    moves: &'a mut [u8; MAX_MOVES],
    hash: u64,
    /// Each colour's threats, and (not cleared until the end) cells filled since the start.
    threats: [Cube; 2],
    /// Per colour, the pegs whose next cell is a threat of that colour: exact after every
    /// ball.
    playable: [u64; 2],
    open: OpenPegs,
}

impl Decisive<'_> {
    /// Black and White in turn until the game is decided, each step with its colour fixed
    /// and `LANES` lines a ball done without a test; whether it was won.
    #[inline(always)]
    fn run<const LANES: usize>(
        &mut self,
        black: &mut [u8; SLOTS],
        white: &mut [u8; SLOTS],
        rng: &mut Rng,
    ) -> bool {
        if self.len & 1 == 1
            && let Some(won) = self.step::<1, LANES>(white, black, rng)
        {
            return won;
        }
        loop {
            if let Some(won) = self.step::<0, LANES>(black, white, rng) {
                return won;
            }
            if let Some(won) = self.step::<1, LANES>(white, black, rng) {
                return won;
            }
        }
    }

    /// Plays one ball of colour `C` (0 Black), whose line bytes are `own` (`other`: the other
    /// colour's): a win if it can, else a block, else a random open peg. `Some(won)` when the
    /// game is decided (a win, or a draw on the full board).
    #[inline(always)]
    fn step<const C: usize, const LANES: usize>(
        &mut self,
        own: &mut [u8; SLOTS],
        other: &[u8; SLOTS],
        rng: &mut Rng,
    ) -> Option<bool> {
        let b = choose::<C>(&self.playable, self.heights, &self.open, rng);
        let (peg, z) = (b & 63, b >> 6);
        self.heights[peg] = z as u8 + 1;
        self.moves[self.len] = peg as u8;
        self.len += 1;
        self.hash ^= zobrist::key(C, b);
        let above = z + 1 < usize::from(self.n);
        if !above {
            self.open.remove(peg);
        }
        let heights = &*self.heights;
        let mut new_playable = 0;
        let won = mark_with_threats::<LANES>(
            own,
            other,
            &mut self.threats,
            C,
            b,
            self.live,
            self.m,
            self.table,
            |cell| {
                if usize::from(heights[cell & 63]) == cell >> 6 {
                    new_playable |= 1 << (cell & 63);
                }
            },
        );
        self.playable[C] |= new_playable;
        refresh_peg(&mut self.playable, &self.threats, peg, z, above);
        decided(won, self.len, self.cells)
    }
}

/// The cell a decisive step of colour `C` plays (bit `peg | z << 6`): the lowest next cell of
/// the pegs where it wins now, else of those where the opponent would, else the next cell of a
/// random open peg. `playable` holds each colour's pegs whose next cell is its threat.
#[inline(always)]
pub(super) fn choose<const C: usize>(
    playable: &[u64; 2],
    heights: &[u8; 64],
    open: &OpenPegs,
    rng: &mut Rng,
) -> usize {
    if playable[0] | playable[1] != 0 {
        let mut pegs = if playable[C] != 0 {
            playable[C]
        } else {
            playable[C ^ 1]
        };
        // The lowest cell, not the lowest peg: the order `SmallGame` follows.
        let mut best = usize::MAX;
        while pegs != 0 {
            let peg = pegs.trailing_zeros() as usize;
            pegs &= pegs - 1;
            best = best.min(usize::from(heights[peg & 63]) << 6 | peg);
        }
        best
    } else {
        let peg = open.pick(rng.next_u64() as u32);
        peg | usize::from(heights[peg]) << 6
    }
}

/// After a decisive step's ball at `peg`, layer `z`: the peg's next cell, if it has one
/// (`above`), is a threat of either colour or not. Mostly neither, and the peg was in neither
/// mask, so that nothing changes; the masks are written anyway, as a test for that case would
/// be mispredicted on the moves that do change them.
#[inline(always)]
pub(super) fn refresh_peg(
    playable: &mut [u64; 2],
    threats: &[Cube; 2],
    peg: usize,
    z: usize,
    above: bool,
) {
    let word = (z + 1) & 7;
    let above = u64::from(above);
    let (black, white) = (
        threats[0].0[word] >> peg & above,
        threats[1].0[word] >> peg & above,
    );
    let clear = !(1 << peg);
    playable[0] = playable[0] & clear | black << peg;
    playable[1] = playable[1] & clear | white << peg;
}

/// A step's answer: `Some(won)` when the game is decided (a win, or a draw on the full
/// board: `len` balls of `cells`).
#[inline(always)]
pub(super) fn decided(won: bool, len: usize, cells: usize) -> Option<bool> {
    if won {
        Some(true)
    } else if len == cells {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Replays the decisive playout's moves and checks each one: a win when the mover could
    /// win, else a block when the opponent could, and the same final game as playing them one
    /// by one.
    #[test]
    #[cfg_attr(miri, ignore)]
    fn every_move_is_decisive_or_anti_decisive_when_it_can_be() {
        let mut rng = Rng::new(5);
        for n in 3..=7 {
            for m in 3..=n {
                for _ in 0..40 {
                    let mut game = Game::new(n, m).unwrap();
                    let outcome = game.playout_decisive(&mut rng);
                    let mut replay = Game::new(n, m).unwrap();
                    for p in game.history() {
                        let me = replay.to_move();
                        let wins = replay.winning_pegs(me);
                        let blocks = replay.winning_pegs(me.other());
                        if !wins.is_empty() {
                            assert!(wins.contains(p), "n {n} m {m}: missed a win at {p}");
                        } else if !blocks.is_empty() {
                            assert!(blocks.contains(p), "n {n} m {m}: missed a block at {p}");
                        }
                        replay.play(p.x, p.y).unwrap();
                    }
                    assert_eq!(replay.outcome(), Some(outcome));
                    assert!(replay == game, "n {n} m {m}");
                }
            }
        }
    }
}
