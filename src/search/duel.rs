//! Matches between two agents: a number of games from one start position, colours
//! alternating, played on every core (rayon), each game from its own seeds so the result does
//! not depend on the thread count (for iteration budgets; time budgets depend on the machine).
//!
//! ```
//! use bitgames::search::duel::{self, Duel};
//! use bitgames::sequence::Game;
//!
//! let start = Game::new(4, 4)?;
//! let result = duel::play(&start, &"greedy".parse()?, &"random".parse()?, 20, 7);
//! assert_eq!(result.games, 20);
//! assert!(result.a_wins > result.b_wins);
//! assert!(result.a_rate().low > 0.5);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use rayon::prelude::*;

use super::{Agent, AgentSpec, Outcome, Position};
use crate::rng::{GOLDEN, mix64};

/// What a match gave.
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct Duel {
    /// Games played.
    pub games: u64,
    /// Games won by agent A.
    pub a_wins: u64,
    /// Games won by agent B.
    pub b_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games won by the first player, whichever agent it was.
    pub first_player_wins: u64,
    /// Moves played, over all games.
    pub moves: u64,
}

impl Duel {
    /// Agent A's win rate (A's wins over all games; a draw is not a win), with its 95 %
    /// Wilson interval.
    pub fn a_rate(&self) -> Rate {
        Rate::of(self.a_wins, self.games)
    }

    /// The two matches' counts added.
    fn plus(self, other: Duel) -> Duel {
        Duel {
            games: self.games + other.games,
            a_wins: self.a_wins + other.a_wins,
            b_wins: self.b_wins + other.b_wins,
            draws: self.draws + other.draws,
            first_player_wins: self.first_player_wins + other.first_player_wins,
            moves: self.moves + other.moves,
        }
    }

    /// The mean number of moves of a game.
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.moves as f64 / self.games as f64
        }
    }
}

/// The seed of one agent in one game of a match seeded `seed` (splitmix64 of the three).
pub fn game_seed(seed: u64, game: u64, agent: u64) -> u64 {
    let z = seed ^ game.wrapping_mul(GOLDEN) ^ agent << 62;
    mix64(mix64(z.wrapping_add(GOLDEN)).wrapping_add(GOLDEN))
}

/// Plays `games` games from `start` between agents `a` and `b`: A moves first in the even
/// games (0, 2, ...), B in the odd ones. Each agent is made afresh for each game, seeded by
/// [`game_seed`].
///
/// # Panics
/// When `start` is already decided.
pub fn play<G: Position + Sync>(
    start: &G,
    a: &AgentSpec,
    b: &AgentSpec,
    games: u64,
    seed: u64,
) -> Duel {
    assert!(start.outcome().is_none(), "the start position is decided");
    (0..games)
        .into_par_iter()
        .map(|game| {
            let mut agents = [
                Agent::<G>::new(a, game_seed(seed, game, 0)),
                Agent::<G>::new(b, game_seed(seed, game, 1)),
            ];
            // agents[first] moves first.
            let first = (game % 2) as usize;
            let mut position = start.clone();
            let first_player = position.to_move();
            let mut moves = 0u64;
            let outcome = loop {
                if let Some(outcome) = position.outcome() {
                    break outcome;
                }
                let mover = if position.to_move() == first_player {
                    first
                } else {
                    1 - first
                };
                let choice = agents[mover].choose(&position);
                position.play(choice.mv);
                moves += 1;
            };
            let winner = match outcome {
                Outcome::Win(p) => Some(p),
                Outcome::Draw => None,
            };
            let a_player = if first == 0 {
                first_player
            } else {
                first_player.other()
            };
            Duel {
                games: 1,
                a_wins: u64::from(winner == Some(a_player)),
                b_wins: u64::from(winner == Some(a_player.other())),
                draws: u64::from(winner.is_none()),
                first_player_wins: u64::from(winner == Some(first_player)),
                moves,
            }
        })
        .reduce(Duel::default, Duel::plus)
}

/// A proportion with its 95 % Wilson score interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rate {
    /// Successes over trials.
    pub value: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
}

/// 1.96: the two-sided 95 % normal quantile.
pub(crate) const Z: f64 = 1.959_963_984_540_054;

impl Rate {
    /// `k` successes in `n` trials (all zero when `n` is 0).
    pub fn of(k: u64, n: u64) -> Rate {
        if n == 0 {
            return Rate {
                value: 0.0,
                low: 0.0,
                high: 0.0,
            };
        }
        let (k, n) = (k as f64, n as f64);
        let p = k / n;
        let z2 = Z * Z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        Rate {
            value: p,
            low: (centre - half).max(0.0),
            high: (centre + half).min(1.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_of_a_textbook_case() {
        // 2 in 4: 0.150 .. 0.850.
        let r = Rate::of(2, 4);
        assert!(
            (r.low - 0.150).abs() < 5e-4 && (r.high - 0.850).abs() < 5e-4,
            "{r:?}"
        );
        assert_eq!(Rate::of(0, 0).high, 0.0);
    }

    #[test]
    fn seeds_differ_by_game_and_agent() {
        assert_ne!(game_seed(1, 0, 0), game_seed(1, 0, 1));
        assert_ne!(game_seed(1, 0, 0), game_seed(1, 1, 0));
    }
}
