//! [`Game::playout_decisive`]: random playouts with decisive and anti-decisive moves, each
//! colour's threats kept incrementally from the line bytes of its balls.

use super::{Game, OpenPegs, PEGS, zobrist};
use crate::rng::Rng;
use crate::sequence::cube::Cube;
use crate::sequence::game::mark_with_threats;
use crate::sequence::{Color, Outcome};

/// The lowest cell bit of a non-empty cube.
#[inline]
fn first_cell(cube: &Cube) -> Option<usize> {
    cube.0
        .iter()
        .position(|&w| w != 0)
        .map(|z| z << 6 | cube.0[z].trailing_zeros() as usize)
}

impl Game {
    /// Plays until the game is decided and returns the outcome, like [`Game::playout`], but
    /// with decisive and anti-decisive moves (Teytaud & Teytaud, CIG 2010): when the player to
    /// move can complete a sequence now, that ball is played (the lowest such cell); else,
    /// when the opponent could, the player blocks it; else a uniformly random open peg.
    ///
    /// Each colour's threats ([`Game::threats`]) are computed at the start unless
    /// [`Game::cache_threats`] already keeps them, then kept up to date from the 13 line bytes
    /// of every ball: a handful of table look-ups a ball. They stay cached afterwards.
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
        if let Some(outcome) = self.outcome {
            return outcome;
        }
        self.cache_threats();
        let mut threats = self.threats;
        let mut next = self.playable();
        let n = self.n;
        let live = self.live;
        let area = u64::from(n).pow(2);
        let cells = usize::from(n).pow(3);
        let pegs = &PEGS[usize::from(n)];
        let mut len = usize::from(self.len);
        // The open pegs, in peg order at first, each one's place in the list kept so that a
        // peg that fills is swapped out for the last: a random peg is one number and one load.
        let heights = &self.heights;
        let mut open = OpenPegs::new(&pegs[..area as usize], |peg| heights[usize::from(peg)] < n);
        // Per colour, the pegs whose next cell is a threat of that colour, kept from ball to
        // ball: most moves have none, and then neither cube needs a look.
        let fold = |cube: Cube| cube.0.iter().fold(0, |pegs, &layer| pegs | layer);
        let mut playable = [fold(threats[0].and(next)), fold(threats[1].and(next))];
        let won = loop {
            let c = len & 1;
            let found = if playable[0] | playable[1] != 0 {
                // The lowest cell, not the lowest peg: the order `SmallGame` follows.
                first_cell(&threats[c].and(next)).or_else(|| first_cell(&threats[c ^ 1].and(next)))
            } else {
                None
            };
            let b = match found {
                Some(b) => b,
                None => {
                    let peg = open.pick(rng.next_u64() as u32);
                    peg | usize::from(self.heights[peg]) << 6
                }
            };
            let (peg, z) = (b & 63, b >> 6);
            self.heights[peg] = z as u8 + 1;
            self.moves[len] = peg as u8;
            len += 1;
            self.hash ^= zobrist::key(c, b);
            let (word, bit) = (b >> 6, 1u64 << (b & 63));
            next.0[word] &= !bit;
            if z + 1 < usize::from(n) {
                next.0[word + 1] |= bit;
            } else {
                open.remove(peg);
            }
            let [black, white] = &mut self.lines;
            let (own, other) = if c == 0 {
                (black, &*white)
            } else {
                (white, &*black)
            };
            let heights = &self.heights;
            let mut new_playable = 0;
            let won = mark_with_threats(own, other, &mut threats, c, b, live, self.m, |cell| {
                if usize::from(heights[cell & 63]) == cell >> 6 {
                    new_playable |= 1 << (cell & 63);
                }
            });
            // The peg played: its next cell, if it has one, is a threat of either colour or not.
            let above = u64::from(z + 1 < usize::from(n));
            playable[c] |= new_playable;
            for (mask, cube) in playable.iter_mut().zip(&threats) {
                let threat = cube.0[(word + 1) & 7] >> peg & above;
                *mask = *mask & !(1 << peg) | threat << peg;
            }
            if won {
                break true;
            }
            if len == cells {
                break false;
            }
        };
        self.len = len as u16;
        self.threats = threats;
        let outcome = if won {
            Outcome::Win {
                color: Color::of_move(len as u32),
                at: len as u32,
            }
        } else {
            Outcome::Draw
        };
        self.outcome = Some(outcome);
        outcome
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
