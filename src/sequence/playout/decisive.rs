//! [`Game::playout_decisive`]: random playouts with decisive and anti-decisive moves, each
//! colour's threats kept incrementally from the line bytes of its balls.

use super::{Game, PEGS, zobrist};
use crate::rng::Rng;
use crate::sequence::cube::{Cube, LINES, RUNS, SLOTS};
use crate::sequence::game::update_threats;
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
        let area = u64::from(n).pow(2);
        let cells = usize::from(n).pow(3);
        let pegs = &PEGS[usize::from(n)];
        let runs = &RUNS[usize::from(self.m)];
        let mut len = usize::from(self.len);
        let won = loop {
            let c = len & 1;
            let mine = threats[c].and(next);
            let theirs = threats[c ^ 1].and(next);
            let b = match first_cell(&mine).or_else(|| first_cell(&theirs)) {
                Some(b) => b,
                None => {
                    let r = rng.next_u64() as u32;
                    let mut peg = usize::from(pegs[((u64::from(r) * area) >> 32) as usize & 63]);
                    if self.heights[peg & 63] >= n {
                        peg = open_peg(&self.heights, pegs, n, rng);
                    }
                    peg & 63 | usize::from(self.heights[peg & 63]) << 6
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
            }
            let [black, white] = &mut self.lines;
            let (own, other) = if c == 0 {
                (black, &*white)
            } else {
                (white, &*black)
            };
            let (slots, bits) = (&LINES.slot[b & 511], &LINES.bit[b & 511]);
            let mut win = 0;
            for d in 0..13 {
                let slot = usize::from(slots[d]) & (SLOTS - 1);
                let v = own[slot] | bits[d];
                own[slot] = v;
                win |= runs[usize::from(v)];
            }
            update_threats(&mut threats, c, own, other, b, n, self.m);
            if win != 0 {
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

/// A uniformly random open peg (some peg is open): rejection sampling a few times, then a
/// direct choice among the open pegs counted.
#[cold]
fn open_peg(heights: &[u8; 64], pegs: &[u8; 64], n: u8, rng: &mut Rng) -> usize {
    let area = u64::from(n).pow(2);
    let pegs = &pegs[..area as usize];
    let open = |&&peg: &&u8| heights[usize::from(peg) & 63] < n;
    for _ in 0..3 {
        let r = rng.next_u64() as u32;
        let peg = &pegs[((u64::from(r) * area) >> 32) as usize];
        if open(&peg) {
            return usize::from(*peg);
        }
    }
    let count = pegs.iter().filter(open).count() as u32;
    let k = rng.below(count) as usize;
    pegs.iter()
        .filter(open)
        .nth(k)
        .map_or(0, |&peg| usize::from(peg))
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
